//! `damiera analyse --annotate`: a game written back with the analysis in it: the score
//! after each move (White's view) as a comment, `?` on mistakes and `??` on blunders, and
//! the engine's line as a variation after each of them.

use crate::board::{Color, Move, Position};
use crate::game::pdn::{PdnGame, Side};
use crate::movegen::path_text;
use crate::search::Limits;
use crate::search::score::{in_men, plies_to_end};

use super::analyse::PlyVerdict;

/// Loss thresholds, in men, for marking played moves.
#[derive(Clone, Copy, Debug)]
pub struct Marks {
    /// A loss of at least this much is a mistake (`?`).
    pub mistake: f64,
    /// A loss of at least this much is a blunder (`??`).
    pub blunder: f64,
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

/// Plies of the engine's line written in a variation.
const VARIATION_PLIES: usize = 10;

/// The game with its analysis: `verdicts` holds one entry per move, in order. Tags,
/// comments and variations already there are kept; an `Annotator` tag is added.
pub fn annotate(game: &PdnGame, verdicts: &[PlyVerdict], marks: Marks, limits: &Limits) -> PdnGame {
    let mut out = game.clone();
    out.set_tag("Annotator", &annotator(limits));
    for (m, v) in out.moves.iter_mut().zip(verdicts) {
        let eval = white_view_text(v.position.side_to_move(), v.played_score);
        m.comment = Some(match m.comment.take() {
            Some(c) if !c.is_empty() => format!("{c} {eval}"),
            _ => eval,
        });
        if let Some(glyph) = marks.glyph(v.loss) {
            m.annotation = Some(glyph.to_string());
            if !v.best_pv.is_empty() {
                m.variations.push(variation(v, m.number, m.side));
            }
        }
    }
    out
}

fn annotator(limits: &Limits) -> String {
    let budget = match (limits.depth, limits.nodes, limits.move_time) {
        (Some(d), _, _) => format!("depth {d}"),
        (_, Some(n), _) => format!("{n} nodes"),
        (_, _, Some(t)) => format!("{t} s"),
        _ => String::new(),
    };
    format!("Damiera {} {budget}", env!("CARGO_PKG_VERSION"))
        .trim_end()
        .to_string()
}

/// A score from White's view for people: `+0.25`, `-1.10`, or `White wins in 7`
/// (plies) when proven. `score` is for `mover`.
pub fn white_view_text(mover: Color, score: i32) -> String {
    let white = white_view(mover, score);
    match plies_to_end(white) {
        Some(n) if n >= 0 => format!("White wins in {n}"),
        Some(n) => format!("Black wins in {}", -n),
        None => format!("{:+.2}", in_men(white)),
    }
}

/// `score` (for `mover`) from White's view.
pub fn white_view(mover: Color, score: i32) -> i32 {
    if mover == Color::White { score } else { -score }
}

/// The engine's line from the position before the move, numbered from the move's
/// number, with its score at the end.
fn variation(v: &PlyVerdict, number: u32, side: Side) -> String {
    let mut words = Vec::new();
    let mut pos: Position = v.position;
    let (mut number, mut side) = (number, side);
    let moves: Vec<Move> = v.best_pv.iter().copied().take(VARIATION_PLIES).collect();
    for (i, &mv) in moves.iter().enumerate() {
        match side {
            Side::White => words.push(format!("{number}.")),
            Side::Black if i == 0 => words.push(format!("{number}...")),
            Side::Black => {}
        }
        words.push(path_text(&pos, mv));
        pos = pos.play(mv);
        (number, side) = match side {
            Side::White => (number, Side::Black),
            Side::Black => (number + 1, Side::White),
        };
    }
    let eval = white_view_text(v.position.side_to_move(), v.best_score);
    words.push(format!("{{{eval}}}"));
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::pdn::{PdnMove, parse_pdn};
    use crate::search::score::WIN;

    #[test]
    fn glyphs_follow_the_thresholds() {
        let marks = Marks {
            mistake: 0.3,
            blunder: 1.0,
        };
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
    }

    #[test]
    fn mistakes_get_a_glyph_and_the_engine_line() {
        let start = Position::start();
        let game = parse_pdn("[White \"A\"]\n1. 21-17 {old} 12-16 *")
            .unwrap()
            .remove(0);
        let best = crate::movegen::legal_moves(&start)[0];
        let verdict = |position: Position, loss: f64| PlyVerdict {
            position,
            best_score: 10,
            best_pv: vec![best],
            played_score: -40,
            loss,
        };
        let after = start.play(crate::movegen::parse_move(&start, "21-17").unwrap());
        let verdicts = [verdict(start, 0.5), verdict(after, 0.0)];
        let marks = Marks {
            mistake: 0.3,
            blunder: 1.0,
        };
        let out = annotate(&game, &verdicts, marks, &Limits::depth(3));
        assert_eq!(out.tag("White"), Some("A"));
        assert_eq!(
            out.tag("Annotator"),
            Some(concat!("Damiera ", env!("CARGO_PKG_VERSION"), " depth 3"))
        );
        let first: &PdnMove = &out.moves[0];
        assert_eq!(first.annotation.as_deref(), Some("?"));
        assert_eq!(first.comment.as_deref(), Some("old -0.40"));
        let line = format!("1. {} {{+0.10}}", path_text(&start, best));
        assert_eq!(first.variations, vec![line]);
        assert_eq!(out.moves[1].annotation, None);
        assert_eq!(out.moves[1].comment.as_deref(), Some("+0.40"));
        let back = parse_pdn(&out.to_string()).unwrap();
        let mut sorted = out.clone();
        sorted.sort_tags();
        assert_eq!(back, vec![sorted]);
    }
}
