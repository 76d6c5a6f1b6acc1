//! The board's JSON API as a pure function: [`json_api`] takes a request's method, path,
//! query and body bytes and returns the status and the JSON answer, with no network in
//! between. The HTTP server calls it for every `/api/` route except the event stream and
//! the two PDN downloads; the property test (`tests/gui.rs`) and the fuzz target
//! (`checks/src/web.rs`) call it directly on an [`App::offline`].
//!
//! Contract: it never panics; every answer is a JSON object; `GET /api/state` answers
//! the state itself, every other 2xx answer is `{"ok": true, "state": ...}` plus the
//! route's own fields; every 4xx answer is `{"error": "<one line naming what was
//! wrong>"}` and leaves the state as it was.

use crate::clock::Instant;

use serde_json::{Value, json};

use super::explorer::Collection;
use super::game::{PdnLoad, ShownGame};
use super::http::{body_limit, query_value};
use super::review::{self, Review};
use super::state::{App, EngineCmd, Mode, State};
use crate::board::{Color, HouseRules, Position, UnknownVariant, Variant};
use crate::book::Book;
use crate::clock::TimeControl;
use crate::protocol::response::ParamType;

/// Longest text accepted for a `string` engine parameter.
pub const MAX_PARAM_TEXT: usize = 4096;
/// Deepest variation path accepted (longer than any game).
const MAX_PATH: usize = 10_000;

/// A failed request: status and message.
#[derive(Debug)]
struct ApiError(u16, String);

fn bad(message: impl Into<String>) -> ApiError {
    ApiError(400, message.into())
}

type Answer = Result<Option<Value>, ApiError>;

/// Answers one API request: `method` (`GET`, `POST`...), `path` (`/api/...`), `query`
/// (after `?`, may be empty) and the body's bytes. Returns the HTTP status and the JSON
/// answer (see the module's contract). This is the entry point for fuzzing the API.
pub fn json_api(app: &App, method: &str, path: &str, query: &str, body: &[u8]) -> (u16, Value) {
    let limit = body_limit(path);
    let answer = if body.len() > limit {
        Err(ApiError(
            413,
            format!("request body larger than {limit} bytes"),
        ))
    } else {
        match (method, path) {
            ("GET", "/api/state") => return (200, app.state.lock().to_json()),
            ("POST", "/api/pdn-file") => pdn_file(app, query, body),
            ("POST", "/api/explorer/pdn") => explorer_pdn(app, query, body),
            ("POST", "/api/explorer/book") => explorer_book(app, query, body),
            ("POST", p) if ROUTES.contains(&p) => read_json(body).and_then(|b| post(app, p, &b)),
            (_, p) if ROUTES.contains(&p) || UPLOADS.contains(&p) || p == "/api/state" => {
                Err(ApiError(405, format!("method {method} not allowed on {p}")))
            }
            (_, p) => Err(ApiError(404, format!("no such API: {}", clip(p)))),
        }
    };
    match answer {
        Ok(extra) => {
            let mut body = json!({"ok": true, "state": app.state.lock().to_json()});
            if let (Some(Value::Object(fields)), Some(map)) = (extra, body.as_object_mut()) {
                map.extend(fields);
            }
            (200, body)
        }
        Err(ApiError(status, message)) => (status, json!({ "error": message })),
    }
}

/// At most 80 characters of a path, for messages.
fn clip(text: &str) -> String {
    let mut out: String = text.chars().take(80).collect();
    if text.chars().count() > 80 {
        out.push('…');
    }
    out
}

/// The POST routes with a JSON body (the fuzz check `damiera_checks::web` drives them by index).
pub const ROUTES: &[&str] = &[
    "/api/move",
    "/api/goto",
    "/api/line",
    "/api/variation/promote",
    "/api/variation/delete",
    "/api/takeback",
    "/api/new",
    "/api/position",
    "/api/pdn",
    "/api/settings",
    "/api/clock",
    "/api/analysis",
    "/api/engine/restart",
    "/api/engine/param",
    "/api/review",
    "/api/review/goto",
    "/api/resign",
    "/api/draw",
    "/api/explorer",
];

/// The POST routes whose body is a file's bytes.
pub const UPLOADS: &[&str] = &["/api/pdn-file", "/api/explorer/pdn", "/api/explorer/book"];

