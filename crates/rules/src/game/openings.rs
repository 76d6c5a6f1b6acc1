//! Start positions for matches and self-play: the 11-man ballots shipped with Damiera
//! (`data/openings/`, built into the binary), the built-in short openings, and files of
//! openings (FEN lines or PDN games) as users bring them.

use std::collections::HashSet;

use super::pdn_file::{PdnRead, decode, read_recovering_in};
use crate::board::{Position, Variant};
use crate::movegen::legal_moves;

/// The 2,400 standard 11-man ballots, as shipped in `data/openings/` (source and
/// checksum in `data/openings/README.md`), in file order.
pub static BALLOTS_FILE: &[u8] =
    include_bytes!("../../../../data/openings/italian-11man-ballots.fen");

/// The name `--openings` takes for the shipped ballots.
pub const BALLOTS_NAME: &str = "builtin:ballots";
/// The name `--openings` takes for every distinct position after three plies.
pub const THREE_PLY_NAME: &str = "builtin:3ply";

/// The shipped 11-man ballots (empty only if the shipped file were broken, which a unit
/// test rules out).
pub fn ballots() -> Vec<Position> {
    parse_openings("ballots", BALLOTS_FILE).unwrap_or_default()
}

/// Openings by name: [`BALLOTS_NAME`], [`THREE_PLY_NAME`], or a file path (read with
/// [`parse_openings`]). The error names what was wrong.
pub fn load_openings(name: &str) -> Result<Vec<Position>, String> {
    load_openings_read(name).map(|(openings, _)| openings)
}

/// [`load_openings`], with the PDN reading of a PDN file (its warnings and summary).
pub fn load_openings_read(name: &str) -> Result<(Vec<Position>, Option<PdnRead>), String> {
    load_openings_in(name, Variant::Italian)
}

/// Openings of `variant` by name: the shipped ballots (Italian only: refused for the
/// other variants), [`THREE_PLY_NAME`] from the variant's start, or a file read in the
/// variant's notation (a PDN game without `GameType` is of `variant`); an opening of
/// another variant (a PDN game's `GameType`) is refused by name.
pub fn load_openings_in(
    name: &str,
    variant: Variant,
) -> Result<(Vec<Position>, Option<PdnRead>), String> {
    match name {
        BALLOTS_NAME if variant == Variant::Italian => Ok((ballots(), None)),
        BALLOTS_NAME => Err(format!(
            "{name}: the shipped ballots are Italian openings, not {}",
            variant.title()
        )),
        THREE_PLY_NAME => Ok((default_openings_in(variant, 3), None)),
        path => {
            let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
            let (openings, read) =
                parse_openings_in(path, &bytes, variant).map_err(|e| format!("{path}: {e}"))?;
            match openings.iter().position(|p| p.variant() != variant) {
                Some(i) => Err(format!(
                    "{path}: opening {} is a game of {}, not {}",
                    i + 1,
                    openings[i].variant().title(),
                    variant.title()
                )),
                None => Ok((openings, read)),
            }
        }
    }
}

/// All distinct positions (by Zobrist key) after `plies` plies from the initial
/// position, in move-generation order: the built-in opening set.
pub fn default_openings(plies: u32) -> Vec<Position> {
    default_openings_in(Variant::Italian, plies)
}

/// [`default_openings`] from `variant`'s start position.
pub fn default_openings_in(variant: Variant, plies: u32) -> Vec<Position> {
    let mut layer = vec![Position::start_of(variant)];
    for _ in 0..plies {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for pos in &layer {
            for mv in legal_moves(pos).iter() {
                let child = pos.play(*mv);
                if seen.insert(child.key()) {
                    next.push(child);
                }
            }
        }
        layer = next;
    }
    layer
}

/// Reads openings: a PDN file (each game's `FEN` tag, or the initial position, then
/// its moves) when the name ends in `.pdn` or the text starts with `[`, otherwise one
/// position (PDN FEN or Hub string) a line, ignoring blank lines and `#` comments.
/// The text may be in any encoding [`decode`] reads.
/// A PDN file's games that cannot be read are skipped (see
/// [`crate::game::pdn_file::read_recovering`]).
pub fn parse_openings(name: &str, bytes: &[u8]) -> Result<Vec<Position>, String> {
    parse_openings_read(name, bytes).map(|(openings, _)| openings)
}

