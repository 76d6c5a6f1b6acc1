//! Damiera as a CheckerBoard engine: `damiera_cb.dll` exports the CheckerBoard API
//! (protocol version 2: `getmove`, `enginecommand`, and `islegal` for variants) on top
//! of the Damiera library. This crate only translates: boards, moves, clocks and
//! commands; the rules, search and databases are the library's.
//!
//! Every exported function checks its pointers and input: a null pointer, a string that
//! is not text, a board with a stray value or an impossible position gets an answer
//! (an error in the reply or status line), never a crash. The release profile aborts on
//! panic, so nothing here may panic on outside input; in unwinding builds a panic is
//! also caught at the boundary.
//!
//! - [`board8`]: CheckerBoard's board array and `CBmove`;
//! - [`session`]: the answers, in safe Rust;
//! - [`think`]: limits, the search thread, the status line, the verdict;
//! - [`settings`]: the settings file and the database folder;
//! - [`history`]: `set gamehist`.
//!
//! This module opts in to `unsafe`: the C API hands over raw pointers (the board array,
//! `CBmove`, the status and reply buffers, `playnow`). Each block checks its pointer
//! first and says why the access is sound in its SAFETY comment; the other modules are
//! safe Rust.
#![allow(unsafe_code)]

pub mod board8;
pub mod history;
mod module_dir;
pub mod session;
pub mod settings;
pub mod think;

use std::ffi::{c_char, c_int};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::OnceLock;

use board8::{Board8x8, CbMove};
use session::{Engine, MoveArgs, REPLY_SIZE, SHORT_REPLY};

/// Longest command read (CheckerBoard's `set gamehist` grows with the reversible moves).
const MAX_COMMAND: usize = 1 << 16;
/// The status string's size (API version 2).
const STATUS_SIZE: usize = 1024;

/// The engine of this loaded library.
fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(Engine::load)
}

/// Reads a NUL-terminated string of at most [`MAX_COMMAND`] bytes (lossy UTF-8).
///
/// # Safety
/// `text` is null or points to readable bytes up to a NUL or [`MAX_COMMAND`] bytes.
unsafe fn read_c_string(text: *const c_char) -> Option<String> {
    if text.is_null() {
        return None;
    }
    let mut bytes = Vec::new();
    for i in 0..MAX_COMMAND {
        // SAFETY: the caller guarantees the bytes up to the NUL are readable.
        let b = unsafe { *text.add(i) } as u8;
        if b == 0 {
            return Some(String::from_utf8_lossy(&bytes).into_owned());
        }
        bytes.push(b);
    }
    None
}

/// Writes `text` as a NUL-terminated string into `capacity` bytes at `dst`, cut at a
/// character boundary when too long. Nothing when `dst` is null.
///
/// # Safety
/// `dst` is null or points to `capacity` writable bytes.
unsafe fn write_c_string(dst: *mut c_char, capacity: usize, text: &str) {
    if dst.is_null() || capacity == 0 {
        return;
    }
    let mut len = text.len().min(capacity - 1);
    while !text.is_char_boundary(len) {
        len -= 1;
    }
    // SAFETY: `len + 1 <= capacity` bytes are written.
    unsafe {
        std::ptr::copy_nonoverlapping(text.as_ptr(), dst.cast::<u8>(), len);
        *dst.add(len) = 0;
    }
}

/// `int enginecommand(char command[256], char reply[1024])`: answers one command; 1 when
/// handled, 0 (reply `?`, or an error) when not.
///
/// # Safety
/// `command` is null or a NUL-terminated string; `reply` is null or a 1024-byte buffer
/// (replies other than `get movelist` stay under 256 bytes, the size CheckerBoard itself
/// passes for some commands).
#[unsafe(no_mangle)]
pub unsafe extern "system" fn enginecommand(command: *const c_char, reply: *mut c_char) -> c_int {
    // SAFETY: as documented for the caller.
    let text = unsafe { read_c_string(command) };
    let answer = catch_unwind(|| match text {
        Some(t) => engine().command(&t),
        None => session::Reply {
            handled: false,
            text: "error: no command".into(),
        },
    });
    let answer = answer.unwrap_or(session::Reply {
        handled: false,
        text: "error: internal failure".into(),
    });
    let capacity = if answer.text.starts_with("movelist") {
        REPLY_SIZE
    } else {
        SHORT_REPLY
    };
    // SAFETY: `reply` holds at least `capacity` bytes (see above).
    unsafe { write_c_string(reply, capacity, &answer.text) };
    c_int::from(answer.handled)
}

/// `int getmove(int board[8][8], int color, double maxtime, char str[1024], int *playnow,
/// int info, int moreinfo, struct CBmove *move)`: thinks, plays the move on `board`,
/// describes it in `move`, and returns `CB_WIN`, `CB_LOSS`, `CB_DRAW` or `CB_UNKNOWN`.
/// Returns as soon as `*playnow` turns nonzero. Status lines go to `str` while it thinks.
///
/// # Safety
/// `board` is null or a valid 8x8 `int` array; `status` null or 1024 writable bytes;
/// `playnow` null or an `int` that stays valid for the call (another thread may write it);
/// `mv` null or a writable `CBmove`.
#[unsafe(no_mangle)]
pub unsafe extern "system" fn getmove(
    board: *mut Board8x8,
    color: c_int,
    maxtime: f64,
    status: *mut c_char,
    playnow: *mut c_int,
    info: c_int,
    moreinfo: c_int,
    mv: *mut CbMove,
) -> c_int {
    let mut write_status = |text: &str| {
        // SAFETY: `status` is null or STATUS_SIZE writable bytes.
        unsafe { write_c_string(status, STATUS_SIZE, text) }
    };
    if board.is_null() {
        write_status("Damiera: no board");
        return think::CB_UNKNOWN;
    }
    // SAFETY: `board` is a valid, non-null board; copied so the caller's array changes
    // only once, at the end.
    let mut local: Board8x8 = unsafe { *board };
    let stop_asked = || {
        // SAFETY: `playnow` is null or valid for the call; volatile because the host's
        // other thread writes it.
        !playnow.is_null() && unsafe { std::ptr::read_volatile(playnow) } != 0
    };
    let args = MoveArgs {
        color,
        maxtime,
        info,
        moreinfo,
    };
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        engine().get_move(&mut local, args, &stop_asked, &mut write_status)
    }));
    let (verdict, described) = outcome.unwrap_or((think::CB_UNKNOWN, None));
    if let Some(m) = described {
        // SAFETY: `board` is valid (checked above) and `mv` null or writable.
        unsafe {
            *board = local;
            if !mv.is_null() {
                *mv = m;
            }
        }
    }
    verdict
}

/// `int islegal(int board[8][8], int color, int from, int to, struct CBmove *move)`: 1 and
/// the move when `color` can move from square `from` to square `to`, else 0.
///
/// # Safety
/// `board` is null or a valid 8x8 `int` array; `mv` null or a writable `CBmove`.
#[unsafe(no_mangle)]
pub unsafe extern "system" fn islegal(
    board: *mut Board8x8,
    color: c_int,
    from: c_int,
    to: c_int,
    mv: *mut CbMove,
) -> c_int {
    if board.is_null() {
        return 0;
    }
    // SAFETY: `board` is valid and non-null.
    let local: Board8x8 = unsafe { *board };
    let found = catch_unwind(|| engine().is_legal(&local, color, from, to)).unwrap_or(None);
    match found {
        Some(m) => {
            if !mv.is_null() {
                // SAFETY: `mv` is writable.
                unsafe { *mv = m };
            }
            1
        }
        None => 0,
    }
}
