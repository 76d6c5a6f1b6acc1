//! The HTTP side: a small HTTP/1.1 server over `std::net` (one request per connection,
//! bounded in size and time), the access checks (Host, Origin, the LAN token), the
//! embedded page, the event stream and the downloads. The JSON API itself is
//! [`super::api::json_api`], a pure function of the request.
//!
//! Every error is a JSON object `{"error": "..."}` with a 4xx or 5xx status; nothing a
//! request sends can stop the server. No path of a request reaches the file system.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, Shutdown, TcpStream};
use std::sync::Arc;
use std::time::Duration;

use crate::clock::Instant;

use serde_json::{Value, json};

use super::api::json_api;
use super::state::{App, State};

/// Largest request body accepted (a PDN upload is the largest), but on the explorer's
/// uploads.
pub const MAX_BODY: usize = 256 * 1024;
/// Largest body of the explorer's uploads (a PDN collection, a book file).
pub const MAX_UPLOAD: usize = 4 * 1024 * 1024;

/// The largest body a request to `path` may carry.
pub fn body_limit(path: &str) -> usize {
    if matches!(path, "/api/explorer/pdn" | "/api/explorer/book") {
        MAX_UPLOAD
    } else {
        MAX_BODY
    }
}
/// Largest request head (request line and headers).
pub const MAX_HEAD: usize = 16 * 1024;
/// Most header lines in a request.
const MAX_HEADERS: usize = 64;
/// How long one read or write may wait.
const IO_TIMEOUT: Duration = Duration::from_secs(10);
/// How long reading a whole request may take.
const REQUEST_TIME: Duration = Duration::from_secs(20);
/// The cookie that carries the LAN token after the first page load.
const TOKEN_COOKIE: &str = "damiera_token";

const INDEX_HTML: &str = include_str!("page/index.html");
const APP_JS: &str = include_str!("page/app.js");
const STYLE_CSS: &str = include_str!("page/style.css");

/// What a request failed with: HTTP status and message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpError {
    /// Status code.
    pub status: u16,
    /// What was wrong, for the `error` field.
    pub message: String,
}

fn http_error(status: u16, message: impl Into<String>) -> HttpError {
    HttpError {
        status,
        message: message.into(),
    }
}

/// A request line and its headers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Head {
    /// `GET`, `POST`...
    pub method: String,
    /// The path, without the query.
    pub path: String,
    /// The query string after `?` (empty when none).
    pub query: String,
    /// Header names (lower case) and values (trimmed), in order.
    pub headers: Vec<(String, String)>,
}

impl Head {
    /// The first header called `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The value of `key` in the query string, if present.
    pub fn query_value(&self, key: &str) -> Option<&str> {
        query_value(&self.query, key)
    }

    /// The value of cookie `name`, if sent.
    fn cookie(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .filter(|(n, _)| n == "cookie")
            .flat_map(|(_, v)| v.split(';'))
            .filter_map(|c| c.trim().split_once('='))
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v)
    }
}

/// The value of `key` in a query string (`a=1&b=2`), if present.
pub fn query_value<'a>(query: &'a str, key: &str) -> Option<&'a str> {
    query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v)
}

/// Parses a request head (everything before the blank line, lines ending in `\n` or
/// `\r\n`). Only origin-form targets (`/path?query`) are accepted.
pub fn parse_head(text: &str) -> Result<Head, HttpError> {
    let mut lines = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    let request_line = lines.next().unwrap_or("");
    let mut parts = request_line.split(' ');
    let (method, target, version) = match (parts.next(), parts.next(), parts.next(), parts.next()) {
        (Some(m), Some(t), Some(v), None) => (m, t, v),
        _ => return Err(http_error(400, "malformed request line")),
    };
    if method.is_empty() || !method.bytes().all(|b| b.is_ascii_uppercase()) {
        return Err(http_error(400, "malformed method"));
    }
    if !matches!(version, "HTTP/1.0" | "HTTP/1.1") {
        return Err(http_error(505, "only HTTP/1.0 and HTTP/1.1 are served"));
    }
    if !target.starts_with('/') || target.bytes().any(|b| b <= b' ' || b == 0x7f) {
        return Err(http_error(400, "malformed request target"));
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let mut headers = Vec::new();
    for line in lines.filter(|l| !l.is_empty()) {
        if headers.len() == MAX_HEADERS {
            return Err(http_error(431, "too many header lines"));
        }
        let (name, value) = line
            .split_once(':')
            .ok_or_else(|| http_error(400, "malformed header line"))?;
        let token = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b);
        if name.is_empty() || !name.bytes().all(token) {
            return Err(http_error(400, "malformed header name"));
        }
        headers.push((name.to_ascii_lowercase(), value.trim().to_string()));
    }
    Ok(Head {
        method: method.to_string(),
        path: path.to_string(),
        query: query.to_string(),
        headers,
    })
}