/// The body as a JSON object (empty: `{}`).
fn read_json(body: &[u8]) -> Result<Value, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(json!({}));
    }
    let value: Value =
        serde_json::from_slice(body).map_err(|e| bad(format!("bad JSON body: {e}")))?;
    if !value.is_object() {
        return Err(bad("the JSON body must be an object"));
    }
    Ok(value)
}

fn field<'a>(body: &'a Value, key: &str) -> Result<&'a Value, ApiError> {
    body.get(key)
        .ok_or_else(|| bad(format!("missing field {key:?}")))
}

fn str_field<'a>(body: &'a Value, key: &str) -> Result<&'a str, ApiError> {
    field(body, key)?
        .as_str()
        .ok_or_else(|| bad(format!("field {key:?} must be a string")))
}

fn opt_str<'a>(body: &'a Value, key: &str) -> Result<Option<&'a str>, ApiError> {
    match body.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(_) => str_field(body, key).map(Some),
    }
}

fn bool_field(body: &Value, key: &str) -> Result<bool, ApiError> {
    body.get(key)
        .and_then(Value::as_bool)
        .ok_or_else(|| bad(format!("field {key:?} must be true or false")))
}

fn ply_field(body: &Value) -> Result<usize, ApiError> {
    body.get("ply")
        .and_then(Value::as_u64)
        .map(|p| usize::try_from(p).unwrap_or(usize::MAX))
        .ok_or_else(|| bad("field \"ply\" must be a non-negative integer"))
}

/// A variation path: child indices from the start.
fn path_field(body: &Value) -> Result<Vec<usize>, ApiError> {
    let wrong = || bad("field \"path\" must be a list of move indices");
    let items = body
        .get("path")
        .and_then(Value::as_array)
        .ok_or_else(wrong)?;
    if items.len() > MAX_PATH {
        return Err(wrong());
    }
    items
        .iter()
        .map(|v| {
            v.as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(wrong)
        })
        .collect()
}

/// An optional number of seconds in `range`.
fn opt_seconds(body: &Value, key: &str, range: (f64, f64)) -> Result<Option<f64>, ApiError> {
    match body.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match v.as_f64() {
            Some(t) if (range.0..=range.1).contains(&t) => Ok(Some(t)),
            _ => Err(bad(format!(
                "{key} must be a number of seconds from {} to {}",
                range.0, range.1
            ))),
        },
    }
}

fn run(app: &App, change: impl FnOnce(&mut State) -> Result<(), String>) -> Answer {
    app.change(change).map_err(bad).map(|()| None)
}

