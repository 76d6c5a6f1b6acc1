//! Server-Sent Events: every open page gets each event as `event: NAME` + `data: JSON`.

use std::io::Write;
use std::time::Duration;

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use parking_lot::Mutex;

/// The open event streams.
#[derive(Default)]
pub struct Broadcaster {
    clients: Mutex<Vec<Sender<String>>>,
}

/// One SSE message.
fn message(event: &str, data: &str) -> String {
    format!("event: {event}\ndata: {data}\n\n")
}

impl Broadcaster {
    /// Sends an event to every open stream, forgetting closed ones.
    pub fn send(&self, event: &str, data: &str) {
        let text = message(event, data);
        self.clients.lock().retain(|c| c.send(text.clone()).is_ok());
    }

    /// A new stream, primed with `first` (already formatted events).
    pub fn subscribe(&self, first: &[(&str, String)]) -> Receiver<String> {
        let (tx, rx) = crossbeam_channel::unbounded();
        for (event, data) in first {
            let _ = tx.send(message(event, data));
        }
        self.clients.lock().push(tx);
        rx
    }
}

/// Writes the SSE response on a raw connection until the page goes away; a comment
/// line every 15 s finds closed connections.
pub fn stream(mut out: Box<dyn Write + Send>, events: Receiver<String>) {
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\
                Cache-Control: no-store\r\nConnection: close\r\n\r\n";
    if out
        .write_all(head.as_bytes())
        .and_then(|()| out.flush())
        .is_err()
    {
        return;
    }
    loop {
        let text = match events.recv_timeout(Duration::from_secs(15)) {
            Ok(text) => text,
            Err(RecvTimeoutError::Timeout) => ": keep-alive\n\n".to_string(),
            Err(RecvTimeoutError::Disconnected) => return,
        };
        if out
            .write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .is_err()
        {
            return;
        }
    }
}