/// Reads a request head from `input`: at most [`MAX_HEAD`] bytes, within `deadline`.
pub fn read_head(input: &mut impl BufRead, deadline: Instant) -> Result<Head, HttpError> {
    let mut head = Vec::new();
    let mut limited = Read::take(&mut *input, MAX_HEAD as u64 + 1);
    loop {
        let start = head.len();
        let n = limited
            .read_until(b'\n', &mut head)
            .map_err(|e| http_error(408, format!("cannot read the request: {e}")))?;
        if head.len() > MAX_HEAD {
            return Err(http_error(
                431,
                format!("request head larger than {MAX_HEAD} bytes"),
            ));
        }
        if n == 0 {
            return Err(http_error(400, "the request ended early"));
        }
        if matches!(&head[start..], b"\r\n" | b"\n") && start > 0 {
            break;
        }
        if matches!(&head[start..], b"\r\n" | b"\n") {
            head.clear(); // blank lines before a request are allowed
        }
        if Instant::now() > deadline {
            return Err(http_error(408, "the request took too long"));
        }
    }
    let text =
        std::str::from_utf8(&head).map_err(|_| http_error(400, "request head is not UTF-8"))?;
    parse_head(text)
}

/// How long the body is: `Content-Length` (at most [`body_limit`]), 0 without one.
pub fn body_length(head: &Head) -> Result<usize, HttpError> {
    if head.header("transfer-encoding").is_some() {
        return Err(http_error(
            411,
            "send the body with a Content-Length (no chunked encoding)",
        ));
    }
    let lengths: Vec<&str> = head
        .headers
        .iter()
        .filter(|(n, _)| n == "content-length")
        .map(|(_, v)| v.as_str())
        .collect();
    let Some(first) = lengths.first() else {
        return Ok(0);
    };
    if lengths.iter().any(|l| l != first) {
        return Err(http_error(400, "conflicting Content-Length headers"));
    }
    let n: u64 = first
        .parse()
        .map_err(|_| http_error(400, format!("bad Content-Length {first:?}")))?;
    let limit = body_limit(&head.path);
    if n > limit as u64 {
        return Err(http_error(
            413,
            format!("request body larger than {limit} bytes"),
        ));
    }
    Ok(n as usize)
}

/// The hosts this server answers to, and the token asked of other machines.
pub struct Guard {
    /// `host:port` forms of this server's loopback names and bound address.
    allowed: Vec<String>,
    token: Option<String>,
}

/// Whether a request passed with the token in its query (the page then keeps it in a
/// cookie).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// Allowed.
    Plain,
    /// Allowed by a token in the query: set the token cookie in the answer.
    SetCookie,
}

impl Guard {
    /// Allows `host:port` and the loopback names with the same port; with a `token`,
    /// requests that carry it are allowed from anywhere, under any Host name.
    pub fn new(host: &str, port: u16, token: Option<String>) -> Guard {
        let mut allowed: Vec<String> = vec![host_port(host, port)];
        for h in ["127.0.0.1", "localhost", "::1"] {
            let hp = host_port(h, port);
            if !allowed.contains(&hp) {
                allowed.push(hp);
            }
        }
        Guard { allowed, token }
    }