/// The POST routes with a JSON body; `Some` fields are added to the answer.
fn post(app: &App, path: &str, body: &Value) -> Answer {
    match path {
        "/api/move" => play_move(app, str_field(body, "move")?),
        "/api/goto" => {
            let ply = ply_field(body)?;
            run(app, |st| st.game.goto(ply))
        }
        "/api/line" => {
            let path = path_field(body)?;
            run(app, |st| st.game.select(&path))
        }
        "/api/variation/promote" => {
            let path = path_field(body)?;
            run(app, |st| st.game.promote(&path))
        }
        "/api/variation/delete" => {
            let path = path_field(body)?;
            run(app, |st| st.game.delete(&path))
        }
        "/api/takeback" => run(app, |st| {
            let human = match st.settings.mode {
                Mode::Play => st.settings.engine_side.map(Color::opponent),
                Mode::Analyse => None,
            };
            st.game.take_back(human)?;
            st.clocks.pause(Instant::now());
            Ok(())
        }),
        "/api/new" => {
            let variant = match opt_str(body, "variant")? {
                None => None,
                Some(name) => Some(
                    name.parse::<Variant>()
                        .map_err(|_| bad(UnknownVariant(clip(name)).to_string()))?,
                ),
            };
            let house = opt_str(body, "house_rules")?
                .map(HouseRules::parse)
                .transpose()
                .map_err(bad)?;
            run(app, |st| {
                let variant = variant.unwrap_or(st.variant);
                let house = house.unwrap_or(if variant == st.variant {
                    st.house_rules()
                } else {
                    HouseRules::NONE
                });
                house.check_variant(variant)?;
                st.new_game_with(variant, house);
                Ok(())
            })
        }
        "/api/resign" => run(app, State::resign),
        "/api/draw" => run(app, State::offer_draw),
        "/api/position" => {
            let text = str_field(body, "fen")?;
            let variant = app.state.lock().variant;
            let pos =
                Position::parse_in(variant, text).map_err(|e| bad(format!("bad position: {e}")))?;
            run(app, |st| {
                let house = st.house_rules();
                st.new_game(ShownGame::new(pos.with_house_rules(house)));
                Ok(())
            })
        }
        "/api/pdn" => {
            let choice = game_choice(body.get("game"))?;
            load_pdn(app, str_field(body, "pdn")?.as_bytes(), choice)
        }
        "/api/settings" => settings(app, body),
        "/api/clock" => {
            if !bool_field(body, "resume")? {
                return Ok(None);
            }
            run(app, |st| {
                if st.clocks.control().is_none() {
                    return Err("there are no clocks: choose a time control first".into());
                }
                st.clocks.resume();
                Ok(())
            })
        }
        "/api/analysis" => {
            let on = bool_field(body, "run")?;
            run(app, |st| {
                if on {
                    st.settings.mode = Mode::Analyse;
                    if let Some(r) = &mut st.review {
                        r.running = false;
                    }
                }
                st.settings.analysing = on;
                Ok(())
            })
        }
        "/api/engine/restart" => {
            let _ = app.engine_tx.try_send(EngineCmd::Restart);
            Ok(None)
        }
        "/api/engine/param" => set_param(app, body),
        "/api/explorer" => explorer(app, body),
        "/api/review" => review(app, body),
        "/api/review/goto" => {
            let ply = ply_field(body)?;
            run(app, |st| {
                let moves = st.review.as_ref().ok_or("no review")?.moves().to_vec();
                st.game.select_moves(&moves, ply)
            })
        }
        _ => Err(ApiError(404, format!("no such API: {path}"))),
    }
}

/// Plays a move in the position shown: refused in play mode when it is the engine's
/// turn at the end of the game, and after a flag fell; refused at the end of a line
/// resigned or agreed drawn. Charges the clocks.
fn play_move(app: &App, text: &str) -> Answer {
    let text = text.to_string();
    run(app, |st| {
        let turn = st.game.current().side_to_move();
        let play = st.settings.mode == Mode::Play;
        // A fallen flag ends the game everywhere in play mode; a resignation or a draw
        // agreed, at the end of its line.
        let over = (play && st.clocks.flag().is_some()) || (st.game.at_end() && st.agreed_here());
        if let Some(e) = st.ending().filter(|_| over) {
            return Err(format!("the game is over: {}", e.reason));
        }
        if play && st.game.at_end() && st.engine_plays(turn) {
            return Err("it is the engine's turn".into());
        }
        st.game.play_text(&text)?;
        if st.settings.mode == Mode::Play && st.game.at_end() {
            st.clocks.moved(turn, Instant::now());
        }
        Ok(())
    })
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

/// `POST /api/pdn-file[?game=N]`: a PDN file's raw bytes.
fn pdn_file(app: &App, query: &str, body: &[u8]) -> Answer {
    let choice = match query_value(query, "game") {
        None => None,
        Some(text) => {
            let number = text.parse::<u64>().map_or(Value::Null, Value::from);
            let choice = game_choice(Some(&number))?;
            Some(choice.ok_or_else(|| bad(format!("bad game number {:?}", clip(text))))?)
        }
    };
    load_pdn(app, body, choice)
}

/// Loads a game of a PDN file into the board (`{"warnings": [...]}` with its repairs,
/// if any); a file of several games, or with faults, and no choice leaves the board as
/// it is and answers `{"choose": [one line a game], "numbers": [its number in the
/// file], "warnings": [one line a repair or skipped game], "summary": "..."}`.
fn load_pdn(app: &App, bytes: &[u8], choice: Option<usize>) -> Answer {
    let variant = app.state.lock().variant;
    match ShownGame::from_pdn(bytes, choice, variant).map_err(bad)? {
        PdnLoad::Game(game, warnings) => {
            run(app, |st| {
                // The file's GameType picks the variant: the board (and its engine) follow.
                st.variant = game.start().variant();
                st.new_game(game);
                Ok(())
            })?;
            Ok((!warnings.is_empty()).then(|| json!({ "warnings": warnings })))
        }
        PdnLoad::Choose(c) => Ok(Some(json!({
            "choose": c.games,
            "numbers": c.numbers,
            "warnings": c.warnings,
            "summary": c.summary,
        }))),
    }
}

/// A file name from a query (`name=`, percent-encoded), for messages: at most 80
/// characters, no control characters; `what` without one.
fn file_name(query: &str, what: &str) -> String {
    let Some(raw) = query_value(query, "name") else {
        return what.to_string();
    };
    let mut bytes = Vec::with_capacity(raw.len());
    let mut rest = raw.as_bytes();
    while let Some((&b, tail)) = rest.split_first() {
        let hex = tail.get(..2).and_then(|h| std::str::from_utf8(h).ok());
        match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
            Some(v) if b == b'%' => {
                bytes.push(v);
                rest = &tail[2..];
            }
            _ => {
                bytes.push(if b == b'+' { b' ' } else { b });
                rest = tail;
            }
        }
    }
    let text = String::from_utf8_lossy(&bytes).replace(char::is_control, "");
    if text.trim().is_empty() {
        what.to_string()
    } else {
        clip(text.trim())
    }
}

