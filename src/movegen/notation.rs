//! Move text. Path form (`22-19`, `29x22x15x6`: every landing square) is used by people,
//! PDN and the CLI; Hub form (`22-19`, `19x10x14`: from, to, then the captured squares
//! ascending) by the Hub protocol. Parsing accepts both, and a short `fromxto` when it
//! names exactly one legal move.

use std::fmt;

use super::capture::{CaptureSink, walk};
use super::legal_moves;
use crate::board::bitboard::Bitboard;
use crate::board::{Color, Move, Position, Square};

/// Why a move text was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not of the form `a-b` or `axbx...` with squares 1–32; names the bad part.
    Syntax {
        /// The move text.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Well formed, but no legal move matches; lists the legal moves.
    Illegal {
        /// The move text.
        text: String,
        /// The legal moves, path form.
        legal: Vec<String>,
    },
    /// Matches several legal moves; lists them.
    Ambiguous {
        /// The move text.
        text: String,
        /// The legal moves it could mean, path form.
        candidates: Vec<String>,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax { text, reason } => write!(f, "bad move {text:?}: {reason}"),
            MoveError::Illegal { text, legal } if legal.is_empty() => {
                write!(
                    f,
                    "illegal move {text:?}: the side to move has no legal move"
                )
            }
            MoveError::Illegal { text, legal } => {
                write!(f, "illegal move {text:?}; legal moves: {}", legal.join(" "))
            }
            MoveError::Ambiguous { text, candidates } => {
                write!(
                    f,
                    "ambiguous move {text:?}; it could be: {}",
                    candidates.join(" ")
                )
            }
        }
    }
}

impl std::error::Error for MoveError {}

/// The Hub form: `22-19`, or `from x to x captured...` with captured squares ascending.
pub fn hub_text(mv: Move) -> String {
    if !mv.is_capture() {
        return format!("{}-{}", mv.from(), mv.to());
    }
    let mut s = format!("{}x{}", mv.from(), mv.to());
    for sq in mv.captured() {
        s.push('x');
        s.push_str(&sq.to_string());
    }
    s
}

/// The path form: `22-19`, or every landing square of a capture, `29x22x15x6`. Where
/// several paths make the same move, the first by the Art. 6.9 priority is shown.
pub fn path_text(pos: &Position, mv: Move) -> String {
    if !mv.is_capture() {
        return format!("{}-{}", mv.from(), mv.to());
    }
    match capture_paths(pos, mv).first() {
        Some(path) => path
            .iter()
            .map(Square::to_string)
            .collect::<Vec<_>>()
            .join("x"),
        None => format!("{}x{}", mv.from(), mv.to()),
    }
}

/// A line of moves from `pos` in path form, one word a move, at most `max`; it stops at
/// the first move that is not legal where it is played.
pub fn line_words(pos: &Position, moves: &[Move], max: usize) -> Vec<String> {
    let mut p = *pos;
    let mut words = Vec::new();
    for &mv in moves.iter().take(max) {
        if !legal_moves(&p).contains(&mv) {
            break;
        }
        words.push(path_text(&p, mv));
        p = p.play(mv);
    }
    words
}

/// [`line_words`] joined by spaces: `22-19 11-15 ...`. Every front end writes lines
/// of play (principal variations) this way.
pub fn line_text(pos: &Position, moves: &[Move], max: usize) -> String {
    line_words(pos, moves, max).join(" ")
}

/// Collects the landing paths of one move, with their priority keys.
struct PathsOf {
    target: Move,
    found: Vec<(u32, Vec<Square>)>,
}

impl CaptureSink for PathsOf {
    fn record(&mut self, from: u32, to: u32, captured: Bitboard, key: u32, path: &[u8]) {
        if Move::from_bits(from, to, captured) == self.target {
            let squares = path.iter().map(|&b| Square::from_bit(b as u32)).collect();
            self.found.push((key, squares));
        }
    }
}

