//! The web board (`damiera gui`): an HTTP server that serves an embedded page and drives
//! a Hub engine process as any external GUI would.
//!
//! - [`tree`] and [`game`]: every line played, the line shown, PDN in and out;
//! - [`review`]: a line's positions searched one by one and scored (the shared
//!   [`crate::review`] room);
//! - [`state`]: the shared state and how changes are published;
//! - [`engine_link`]: the thread that keeps the engine process in step with the state;
//! - [`events`]: Server-Sent Events, one bounded mailbox per page;
//! - [`explorer`]: the opening explorer (book moves, and a PDN collection's games);
//! - [`api`]: the JSON API as a pure function of the request (fuzzed, property-tested);
//! - [`http`]: the HTTP server, the access checks (Host, Origin, LAN token), the page;
//! - [`pool`]: the bounded worker pool the requests run on.

pub mod api;
pub mod engine_link;
pub mod events;
pub mod explorer;
pub mod game;
pub mod http;
pub mod pool;
pub mod review;
pub mod state;
pub mod tree;

use std::net::{IpAddr, TcpListener, TcpStream};
use std::sync::Arc;

use crate::protocol::client::EngineSpec;
use http::Guard;
use pool::Pool;
use state::App;

/// Requests served at once.
pub const WORKERS: usize = 8;
/// Requests waiting for a worker; one more is answered 503 at once.
pub const QUEUE: usize = 32;

/// Where to listen, which engine to run, and how much to serve at once.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address to bind (`127.0.0.1` by default).
    pub host: String,
    /// Port; 0 picks a free one.
    pub port: u16,
    /// The engine process.
    pub engine: EngineSpec,
    /// The token other machines must present; `None` on a loopback address gets none,
    /// elsewhere a random one (see [`Config::needs_token`]).
    pub token: Option<String>,
    /// Requests served at once ([`WORKERS`]).
    pub workers: usize,
    /// Requests waiting for a worker ([`QUEUE`]).
    pub queue: usize,
}

impl Config {
    /// A configuration with the default limits and no token given.
    pub fn new(host: &str, port: u16, engine: EngineSpec) -> Config {
        Config {
            host: host.to_string(),
            port,
            engine,
            token: None,
            workers: WORKERS,
            queue: QUEUE,
        }
    }

    /// True when the address is reachable from other machines (not loopback), so that a
    /// token is required.
    pub fn needs_token(&self) -> bool {
        match self.host.trim_matches(['[', ']']).parse::<IpAddr>() {
            Ok(ip) => !ip.is_loopback(),
            Err(_) => self.host != "localhost",
        }
    }
}

/// A bound server, not yet serving.
pub struct Server {
    listener: TcpListener,
    app: Arc<App>,
    guard: Arc<Guard>,
    url: String,
    workers: usize,
    queue: usize,
}

impl Server {
    /// Binds the address and starts the engine thread. A non-loopback address without a
    /// token given gets a random one.
    pub fn bind(config: Config) -> Result<Server, String> {
        let listener = TcpListener::bind((config.host.as_str(), config.port))
            .map_err(|e| format!("cannot listen on {}:{}: {e}", config.host, config.port))?;
        let port = listener
            .local_addr()
            .map_err(|e| format!("the server has no address: {e}"))?
            .port();
        let token = match (&config.token, config.needs_token()) {
            (Some(t), _) => Some(t.clone()),
            (None, true) => Some(random_token()?),
            (None, false) => None,
        };
        let (engine_tx, inbox) = crossbeam_channel::unbounded();
        let app = Arc::new(App::of(engine_tx, config.engine.variant));
        let worker = engine_link::EngineThread::new(Arc::clone(&app), config.engine, inbox);
        std::thread::spawn(move || worker.run());
        let url = page_url(&config.host, port, token.as_deref());
        Ok(Server {
            listener,
            app,
            guard: Arc::new(Guard::new(&config.host, port, token)),
            url,
            workers: config.workers,
            queue: config.queue,
        })
    }

