//! Thai draughts (mak-hot, หมากฮอส), as it is played in Thailand; there is no federation
//! rulebook with numbered articles, so each field names the rule as the game's
//! descriptions give it.

use super::{
    Board, Draws, Endings, Game, Kings, Landing, MenBackward, Precedence, Promotion, Removal,
    Rules, SquareNames,
};
use crate::board::{Color, Variant};

/// Thai draughts.
pub struct Thai;

impl Game for Thai {
    const VARIANT: Variant = Variant::Thai;
    const RULES: Rules = Rules {
        name: "thai",
        title: "Thai draughts",
        aliases: &["makhos", "mak-hot"],
        rulebook: "Thai rules",
        game_type: 31,
        // White (the light pieces) moves first, as the Thai sites have it (no fixed rule).
        first_mover: Color::White,
        // A dark square at each player's near left (a1 dark); squares named a1–h8.
        board: Board {
            mirrored: true,
            names: SquareNames::Algebraic,
        },
        // Eight men each, on the dark squares of the first two rows.
        rows_of_men: 2,
        capture_separator: 'x',
        // Men move and capture forward only.
        men_capture_backward: MenBackward::Never,
        men_capture_kings: true,
        // Kings (hot) fly, and capture a piece at any distance, but land on the square
        // just behind it and go on from there, even back the way they came.
        kings: Kings::Flying(Landing::JustBehind),
        // A man reaching the last row during a capture is crowned and the move ends.
        promotion: Promotion::Stop,
        // A captured piece leaves the board as it is jumped (as in Turkish draughts).
        removal: Removal::AtOnce,
        // Capturing is compulsory, any capture may be chosen, and it is made to its end.
        precedence: Precedence::Free,
        // Third repetition; 15 moves each of kings only without a capture (a limit as in
        // Russian draughts: Thai rules name none, see docs/variants.md).
        draws: Draws {
            repetitions: 3,
            quiet_moves: 15,
            endings: Endings::None,
        },
    };
}
