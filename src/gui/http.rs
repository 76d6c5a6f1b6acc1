//! The HTTP side: routes, request checks (Host, Origin, body size, JSON) and answers.
//!
//! Every error is a JSON object `{"error": "..."}` with a 4xx status; nothing a request
//! sends can stop the server. The page gets only the embedded files and the API: no
//! path of the request ever reaches the file system.

use std::io::{Cursor, Read};
use std::sync::Arc;

use serde_json::{Value, json};
use tiny_http::{Header, Method, Request, Response};

use super::game::{PdnLoad, ShownGame};
use super::state::{App, EngineCmd, Mode, State};
use crate::board::{Color, Position};

/// Largest request body accepted (a PDN upload is the largest).
pub const MAX_BODY: usize = 256 * 1024;

const INDEX_HTML: &str = include_str!("page/index.html");
const APP_JS: &str = include_str!("page/app.js");
const STYLE_CSS: &str = include_str!("page/style.css");

/// What a request failed with: HTTP status and message.
#[derive(Debug)]
pub struct ApiError(u16, String);

fn bad(message: impl Into<String>) -> ApiError {
    ApiError(400, message.into())
}

/// The hosts this server answers to, as `host:port` (the `Host` header's form).
pub struct Guard {
    allowed: Vec<String>,
}

impl Guard {
    /// Allows `host:port` and the loopback names with the same port.
    pub fn new(host: &str, port: u16) -> Guard {
        let mut allowed: Vec<String> = vec![host_port(host, port)];
        for h in ["127.0.0.1", "localhost", "::1"] {
            let hp = host_port(h, port);
            if !allowed.contains(&hp) {
                allowed.push(hp);
            }
        }
        Guard { allowed }
    }

    /// Refuses a request whose `Host` is not ours (DNS rebinding) or whose `Origin`,
    /// when present, is not our own page (cross-site requests).
    pub fn check(&self, req: &Request) -> Result<(), ApiError> {
        let host =
            header(req, "Host").ok_or_else(|| ApiError(403, "missing Host header".into()))?;
        if !self.allowed.iter().any(|a| a.eq_ignore_ascii_case(&host)) {
            return Err(ApiError(
                403,
                format!("refused: Host {host:?} is not this server"),
            ));
        }
        if let Some(origin) = header(req, "Origin") {
            let ours = self
                .allowed
                .iter()
                .any(|a| origin.eq_ignore_ascii_case(&format!("http://{a}")));
            if !ours {
                return Err(ApiError(
                    403,
                    format!("refused: Origin {origin:?} is not this server"),
                ));
            }
        }
        Ok(())
    }
}

/// `host:port`, with IPv6 addresses in brackets.
pub fn host_port(host: &str, port: u16) -> String {
    if host.contains(':') && !host.starts_with('[') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    }
}

fn header(req: &Request, name: &'static str) -> Option<String> {
    req.headers()
        .iter()
        .find(|h| h.field.equiv(name))
        .map(|h| h.value.as_str().trim().to_string())
}

fn with_header(
    mut resp: Response<Cursor<Vec<u8>>>,
    name: &str,
    value: &str,
) -> Response<Cursor<Vec<u8>>> {
    if let Ok(h) = Header::from_bytes(name.as_bytes(), value.as_bytes()) {
        resp.add_header(h);
    }
    resp
}

fn json_response(status: u16, body: &Value) -> Response<Cursor<Vec<u8>>> {
    let resp = Response::from_data(body.to_string().into_bytes()).with_status_code(status);
    let resp = with_header(resp, "Content-Type", "application/json");
    with_header(resp, "Cache-Control", "no-store")
}

fn error_response(e: &ApiError) -> Response<Cursor<Vec<u8>>> {
    json_response(e.0, &json!({ "error": e.1 }))
}

fn file_response(body: &str, kind: &str) -> Response<Cursor<Vec<u8>>> {
    let resp = Response::from_data(body.as_bytes().to_vec());
    let resp = with_header(resp, "Content-Type", kind);
    let resp = with_header(resp, "Cache-Control", "no-store");
    let resp = with_header(resp, "X-Content-Type-Options", "nosniff");
    let resp = with_header(resp, "X-Frame-Options", "DENY");
    let csp =
        "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'none'";
    with_header(resp, "Content-Security-Policy", csp)
}

