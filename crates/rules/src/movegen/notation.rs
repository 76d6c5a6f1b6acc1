//! Move text. Path form (`22-19`, `29x22x15x6`: every landing square) is used by people,
//! PDN and the CLI; Hub form (`22-19`, `19x10x14`: from, to, then the captured squares
//! ascending) by the Hub protocol. Parsing accepts both, and a short `fromxto` when it
//! names exactly one legal move.
//!
//! Squares are named as the position's variant names them ([`Variant::square_name`]):
//! numbers in Italian and English, `c3-d4` in Russian and Brazilian, whose captures are
//! written `c3:e5:g3` (Russian) or `c3xe5xg3` (Brazilian); both separators are read.

use std::fmt;

use super::capture::{self, CaptureSink};
use super::{flying, legal_moves};
use crate::board::{Color, Game, Move, Position, Square, Variant};

/// Why a move text was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not of the form `a-b` or `axbx...` with squares of the board; names the bad part.
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

/// The Hub form of an Italian move: `22-19`, or `from x to x captured...` with captured
/// squares ascending.
pub fn hub_text(mv: Move) -> String {
    hub_text_in(Variant::Italian, mv)
}

/// The Hub form in `variant`'s square names, captured squares in ascending order of the
/// variant's numbering (`c3xe5xd4` in Russian).
pub fn hub_text_in(variant: Variant, mv: Move) -> String {
    let name = |sq: Square| variant.square_name(sq);
    if !mv.is_capture() {
        return format!("{}-{}", name(mv.from()), name(mv.to()));
    }
    let mut s = format!("{}x{}", name(mv.from()), name(mv.to()));
    let mut captured = mv.captured();
    captured.sort_by_key(|&sq| variant.number_of(sq));
    for sq in captured {
        s.push('x');
        s.push_str(&name(sq));
    }
    s
}

/// The character between the squares of a capture in `variant`: `:` in Russian, `x`
/// elsewhere.
pub const fn capture_separator(variant: Variant) -> char {
    variant.rules().capture_separator
}