/// `POST /api/explorer/pdn?name=F`: a PDN collection's bytes, the explorer's games
/// (`{"summary": "..."}`).
fn explorer_pdn(app: &App, query: &str, body: &[u8]) -> Answer {
    let name = file_name(query, "the PDN file");
    let variant = app.state.lock().variant;
    // Read outside the lock: a large collection takes a moment.
    let (games, summary) = Collection::read(&name, body, variant).map_err(bad)?;
    run(app, |st| {
        st.explorer.set_games(games);
        Ok(())
    })?;
    Ok(Some(json!({ "summary": summary })))
}

/// `POST /api/explorer/book?name=F[&as=default]`: a book file's bytes, the explorer's
/// book (with `as=default`, its game's default book: the static site's page hands over
/// the shipped books so).
fn explorer_book(app: &App, query: &str, body: &[u8]) -> Answer {
    let name = file_name(query, "the book file");
    let as_default = query_value(query, "as") == Some("default");
    let book = Book::from_bytes(body).map_err(|e| bad(format!("book {name}: {e}")))?;
    run(app, |st| {
        st.explorer.set_book(name, book, as_default);
        Ok(())
    })
}

/// `{"book": "default" | "off" | "file"}` picks the explorer's book (`file`: the one
/// loaded), `{"games": null}` forgets
/// its games; both optional.
fn explorer(app: &App, body: &Value) -> Answer {
    use super::explorer::BookChoice;
    let choice = match opt_str(body, "book")? {
        None => None,
        Some("default") => Some(BookChoice::Default),
        Some("off") => Some(BookChoice::Off),
        Some("file") => Some(BookChoice::File),
        Some(b) => {
            return Err(bad(format!(
                "book must be default, off or file, not {:?}",
                clip(b)
            )));
        }
    };
    let drop_games = match body.get("games") {
        None => false,
        Some(Value::Null) => true,
        Some(_) => return Err(bad("games can only be null (a collection is uploaded)")),
    };
    run(app, |st| {
        if let Some(c) = choice {
            st.explorer.choose(c)?;
        }
        if drop_games {
            st.explorer.drop_games();
        }
        Ok(())
    })
}

