//! Pool checkers (American pool), as the American Pool Checkers Association's tournament
//! rules of play write it; the rules each field follows are named beside it.

use super::{
    Board, Draws, Endings, Game, Kings, Landing, MenBackward, Precedence, Promotion, Removal,
    Rules, SquareNames,
};
use crate::board::{Color, Variant};

/// Pool checkers.
pub struct Pool;

impl Game for Pool {
    const VARIANT: Variant = Variant::Pool;
    const RULES: Rules = Rules {
        name: "pool",
        title: "Pool checkers",
        aliases: &["american-pool"],
        rulebook: "APCA rules",
        game_type: 23,
        // Black (the dark pieces, on squares 1–12) moves first.
        first_mover: Color::Black,
        // 2, 4: a dark square at each player's near left, squares numbered as in English
        // checkers (1–32 from Black's side).
        board: Board {
            mirrored: true,
            names: SquareNames::Numbers,
        },
        rows_of_men: 3,
        capture_separator: 'x',
        // 14: men capture backward too, kings as men.
        men_capture_backward: MenBackward::Always,
        men_capture_kings: true,
        // 15: kings fly; after a capture they land on any free square behind, one from
        // which the capture goes on if there is one.
        kings: Kings::Flying(Landing::OnwardFirst),
        // 16: a man that reaches the last row during a capture and can capture on (backward)
        // goes on as a man; it is crowned only if the capture ends there. (Read so by dctl,
        // whose published perft counts this game matches; a man that stops is crowned.)
        promotion: Promotion::ContinueUncrowned,
        removal: Removal::EndOfMove,
        // 20: free choice among captures.
        precedence: Precedence::Free,
        // 26: third repetition; 15 moves each without a man's move or a capture.
        draws: Draws {
            repetitions: 3,
            quiet_moves: 15,
            endings: Endings::None,
        },
    };
}
