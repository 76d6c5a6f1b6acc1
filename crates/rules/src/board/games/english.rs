//! English draughts (American checkers), as the WCDF's Rules of Draughts write it
//! (Section One); the articles each field follows are named beside it.

use super::{
    Board, Draws, Endings, Game, Kings, MenBackward, Precedence, Promotion, Removal, Rules,
    SquareNames,
};
use crate::board::{Color, Variant};

/// English draughts.
pub struct English;

impl Game for English {
    const VARIANT: Variant = Variant::English;
    const RULES: Rules = Rules {
        name: "english",
        title: "English checkers",
        aliases: &["checkers", "american"],
        rulebook: "WCDF rules",
        game_type: 21,
        // Black (the dark pieces, on squares 1–12) moves first.
        first_mover: Color::Black,
        // 1.4: a dark square at each player's near left; 1.5: squares numbered 1–32
        // from Black's side.
        board: Board {
            mirrored: true,
            names: SquareNames::Numbers,
        },
        rows_of_men: 3,
        capture_separator: 'x',
        // 1.18: a man captures forward only, kings as men.
        men_capture_backward: MenBackward::Never,
        men_capture_kings: true,
        // 1.17: a king steps one square.
        kings: Kings::Short,
        // 1.19: a man crowned during a capture ends the move there.
        promotion: Promotion::Stop,
        removal: Removal::EndOfMove,
        // 1.20: free choice among captures.
        precedence: Precedence::Free,
        // 1.32: third repetition; 40 moves of each player without a man's move or a capture.
        draws: Draws {
            repetitions: 3,
            quiet_moves: 40,
            endings: Endings::None,
        },
    };
}
