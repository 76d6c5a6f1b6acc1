//! Books from PDN games: every move of the first plies of every game with a result,
//! counted with the games it won, drew and lost for the side that played it.

use std::collections::HashMap;

use crate::board::{Color, Variant};
use crate::book::key::book_key;
use crate::book::{Book, Entry, encode};
use crate::game::pdn_file::PdnRead;

/// What an import counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImportReport {
    /// Games whose moves were counted.
    pub games: usize,
    /// Games left out: another game's, or without a result.
    pub left_out: usize,
}

/// A move of a position: its book key and its encoded move ([`encode`]).
type MoveKey = (u64, (u8, u8, u32, u8));

/// The winner of a PDN result token: `Some(None)` a draw, `None` no result.
fn winner(token: &str) -> Option<Option<Color>> {
    match token {
        "1-0" | "2-0" => Some(Some(Color::White)),
        "0-1" | "0-2" => Some(Some(Color::Black)),
        "1/2-1/2" | "1-1" => Some(None),
        _ => None,
    }
}

/// The book of the first `plies` plies of the games of `reads` that are of `game` and
/// have a result (the PDN convention: `1-0` a win for White, whoever moved first).
pub fn import(game: Variant, reads: &[PdnRead], plies: usize) -> (Book, ImportReport) {
    let mut counts: HashMap<MoveKey, (u32, u32, u32)> = HashMap::new();
    let mut report = ImportReport::default();
    for file_game in reads.iter().flat_map(|r| &r.games) {
        let replay = &file_game.replay;
        let result = file_game.pdn.result_or_tag().and_then(winner);
        let (Some(result), true) = (result, replay.start().variant() == game) else {
            report.left_out += 1;
            continue;
        };
        report.games += 1;
        for (position, &mv) in replay.positions().iter().zip(replay.moves()).take(plies) {
            let mover = position.side_to_move();
            let c = counts
                .entry((book_key(position), encode(game, mv)))
                .or_default();
            c.0 = c.0.saturating_add(1);
            match result {
                Some(w) if w == mover => c.1 = c.1.saturating_add(1),
                Some(_) => c.2 = c.2.saturating_add(1),
                None => {}
            }
        }
    }
    let entries = counts
        .into_iter()
        .map(
            |((key, (from, to, captured, crowns)), (count, wins, losses))| Entry {
                key,
                from,
                to,
                captured,
                flags: crowns,
                depth: 0,
                value: 0,
                search: 0,
                count,
                wins,
                losses,
            },
        )
        .collect();
    (Book::new(game, entries), report)
}