/// `mode`, `engine_side`, `movetime`, `clock` (`{"time": s, "inc": s}` or `null` for
/// seconds per move) and `review_seconds`, each optional; all are checked first.
fn settings(app: &App, body: &Value) -> Answer {
    let mode = match opt_str(body, "mode")? {
        None => None,
        Some("play") => Some(Mode::Play),
        Some("analyse") => Some(Mode::Analyse),
        Some(m) => {
            return Err(bad(format!(
                "mode must be play or analyse, not {:?}",
                clip(m)
            )));
        }
    };
    let side = match opt_str(body, "engine_side")? {
        None => None,
        Some("white") => Some(Some(Color::White)),
        Some("black") => Some(Some(Color::Black)),
        Some("none") => Some(None),
        Some(s) => {
            return Err(bad(format!(
                "engine_side must be white, black or none, not {:?}",
                clip(s)
            )));
        }
    };
    let movetime = opt_seconds(body, "movetime", (0.05, 3600.0))?;
    let review_seconds = opt_seconds(
        body,
        "review_seconds",
        (review::MIN_SECONDS, review::MAX_SECONDS),
    )?;
    let clock = match body.get("clock") {
        None => None,
        Some(Value::Null) => Some(None),
        Some(c) => {
            let number = |key: &str| c.get(key).and_then(Value::as_f64);
            let time =
                number("time").ok_or_else(|| bad("clock.time must be a number of seconds"))?;
            let inc = match c.get("inc") {
                None | Some(Value::Null) => 0.0,
                Some(_) => {
                    number("inc").ok_or_else(|| bad("clock.inc must be a number of seconds"))?
                }
            };
            Some(Some(TimeControl::from_secs(time, inc).map_err(bad)?))
        }
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
        if let Some(t) = review_seconds {
            s.review_seconds = t;
        }
        if let Some(control) = clock {
            st.set_time_control(control);
        }
        Ok(())
    })
}

/// `{"name": n, "value": v}`: a parameter the engine declared, checked against its
/// declaration; the engine thread sends it with `set-param`.
fn set_param(app: &App, body: &Value) -> Answer {
    let name = str_field(body, "name")?.to_string();
    let value = field(body, "value")?.clone();
    if name == "variant" {
        return Err(bad(
            "the board's own Variant choice sets the engine's variant (New game of a variant)",
        ));
    }
    run(app, |st| {
        let decl = st
            .params
            .iter()
            .find(|p| p.name == name)
            .ok_or_else(|| format!("the engine has no parameter {:?}", clip(&name)))?;
        let text = param_text(decl.kind.as_ref(), &value).map_err(|e| format!("{name}: {e}"))?;
        st.param_values.insert(name, text);
        st.params_version += 1;
        Ok(())
    })
}

/// A parameter value as `set-param` text, checked against the declared type.
fn param_text(kind: Option<&ParamType>, value: &Value) -> Result<String, String> {
    match kind {
        Some(ParamType::Bool) => match value {
            Value::Bool(b) => Ok(b.to_string()),
            Value::String(s) if s == "true" || s == "false" => Ok(s.clone()),
            _ => Err("expected true or false".into()),
        },
        Some(ParamType::Int { min, max }) => {
            let n = match value {
                Value::Number(n) => n.as_i64(),
                Value::String(s) => s.trim().parse::<i64>().ok(),
                _ => None,
            }
            .ok_or("expected a whole number")?;
            if min.is_some_and(|m| n < m) || max.is_some_and(|m| n > m) {
                return Err(format!("{n} is out of range {}", range_text(*min, *max)));
            }
            Ok(n.to_string())
        }
        Some(ParamType::Real { min, max }) => {
            let x = match value {
                Value::Number(n) => n.as_f64(),
                Value::String(s) => s.trim().parse::<f64>().ok(),
                _ => None,
            }
            .filter(|x| x.is_finite())
            .ok_or("expected a number")?;
            if min.is_some_and(|m| x < m) || max.is_some_and(|m| x > m) {
                return Err(format!("{x} is out of range {}", range_text(*min, *max)));
            }
            Ok(x.to_string())
        }
        Some(ParamType::Enum { values }) => {
            let s = value.as_str().ok_or("expected one of the listed values")?;
            if values.iter().any(|v| v == s) {
                Ok(s.to_string())
            } else {
                Err(format!("{:?} is not one of {}", clip(s), values.join(", ")))
            }
        }
        Some(ParamType::String) | None => {
            let s = value.as_str().ok_or("expected text")?;
            if s.chars().count() > MAX_PARAM_TEXT || s.chars().any(char::is_control) {
                return Err(format!(
                    "expected one line of at most {MAX_PARAM_TEXT} characters"
                ));
            }
            Ok(s.to_string())
        }
    }
}

fn range_text<T: std::fmt::Display>(min: Option<T>, max: Option<T>) -> String {
    let show = |v: Option<T>| v.map_or("…".to_string(), |v| v.to_string());
    format!("{}..{}", show(min), show(max))
}