    /// The access rules. With the right token (query `token=`, the token cookie, or an
    /// `X-Damiera-Token` header) a request is allowed from any address under any Host,
    /// if its Origin, when sent, is that Host's own page. Without it: a wrong token is
    /// refused; a request from another machine is refused when the server has a token;
    /// and the Host must be one of this server's names (no DNS rebinding) and the Origin,
    /// when sent, this server's page (no cross-site requests).
    pub fn check(&self, head: &Head, peer: Option<IpAddr>) -> Result<Pass, HttpError> {
        let host = head
            .header("host")
            .filter(|h| !h.is_empty())
            .ok_or_else(|| http_error(403, "missing Host header"))?;
        let from_query = head.query_value("token");
        let given = from_query
            .or_else(|| head.cookie(TOKEN_COOKIE))
            .or_else(|| head.header("x-damiera-token"));
        let token_ok = match (&self.token, given) {
            (Some(t), Some(g)) => same_secret(t, g),
            (_, Some(_)) => return Err(http_error(401, "wrong token")),
            _ => false,
        };
        if given.is_some() && !token_ok {
            return Err(http_error(
                401,
                "wrong token: use the address `damiera gui` printed",
            ));
        }
        if token_ok {
            self.check_origin(head, &[host.to_string()])?;
            return Ok(if from_query.is_some() {
                Pass::SetCookie
            } else {
                Pass::Plain
            });
        }
        let loopback = peer.is_some_and(|ip| ip.to_canonical().is_loopback());
        if self.token.is_some() && !loopback {
            return Err(http_error(
                401,
                "this board needs its token: open the address `damiera gui` printed (…/?token=…)",
            ));
        }
        if !self.allowed.iter().any(|a| a.eq_ignore_ascii_case(host)) {
            return Err(http_error(
                403,
                format!("refused: Host {host:?} is not this server"),
            ));
        }
        self.check_origin(head, &self.allowed)?;
        Ok(Pass::Plain)
    }

    fn check_origin(&self, head: &Head, hosts: &[String]) -> Result<(), HttpError> {
        let Some(origin) = head.header("origin") else {
            return Ok(());
        };
        let ours = hosts
            .iter()
            .any(|a| origin.eq_ignore_ascii_case(&format!("http://{a}")));
        if ours {
            Ok(())
        } else {
            Err(http_error(
                403,
                format!("refused: Origin {origin:?} is not this server"),
            ))
        }
    }
}

/// Compares two secrets in time that does not depend on where they differ.
fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// `host:port`, with IPv6 addresses in brackets.
pub fn host_port(host: &str, port: u16) -> String {
    if host.contains(':') && !host.starts_with('[') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    }
}

/// An answer: status, extra headers, body.
pub struct Answer {
    status: u16,
    headers: Vec<(&'static str, String)>,
    body: Vec<u8>,
}

impl Answer {
    /// A JSON answer.
    pub fn json(status: u16, body: &Value) -> Answer {
        Answer {
            status,
            headers: vec![("Content-Type", "application/json".into())],
            body: body.to_string().into_bytes(),
        }
    }

    /// `{"error": message}` with the error's status.
    pub fn error(e: &HttpError) -> Answer {
        Answer::json(e.status, &json!({ "error": e.message }))
    }

    /// One of the page's files, with the headers that keep it to itself.
    fn file(body: &str, kind: &str) -> Answer {
        let csp =
            "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'none'";
        Answer {
            status: 200,
            headers: vec![
                ("Content-Type", kind.to_string()),
                ("X-Frame-Options", "DENY".into()),
                ("Content-Security-Policy", csp.into()),
            ],
            body: body.as_bytes().to_vec(),
        }
    }

    /// A file to save: PDN text.
    fn download(text: String, name: &str) -> Answer {
        Answer {
            status: 200,
            headers: vec![
                ("Content-Type", "application/x-pdn; charset=utf-8".into()),
                (
                    "Content-Disposition",
                    format!("attachment; filename=\"{name}\""),
                ),
            ],
            body: text.into_bytes(),
        }
    }

    fn with(mut self, name: &'static str, value: String) -> Answer {
        self.headers.push((name, value));
        self
    }

