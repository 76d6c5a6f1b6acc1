//! Damka (דמקה), draughts as it is commonly played in Israel. There is no federation
//! rulebook with numbered articles for it (the Israeli federation plays the international
//! and Russian games), so each field names the rule as the game is played and taught. Of
//! the house rules players agree before a game, the two the capture walker reads are
//! compiled as [`DamkaHouse`]; the others are read around the generator (docs/variants.md).

use super::{
    Board, Draws, Endings, Game, Kings, Landing, MenBackward, Precedence, Promotion, Removal,
    Rules, SquareNames,
};
use crate::board::{Color, Variant};

/// Damka.
pub struct Damka;

impl Game for Damka {
    const VARIANT: Variant = Variant::Damka;
    const RULES: Rules = Rules {
        name: "damka",
        title: "Damka",
        aliases: &["israeli"],
        rulebook: "Israeli rules",
        // No PDN standard number: the standard's list ends at 41 (Spantsiretti), so 42 is
        // the first free one.
        game_type: 42,
        // White moves first.
        first_mover: Color::White,
        // A dark square at each player's near left (a1 dark); squares named a1–h8 as in
        // Russian draughts, whose board, start and books Israeli players share.
        board: Board {
            mirrored: true,
            names: SquareNames::Algebraic,
        },
        // Twelve men each on the dark squares of the first three rows.
        rows_of_men: 3,
        capture_separator: ':',
        // Men step forward; a man's first jump goes forward, the later jumps of the same
        // chain in any direction.
        men_capture_backward: MenBackward::AfterFirstJump,
        men_capture_kings: true,
        // Kings fly: they move and capture along a whole diagonal and land on any free
        // square behind the piece taken, one from which the capture goes on if there is one.
        kings: Kings::Flying(Landing::OnwardFirst),
        // A man that reaches the last row during a capture is crowned and the move ends.
        promotion: Promotion::Stop,
        // Taken pieces leave the board at the end of the move and are not jumped twice.
        removal: Removal::EndOfMove,
        // Capturing is compulsory and a chain goes on while it can; any capture may be
        // chosen.
        precedence: Precedence::Free,
        // Third repetition; 50 moves each without a capture (the material rule counts men's
        // moves too; the move limit, which the search knows, counts kings' moves only);
        // one or two kings against a lone king cannot be won and is drawn.
        draws: Draws {
            repetitions: 3,
            quiet_moves: 50,
            endings: Endings::Damka,
        },
    };
}

/// Damka under the house rules that the capture walker reads: men that never capture
/// backward (`FORWARD_ONLY`) and chains that may stop at any landing (`STOP`). Chosen once
/// at the top of a call, as a game is.
pub struct DamkaHouse<const FORWARD_ONLY: bool, const STOP: bool>;

impl<const FORWARD_ONLY: bool, const STOP: bool> Game for DamkaHouse<FORWARD_ONLY, STOP> {
    const VARIANT: Variant = Variant::Damka;
    const RULES: Rules = Rules {
        men_capture_backward: if FORWARD_ONLY {
            MenBackward::Never
        } else {
            MenBackward::AfterFirstJump
        },
        ..Damka::RULES
    };
    const STOP_ANYWHERE: bool = STOP;
}
