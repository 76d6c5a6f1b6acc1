//! The perft suites of every game (`tests/data/perft.txt`), read once for every test.
#![allow(dead_code)] // not every test binary that includes the support module reads them

use damiera::board::{HouseRules, Position, Variant};

/// One line of the perft data: a position of a game, its counting convention and the
/// leaves at depth 1, 2, ...
pub struct Suite {
    /// The line's label.
    pub label: String,
    /// Its game.
    pub game: Variant,
    /// Damka's house rules: the names after a `+` in the game column, comma-separated.
    pub house: HouseRules,
    /// The position as the file writes it.
    pub fen: String,
    /// The position, in its game's notation.
    pub position: Position,
    /// `true`: every capture path counts; `false`: each distinct move once.
    pub paths: bool,
    /// Leaves at depth 1, 2, ...
    pub counts: Vec<u64>,
}

/// Every suite of `tests/data/perft.txt`, in file order.
pub fn suites() -> Vec<Suite> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft.txt");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let f: Vec<&str> = line.split('|').map(str::trim).collect();
            assert_eq!(f.len(), 5, "{line}");
            let (game, house) = f[1].split_once('+').unwrap_or((f[1], ""));
            let variant: Variant = game.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
            let house = HouseRules::parse(house).unwrap_or_else(|e| panic!("{line}: {e}"));
            Suite {
                label: f[0].to_string(),
                game: variant,
                house,
                fen: f[2].to_string(),
                position: Position::parse_in(variant, f[2])
                    .unwrap_or_else(|e| panic!("{}: {e}", f[0]))
                    .with_house_rules(house),
                paths: match f[3] {
                    "paths" => true,
                    "distinct" => false,
                    other => panic!("{}: unknown mode {other}", f[0]),
                },
                counts: f[4]
                    .split_whitespace()
                    .map(|n| n.parse().unwrap_or_else(|e| panic!("{line}: {e}")))
                    .collect(),
            }
        })
        .collect()
}