/// `{"run": true}` reviews the line shown (analyse mode, the analysis stops);
/// `{"run": false}` stops the review, keeping what it found.
fn review(app: &App, body: &Value) -> Answer {
    let on = bool_field(body, "run")?;
    run(app, |st| {
        if !on {
            if let Some(r) = &mut st.review {
                r.running = false;
            }
            return Ok(());
        }
        if st.game.moves().is_empty() {
            return Err("nothing to review: the line has no moves".into());
        }
        st.reviews += 1;
        let line = st.game.game().clone();
        st.review = Some(Review::new(
            st.reviews,
            &line,
            st.settings.review_seconds,
            &st.engine_name,
        ));
        st.settings.mode = Mode::Analyse;
        st.settings.analysing = false;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(app: &App, method: &str, path: &str, body: &str) -> (u16, Value) {
        json_api(app, method, path, "", body.as_bytes())
    }

    #[test]
    fn routes_answer_json_with_errors_named() {
        let app = App::offline();
        let (s, v) = call(&app, "GET", "/api/state", "");
        assert_eq!(s, 200);
        assert_eq!(v["plies"], 0);
        assert_eq!(
            call(&app, "POST", "/api/move", r#"{"move":"22-18"}"#).0,
            200
        );
        let (s, v) = call(&app, "POST", "/api/move", r#"{"move":"9-13"}"#);
        assert_eq!(
            (s, v["error"].as_str()),
            (400, Some("it is the engine's turn"))
        );
        assert_eq!(call(&app, "DELETE", "/api/move", "").0, 405);
        assert_eq!(call(&app, "GET", "/api/nothing", "").0, 404);
        let (s, v) = call(&app, "POST", "/api/goto", r#"{"ply":-1}"#);
        assert_eq!(
            (s, v["error"].as_str()),
            (400, Some("field \"ply\" must be a non-negative integer"))
        );
        assert_eq!(call(&app, "POST", "/api/move", "[1]").0, 400);
        let big = vec![b' '; crate::gui::http::MAX_BODY + 1];
        assert_eq!(json_api(&app, "POST", "/api/pdn", "", &big).0, 413);
        let (s, v) = json_api(&app, "POST", "/api/pdn-file", "game=x", b"1. 22-18 *");
        assert_eq!(
            (s, v["error"].as_str()),
            (400, Some("bad game number \"x\""))
        );
    }

    #[test]
    fn clocks_through_the_api() {
        let app = App::offline();
        let (s, v) = call(&app, "POST", "/api/settings", r#"{"clock":{"time":0.2}}"#);
        assert_eq!(s, 400, "{v}");
        let (s, v) = call(
            &app,
            "POST",
            "/api/settings",
            r#"{"clock":{"time":3,"inc":1},"engine_side":"none"}"#,
        );
        assert_eq!(s, 200, "{v}");
        assert_eq!(v["state"]["clock"]["white"], 3.0);
        assert_eq!(v["state"]["clock"]["paused"], true);
        let (_, v) = call(&app, "POST", "/api/move", r#"{"move":"22-18"}"#);
        assert_eq!(v["state"]["clock"]["running"], "black", "{v}");
        assert!(
            v["state"]["clock"]["white"].as_f64().unwrap_or(0.0) > 3.5,
            "increment added"
        );
        let (_, v) = call(&app, "POST", "/api/takeback", "");
        assert_eq!(v["state"]["clock"]["paused"], true);
        assert_eq!(v["state"]["clock"]["running"], Value::Null);
        let (_, v) = call(&app, "POST", "/api/settings", r#"{"clock":null}"#);
        assert_eq!(v["state"]["clock"], Value::Null);
    }

    #[test]
    fn engine_parameters_are_checked_against_their_declaration() {
        let kinds = [
            (ParamType::Bool, json!(true), Ok("true")),
            (ParamType::Bool, json!(1), Err(())),
            (
                ParamType::Int {
                    min: Some(1),
                    max: Some(32),
                },
                json!(3),
                Ok("3"),
            ),
            (
                ParamType::Int {
                    min: Some(1),
                    max: Some(32),
                },
                json!("33"),
                Err(()),
            ),
            (
                ParamType::Int {
                    min: None,
                    max: None,
                },
                json!(1.5),
                Err(()),
            ),
            (
                ParamType::Real {
                    min: Some(-1.0),
                    max: Some(1.0),
                },
                json!(0.5),
                Ok("0.5"),
            ),
            (
                ParamType::Real {
                    min: None,
                    max: None,
                },
                json!("nan"),
                Err(()),
            ),
            (
                ParamType::Enum {
                    values: vec!["a".into(), "b".into()],
                },
                json!("b"),
                Ok("b"),
            ),
            (
                ParamType::Enum {
                    values: vec!["a".into()],
                },
                json!("c"),
                Err(()),
            ),
            (ParamType::String, json!("x y"), Ok("x y")),
            (ParamType::String, json!("a\nset-param"), Err(())),
        ];
        for (kind, value, want) in kinds {
            let got = param_text(Some(&kind), &value);
            assert_eq!(got.as_deref().map_err(|_| ()), want, "{kind:?} {value}");
        }
        let app = App::offline();
        let (s, v) = call(
            &app,
            "POST",
            "/api/engine/param",
            r#"{"name":"multipv","value":3}"#,
        );
        assert_eq!(
            (s, v["error"].as_str()),
            (400, Some("the engine has no parameter \"multipv\""))
        );
        app.state.lock().params = vec![crate::protocol::response::Param {
            name: "multipv".into(),
            value: "1".into(),
            kind: Some(ParamType::Int {
                min: Some(1),
                max: Some(32),
            }),
        }];
        let (s, v) = call(
            &app,
            "POST",
            "/api/engine/param",
            r#"{"name":"multipv","value":3}"#,
        );
        assert_eq!(s, 200, "{v}");
        assert_eq!(v["state"]["engine"]["params"][0]["value"], "3");
        assert_eq!(v["state"]["engine"]["params"][0]["max"], 32);
        let (s, v) = call(
            &app,
            "POST",
            "/api/engine/param",
            r#"{"name":"multipv","value":99}"#,
        );
        assert_eq!(
            (s, v["error"].as_str()),
            (400, Some("multipv: 99 is out of range 1..32"))
        );
    }

    #[test]
    fn a_draw_offer_lapses_when_the_line_changes() {
        use crate::gui::state::DrawAnswer;
        let app = App::offline();
        let (s, v) = call(&app, "POST", "/api/draw", "");
        assert_eq!(s, 200, "{v}");
        assert_eq!(v["state"]["offer"]["pending"], true);
        let id = app.state.lock().offers;
        call(&app, "POST", "/api/move", r#"{"move":"22-18"}"#);
        let (_, v) = call(&app, "GET", "/api/state", "");
        assert_eq!(v["offer"]["pending"], false, "the move ended the offer");
        let late = DrawAnswer {
            accepted: true,
            score: Some(0),
        };
        assert!(app.state.lock().answer_offer(id, late).is_err());
        assert_eq!(
            app.state.lock().agreed.as_ref().map(|a| a.moves.len()),
            None
        );
        // A fresh offer, answered: the draw holds at the end of its line only.
        call(&app, "POST", "/api/takeback", "");
        call(&app, "POST", "/api/draw", "");
        let id = app.state.lock().offers;
        assert!(app.state.lock().answer_offer(id, late).is_ok());
        let (_, v) = call(&app, "GET", "/api/state", "");
        assert_eq!(v["result"]["reason"], "draw agreed");
        assert_eq!(v["offer"]["answer"]["text"], "+0.00");
        let (s, v) = call(&app, "POST", "/api/new", r#"{"variant":"brazilian"}"#);
        assert_eq!((s, v["state"]["result"].clone()), (200, Value::Null));
        assert_eq!(v["state"]["variant"], "brazilian");
    }

    /// Damka's house rules: offered for Damka only, ticked through `/api/new`, changing
    /// the legal moves; an unknown name or another game's is refused in one line.
    #[test]
    fn house_rules_are_offered_for_damka_and_change_the_moves() {
        let app = App::offline();
        let (_, v) = call(&app, "GET", "/api/state", "");
        assert_eq!(v["house_rules"], json!([]), "none for Italian");
        let (s, v) = call(&app, "POST", "/api/new", r#"{"variant":"damka"}"#);
        assert_eq!(s, 200);
        let names: Vec<&str> = v["state"]["house_rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["name"].as_str().unwrap())
            .collect();
        assert!(
            names.contains(&"stop-chain") && names.len() == 6,
            "{names:?}"
        );
        call(
            &app,
            "POST",
            "/api/position",
            r#"{"fen":"W:Wc3,g1:Bd4,b8"}"#,
        );
        let (_, v) = call(&app, "GET", "/api/state", "");
        assert_eq!(v["legal"].as_array().unwrap().len(), 1, "the capture only");
        let body = r#"{"variant":"damka","house_rules":"no-compulsory-capture"}"#;
        call(&app, "POST", "/api/new", body);
        call(
            &app,
            "POST",
            "/api/position",
            r#"{"fen":"W:Wc3,g1:Bd4,b8"}"#,
        );
        let (_, v) = call(&app, "GET", "/api/state", "");
        assert_eq!(
            v["legal"].as_array().unwrap().len(),
            4,
            "and the quiet moves"
        );
        let on = v["house_rules"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["on"] == true);
        assert_eq!(on.count(), 1);
        let (s, v) = call(&app, "POST", "/api/new", r#"{"house_rules":"blowing"}"#);
        assert_eq!(s, 400);
        let error = v["error"].as_str().unwrap();
        assert!(
            error.contains("blowing") && !error.contains('\n'),
            "{error}"
        );
        let body = r#"{"variant":"russian","house_rules":"huffing"}"#;
        let (s, v) = call(&app, "POST", "/api/new", body);
        assert_eq!(s, 400, "{v}");
        let (_, v) = call(&app, "POST", "/api/new", r#"{"variant":"russian"}"#);
        assert_eq!(v["state"]["house_rules"], json!([]));
    }

    #[test]
    fn the_explorer_takes_files_and_refuses_bad_ones_in_one_line() {
        let app = App::offline();
        let pdn = b"[White \"A\"][Black \"B\"][Result \"0-1\"]\n1. 22-18 11-14 0-1\n";
        let (s, v) = json_api(
            &app,
            "POST",
            "/api/explorer/pdn",
            "name=my%20games.pdn",
            pdn,
        );
        assert_eq!(s, 200, "{v}");
        assert!(
            v["summary"]
                .as_str()
                .is_some_and(|t| t.starts_with("my games.pdn: 1 games"))
        );
        let games = &v["state"]["explorer"]["games"];
        assert_eq!(games["moves"][0]["text"], "22-18");
        assert_eq!(games["moves"][0]["black_won"], 1);
        let (s, v) = json_api(&app, "POST", "/api/explorer/book", "name=x.book", b"junk");
        assert_eq!(
            (s, v["error"].as_str()),
            (
                400,
                Some("book x.book: not a book file: shorter than its header")
            )
        );
        let (s, v) = call(&app, "POST", "/api/explorer", r#"{"book":"file"}"#);
        assert_eq!(
            (s, v["error"].as_str()),
            (400, Some("no book file loaded: load one first"))
        );
        let (s, v) = call(
            &app,
            "POST",
            "/api/explorer",
            r#"{"book":"off","games":null}"#,
        );
        assert_eq!(s, 200, "{v}");
        assert_eq!(v["state"]["explorer"]["choice"], "off");
        assert_eq!(v["state"]["explorer"]["games"], Value::Null);
        assert_eq!(call(&app, "GET", "/api/explorer/pdn", "").0, 405);
        let big = vec![b' '; crate::gui::http::MAX_UPLOAD + 1];
        assert_eq!(json_api(&app, "POST", "/api/explorer/pdn", "", &big).0, 413);
    }

    #[test]
    fn review_starts_on_the_line_shown() {
        let app = App::offline();
        assert_eq!(
            call(&app, "POST", "/api/review", r#"{"run":true}"#).0,
            400,
            "no moves"
        );
        call(&app, "POST", "/api/settings", r#"{"engine_side":"none"}"#);
        call(&app, "POST", "/api/move", r#"{"move":"22-18"}"#);
        let (s, v) = call(&app, "POST", "/api/review", r#"{"run":true}"#);
        assert_eq!(s, 200, "{v}");
        assert_eq!(v["state"]["review"]["total"], 2);
        assert_eq!(v["state"]["settings"]["mode"], "analyse");
        let (_, v) = call(&app, "POST", "/api/review", r#"{"run":false}"#);
        assert_eq!(v["state"]["review"]["running"], false);
        // A new game drops a review whose line is gone.
        let (_, v) = call(&app, "POST", "/api/new", "");
        assert_eq!(v["state"]["review"], Value::Null);
    }
}
