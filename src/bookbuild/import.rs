//! Books from PDN games: every move of the first plies of every game with a result,
//! counted with the games it won, drew and lost for the side that played it (the
//! counting is the engine's [`GameIndex`], which the opening explorer reads too).

use crate::board::Variant;
use crate::book::Book;
use crate::book::games::GameIndex;
use crate::game::pdn_file::PdnRead;

/// What an import counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImportReport {
    /// Games whose moves were counted.
    pub games: usize,
    /// Games left out: another game's, or without a result.
    pub left_out: usize,
}

/// The book of the first `plies` plies of the games of `reads` that are of `game` and
/// have a result (the PDN convention: `1-0` a win for White, whoever moved first).
pub fn import(game: Variant, reads: &[PdnRead], plies: usize) -> (Book, ImportReport) {
    let index = GameIndex::new(game, reads, Some(plies));
    let report = ImportReport {
        games: index.games().len(),
        left_out: index.left_out(),
    };
    (index.to_book(), report)
}
