//! Scores: hundredths of a man from the side to move's view; proven results as
//! `WIN - plies` (so the protocol prints a win in N plies as `100 - N/100` men).

use crate::board::Color;

/// One man, in score units.
pub const MAN: i32 = 100;
/// A win on the board now; a win in `n` plies scores `WIN - n`.
pub const WIN: i32 = 10_000;
/// The deepest ply the search reaches.
pub const MAX_PLY: usize = 128;
/// Scores beyond this are proven wins (or losses, negated).
pub const WIN_BOUND: i32 = WIN - MAX_PLY as i32;
/// Heuristic scores stay strictly inside this bound.
pub const EVAL_LIMIT: i32 = 9_000;
/// An endgame-database result: a win in `n` plies (counted from the root) scores
/// `DB_WIN - n`, so the protocol prints it as `95 - n/100` men. Between every heuristic
/// score and the proven-end scores.
pub const DB_WIN: i32 = 9_500;
/// Scores beyond this and up to [`DB_WIN`] are database results (longest database
/// distance plus the deepest ply stay below 500).
pub const DB_BOUND: i32 = DB_WIN - 500;
/// Larger than any score.
pub const INFINITY: i32 = WIN + 1;

/// The best score (hundredths of a man, from the engine's side) at which the engine
/// still accepts a draw offer: a tenth of a man, the game level or worse for it. A
/// score above it means the engine expects more than a draw and plays on.
pub const DRAW_ACCEPT_MAX: i32 = 10;

/// Whether the engine accepts a draw offer when its own search scores the game
/// `own_score` (its side's view): level or worse for it (at most [`DRAW_ACCEPT_MAX`]).
/// Every front end decides with this (the console's `draw`, the web board).
pub const fn accepts_draw(own_score: i32) -> bool {
    own_score <= DRAW_ACCEPT_MAX
}

/// Whether a score is a proven win or loss.
pub const fn is_decisive(score: i32) -> bool {
    score.abs() > WIN_BOUND
}

/// Plies to the end for a decisive score (positive for a win, negative for a loss).
pub const fn plies_to_end(score: i32) -> Option<i32> {
    if score > WIN_BOUND {
        Some(WIN - score)
    } else if score < -WIN_BOUND {
        Some(-(WIN + score))
    } else {
        None
    }
}

/// Whether a score is an endgame-database result.
pub const fn is_database(score: i32) -> bool {
    score.abs() > DB_BOUND && score.abs() <= DB_WIN
}

/// Plies to the end for a database score (positive for a win, negative for a loss).
pub const fn database_plies(score: i32) -> Option<i32> {
    if !is_database(score) {
        None
    } else if score > 0 {
        Some(DB_WIN - score)
    } else {
        Some(-(DB_WIN + score))
    }
}

/// The score in men, as the Hub protocol reports it.
pub fn in_men(score: i32) -> f64 {
    score as f64 / MAN as f64
}

/// Plies to the end of a result proven by the search or by the endgame databases
/// (positive for a win, negative for a loss).
pub const fn result_plies(score: i32) -> Option<i32> {
    match plies_to_end(score) {
        Some(n) => Some(n),
        None => database_plies(score),
    }
}

/// A score for people, from the view of the side it is given for: `+0.25`, `-1.10`, or
/// `win in 7` / `loss in 12` (plies to the end, proven by the search or the databases).
/// Every front end writes scores this way ([`white_text`] from White's view).
pub fn text(score: i32) -> String {
    match result_plies(score) {
        Some(n) if n >= 0 => format!("win in {n}"),
        Some(n) => format!("loss in {}", -n),
        None => format!("{:+.2}", in_men(score)),
    }
}

/// `score` (for `mover`) from White's view.
pub fn white_view(mover: Color, score: i32) -> i32 {
    if mover == Color::White { score } else { -score }
}

/// A White's-view score for people: `+0.25`, `-1.10`, or `White wins in 7` /
/// `Black wins in 12`, as [`text`] says it for the side to move.
pub fn white_text(white: i32) -> String {
    match result_plies(white) {
        Some(n) if n >= 0 => format!("White wins in {n}"),
        Some(n) => format!("Black wins in {}", -n),
        None => text(white),
    }
}

/// Converts a score found `ply` plies below the root for storage in the table
/// (distance counted from the stored node); proven and database results alike.
pub const fn to_table(score: i32, ply: usize) -> i32 {
    if score > DB_BOUND {
        score + ply as i32
    } else if score < -DB_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_table`].
pub const fn from_table(score: i32, ply: usize) -> i32 {
    if score > DB_BOUND {
        score - ply as i32
    } else if score < -DB_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn win_distances() {
        assert_eq!(plies_to_end(WIN - 3), Some(3));
        assert_eq!(plies_to_end(-(WIN - 4)), Some(-4));
        assert_eq!(plies_to_end(250), None);
        assert_eq!(in_men(WIN - 3), 99.97);
        assert_eq!(from_table(to_table(WIN - 9, 5), 5), WIN - 9);
        assert_eq!(from_table(to_table(-(WIN - 9), 5), 5), -(WIN - 9));
        assert_eq!(from_table(to_table(DB_WIN - 9, 5), 5), DB_WIN - 9);
        assert_eq!(database_plies(-(DB_WIN - 12)), Some(-12));
        assert_eq!(database_plies(WIN - 3), None);
        assert_eq!(database_plies(EVAL_LIMIT - 1), None);
        assert_eq!(in_men(DB_WIN - 13), 94.87);
    }
}