/// Serves one request to the end (an event stream stays open while the page is).
pub fn handle(app: &Arc<App>, guard: &Guard, mut req: Request) {
    if let Err(e) = guard.check(&req) {
        eprintln!("gui: {} {} refused: {}", req.method(), req.url(), e.1);
        let _ = req.respond(error_response(&e));
        return;
    }
    let path = req.url().split('?').next().unwrap_or("").to_string();
    let resp = match (req.method(), path.as_str()) {
        (Method::Get, "/") => file_response(INDEX_HTML, "text/html; charset=utf-8"),
        (Method::Get, "/app.js") => file_response(APP_JS, "text/javascript; charset=utf-8"),
        (Method::Get, "/style.css") => file_response(STYLE_CSS, "text/css; charset=utf-8"),
        (Method::Get, "/api/state") => json_response(200, &app.state.lock().to_json()),
        (Method::Get, "/api/events") => {
            let first = {
                let st = app.state.lock();
                [
                    ("state", st.to_json().to_string()),
                    ("analysis", st.analysis_json().to_string()),
                ]
            };
            let (id, events) = app.events.subscribe(&first);
            super::events::stream(req.into_writer(), events);
            if app.events.unsubscribe(id) == 0 {
                // The last page went away: do not leave the engine analysing forever.
                let _ = app.change(|st| {
                    if !st.settings.analysing {
                        return Err(String::new());
                    }
                    st.settings.analysing = false;
                    Ok(())
                });
            }
            return;
        }
        (Method::Get, "/api/pdn") => pdn_download(&app.state.lock()),
        (Method::Post, "/api/pdn-file") => {
            let query = req.url().split_once('?').map(|(_, q)| q.to_string());
            let loaded = game_number_query(query.as_deref())
                .and_then(|choice| Ok((choice, read_body(&mut req)?)))
                .and_then(|(choice, bytes)| load_pdn(app, &bytes, choice));
            ok_response(app, loaded)
        }
        (Method::Post, p) if p.starts_with("/api/") => {
            let answer = read_json(&mut req).and_then(|body| post(app, p, &body));
            ok_response(app, answer)
        }
        (_, p) if p == "/" || p.starts_with("/api/") => error_response(&ApiError(
            405,
            format!("method {} not allowed on {p}", req.method()),
        )),
        (_, p) => error_response(&ApiError(404, format!("no such page: {p}"))),
    };
    let _ = req.respond(resp);
}

/// `{"ok": true, "state": ...}` plus the route's own fields, or the error.
fn ok_response(app: &App, answer: Result<Option<Value>, ApiError>) -> Response<Cursor<Vec<u8>>> {
    match answer {
        Ok(extra) => {
            let mut body = json!({"ok": true, "state": app.state.lock().to_json()});
            if let (Some(Value::Object(fields)), Some(map)) = (extra, body.as_object_mut()) {
                map.extend(fields);
            }
            json_response(200, &body)
        }
        Err(e) => error_response(&e),
    }
}

/// The body's bytes, at most [`MAX_BODY`].
fn read_body(req: &mut Request) -> Result<Vec<u8>, ApiError> {
    let too_big = || ApiError(413, format!("request body larger than {MAX_BODY} bytes"));
    if req.body_length().is_some_and(|n| n > MAX_BODY) {
        return Err(too_big());
    }
    let mut body = Vec::new();
    req.as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut body)
        .map_err(|e| bad(format!("cannot read the request body: {e}")))?;
    if body.len() > MAX_BODY {
        return Err(too_big());
    }
    Ok(body)
}

/// The `game=N` of a query string (1-based), as a 0-based index.
fn game_number_query(query: Option<&str>) -> Result<Option<usize>, ApiError> {
    let value = query
        .into_iter()
        .flat_map(|q| q.split('&'))
        .find_map(|pair| pair.strip_prefix("game="));
    match value {
        None => Ok(None),
        Some(text) => game_choice(Some(&text.parse::<u64>().map_or(Value::Null, Value::from)))
            .and_then(|c| c.ok_or_else(|| bad(format!("bad game number {text:?}"))))
            .map(Some),
    }
}

/// The body as a JSON object, at most [`MAX_BODY`] bytes.
fn read_json(req: &mut Request) -> Result<Value, ApiError> {
    let body = read_body(req)?;
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(json!({}));
    }
    let value: Value =
        serde_json::from_slice(&body).map_err(|e| bad(format!("bad JSON body: {e}")))?;
    if !value.is_object() {
        return Err(bad("the JSON body must be an object"));
    }
    Ok(value)
}

fn str_field<'a>(body: &'a Value, key: &str) -> Result<&'a str, ApiError> {
    body.get(key)
        .ok_or_else(|| bad(format!("missing field {key:?}")))?
        .as_str()
        .ok_or_else(|| bad(format!("field {key:?} must be a string")))
}

fn opt_str<'a>(body: &'a Value, key: &str) -> Result<Option<&'a str>, ApiError> {
    match body.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(_) => str_field(body, key).map(Some),
    }
}

fn run(
    app: &App,
    change: impl FnOnce(&mut State) -> Result<(), String>,
) -> Result<Option<Value>, ApiError> {
    app.change(change).map_err(bad).map(|()| None)
}