/// The path form: `22-19`, or every landing square of a capture, `29x22x15x6`. Where
/// several paths make the same move, the first by the Art. 6.9 priority is shown.
pub fn path_text(pos: &Position, mv: Move) -> String {
    let variant = pos.variant();
    let name = |sq: Square| variant.square_name(sq);
    let sep = capture_separator(variant).to_string();
    if !mv.is_capture() {
        return format!("{}-{}", name(mv.from()), name(mv.to()));
    }
    match capture_paths(pos, mv).first() {
        Some(path) => path
            .iter()
            .map(|&sq| name(sq))
            .collect::<Vec<_>>()
            .join(&sep),
        None => format!("{}{sep}{}", name(mv.from()), name(mv.to())),
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
    fn record(&mut self, mv: Move, key: u32, path: &[u8]) {
        if mv == self.target {
            let squares = path.iter().map(|&b| Square::from_bit(b as u32)).collect();
            self.found.push((key, squares));
        }
    }
}

/// Every capture path (landing squares, start included) that makes `mv` (with the highest
/// Art. 6.9 priority among them, in Italian); empty for quiet or impossible moves. Paths
/// are in the order of the internal squares.
pub fn capture_paths(pos: &Position, mv: Move) -> Vec<Vec<Square>> {
    paths_of(pos, mv, true)
}

/// The capture paths that make `mv`; with `best_only`, the Italian ones of the highest
/// Art. 6.9 priority only.
fn paths_of(pos: &Position, mv: Move, best_only: bool) -> Vec<Vec<Square>> {
    if !mv.is_capture() {
        return Vec::new();
    }
    let mut sink = PathsOf {
        target: mv,
        found: Vec::new(),
    };
    let side = pos.side_to_move();
    let source = (1u64 << mv.src_bit()) & pos.pieces(side);
    let best = super::house::with_walker_game!(pos, G => match side {
        Color::White => walk_paths::<G, true>(pos, source, &mut sink),
        Color::Black => walk_paths::<G, false>(pos, source, &mut sink),
    });
    let best = if best_only { best } else { 0 };
    let mut paths: Vec<Vec<Square>> = sink
        .found
        .into_iter()
        .filter(|(k, _)| *k >= best)
        .map(|(_, p)| p)
        .collect();
    paths.sort();
    paths.dedup();
    paths
}

/// Feeds the capture paths of the pieces in `source` to `sink`; returns the highest
/// priority key among those found where the game ranks captures by the Italian key,
/// else 0.
fn walk_paths<G: Game, const WHITE: bool>(pos: &Position, source: u64, sink: &mut PathsOf) -> u32 {
    if G::FLYING {
        flying::walk::<G, WHITE, _>(pos, source, sink);
    } else {
        capture::walk::<G, WHITE, _>(pos, source, sink);
    }
    if !G::ITALIAN_PRECEDENCE {
        return 0;
    }
    sink.found.iter().map(|(k, _)| *k).max().unwrap_or(0)
}

/// Parses move text against a position: path form, Hub form, or a short `fromxto` /
/// `from-to` naming exactly one legal move. Squares are read in the position's variant.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let text = text.trim();
    let squares = parse_squares(pos.variant(), text)?;
    let legal = legal_moves(pos);
    let mut candidates: Vec<Move> = Vec::new();
    let (first, last) = (squares[0], squares[squares.len() - 1]);
    for &m in legal.iter() {
        let matches = if squares.len() == 2 {
            m.from() == first && m.to() == last
        } else {
            is_hub_form(m, &squares)
                || (m.from() == first
                    && m.to() == last
                    && m.is_capture()
                    && paths_of(pos, m, false).contains(&squares))
        };
        if matches && !candidates.contains(&m) {
            candidates.push(m);
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

/// Whether `squares` is the Hub form of `m`: from, to, then its captured squares.
fn is_hub_form(m: Move, squares: &[Square]) -> bool {
    if m.from() != squares[0] || m.to() != squares[1] {
        return false;
    }
    let mut captured = squares[2..].to_vec();
    captured.sort();
    captured.dedup();
    captured.len() == squares.len() - 2 && captured == m.captured()
}

/// The squares of a move text, checking its shape.
fn parse_squares(variant: Variant, text: &str) -> Result<Vec<Square>, MoveError> {
    let syntax = |reason: String| MoveError::Syntax {
        text: text.to_string(),
        reason,
    };
    let sep = if text.contains('-') {
        '-'
    } else if text.contains(':') {
        ':'
    } else {
        'x'
    };
    let lower = text.to_ascii_lowercase();
    let tokens: Vec<&str> = lower.split(sep).collect();
    if tokens.len() < 2 {
        return Err(syntax("expected squares joined by '-' or 'x'".into()));
    }
    if sep == '-' && tokens.len() != 2 {
        return Err(syntax("a move with '-' joins exactly two squares".into()));
    }
    let expected = match variant.square_names() {
        crate::board::SquareNames::Numbers | crate::board::SquareNames::NumbersFromWhite => {
            "a square 1-32"
        }
        crate::board::SquareNames::Algebraic => "a dark square a1-h8 (or 1-32)",
    };
    tokens
        .iter()
        .map(|t| {
            variant
                .parse_square(t)
                .ok_or_else(|| syntax(format!("{t:?} is not {expected}")))
        })
        .collect()
}

/// Sorts Italian moves by their squares numerically: from, to, then captured squares.
pub fn sort_moves(moves: &mut [Move]) {
    sort_moves_in(Variant::Italian, moves);
}

/// Sorts moves by their squares in `variant`'s numbering: from, to, captured squares.
pub fn sort_moves_in(variant: Variant, moves: &mut [Move]) {
    moves.sort_by_key(|m| {
        let mut captured: Vec<u8> = m.captured().iter().map(|&s| variant.number_of(s)).collect();
        captured.sort();
        (
            variant.number_of(m.from()),
            variant.number_of(m.to()),
            captured,
            m.crowns(),
        )
    });
}

/// Path texts of moves, sorted by their squares.
fn sorted_texts(pos: &Position, moves: &[Move]) -> Vec<String> {
    let mut v = moves.to_vec();
    sort_moves_in(pos.variant(), &mut v);
    v.iter().map(|&m| path_text(pos, m)).collect()
}
