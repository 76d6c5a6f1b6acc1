//! The annotated game (`damiera analyse --annotate`, the web board's review): the game
//! written back with the analysis in it: the score after each move (White's view) as a
//! comment, `?` on mistakes and `??` on blunders, and the engine's line as a variation
//! after each of them.

use crate::board::{Move, Position};
use crate::game::pdn::{PdnGame, Slot, number_word};
use crate::movegen::path_text;

use super::{Marks, PlyVerdict, white_view_text};

/// Plies of the engine's line written in a variation.
const VARIATION_PLIES: usize = 10;

/// The game with its analysis: `verdicts` holds one entry per move, in order (fewer
/// than the moves: the first ones are annotated). Tags, comments and variations
/// already there are kept; an `Annotator` tag says who analysed it (see
/// [`annotator`]).
pub fn annotate(game: &PdnGame, verdicts: &[PlyVerdict], marks: Marks, annotator: &str) -> PdnGame {
    let mut out = game.clone();
    out.set_tag("Annotator", annotator);
    for (m, v) in out.moves.iter_mut().zip(verdicts) {
        let eval = white_view_text(v.position.side_to_move(), v.played_score);
        m.comment = Some(match m.comment.take() {
            Some(c) if !c.is_empty() => format!("{c} {eval}"),
            _ => eval,
        });
        if let Some(glyph) = marks.glyph(v.loss) {
            m.annotation = Some(glyph.to_string());
            if !v.best_pv.is_empty() {
                m.variations.push(variation(v, m.number, m.slot));
            }
        }
    }
    out
}

/// The `Annotator` tag: `Damiera <version>` and the budget (`depth 10`, `1 s`...).
pub fn annotator(budget: &str) -> String {
    format!("Damiera {} {budget}", env!("CARGO_PKG_VERSION"))
        .trim_end()
        .to_string()
}

/// The engine's line from the position before the move, numbered from the move's
/// number, with its score at the end.
fn variation(v: &PlyVerdict, number: u32, slot: Slot) -> String {
    let mut words = Vec::new();
    let mut pos: Position = v.position;
    let (mut number, mut slot) = (number, slot);
    let moves: Vec<Move> = v.best_pv.iter().copied().take(VARIATION_PLIES).collect();
    for (i, &mv) in moves.iter().enumerate() {
        words.extend(number_word(number, slot, i == 0));
        words.push(path_text(&pos, mv));
        pos = pos.play(mv);
        if slot == Slot::Second {
            number += 1;
        }
        slot = slot.next();
    }
    let eval = white_view_text(v.position.side_to_move(), v.best_score);
    words.push(format!("{{{eval}}}"));
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::pdn::{PdnMove, parse_pdn};

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
        let out = annotate(&game, &verdicts, marks, &annotator("depth 3"));
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
