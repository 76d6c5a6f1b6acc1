//! Server-Sent Events: every open page gets each event as `event: NAME` + `data: JSON`.
//!
//! Each page has a [`Mailbox`] that holds at most one event of each name: every event
//! is a whole snapshot (the state, the analysis lines), so a newer one replaces an older
//! one that the page has not read yet. A slow page loses stale analysis lines, never the
//! latest state, and never makes the server hold more than one snapshot per name for it.
//! Events carry a rank (the state's revision); an older snapshot never replaces a newer.

use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use parking_lot::{Condvar, Mutex};

/// How long a stream waits before it writes a keep-alive comment (finds closed pages).
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// One page's undelivered events: at most one per name.
#[derive(Default)]
pub struct Mailbox {
    pending: Mutex<Pending>,
    ready: Condvar,
}

#[derive(Default)]
struct Pending {
    /// Name, rank, data.
    events: Vec<(&'static str, u64, String)>,
    closed: bool,
}

impl Mailbox {
    /// Offers an event: kept unless an event of the same name with a higher rank waits.
    pub fn offer(&self, name: &'static str, rank: u64, data: String) {
        let mut p = self.pending.lock();
        match p.events.iter_mut().find(|(n, _, _)| *n == name) {
            Some(slot) if slot.1 > rank => return,
            Some(slot) => *slot = (name, rank, data),
            None => p.events.push((name, rank, data)),
        }
        self.ready.notify_one();
    }

    /// Waits up to `timeout` for events; takes them all, oldest rank first, as SSE text.
    /// `None` once the mailbox is closed.
    pub fn take(&self, timeout: Duration) -> Option<String> {
        let mut p = self.pending.lock();
        if p.events.is_empty() && !p.closed {
            self.ready.wait_for(&mut p, timeout);
        }
        if p.closed {
            return None;
        }
        let mut events = std::mem::take(&mut p.events);
        events.sort_by_key(|(_, rank, _)| *rank);
        Some(
            events
                .iter()
                .map(|(name, _, data)| format!("event: {name}\ndata: {data}\n\n"))
                .collect(),
        )
    }

    /// Events waiting, for tests: name and rank.
    pub fn waiting(&self) -> Vec<(&'static str, u64)> {
        let p = self.pending.lock();
        p.events.iter().map(|(n, r, _)| (*n, *r)).collect()
    }

    /// The data of the waiting event `name`, if any.
    pub fn peek(&self, name: &str) -> Option<String> {
        let p = self.pending.lock();
        p.events
            .iter()
            .find(|(n, _, _)| *n == name)
            .map(|(_, _, d)| d.clone())
    }

    /// Wakes the stream and makes it end.
    pub fn close(&self) {
        self.pending.lock().closed = true;
        self.ready.notify_all();
    }
}

/// The open event streams, at most `limit` at once.
pub struct Broadcaster {
    clients: Mutex<Vec<Arc<Mailbox>>>,
    limit: usize,
}

/// Event streams open at once by default; one more is refused (503).
pub const MAX_STREAMS: usize = 16;

impl Default for Broadcaster {
    fn default() -> Self {
        Broadcaster::with_limit(MAX_STREAMS)
    }
}

impl Broadcaster {
    /// At most `limit` streams at once.
    pub fn with_limit(limit: usize) -> Broadcaster {
        Broadcaster {
            clients: Mutex::new(Vec::new()),
            limit,
        }
    }

    /// Offers an event to every open stream.
    pub fn send(&self, name: &'static str, rank: u64, data: String) {
        for c in self.clients.lock().iter() {
            c.offer(name, rank, data.clone());
        }
    }

    /// A new stream: from now on it gets every event. `None` when `limit` streams are
    /// open already.
    pub fn subscribe(&self) -> Option<Arc<Mailbox>> {
        let mut clients = self.clients.lock();
        if clients.len() >= self.limit {
            return None;
        }
        let mailbox = Arc::new(Mailbox::default());
        clients.push(Arc::clone(&mailbox));
        Some(mailbox)
    }

    /// Forgets a stream; how many remain open.
    pub fn unsubscribe(&self, mailbox: &Arc<Mailbox>) -> usize {
        let mut clients = self.clients.lock();
        clients.retain(|c| !Arc::ptr_eq(c, mailbox));
        mailbox.close();
        clients.len()
    }

    /// Streams open.
    pub fn open(&self) -> usize {
        self.clients.lock().len()
    }
}

/// Writes the SSE answer on `out` until the page goes away (a write fails or times out);
/// a comment line every 15 s finds closed connections.
pub fn stream(out: &mut dyn Write, mailbox: &Mailbox) {
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\
                Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\
                Connection: close\r\n\r\n";
    if out
        .write_all(head.as_bytes())
        .and_then(|()| out.flush())
        .is_err()
    {
        return;
    }
    while let Some(text) = mailbox.take(KEEP_ALIVE) {
        let text = if text.is_empty() {
            ": keep-alive\n\n".to_string()
        } else {
            text
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mailbox_keeps_the_newest_of_each_event() {
        let m = Mailbox::default();
        for rank in 1..=1000 {
            m.offer("analysis", rank, format!("line {rank}"));
        }
        m.offer("state", 7, "s7".into());
        m.offer("state", 5, "s5".into());
        assert_eq!(m.waiting(), [("analysis", 1000), ("state", 7)]);
        assert_eq!(
            m.peek("state").as_deref(),
            Some("s7"),
            "an older state never wins"
        );
        let text = m.take(Duration::ZERO).unwrap_or_default();
        assert_eq!(
            text,
            "event: state\ndata: s7\n\nevent: analysis\ndata: line 1000\n\n"
        );
        assert_eq!(m.take(Duration::ZERO).as_deref(), Some(""));
        m.close();
        assert_eq!(m.take(Duration::ZERO), None);
    }

    #[test]
    fn streams_are_bounded() {
        let b = Broadcaster::with_limit(2);
        let one = b.subscribe().unwrap();
        let two = b.subscribe().unwrap();
        assert!(b.subscribe().is_none());
        b.send("state", 1, "x".into());
        assert_eq!(two.waiting(), [("state", 1)]);
        assert_eq!(b.unsubscribe(&one), 1);
        assert!(b.subscribe().is_some());
    }

    #[test]
    fn the_stream_writes_events_until_closed() {
        let m = Arc::new(Mailbox::default());
        m.offer("state", 1, "{}".into());
        let writer = {
            let m = Arc::clone(&m);
            std::thread::spawn(move || {
                let mut out = Vec::new();
                stream(&mut out, &m);
                out
            })
        };
        m.close();
        let out = String::from_utf8(writer.join().unwrap()).unwrap();
        assert!(out.starts_with("HTTP/1.1 200 OK\r\n"), "{out}");
    }
}