    /// The page's address (with the token, when there is one).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The shared state, for tests in this process.
    pub fn app(&self) -> Arc<App> {
        Arc::clone(&self.app)
    }

    /// Serves until the process ends: each connection on the worker pool; when every
    /// worker is busy and the queue full, a 503 at once.
    pub fn serve(self) {
        let (app, guard) = (self.app, self.guard);
        let pool = Pool::new(self.workers, self.queue, move |s: TcpStream| {
            http::serve_connection(&app, &guard, s);
        });
        let busy = Pool::new(1, 64, http::refuse_busy);
        for stream in self.listener.incoming() {
            let Ok(stream) = stream else {
                // Out of descriptors or the like: let it pass rather than spin.
                std::thread::sleep(std::time::Duration::from_millis(50));
                continue;
            };
            if let Err(stream) = pool.try_run(stream) {
                // Beyond the 503 queue too: the connection is dropped.
                let _ = busy.try_run(stream);
            }
        }
    }
}

/// 128 random bits from the operating system, in hex.
#[cfg(feature = "native")]
fn random_token() -> Result<String, String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| format!("no randomness for the token: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Without the operating system's randomness (the browser build, which serves no LAN)
/// there is no token to make.
#[cfg(not(feature = "native"))]
fn random_token() -> Result<String, String> {
    Err("this build has no randomness for a LAN token".into())
}

/// The address to print: an unspecified bind address (`0.0.0.0`, `::`) is shown as this
/// machine's address on its network, when one is found.
fn page_url(host: &str, port: u16, token: Option<&str>) -> String {
    let shown = match host.trim_matches(['[', ']']).parse::<IpAddr>() {
        Ok(ip) if ip.is_unspecified() => lan_address().map_or(host.to_string(), |a| a.to_string()),
        _ => host.to_string(),
    };
    let base = format!("http://{}/", http::host_port(&shown, port));
    match token {
        Some(t) => format!("{base}?token={t}"),
        None => base,
    }
}

/// This machine's address on its default route (no packet is sent).
fn lan_address() -> Option<IpAddr> {
    let socket = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
    socket.connect("192.0.2.1:9").ok()?;
    socket
        .local_addr()
        .ok()
        .map(|a| a.ip())
        .filter(|ip| !ip.is_unspecified())
}

/// Opens `url` in the desktop's browser (`xdg-open`, or `open` on macOS; on Windows the
/// shell's handler for http URLs); true when a launcher started. Failing to open is not an
/// error: the URL is printed anyway.
pub fn open_browser(url: &str) -> bool {
    use std::process::{Command, Stdio};
    let launchers: &[&[&str]] = if cfg!(windows) {
        // Not `cmd /c start`: cmd would reinterpret characters of the URL.
        &[&["rundll32", "url.dll,FileProtocolHandler"]]
    } else {
        &[&["xdg-open"], &["open"]]
    };
    launchers.iter().any(|launcher| {
        Command::new(launcher[0])
            .args(&launcher[1..])
            .arg(url)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .is_ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> EngineSpec {
        EngineSpec {
            name: "x".into(),
            command: vec!["x".into()],
            options: vec![],
            if_declared: vec![],
            variant: crate::board::Variant::Italian,
            nodes: None,
        }
    }

    #[test]
    fn loopback_needs_no_token() {
        for (host, needs) in [
            ("127.0.0.1", false),
            ("::1", false),
            ("[::1]", false),
            ("localhost", false),
            ("0.0.0.0", true),
            ("192.168.1.5", true),
            ("myhost.lan", true),
        ] {
            assert_eq!(Config::new(host, 0, spec()).needs_token(), needs, "{host}");
        }
        assert_eq!(
            page_url("10.0.0.2", 80, Some("ab")),
            "http://10.0.0.2:80/?token=ab"
        );
        assert_eq!(page_url("::1", 80, None), "http://[::1]:80/");
        let t = random_token().unwrap();
        assert_eq!(t.len(), 32);
        assert_ne!(t, random_token().unwrap());
    }
}