/// [`parse_openings`], with the PDN reading of a PDN file (its warnings and summary).
pub fn parse_openings_read(
    name: &str,
    bytes: &[u8],
) -> Result<(Vec<Position>, Option<PdnRead>), String> {
    parse_openings_in(name, bytes, Variant::Italian)
}

/// [`parse_openings_read`] in `variant`'s notation (the default variant of PDN games
/// without `GameType`).
pub fn parse_openings_in(
    name: &str,
    bytes: &[u8],
    variant: Variant,
) -> Result<(Vec<Position>, Option<PdnRead>), String> {
    let text = &decode(bytes);
    let is_pdn = name.to_ascii_lowercase().ends_with(".pdn") || text.trim_start().starts_with('[');
    let (openings, read) = if is_pdn {
        let read = read_recovering_in(bytes, variant);
        let openings = read.games.iter().map(|g| g.replay.position()).collect();
        (openings, Some(read))
    } else {
        (fen_openings(text, variant)?, None)
    };
    if openings.is_empty() {
        let why = read
            .as_ref()
            .and_then(|r| r.warnings.last())
            .map(|w| format!(" ({w})"))
            .unwrap_or_default();
        return Err(format!("{name}: no openings{why}"));
    }
    Ok((openings, read))
}

fn fen_openings(text: &str, variant: Variant) -> Result<Vec<Position>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| {
            Position::parse_in(variant, l.trim()).map_err(|e| format!("line {}: {e}", i + 1))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_has_its_openings() {
        assert_eq!(
            default_openings_in(Variant::Italian, 3),
            default_openings(3)
        );
        for v in [Variant::English, Variant::Russian, Variant::Brazilian] {
            let four = default_openings_in(v, 4);
            assert!(four.len() > 300, "{v}: {}", four.len());
            assert!(four.iter().all(|p| p.variant() == v));
        }
    }

    #[test]
    fn default_openings_are_distinct() {
        assert_eq!(default_openings(1).len(), 7);
        let three = default_openings(3);
        let keys: HashSet<u64> = three.iter().map(Position::key).collect();
        assert_eq!(keys.len(), three.len());
        assert!(three.len() > 50, "{}", three.len());
    }

    #[test]
    fn the_shipped_ballots_are_the_11_man_set() {
        let ballots = ballots();
        assert_eq!(ballots.len(), 2400);
        let keys: HashSet<u64> = ballots.iter().map(Position::key).collect();
        assert_eq!(keys.len(), 2400);
        for pos in &ballots {
            assert_eq!(pos.side_to_move(), crate::board::Color::White);
            assert_eq!(pos.pieces(crate::board::Color::White).count_ones(), 11);
            assert_eq!(pos.pieces(crate::board::Color::Black).count_ones(), 11);
            assert_eq!(pos.all_kings(), 0);
        }
        let first =
            Position::parse("W:W24,23,22,21,27,26,25,32,31,30,29:B4,3,2,1,7,6,5,11,10,9,15");
        assert_eq!(Some(ballots[0]), first.ok());
        assert_eq!(load_openings(BALLOTS_NAME), Ok(ballots));
        assert_eq!(load_openings(THREE_PLY_NAME), Ok(default_openings(3)));
        let missing = load_openings("/nonexistent/o.fen").unwrap_err();
        assert!(missing.starts_with("/nonexistent/o.fen: "), "{missing}");
    }

    #[test]
    fn fen_and_pdn_openings() {
        let fens = "# comment\nW:W21,22:B1,2\n\nWbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww\n";
        assert_eq!(
            parse_openings("o.txt", fens.as_bytes()).map(|v| v.len()),
            Ok(2)
        );
        assert!(parse_openings("o.txt", b"junk").is_err());
        let pdn = "[Event \"x\"]\n1. 22-19 11-15 *\n\n[Event \"y\"]\n1. 21-17 *\n";
        let ops = parse_openings("o.pdn", pdn.as_bytes());
        assert_eq!(ops.as_ref().map(|v| v.len()), Ok(2));
        let bad = parse_openings("o.pdn", b"1. 22-17 *");
        assert!(bad.is_err_and(|e| e.contains("game 1, line 1: skipped: move 1")));
        let one_bad = "[Event \"x\"]\n1. 22-17 *\n\n[Event \"y\"]\n1. 21-17 *\n";
        let (ops, read) = parse_openings_read("o.pdn", one_bad.as_bytes()).unwrap_or_default();
        assert_eq!(ops.len(), 1);
        assert_eq!(read.map(|r| r.skipped), Some(1));
    }
}
