//! The local web board (`damiera gui`): an HTTP server on loopback that serves an
//! embedded page and drives a Hub engine process as any external GUI would.
//!
//! - [`game`]: the game on the board, the rules' verdict, PDN in and out;
//! - [`state`]: the shared state and how changes are published;
//! - [`engine`]: the thread that keeps the engine process in step with the state;
//! - [`events`]: Server-Sent Events to the open pages;
//! - [`http`]: routes and request checks (Host, Origin, body size, JSON).

pub mod engine;
pub mod events;
pub mod game;
pub mod http;
pub mod state;

use std::sync::Arc;

use parking_lot::Mutex;

use crate::hub::client::EngineSpec;
use events::Broadcaster;
use http::Guard;
use state::{App, State};

/// Where to listen and which engine to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address to bind (`127.0.0.1` by default).
    pub host: String,
    /// Port; 0 picks a free one.
    pub port: u16,
    /// The engine process.
    pub engine: EngineSpec,
}

/// A bound server, not yet serving.
pub struct Server {
    http: tiny_http::Server,
    app: Arc<App>,
    guard: Arc<Guard>,
    url: String,
}

impl Server {
    /// Binds the address and starts the engine thread.
    pub fn bind(config: Config) -> Result<Server, String> {
        let http = tiny_http::Server::http((config.host.as_str(), config.port))
            .map_err(|e| format!("cannot listen on {}:{}: {e}", config.host, config.port))?;
        let port = http
            .server_addr()
            .to_ip()
            .map(|a| a.port())
            .ok_or("the server has no IP address")?;
        let host = http::host_port(&config.host, port);
        let (engine_tx, inbox) = crossbeam_channel::unbounded();
        let app = Arc::new(App {
            state: Mutex::new(State::new()),
            events: Broadcaster::default(),
            engine_tx,
        });
        let worker = engine::Worker::new(Arc::clone(&app), config.engine, inbox);
        std::thread::spawn(move || worker.run());
        Ok(Server {
            http,
            app,
            guard: Arc::new(Guard::new(&config.host, port)),
            url: format!("http://{host}/"),
        })
    }

    /// The page's address.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Serves requests until the process ends, each on its own thread.
    pub fn serve(self) {
        for req in self.http.incoming_requests() {
            let app = Arc::clone(&self.app);
            let guard = Arc::clone(&self.guard);
            std::thread::spawn(move || http::handle(&app, &guard, req));
        }
    }
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
