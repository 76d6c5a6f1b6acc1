//! Italian draughts, as the FID (Federazione Italiana Dama) writes it in its technical
//! rules ("Regolamento tecnico"): the articles each field follows are named beside it.

use super::{
    Board, Draws, Endings, Game, Kings, MenBackward, Precedence, Promotion, Removal, Rules,
    SquareNames,
};
use crate::board::{Color, Variant};

/// Italian draughts.
pub struct Italian;

impl Game for Italian {
    const VARIANT: Variant = Variant::Italian;
    const RULES: Rules = Rules {
        name: "italian",
        title: "Italian draughts",
        aliases: &[],
        rulebook: "FID rules",
        game_type: 22,
        // White moves first.
        first_mover: Color::White,
        // Art. 2.3: the double corner at each player's right; squares numbered 1–32
        // from Black's side, 1 in the top-left corner.
        board: Board {
            mirrored: false,
            names: SquareNames::Numbers,
        },
        rows_of_men: 3,
        capture_separator: 'x',
        // Art. 5.3(a): a man captures forward only.
        men_capture_backward: MenBackward::Never,
        // Art. 5.3(b): a man never captures a king.
        men_capture_kings: false,
        // Art. 4.7: a king steps one square.
        kings: Kings::Short,
        // Art. 6.6: a man reaching the crowning row during a capture stops there.
        promotion: Promotion::Stop,
        removal: Removal::EndOfMove,
        // Art. 6.6–6.9: most pieces, with a king, most kings, kings met first.
        precedence: Precedence::Italian,
        // Third repetition; the 40-move rule of tournament referees.
        draws: Draws {
            repetitions: 3,
            quiet_moves: 40,
            endings: Endings::None,
        },
    };
}
