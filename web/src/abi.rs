//! The module's WebAssembly interface, for `web/site/*.js`: bytes in through one input
//! buffer ([`input`]), bytes out through one output buffer ([`output_ptr`]), UTF-8 text
//! and JSON in both; the page supplies the clock (`env.now_ms`) and a callback for
//! the lines a running search reports (`env.emit`).
//!
//! This is the crate's only unsafe code: exported symbols (`no_mangle`) and two
//! imported functions. The buffers themselves are plain `Vec`s: the glue writes the
//! input where [`input`] says and reads the output where [`output_ptr`] says, between
//! calls, while nothing else touches them (a Worker has one thread).
#![allow(unsafe_code)]

use std::cell::RefCell;

use serde_json::json;

use crate::board::Board;
use crate::engine_worker::{Emit, Engine};

#[link(wasm_import_module = "env")]
unsafe extern "C" {
    /// Milliseconds since the Worker started (`performance.now()`).
    safe fn now_ms() -> f64;
    /// One line a search reports: `kind` 0 a Hub line, 1 a fallback `done`.
    fn emit(kind: u32, ptr: *const u8, len: usize);
}

thread_local! {
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static BOARD: RefCell<Option<Board>> = const { RefCell::new(None) };
    static ENGINE: RefCell<Option<Engine>> = const { RefCell::new(None) };
}

fn registered_clock() -> f64 {
    now_ms()
}

/// Makes room for `len` input bytes; where to write them.
#[unsafe(no_mangle)]
pub extern "C" fn input(len: usize) -> *mut u8 {
    damiera_gui::clock::instant::set_now(registered_clock);
    INPUT.with(|i| {
        let mut i = i.borrow_mut();
        i.clear();
        i.resize(len, 0);
        i.as_mut_ptr()
    })
}

/// Where the last call's output starts (its length was the call's result).
#[unsafe(no_mangle)]
pub extern "C" fn output_ptr() -> *const u8 {
    OUTPUT.with(|o| o.borrow().as_ptr())
}

fn answer(bytes: Vec<u8>) -> usize {
    let len = bytes.len();
    OUTPUT.with(|o| *o.borrow_mut() = bytes);
    len
}

fn take_input() -> Vec<u8> {
    INPUT.with(|i| std::mem::take(&mut *i.borrow_mut()))
}

/// The input as text (invalid UTF-8 replaced).
fn input_text() -> String {
    String::from_utf8_lossy(&take_input()).into_owned()
}

/// What the board says after a call: the answer (if any), the page's events as SSE
/// text, and the lines for the engine Worker.
fn board_output(board: &Board, reply: Option<(u16, serde_json::Value)>) -> usize {
    let mut out = json!({
        "events": board.take_events(),
        "engine": Board::take_outbox(),
    });
    if let Some((status, body)) = reply {
        out["status"] = json!(status);
        out["body"] = body;
    }
    answer(out.to_string().into_bytes())
}

fn with_board(f: impl FnOnce(&mut Board) -> Option<(u16, serde_json::Value)>) -> usize {
    damiera_gui::clock::instant::set_now(registered_clock);
    BOARD.with(|b| {
        let mut b = b.borrow_mut();
        let board = b.get_or_insert_with(Board::new);
        let reply = f(board);
        board_output(board, reply)
    })
}

/// Starts the board (once; later calls only report).
#[unsafe(no_mangle)]
pub extern "C" fn board_start() -> usize {
    with_board(|_| None)
}

/// One API request; the input holds method, path, query and body, of the lengths given.
#[unsafe(no_mangle)]
pub extern "C" fn board_api(method: usize, path: usize, query: usize, body: usize) -> usize {
    let bytes = take_input();
    let mut at = 0;
    let mut part = |len: usize| {
        let start = at.min(bytes.len());
        at = start.saturating_add(len).min(bytes.len());
        &bytes[start..at]
    };
    let method = String::from_utf8_lossy(part(method)).into_owned();
    let path = String::from_utf8_lossy(part(path)).into_owned();
    let query = String::from_utf8_lossy(part(query)).into_owned();
    let body = part(body).to_vec();
    with_board(|b| Some(b.api(&method, &path, &query, &body)))
}

/// The 100 ms tick.
#[unsafe(no_mangle)]
pub extern "C" fn board_tick() -> usize {
    with_board(|b| {
        b.tick();
        None
    })
}

/// A line from the engine Worker (the input).
#[unsafe(no_mangle)]
pub extern "C" fn board_engine_line() -> usize {
    let line = input_text();
    with_board(|b| {
        b.engine_line(&line);
        None
    })
}

/// The engine Worker failed; the input says why.
#[unsafe(no_mangle)]
pub extern "C" fn board_engine_failed() -> usize {
    let why = input_text();
    with_board(|b| {
        b.engine_failed(&why);
        None
    })
}

fn with_engine(f: impl FnOnce(&mut Engine) -> serde_json::Value) -> usize {
    damiera_gui::clock::instant::set_now(registered_clock);
    ENGINE.with(|e| {
        let mut e = e.borrow_mut();
        if e.is_none() {
            match Engine::new() {
                Ok(engine) => *e = Some(engine),
                Err(why) => return answer(json!({ "error": why }).to_string().into_bytes()),
            }
        }
        match e.as_mut() {
            Some(engine) => answer(f(engine).to_string().into_bytes()),
            None => answer(b"{}".to_vec()),
        }
    })
}

/// One table file for the engine: the input holds its name (`name` bytes) then its bytes.
#[unsafe(no_mangle)]
pub extern "C" fn engine_add_table(name: usize) -> usize {
    let bytes = take_input();
    let cut = name.min(bytes.len());
    let file_name = String::from_utf8_lossy(&bytes[..cut]).into_owned();
    let data = bytes[cut..].to_vec();
    with_engine(|e| {
        e.add_table(&file_name, data);
        json!({})
    })
}

/// Probes the tables given from now on: `{"classes": n, "pieces": p}` or an error.
#[unsafe(no_mangle)]
pub extern "C" fn engine_use_tables() -> usize {
    with_engine(|e| match e.use_tables() {
        Ok((classes, pieces)) => json!({ "classes": classes, "pieces": pieces }),
        Err(why) => json!({ "error": why }),
    })
}

/// One Hub line for the engine (the input); every line it answers, during and after
/// the searches it asks for, goes out through `env.emit`.
#[unsafe(no_mangle)]
pub extern "C" fn engine_line() -> usize {
    let line = input_text();
    with_engine(|e| {
        e.line(&line, &mut |kind, text| {
            let kind = match kind {
                Emit::Line => 0,
                Emit::Fallback => 1,
            };
            // SAFETY: `text` is valid for `len` bytes for the duration of the call; the
            // glue copies the bytes out before returning.
            unsafe { emit(kind, text.as_ptr(), text.len()) }
        });
        json!({})
    })
}
