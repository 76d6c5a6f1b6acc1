//! Brazilian draughts: the FMJD's international rules played on 8x8, as the Brazilian
//! confederation plays them; the FMJD articles each field follows are named beside it.

use super::{
    Board, Draws, Endings, Game, Kings, Landing, MenBackward, Precedence, Promotion, Removal,
    Rules, SquareNames,
};
use crate::board::{Color, Variant};

/// Brazilian draughts.
pub struct Brazilian;

impl Game for Brazilian {
    const VARIANT: Variant = Variant::Brazilian;
    const RULES: Rules = Rules {
        name: "brazilian",
        title: "Brazilian draughts",
        aliases: &[],
        rulebook: "international rules",
        game_type: 26,
        // White moves first.
        first_mover: Color::White,
        // 2.4: a1 dark at White's lower left; squares named a1–h8 on 8x8.
        board: Board {
            mirrored: true,
            names: SquareNames::Algebraic,
        },
        rows_of_men: 3,
        capture_separator: 'x',
        // 4.1: men capture backward too, kings as men.
        men_capture_backward: MenBackward::Always,
        men_capture_kings: true,
        // 3.9: kings fly; after a capture they land on any free square behind, one
        // from which the capture goes on if there is one.
        kings: Kings::Flying(Landing::OnwardFirst),
        // 4.15: a man passing its last row during a capture stays a man.
        promotion: Promotion::ContinueUncrowned,
        removal: Removal::EndOfMove,
        // 4.13: the capture of the most pieces, kings and men alike.
        precedence: Precedence::Quantity,
        // 6.1–6.2: third repetition; 25 moves each of kings only; and the endings of
        // a lone king.
        draws: Draws {
            repetitions: 3,
            quiet_moves: 25,
            endings: Endings::Fmjd,
        },
    };
}