    /// Writes the answer (the connection closes after it).
    pub fn write(&self, out: &mut impl Write) -> std::io::Result<()> {
        let mut head = format!("HTTP/1.1 {} {}\r\n", self.status, reason(self.status));
        for (name, value) in &self.headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str(&format!(
            "Content-Length: {}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\
             Connection: close\r\n\r\n",
            self.body.len()
        ));
        out.write_all(head.as_bytes())?;
        out.write_all(&self.body)?;
        out.flush()
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "",
    }
}

/// Serves one connection: one request, then the connection closes (an event stream
/// goes on in a thread of its own, within the stream limit).
pub fn serve_connection(app: &Arc<App>, guard: &Guard, stream: TcpStream) {
    let _ = stream.set_read_timeout(Some(IO_TIMEOUT));
    let _ = stream.set_write_timeout(Some(IO_TIMEOUT));
    let peer = stream.peer_addr().ok().map(|a| a.ip());
    let mut reader = BufReader::new(&stream);
    let answer = match read_request(&mut reader, &stream, guard, peer) {
        Ok((head, body, pass)) => match route(app, &head, &body) {
            Route::Answer(a) if pass == Pass::SetCookie => {
                a.with("Set-Cookie", token_cookie(&head))
            }
            Route::Answer(a) => a,
            Route::Events => {
                open_events(app, stream);
                return;
            }
        },
        Err(e) => {
            eprintln!("gui: request refused: {}", e.message);
            Answer::error(&e)
        }
    };
    let mut out = &stream;
    let _ = answer.write(&mut out);
    finish(&stream);
}

/// The head, the body and how the request passed the checks.
fn read_request(
    reader: &mut impl BufRead,
    stream: &TcpStream,
    guard: &Guard,
    peer: Option<IpAddr>,
) -> Result<(Head, Vec<u8>, Pass), HttpError> {
    let deadline = Instant::now() + REQUEST_TIME;
    let head = read_head(reader, deadline)?;
    let pass = guard.check(&head, peer)?;
    let length = body_length(&head)?;
    if length > 0
        && head
            .header("expect")
            .is_some_and(|e| e.eq_ignore_ascii_case("100-continue"))
    {
        let mut out = stream;
        let _ = out.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
    }
    let mut body = vec![0; length];
    reader
        .read_exact(&mut body)
        .map_err(|e| http_error(400, format!("cannot read the request body: {e}")))?;
    Ok((head, body, pass))
}

fn token_cookie(head: &Head) -> String {
    let token = head.query_value("token").unwrap_or("");
    format!("{TOKEN_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict")
}

/// Closes the sending side and reads what the client still sends for a moment, so that
/// the answer is not lost to a reset when the client sent more than was read.
fn finish(stream: &TcpStream) {
    let _ = stream.shutdown(Shutdown::Write);
    let _ = stream.set_read_timeout(Some(Duration::from_millis(200)));
    let mut sink = [0u8; 4096];
    let mut reader = stream;
    for _ in 0..64 {
        match reader.read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
    }
}

/// Answers a connection that found every worker busy: 503, at once.
pub fn refuse_busy(stream: TcpStream) {
    let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
    let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
    let mut reader = BufReader::new(&stream);
    let _ = read_head(&mut reader, Instant::now() + Duration::from_secs(1));
    let e = http_error(503, "the board is busy: try again in a moment");
    let mut out = &stream;
    let _ = Answer::error(&e)
        .with("Retry-After", "1".into())
        .write(&mut out);
    finish(&stream);
}

/// What to do with a request that passed the checks.
enum Route {
    Answer(Answer),
    Events,
}

fn route(app: &App, head: &Head, body: &[u8]) -> Route {
    let get = head.method == "GET";
    let answer = match head.path.as_str() {
        "/" if get => Answer::file(INDEX_HTML, "text/html; charset=utf-8"),
        "/app.js" if get => Answer::file(APP_JS, "text/javascript; charset=utf-8"),
        "/style.css" if get => Answer::file(STYLE_CSS, "text/css; charset=utf-8"),
        "/api/events" if get => return Route::Events,
        "/api/pdn" if get => pdn_download(&app.state.lock()),
        "/api/review/pdn" if get => review_download(&app.state.lock()),
        "/" | "/app.js" | "/style.css" => Answer::error(&http_error(
            405,
            format!("method {} not allowed on {}", head.method, head.path),
        )),
        p if p.starts_with("/api/") => {
            let (status, value) = json_api(app, &head.method, p, &head.query, body);
            Answer::json(status, &value)
        }
        p => Answer::error(&http_error(404, format!("no such page: {p}"))),
    };
    Route::Answer(answer)
}

/// Opens an event stream: subscribed first, then primed with the state, so that no
/// change can fall between the snapshot and the subscription. Runs in a thread of its
/// own; the stream limit answers 503 beyond it.
fn open_events(app: &Arc<App>, stream: TcpStream) {
    let Some(mailbox) = subscribe_primed(app, || {}) else {
        let e = http_error(503, "too many open pages: close one and reload");
        let mut out = &stream;
        let _ = Answer::error(&e).write(&mut out);
        finish(&stream);
        return;
    };
    let app = Arc::clone(app);
    std::thread::spawn(move || {
        let _ = stream.set_write_timeout(Some(Duration::from_secs(30)));
        let mut out = &stream;
        super::events::stream(&mut out, &mailbox);
        let _ = stream.shutdown(Shutdown::Both);
        if app.events.unsubscribe(&mailbox) == 0 {
            // The last page went away: do not leave the engine analysing forever.
            let _ = app.change(|st| {
                if !st.settings.analysing && st.review.as_ref().is_none_or(|r| !r.running) {
                    return Err(String::new());
                }
                st.settings.analysing = false;
                if let Some(r) = &mut st.review {
                    r.running = false;
                }
                Ok(())
            });
        }
    });
}

/// Subscribes a new event stream, then primes it with the state and the analysis
/// (`between` runs in between: the tests put a change there). Every change after the
/// subscription reaches the stream; the snapshot covers every change before it.
pub fn subscribe_primed(app: &App, between: impl FnOnce()) -> Option<Arc<super::events::Mailbox>> {
    let mailbox = app.events.subscribe()?;
    between();
    let st = app.state.lock();
    mailbox.offer("state", st.revision, st.to_json().to_string());
    mailbox.offer("analysis", st.revision, st.analysis_json().to_string());
    Some(mailbox)
}

/// The player names for PDN tags.
fn players(st: &State) -> (String, String) {
    use super::state::Mode;
    use crate::board::Color;
    let engine = st.engine_name.clone();
    match (st.settings.mode, st.settings.engine_side) {
        (Mode::Play, Some(Color::White)) => (engine, "Player".into()),
        (Mode::Play, Some(Color::Black)) => ("Player".into(), engine),
        _ => ("?".into(), "?".into()),
    }
}

/// The game as the PDN file `GET /api/pdn` downloads (the browser build saves the same).
pub fn pdn_text(st: &State) -> String {
    let (white, black) = players(st);
    st.game
        .to_pdn(&white, &black, st.ending_off_the_board().as_ref())
}

/// The reviewed line as the annotated PDN `GET /api/review/pdn` downloads; the error
/// when there is none.
pub fn review_pdn_text(st: &State) -> Result<String, String> {
    let Some(review) = &st.review else {
        return Err("no review: press Review game first".into());
    };
    let mut shown = st.game.clone();
    shown.select_moves(review.moves(), review.moves().len())?;
    let (white, black) = players(st);
    let record = shown.line_record(&white, &black);
    Ok(review.annotated_pdn(&record, &review.verdicts()))
}

fn pdn_download(st: &State) -> Answer {
    Answer::download(pdn_text(st), "damiera.pdn")
}

fn review_download(st: &State) -> Answer {
    match review_pdn_text(st) {
        Ok(text) => Answer::download(text, "damiera-review.pdn"),
        Err(e) => Answer::error(&http_error(404, e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(text: &str) -> Result<Head, HttpError> {
        parse_head(text)
    }

    #[test]
    fn heads_parse_and_refuse_what_is_malformed() {
        let h = head("POST /api/move?x=1&token=ab HTTP/1.1\r\nHost: a:1\r\nContent-Length: 3\r\n")
            .unwrap();
        assert_eq!((h.method.as_str(), h.path.as_str()), ("POST", "/api/move"));
        assert_eq!(h.query_value("token"), Some("ab"));
        assert_eq!(h.header("content-length"), Some("3"));
        assert_eq!(body_length(&h), Ok(3));
        for bad in [
            "",
            "GET",
            "GET / HTTP/1.1 extra",
            "get / HTTP/1.1",
            "GET http://x/ HTTP/1.1",
            "GET / HTTP/2",
            "GET / HTTP/1.1\r\nno colon",
            "GET / HTTP/1.1\r\nbad name: 1",
        ] {
            assert!(head(bad).is_err(), "{bad:?}");
        }
        let h = head("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2").unwrap();
        assert_eq!(body_length(&h).map_err(|e| e.status), Err(400));
        let h = head("POST / HTTP/1.1\r\nContent-Length: 999999999").unwrap();
        assert_eq!(body_length(&h).map_err(|e| e.status), Err(413));
        let h = head("POST / HTTP/1.1\r\nTransfer-Encoding: chunked").unwrap();
        assert_eq!(body_length(&h).map_err(|e| e.status), Err(411));
    }

    #[test]
    fn heads_are_read_within_their_size() {
        let far = Instant::now() + Duration::from_secs(60);
        let text = "\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\nBODY";
        let mut input = std::io::Cursor::new(text.as_bytes());
        let h = read_head(&mut input, far).unwrap();
        assert_eq!(h.header("host"), Some("x"));
        let mut rest = String::new();
        input.read_to_string(&mut rest).unwrap();
        assert_eq!(rest, "BODY");
        let huge = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(MAX_HEAD));
        let e = read_head(&mut std::io::Cursor::new(huge.as_bytes()), far).unwrap_err();
        assert_eq!(e.status, 431);
        let e = read_head(
            &mut std::io::Cursor::new(b"GET / HTTP/1.1\r\n".as_slice()),
            far,
        )
        .unwrap_err();
        assert_eq!(e.status, 400, "ended early");
    }

    fn guard_head(host: &str, extra: &[(&str, &str)], query: &str) -> Head {
        let mut h = Head {
            method: "GET".into(),
            path: "/".into(),
            query: query.into(),
            headers: vec![("host".into(), host.into())],
        };
        for (k, v) in extra {
            h.headers.push((k.to_string(), v.to_string()));
        }
        h
    }

    #[test]
    fn a_change_between_subscribing_and_the_snapshot_reaches_the_page() {
        let app = App::offline();
        app.change(|st| {
            st.settings.engine_side = None;
            Ok(())
        })
        .unwrap();
        let page_loaded = app.state.lock().revision;
        let mailbox = subscribe_primed(&app, || {
            app.change(|st| st.game.play_text("22-18").map(|_| ()))
                .unwrap();
        })
        .unwrap();
        let state: Value = serde_json::from_str(&mailbox.peek("state").unwrap()).unwrap();
        assert_eq!(
            state["plies"], 1,
            "the move made while subscribing is there"
        );
        assert!(state["revision"].as_u64().unwrap() > page_loaded);
        // Later changes replace the snapshot; the page always ends on the latest state.
        app.change(|st| st.game.play_text("11-14").map(|_| ()))
            .unwrap();
        let state: Value = serde_json::from_str(&mailbox.peek("state").unwrap()).unwrap();
        assert_eq!(state["plies"], 2);
        assert_eq!(state["revision"], app.state.lock().revision);
    }

    #[test]
    fn the_token_is_asked_of_other_machines_only() {
        let lan: IpAddr = "192.168.1.20".parse().unwrap();
        let me: IpAddr = "127.0.0.1".parse().unwrap();
        let mapped: IpAddr = "::ffff:127.0.0.1".parse().unwrap();
        let g = Guard::new("0.0.0.0", 80, Some("s3cret".into()));
        let status = |h: &Head, peer| g.check(h, Some(peer)).map_err(|e| e.status);
        assert_eq!(
            status(&guard_head("192.168.1.5:80", &[], ""), lan),
            Err(401)
        );
        assert_eq!(
            status(&guard_head("192.168.1.5:80", &[], "token=nope"), lan),
            Err(401)
        );
        assert_eq!(
            status(&guard_head("192.168.1.5:80", &[], "token=s3cret"), lan),
            Ok(Pass::SetCookie)
        );
        let cookie = [("cookie", "a=b; damiera_token=s3cret")];
        assert_eq!(
            status(&guard_head("192.168.1.5:80", &cookie, ""), lan),
            Ok(Pass::Plain)
        );
        let evil = [
            ("cookie", "damiera_token=s3cret"),
            ("origin", "http://evil.example"),
        ];
        assert_eq!(
            status(&guard_head("192.168.1.5:80", &evil, ""), lan),
            Err(403)
        );
        // Loopback keeps working without the token, under this server's names only.
        assert_eq!(
            status(&guard_head("127.0.0.1:80", &[], ""), me),
            Ok(Pass::Plain)
        );
        assert_eq!(
            status(&guard_head("localhost:80", &[], ""), mapped),
            Ok(Pass::Plain)
        );
        assert_eq!(
            status(&guard_head("evil.example:80", &[], ""), me),
            Err(403)
        );
        // Without a token (a loopback server) the Host and Origin checks stand alone.
        let g = Guard::new("127.0.0.1", 80, None);
        assert_eq!(
            g.check(&guard_head("127.0.0.1:80", &[], ""), Some(me)),
            Ok(Pass::Plain)
        );
        let other = guard_head("127.0.0.1:80", &[("origin", "null")], "");
        assert_eq!(g.check(&other, Some(me)).map_err(|e| e.status), Err(403));
        let token = guard_head("127.0.0.1:80", &[], "token=x");
        assert_eq!(g.check(&token, Some(me)).map_err(|e| e.status), Err(401));
        assert!(same_secret("abc", "abc") && !same_secret("abc", "abd") && !same_secret("a", "ab"));
    }
}
