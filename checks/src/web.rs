//! The web board's JSON API ([`damiera::gui::api::json_api`]) fed a sequence of requests,
//! body to handler with no network, on an [`App::offline`] (no engine behind it).
//!
//! The input is split into requests at each byte `0xFE` (at most [`MAX_REQUESTS`]). A
//! request's first byte (modulo R + 8, R the number of [`ROUTES`]) picks the method and
//! path: below R one of the API's routes by POST, R and R+1 `GET /api/state`, R+2 and
//! R+3 `POST /api/pdn-file` with the second byte as `?game=` (0: none, else the byte
//! minus 8), R+4 and R+5 a route by GET, R+6 and R+7 a path the API does not have (made
//! of the next four bytes, without the spaces and control characters the HTTP layer
//! refuses in a request target); the rest is the body.
//!
//! Properties (the API's contract): every answer is a JSON object with a status of 200
//! or 4xx; `GET /api/state` answers the state itself, every other 200 is
//! `{"ok": true, "state": ...}` with the state as it now is; a 4xx is
//! exactly `{"error": "<one line>"}` and leaves the state as it was; the state shown
//! always holds a position whose FEN and Hub texts read back, in the state's variant, to
//! the same position.

use serde_json::Value;

use super::{Checked, ensure};
use damiera::board::{Position, Variant};
use damiera::gui::api::{ROUTES, json_api};
use damiera::gui::state::App;

/// Requests read from one input, at most.
pub const MAX_REQUESTS: usize = 24;

/// Runs the requests of `data` in turn against one offline board (see the module
/// documentation).
pub fn check(data: &[u8]) -> Checked {
    let app = App::offline();
    // Offline, nothing changes the state between requests: each request's state before
    // is the previous one's after.
    let mut after = shown_state(&app);
    for request in data.split(|&b| b == 0xFE).take(MAX_REQUESTS) {
        let Some((&pick, body)) = request.split_first() else {
            continue;
        };
        let (method, path, query, body) = route(pick, body);
        let before = std::mem::replace(&mut after, Value::Null);
        let (status, answer) = json_api(&app, method, &path, &query, body);
        after = shown_state(&app);
        let what = || {
            format!(
                "{method} {path}?{query} {:?}",
                String::from_utf8_lossy(body)
            )
        };
        let Value::Object(fields) = &answer else {
            return Err(format!("{}: the answer is not an object: {answer}", what()));
        };
        match status {
            200 if method == "GET" && path == "/api/state" => {
                ensure(same_but_clock(&answer, &after), || {
                    format!("{}: the answer is not the state", what())
                })?;
            }
            200 => {
                ensure(fields.get("ok") == Some(&Value::Bool(true)), || {
                    format!("{}: 200 without ok: true", what())
                })?;
                let shown = fields.get("state");
                ensure(shown.is_some_and(|s| same_but_clock(s, &after)), || {
                    format!("{}: the answer's state is not the state", what())
                })?;
            }
            400..=499 => {
                let message = fields.get("error").and_then(Value::as_str);
                ensure(fields.len() == 1 && message.is_some(), || {
                    format!("{}: {status} is not {{\"error\": text}}: {answer}", what())
                })?;
                let message = message.unwrap_or_default();
                ensure(!message.is_empty() && !message.contains('\n'), || {
                    format!("{}: the error is not one line: {message:?}", what())
                })?;
                ensure(before == after, || {
                    format!("{}: {status} ({message}) changed the state", what())
                })?;
            }
            _ => return Err(format!("{}: status {status}", what())),
        }
        position_reads_back(&after).map_err(|e| format!("{}: {e}", what()))?;
    }
    Ok(())
}

