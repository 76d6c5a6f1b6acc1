//! Start positions for matches and self-play: the built-in short openings and files of
//! openings (FEN lines or PDN games) as users bring them.

use std::collections::HashSet;

use super::pdn::parse_pdn;
use super::pdn_file::decode;
use super::replay::replay_game;
use crate::board::Position;
use crate::movegen::legal_moves;

/// All distinct positions (by Zobrist key) after `plies` plies from the initial
/// position, in move-generation order: the built-in opening set.
pub fn default_openings(plies: u32) -> Vec<Position> {
    let mut layer = vec![Position::start()];
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
pub fn parse_openings(name: &str, bytes: &[u8]) -> Result<Vec<Position>, String> {
    let text = &decode(bytes);
    let is_pdn = name.to_ascii_lowercase().ends_with(".pdn") || text.trim_start().starts_with('[');
    let openings = if is_pdn {
        pdn_openings(text)?
    } else {
        fen_openings(text)?
    };
    if openings.is_empty() {
        return Err(format!("{name}: no openings"));
    }
    Ok(openings)
}

fn pdn_openings(text: &str) -> Result<Vec<Position>, String> {
    let games = parse_pdn(text).map_err(|e| e.to_string())?;
    games
        .iter()
        .enumerate()
        .map(|(i, g)| {
            replay_game(g, i + 1)
                .map(|r| r.position())
                .map_err(|e| e.to_string())
        })
        .collect()
}

fn fen_openings(text: &str) -> Result<Vec<Position>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| Position::parse(l.trim()).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_openings_are_distinct() {
        assert_eq!(default_openings(1).len(), 7);
        let three = default_openings(3);
        let keys: HashSet<u64> = three.iter().map(Position::key).collect();
        assert_eq!(keys.len(), three.len());
        assert!(three.len() > 50, "{}", three.len());
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
        assert!(bad.is_err_and(|e| e.contains("game 1, move 1")));
    }
}