/// The POST routes with a JSON body; `Some` fields are added to the answer.
fn post(app: &Arc<App>, path: &str, body: &Value) -> Result<Option<Value>, ApiError> {
    match path {
        "/api/move" => {
            let text = str_field(body, "move")?.to_string();
            run(app, |st| {
                if st.settings.mode == Mode::Play
                    && st.game.at_end()
                    && st.settings.engine_side == Some(st.game.current().side_to_move())
                {
                    return Err("it is the engine's turn".into());
                }
                st.game.play_text(&text).map(|_| ())
            })
        }
        "/api/goto" => {
            let ply = body
                .get("ply")
                .and_then(Value::as_u64)
                .ok_or_else(|| bad("field \"ply\" must be a non-negative integer"))?;
            run(app, |st| {
                st.game.goto(usize::try_from(ply).unwrap_or(usize::MAX))
            })
        }
        "/api/takeback" => run(app, |st| {
            let human = match st.settings.mode {
                Mode::Play => st.settings.engine_side.map(Color::opponent),
                Mode::Analyse => None,
            };
            st.game.take_back(human)
        }),
        "/api/new" => run(app, |st| {
            st.game = ShownGame::new(Position::start());
            Ok(())
        }),
        "/api/position" => {
            let text = str_field(body, "fen")?;
            let pos = Position::parse(text).map_err(|e| bad(format!("bad position: {e}")))?;
            run(app, |st| {
                st.game = ShownGame::new(pos);
                Ok(())
            })
        }
        "/api/pdn" => {
            let choice = game_choice(body.get("game"))?;
            load_pdn(app, str_field(body, "pdn")?.as_bytes(), choice)
        }
        "/api/settings" => settings(app, body),
        "/api/analysis" => {
            let on = body
                .get("run")
                .and_then(Value::as_bool)
                .ok_or_else(|| bad("field \"run\" must be true or false"))?;
            run(app, |st| {
                if on {
                    st.settings.mode = Mode::Analyse;
                }
                st.settings.analysing = on;
                Ok(())
            })
        }
        "/api/engine/restart" => {
            let _ = app.engine_tx.send(EngineCmd::Restart);
            Ok(None)
        }
        _ => Err(ApiError(404, format!("no such API: {path}"))),
    }
}

/// The 1-based `game` number of a PDN request, if given, as a 0-based index.
fn game_choice(value: Option<&Value>) -> Result<Option<usize>, ApiError> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match v.as_u64().and_then(|n| usize::try_from(n).ok()) {
            Some(n) if n >= 1 => Ok(Some(n - 1)),
            _ => Err(bad("field \"game\" must be a game number from 1")),
        },
    }
}

/// Loads a game of a PDN file into the board; a file of several games and no choice
/// leaves the board as it is and answers `{"choose": [one line a game]}`.
fn load_pdn(app: &App, bytes: &[u8], choice: Option<usize>) -> Result<Option<Value>, ApiError> {
    match ShownGame::from_pdn(bytes, choice).map_err(bad)? {
        PdnLoad::Game(game) => run(app, |st| {
            st.game = game;
            Ok(())
        }),
        PdnLoad::Choose(list) => Ok(Some(json!({ "choose": list }))),
    }
}

/// `mode`, `engine_side` and `movetime`, each optional; all are checked first.
fn settings(app: &App, body: &Value) -> Result<Option<Value>, ApiError> {
    let mode = match opt_str(body, "mode")? {
        None => None,
        Some("play") => Some(Mode::Play),
        Some("analyse") => Some(Mode::Analyse),
        Some(m) => return Err(bad(format!("mode must be play or analyse, not {m:?}"))),
    };
    let side = match opt_str(body, "engine_side")? {
        None => None,
        Some("white") => Some(Some(Color::White)),
        Some("black") => Some(Some(Color::Black)),
        Some("none") => Some(None),
        Some(s) => {
            return Err(bad(format!(
                "engine_side must be white, black or none, not {s:?}"
            )));
        }
    };
    let movetime = match body.get("movetime") {
        None | Some(Value::Null) => None,
        Some(v) => match v.as_f64() {
            Some(t) if (0.05..=3600.0).contains(&t) => Some(t),
            _ => {
                return Err(bad(
                    "movetime must be a number of seconds from 0.05 to 3600",
                ));
            }
        },
    };
    run(app, |st| {
        let s = &mut st.settings;
        if let Some(m) = mode {
            s.mode = m;
            if m == Mode::Play {
                s.analysing = false;
            }
        }
        if let Some(side) = side {
            s.engine_side = side;
        }
        if let Some(t) = movetime {
            s.movetime = t;
        }
        Ok(())
    })
}

fn pdn_download(st: &State) -> Response<Cursor<Vec<u8>>> {
    let engine = st.engine_name.as_str();
    let (white, black) = match (st.settings.mode, st.settings.engine_side) {
        (Mode::Play, Some(Color::White)) => (engine, "Player"),
        (Mode::Play, Some(Color::Black)) => ("Player", engine),
        _ => ("?", "?"),
    };
    let text = match st.game.to_pdn(white, black) {
        Ok(text) => text,
        Err(e) => return error_response(&ApiError(500, e)),
    };
    let resp = Response::from_data(text.into_bytes());
    let resp = with_header(resp, "Content-Type", "application/x-pdn; charset=utf-8");
    let resp = with_header(
        resp,
        "Content-Disposition",
        "attachment; filename=\"damiera.pdn\"",
    );
    with_header(resp, "Cache-Control", "no-store")
}