/// Method, path, query and body of a request whose first byte is `pick`.
fn route(pick: u8, rest: &[u8]) -> (&'static str, String, String, &[u8]) {
    let pick = usize::from(pick) % (ROUTES.len() + 8);
    let post = |path: &str| ("POST", path.to_string(), String::new(), rest);
    match ROUTES.get(pick) {
        Some(path) => post(path),
        None => match pick - ROUTES.len() {
            0 | 1 => ("GET", "/api/state".to_string(), String::new(), rest),
            2 | 3 => {
                // The next byte is the game number (0: none; from -7 so that bad ones come).
                let (game, body) = rest.split_first().map_or((0, rest), |(&g, b)| (g, b));
                let query = match game {
                    0 => String::new(),
                    g => format!("game={}", i32::from(g) - 8),
                };
                ("POST", "/api/pdn-file".to_string(), query, body)
            }
            4 | 5 => {
                let path = rest.first().map_or(0, |&b| usize::from(b) % ROUTES.len());
                let path = ROUTES.get(path).copied().unwrap_or("/api/move");
                ("GET", path.to_string(), String::new(), rest)
            }
            // A path the HTTP layer can deliver: no spaces or control characters.
            _ => post(&format!(
                "/api/{}",
                String::from_utf8_lossy(rest.get(..4).unwrap_or(rest))
                    .replace(|c: char| c <= ' ' || c == '\u{7f}', "_")
            )),
        },
    }
}

/// The state the page is shown, without the clock's readings (they move with time).
fn shown_state(app: &App) -> Value {
    let state = app.state.lock().to_json();
    without_clock(state)
}

/// Whether `state`, without its clock, is `shown` (a state without one).
fn same_but_clock(state: &Value, shown: &Value) -> bool {
    match (state.as_object(), shown.as_object()) {
        (Some(state), Some(shown)) => {
            let clock = usize::from(state.contains_key("clock"));
            state.len() == shown.len() + clock
                && state
                    .iter()
                    .all(|(key, value)| key == "clock" || shown.get(key) == Some(value))
        }
        _ => state == shown,
    }
}

fn without_clock(mut state: Value) -> Value {
    if let Some(fields) = state.as_object_mut() {
        fields.remove("clock");
    }
    state
}

/// The state's FEN and Hub texts read as one position, which writes back to both.
fn position_reads_back(state: &Value) -> Checked {
    let text = |key: &str| {
        state
            .get(key)
            .and_then(Value::as_str)
            .ok_or_else(|| format!("the state has no {key}"))
    };
    let (fen, hub) = (text("fen")?, text("hub")?);
    let variant: Variant = text("variant")?
        .parse()
        .map_err(|e| format!("state: {e}"))?;
    let from_fen =
        Position::from_fen_in(variant, fen).map_err(|e| format!("state fen {fen:?}: {e}"))?;
    let from_hub =
        Position::from_hub_in(variant, hub).map_err(|e| format!("state hub {hub:?}: {e}"))?;
    ensure(from_fen == from_hub, || {
        format!("state fen {fen:?} and hub {hub:?} differ")
    })?;
    ensure(from_fen.to_fen() == fen && from_hub.to_hub() == hub, || {
        format!("state fen {fen:?} / hub {hub:?} do not write back")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The request bytes reach the handlers they name (so the check is not vacuous).
    #[test]
    fn requests_reach_their_handlers() {
        let app = App::offline();
        let r = u8::try_from(ROUTES.len()).unwrap_or(0);
        for (pick, body, status) in [
            (0u8, &br#"{"move":"22-19"}"#[..], 200),
            (0, br#"{"move":"22-19"}"#, 400),
            (r, b"", 200),
            (r + 2, b"\x091. 22-18 11-14 *", 200),
            (r + 2, b"\x011. 22-18 *", 400),
            (r + 4, b"\x00", 405),
            (r + 6, b"xyzw", 404),
            (9, br#"{"movetime":1e300}"#, 400),
            (6, br#"{"variant":"russian"}"#, 200),
            (0, br#"{"move":"c3-d4"}"#, 200),
            (r + 2, b"\x00[GameType \"21\"]\n1. 11-15 *", 200),
        ] {
            let (method, path, query, body) = route(pick, body);
            let (got, answer) = json_api(&app, method, &path, &query, body);
            assert_eq!(got, status, "{method} {path}?{query}: {answer}");
        }
        assert_eq!(
            app.state.lock().variant,
            Variant::English,
            "the PDN's GameType"
        );
        assert!(check(b"\x00{\"move\":\"22-19\"}\xfe\x00{\"move\":\"11-15\"}\xfe\x05").is_ok());
        assert!(check(b"\x06{\"variant\":\"brazilian\"}\xfe\x00{\"move\":\"c3-d4\"}").is_ok());
    }
}
