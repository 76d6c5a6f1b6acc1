//! Reviewing a played game: how much each move lost against the engine's best move,
//! the `?`/`??` marks, the evaluation curve and the annotated PDN.
//!
//! One scoring for every front end: `damiera analyse` searches in process and the web
//! board asks a Hub engine, and both turn what they find into [`PlyVerdict`]s here.
//! Scores are in search units ([`crate::search::score`]): hundredths of a man for the
//! side to move, proven and database results as distances; a Hub score in men converts
//! exactly with [`from_hub_men`].

pub mod annotate;

use crate::board::{Color, Move, Position};
use crate::search::score::{self, INFINITY, MAN, in_men, white_view};

/// The `--mistake` default of `damiera analyse`, in men.
pub const MISTAKE: f64 = 0.3;
/// The `--blunder` default of `damiera analyse`, in men.
pub const BLUNDER: f64 = 1.0;
/// Scores on the evaluation curve are clipped to ± this many men, so that a won game
/// does not flatten the rest.
pub const CLIP: f64 = 3.0;

/// Loss thresholds, in men, for marking played moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Marks {
    /// A loss of at least this much is a mistake (`?`).
    pub mistake: f64,
    /// A loss of at least this much is a blunder (`??`).
    pub blunder: f64,
}

impl Default for Marks {
    fn default() -> Self {
        Marks {
            mistake: MISTAKE,
            blunder: BLUNDER,
        }
    }
}

impl Marks {
    /// `??`, `?` or nothing for a move losing `loss` men.
    pub fn glyph(self, loss: f64) -> Option<&'static str> {
        if loss >= self.blunder {
            Some("??")
        } else if loss >= self.mistake {
            Some("?")
        } else {
            None
        }
    }
}

/// What the analysis of one played move found, for annotating and plotting a game.
#[derive(Clone, Debug, PartialEq)]
pub struct PlyVerdict {
    /// The position before the move.
    pub position: Position,
    /// Score of the best move, for the side to move.
    pub best_score: i32,
    /// The engine's line.
    pub best_pv: Vec<Move>,
    /// Score after the move played, for the side that played it.
    pub played_score: i32,
    /// Men lost against the best move (≥ 0).
    pub loss: f64,
}

impl PlyVerdict {
    /// The verdict on a move scoring `played_score` where the best scores `best_score`
    /// (both for the side to move in `position`).
    pub fn new(
        position: Position,
        best_score: i32,
        best_pv: Vec<Move>,
        played_score: i32,
    ) -> PlyVerdict {
        PlyVerdict {
            position,
            best_score,
            best_pv,
            played_score,
            loss: loss(best_score, played_score),
        }
    }
}

/// Men lost by playing a move scoring `played` where the best scores `best` (≥ 0).
pub fn loss(best: i32, played: i32) -> f64 {
    (in_men(best) - in_men(played)).max(0.0)
}

/// The score of the move played, when one of the searched lines starts with it: the
/// lines' first moves and scores, best first (the best line answers for the best move).
/// `None`: the move was not among them, and the position after it is to be searched
/// (its score negated).
pub fn played_score_from_lines(
    played: Move,
    lines: impl IntoIterator<Item = (Option<Move>, i32)>,
) -> Option<i32> {
    lines
        .into_iter()
        .find(|(first, _)| *first == Some(played))
        .map(|(_, score)| score)
}

/// [`score::white_text`] of `score`, given for `mover`.
pub fn white_view_text(mover: Color, score: i32) -> String {
    score::white_text(score::white_view(mover, score))
}

/// A Hub `score=` (men, two decimals, side to move's view) in search units; `None` for
/// a value no engine score can have (not finite).
pub fn from_hub_men(men: f64) -> Option<i32> {
    if !men.is_finite() {
        return None;
    }
    let units = (men * f64::from(MAN)).round();
    Some(units.clamp(f64::from(-INFINITY), f64::from(INFINITY)) as i32)
}

/// The points of the evaluation curve: ply 0 (the start) and the score after each move,
/// in men from White's view, clipped to ±[`CLIP`].
pub fn curve(verdicts: &[PlyVerdict]) -> Vec<(f64, f64)> {
    let clip = |score: i32| in_men(score).clamp(-CLIP, CLIP);
    let start = verdicts.first().map(|v| {
        (
            0.0,
            clip(white_view(v.position.side_to_move(), v.best_score)),
        )
    });
    let after_moves = verdicts.iter().enumerate().map(|(i, v)| {
        let white = white_view(v.position.side_to_move(), v.played_score);
        ((i + 1) as f64, clip(white))
    });
    start.into_iter().chain(after_moves).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::{DB_WIN, WIN};

    #[test]
    fn glyphs_follow_the_thresholds() {
        let marks = Marks::default();
        assert_eq!(marks.glyph(0.29), None);
        assert_eq!(marks.glyph(0.3), Some("?"));
        assert_eq!(marks.glyph(1.0), Some("??"));
    }

    #[test]
    fn scores_read_from_whites_side() {
        assert_eq!(white_view_text(Color::White, 25), "+0.25");
        assert_eq!(white_view_text(Color::Black, 25), "-0.25");
        assert_eq!(white_view_text(Color::Black, WIN - 7), "Black wins in 7");
        assert_eq!(white_view_text(Color::White, -(WIN - 4)), "Black wins in 4");
        assert_eq!(
            white_view_text(Color::White, DB_WIN - 13),
            "White wins in 13"
        );
        assert_eq!(
            white_view_text(Color::White, -(DB_WIN - 12)),
            "Black wins in 12"
        );
        assert_eq!(score::white_text(0), "+0.00");
    }

    #[test]
    fn hub_scores_convert_exactly() {
        assert_eq!(from_hub_men(99.97), Some(WIN - 3));
        assert_eq!(from_hub_men(-94.87), Some(-(DB_WIN - 13)));
        assert_eq!(from_hub_men(0.25), Some(25));
        assert_eq!(from_hub_men(-0.07), Some(-7));
        assert_eq!(from_hub_men(1e300), Some(INFINITY));
        assert_eq!(from_hub_men(f64::NAN), None);
        assert_eq!(
            score::white_text(from_hub_men(-99.84).unwrap_or(0)),
            "Black wins in 16"
        );
    }

    #[test]
    fn loss_and_the_played_move() {
        let start = Position::start();
        let moves = crate::movegen::legal_moves(&start);
        let (a, b) = (moves[0], moves[1]);
        let lines = [(Some(a), 40), (Some(b), -20)];
        assert_eq!(played_score_from_lines(b, lines), Some(-20));
        assert_eq!(played_score_from_lines(moves[2], lines), None);
        let v = PlyVerdict::new(start, 40, vec![a], -20);
        assert!((v.loss - 0.6).abs() < 1e-9);
        assert_eq!(PlyVerdict::new(start, 40, vec![a], 90).loss, 0.0);
        let points = curve(&[
            v.clone(),
            PlyVerdict::new(start.play(a), WIN - 1, vec![], 0),
        ]);
        assert_eq!(points, vec![(0.0, 0.4), (1.0, -0.2), (2.0, 0.0)]);
    }
}
