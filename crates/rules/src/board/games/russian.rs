//! Russian draughts (shashki), as the rules of the Russian Draughts Federation write it;
//! the articles each field follows are named beside it.

use super::{
    Board, Draws, Endings, Game, Kings, Landing, MenBackward, Precedence, Promotion, Removal,
    Rules, SquareNames,
};
use crate::board::{Color, Variant};

/// Russian draughts.
pub struct Russian;

impl Game for Russian {
    const VARIANT: Variant = Variant::Russian;
    const RULES: Rules = Rules {
        name: "russian",
        title: "Russian draughts",
        aliases: &["shashki"],
        rulebook: "Russian federation rules",
        game_type: 25,
        // White moves first.
        first_mover: Color::White,
        // a1 dark at White's lower left; squares named a1–h8.
        board: Board {
            mirrored: true,
            names: SquareNames::Algebraic,
        },
        rows_of_men: 3,
        capture_separator: ':',
        // 1.5.3: men capture backward too, kings as men.
        men_capture_backward: MenBackward::Always,
        men_capture_kings: true,
        // 1.4.5: kings fly; after a capture they land on any free square behind, one
        // from which the capture goes on if there is one.
        kings: Kings::Flying(Landing::OnwardFirst),
        // 1.5.15: a man reaching the last row during a capture is crowned and goes on.
        promotion: Promotion::CrownAndContinue,
        removal: Removal::EndOfMove,
        // Free choice among captures.
        precedence: Precedence::Free,
        // Third repetition; 15 moves each of kings only; the material rules.
        draws: Draws {
            repetitions: 3,
            quiet_moves: 15,
            endings: Endings::Russian,
        },
    };
}
