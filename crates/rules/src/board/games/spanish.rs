//! Spanish draughts (damas españolas, the classic game of Spain and Portugal), as the
//! Iberian rules write it: the articles named beside the fields are the Portuguese
//! federation's (Damas Clássicas, "FPD") and the Galician regulation's ("Gal."), the
//! others the rules as Spanish players' descriptions give them.

use super::{
    Board, Draws, Endings, Game, Kings, Landing, MenBackward, Precedence, Promotion, Removal,
    Rules, SquareNames,
};
use crate::board::{Color, Variant};

/// Spanish draughts.
pub struct Spanish;

impl Game for Spanish {
    const VARIANT: Variant = Variant::Spanish;
    const RULES: Rules = Rules {
        name: "spanish",
        title: "Spanish draughts",
        aliases: &[],
        rulebook: "Spanish rules",
        game_type: 24,
        // Gal. 4.1: White moves first.
        first_mover: Color::White,
        // FPD 2.1.2, 2.1.5, Gal. 1.2: a dark square at each player's near right, the
        // Italian board; squares numbered 1–32 from White's side, 1 at White's near right
        // and each row from right to left, so White starts on 1–12 and 32 is the far left
        // corner.
        board: Board {
            mirrored: false,
            names: SquareNames::NumbersFromWhite,
        },
        // Gal. 3: twelve men each on the first three rows.
        rows_of_men: 3,
        capture_separator: 'x',
        // Men capture forward only.
        men_capture_backward: MenBackward::Never,
        men_capture_kings: true,
        // Kings fly; after a capture they land on any free square behind, one from which
        // the capture goes on if there is one.
        kings: Kings::Flying(Landing::OnwardFirst),
        // A man reaching the last row during a capture is crowned and the move ends.
        promotion: Promotion::Stop,
        // Captured pieces leave the board after the whole capture; none is jumped twice.
        removal: Removal::EndOfMove,
        // The law of quantity (the most pieces), then of quality (the most kings).
        precedence: Precedence::QuantityThenKings,
        // Third repetition; 20 moves each of kings only without a capture.
        draws: Draws {
            repetitions: 3,
            quiet_moves: 20,
            endings: Endings::None,
        },
    };
}
