//! Server-Sent Events: every open page gets each event as `event: NAME` + `data: JSON`.

use std::io::Write;
use std::time::Duration;

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use parking_lot::Mutex;

/// The open event streams.
#[derive(Default)]
pub struct Broadcaster {
    clients: Mutex<Vec<(u64, Sender<String>)>>,
    next_id: Mutex<u64>,
}

/// One SSE message.
fn message(event: &str, data: &str) -> String {
    format!("event: {event}\ndata: {data}\n\n")
}

impl Broadcaster {
    /// Sends an event to every open stream, forgetting closed ones.
    pub fn send(&self, event: &str, data: &str) {
        let text = message(event, data);
        self.clients
            .lock()
            .retain(|(_, c)| c.send(text.clone()).is_ok());
    }

    /// A new stream, primed with `first` (already formatted events): its id and its
    /// events.
    pub fn subscribe(&self, first: &[(&str, String)]) -> (u64, Receiver<String>) {
        let (tx, rx) = crossbeam_channel::unbounded();
        for (event, data) in first {
            let _ = tx.send(message(event, data));
        }
        let id = {
            let mut next = self.next_id.lock();
            *next += 1;
            *next
        };
        self.clients.lock().push((id, tx));
        (id, rx)
    }

    /// Forgets stream `id`; returns how many streams remain open.
    pub fn unsubscribe(&self, id: u64) -> usize {
        let mut clients = self.clients.lock();
        clients.retain(|(i, _)| *i != id);
        clients.len()
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
