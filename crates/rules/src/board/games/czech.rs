//! Czech draughts (česká dáma), as the Czech Draughts Federation (Česká federace dámy)
//! writes it; the articles each field follows are named beside it.

use super::{
    Board, Draws, Endings, Game, Kings, Landing, MenBackward, Precedence, Promotion, Removal,
    Rules, SquareNames,
};
use crate::board::{Color, Variant};

/// Czech draughts.
pub struct Czech;

impl Game for Czech {
    const VARIANT: Variant = Variant::Czech;
    const RULES: Rules = Rules {
        name: "czech",
        title: "Czech draughts",
        aliases: &["ceska-dama"],
        rulebook: "Czech federation rules",
        game_type: 29,
        // White moves first.
        first_mover: Color::White,
        // 2.4: a dark corner square at each player's left (a1 dark); 2.6: squares named
        // a1–h8 as in chess.
        board: Board {
            mirrored: true,
            names: SquareNames::Algebraic,
        },
        // Twelve men each on the first three rows.
        rows_of_men: 3,
        capture_separator: ':',
        // 4.1: men move and capture forward only.
        men_capture_backward: MenBackward::Never,
        men_capture_kings: true,
        // 3.9: kings fly; after a capture they land on any free square behind, one from
        // which the capture goes on if there is one.
        kings: Kings::Flying(Landing::OnwardFirst),
        // A man that ends a capture on the last row is crowned there (men capture forward
        // only, so it cannot go on).
        promotion: Promotion::Stop,
        // Captured pieces leave the board after the whole capture; none is jumped twice.
        removal: Removal::EndOfMove,
        // 4.14: if a king can capture, a king must capture; otherwise any capture, and
        // not necessarily the longest.
        precedence: Precedence::KingFirst,
        // Third repetition; 15 moves each of kings only without a capture (Russian
        // draughts' limit: the federation's rule texts at hand name none, see
        // docs/variants.md).
        draws: Draws {
            repetitions: 3,
            quiet_moves: 15,
            endings: Endings::None,
        },
    };
}