/// Every capture path (landing squares, start included) that makes `mv` with the highest
/// Art. 6.9 priority among them; empty for quiet or impossible moves.
pub fn capture_paths(pos: &Position, mv: Move) -> Vec<Vec<Square>> {
    if !mv.is_capture() {
        return Vec::new();
    }
    let mut sink = PathsOf {
        target: mv,
        found: Vec::new(),
    };
    let source = 1u64 << mv.src_bit();
    match pos.side_to_move() {
        Color::White => walk::<true, _>(pos, source & pos.pieces(Color::White), &mut sink),
        Color::Black => walk::<false, _>(pos, source & pos.pieces(Color::Black), &mut sink),
    }
    let best = sink.found.iter().map(|(k, _)| *k).max().unwrap_or(0);
    let mut paths: Vec<Vec<Square>> = sink
        .found
        .into_iter()
        .filter(|(k, _)| *k == best)
        .map(|(_, p)| p)
        .collect();
    paths.sort();
    paths.dedup();
    paths
}

/// Parses move text against a position: path form, Hub form, or a short `fromxto` /
/// `from-to` naming exactly one legal move.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let text = text.trim();
    let squares = parse_squares(text)?;
    let legal = legal_moves(pos);
    let mut candidates: Vec<Move> = Vec::new();
    let mut add = |m: Move| {
        if !candidates.contains(&m) {
            candidates.push(m);
        }
    };
    let (first, last) = (squares[0], squares[squares.len() - 1]);
    if squares.len() == 2 {
        legal
            .iter()
            .filter(|m| m.from() == first && m.to() == last)
            .for_each(|&m| add(m));
    } else {
        if let Some(captured) = path_captures(&squares) {
            let path_move = Move::new(first, last, &captured);
            legal
                .iter()
                .filter(|&&m| m == path_move)
                .for_each(|&m| add(m));
        }
        let mut captured = squares[2..].to_vec();
        captured.sort();
        captured.dedup();
        if captured.len() == squares.len() - 2 {
            let hub_move = Move::new(first, squares[1], &captured);
            legal
                .iter()
                .filter(|&&m| m == hub_move)
                .for_each(|&m| add(m));
        }
    }
    match candidates.len() {
        1 => Ok(candidates[0]),
        0 => Err(MoveError::Illegal {
            text: text.to_string(),
            legal: sorted_texts(pos, &legal),
        }),
        _ => Err(MoveError::Ambiguous {
            text: text.to_string(),
            candidates: sorted_texts(pos, &candidates),
        }),
    }
}

/// The squares of a move text, checking its shape.
fn parse_squares(text: &str) -> Result<Vec<Square>, MoveError> {
    let syntax = |reason: String| MoveError::Syntax {
        text: text.to_string(),
        reason,
    };
    let sep = if text.contains('-') { '-' } else { 'x' };
    let lower = text.to_ascii_lowercase();
    let tokens: Vec<&str> = lower.split(sep).collect();
    if tokens.len() < 2 {
        return Err(syntax("expected squares joined by '-' or 'x'".into()));
    }
    if sep == '-' && tokens.len() != 2 {
        return Err(syntax("a move with '-' joins exactly two squares".into()));
    }
    tokens
        .iter()
        .map(|t| {
            t.parse::<u8>()
                .ok()
                .and_then(Square::new)
                .ok_or_else(|| syntax(format!("{t:?} is not a square 1-32")))
        })
        .collect()
}

/// The squares jumped by a path of landing squares, if every step is a jump.
fn path_captures(path: &[Square]) -> Option<Vec<Square>> {
    path.windows(2)
        .map(|w| {
            let (a, b) = (w[0], w[1]);
            let (dr, dc) = (
                b.row() as i32 - a.row() as i32,
                b.col() as i32 - a.col() as i32,
            );
            if dr.abs() != 2 || dc.abs() != 2 {
                return None;
            }
            Square::from_row_col(
                (a.row() as i32 + dr / 2) as u8,
                (a.col() as i32 + dc / 2) as u8,
            )
        })
        .collect()
}

/// Sorts moves by their squares numerically: from, to, then captured squares.
pub fn sort_moves(moves: &mut [Move]) {
    moves.sort_by_key(|m| (m.from(), m.to(), m.captured()));
}

/// Path texts of moves, sorted by their squares.
fn sorted_texts(pos: &Position, moves: &[Move]) -> Vec<String> {
    let mut v = moves.to_vec();
    sort_moves(&mut v);
    v.iter().map(|&m| path_text(pos, m)).collect()
}
