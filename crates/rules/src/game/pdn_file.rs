//! PDN files as other programs write them: UTF-8 with or without a byte-order mark,
//! UTF-16 with one, or Windows-1252 / Latin-1 bytes (Italian names and comments from
//! older Windows programs); CRLF or LF line ends; one or many games. A game's
//! `GameType` tag picks its variant (21 English, 22 Italian, 23 Pool, 24 Spanish, 25 Russian, 26 Brazilian, 29 Czech, 31 Thai, 42 Damka);
//! a game without one is of the reader's default variant (Italian unless told
//! otherwise); a game of any other type is refused by its name.
//!
//! ```
//! use damiera_rules::game::pdn_file::read_games;
//! // "Città" in Latin-1, a byte-order mark-free file with CRLF line ends.
//! let bytes = b"[Event \"Citt\xe0\"]\r\n[GameType \"22\"]\r\n\r\n1. 22-18 11-14 *\r\n";
//! let games = read_games(bytes).unwrap();
//! assert_eq!(games[0].tag("Event"), Some("Città"));
//! ```

use super::Game;
use super::pdn::{PdnGame, PdnWarning, parse_pdn, recover_pdn};
use super::replay::replay_recovering;
use crate::board::Variant;

/// The `GameType` of Italian draughts in PDN.
pub const ITALIAN_GAME_TYPE: u32 = 22;

/// The text of a file's bytes: UTF-8 (a byte-order mark is dropped), UTF-16 with a
/// byte-order mark, else Windows-1252 (of which Latin-1's printable range is a part).
pub fn decode(bytes: &[u8]) -> String {
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        return String::from_utf8_lossy(rest).into_owned();
    }
    if let Some(rest) = bytes.strip_prefix(b"\xFF\xFE") {
        return utf16(rest, u16::from_le_bytes);
    }
    if let Some(rest) = bytes.strip_prefix(b"\xFE\xFF") {
        return utf16(rest, u16::from_be_bytes);
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => bytes.iter().map(|&b| windows_1252(b)).collect(),
    }
}

fn utf16(bytes: &[u8], unit: fn([u8; 2]) -> u16) -> String {
    let units = bytes.chunks_exact(2).map(|c| unit([c[0], c[1]]));
    char::decode_utf16(units)
        .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect()
}

/// Windows-1252: Latin-1 but for 0x80..=0x9F, where it has typographic signs; the five
/// bytes it leaves undefined map to the control characters of the same value.
fn windows_1252(byte: u8) -> char {
    const HIGH: [char; 32] = [
        '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8D}', 'Ž',
        '\u{8F}', '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9D}',
        'ž', 'Ÿ',
    ];
    match byte {
        0x80..=0x9F => HIGH[usize::from(byte - 0x80)],
        _ => char::from(byte),
    }
}

/// The game type numbers of the PDN standard that a file may carry instead of 22.
fn game_type_name(number: u32) -> Option<&'static str> {
    Some(match number {
        0 => "chess",
        1 => "Chinese chess",
        20 => "international draughts",
        21 => "English draughts",
        22 => "Italian draughts",
        23 => "American pool checkers",
        24 => "Spanish draughts",
        25 => "Russian draughts",
        26 => "Brazilian draughts",
        27 => "Canadian draughts",
        28 => "Portuguese draughts",
        29 => "Czech draughts",
        30 => "Turkish draughts",
        31 => "Thai draughts",
        40 => "Frisian draughts",
        41 => "Spantsiretti",
        _ => return None,
    })
}

/// The variant of a game: its `GameType` tag (the number, optionally followed by the
/// standard's comma-separated board description) or, without one, `default`. A game
/// type Damiera does not play is refused with one line naming it, e.g. `GameType 20 is
/// international draughts, which Damiera does not play (it plays 21 English, ...)`.
pub fn game_variant(game: &PdnGame, default: Variant) -> Result<Variant, String> {
    let Some(value) = game.tag("GameType") else {
        return Ok(default);
    };
    let first = value.split(',').next().unwrap_or("").trim();
    let played = Variant::game_types_listed();
    match first.parse::<u32>() {
        Ok(n) => Variant::from_game_type(n).ok_or_else(|| match game_type_name(n) {
            Some(name) => {
                format!("GameType {n} is {name}, which Damiera does not play (it plays {played})")
            }
            None => format!("GameType {n} is not a game type Damiera plays ({played})"),
        }),
        Err(_) => Err(format!(
            "GameType {:?} is not a game type number ({played})",
            value.chars().take(40).collect::<String>()
        )),
    }
}

/// Checks the `GameType` tag of an Italian reader: absent or one Damiera plays (see
/// [`game_variant`]).
pub fn check_game_type(game: &PdnGame) -> Result<(), String> {
    game_variant(game, Variant::Italian).map(|_| ())
}

/// Reads every game of a PDN file's bytes strictly, refusing the file at its first
/// fault or game of another game type (see [`read_recovering`] for a reader that reads
/// every game it can). Errors are one line.
pub fn read_games(bytes: &[u8]) -> Result<Vec<PdnGame>, String> {
    let games = parse_pdn(&decode(bytes)).map_err(|e| e.to_string())?;
    for (i, game) in games.iter().enumerate() {
        check_game_type(game).map_err(|e| format!("PDN game {}: {e}", i + 1))?;
    }
    Ok(games)
}

/// A game of a file read by [`read_recovering`].
#[derive(Clone, Debug, PartialEq)]
pub struct FileGame {
    /// 1-based number of the game in the file (skipped games keep their numbers).
    pub number: usize,
    /// The record, repairs applied (an ambiguous capture written as its full path).
    pub pdn: PdnGame,
    /// Its legal replay, in its variant under that variant's draw rules.
    pub replay: Game,
}

/// What [`read_recovering`] made of a file: the games read and what was wrong with
/// the others.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PdnRead {
    /// The games read (repaired ones included), in file order.
    pub games: Vec<FileGame>,
    /// Every repair and every skipped game, in file order.
    pub warnings: Vec<PdnWarning>,
    /// Games read with at least one repair.
    pub repaired: usize,
    /// Games left out.
    pub skipped: usize,
}

impl PdnRead {
    /// Whether no game was skipped.
    pub fn complete(&self) -> bool {
        self.skipped == 0
    }

    /// `12 games read (1 repaired), 2 skipped`.
    pub fn summary(&self) -> String {
        let n = self.games.len();
        format!(
            "{n} game{} read ({} repaired), {} skipped",
            if n == 1 { "" } else { "s" },
            self.repaired,
            self.skipped
        )
    }

    /// The warnings as lines naming the file: `games.pdn: game 3, line 41: skipped: ...`.
    pub fn warning_lines(&self, name: &str) -> Vec<String> {
        self.warnings
            .iter()
            .map(|w| format!("{name}: {w}"))
            .collect()
    }
}

/// Reads every game of a PDN file's bytes that can be read (see
/// [`recover_pdn`]): a game with a fault of certain meaning is repaired, any other
/// (another `GameType`, an illegal move among them) is skipped, and the rest of the file
/// is read. Each game read replays legally. A game without `GameType` is Italian.
pub fn read_recovering(bytes: &[u8]) -> PdnRead {
    read_recovering_in(bytes, Variant::Italian)
}

/// [`read_recovering`], a game without `GameType` being of `default`.
pub fn read_recovering_in(bytes: &[u8], default: Variant) -> PdnRead {
    let mut read = PdnRead::default();
    for entry in recover_pdn(&decode(bytes)) {
        let mut warnings = entry.warnings;
        let kept = entry.game.and_then(|mut pdn| {
            let lines = (entry.line, entry.move_lines.as_slice());
            match replay_recovering(&mut pdn, entry.number, lines, default) {
                Ok((replay, repairs)) => {
                    warnings.extend(repairs);
                    Some(FileGame {
                        number: entry.number,
                        pdn,
                        replay,
                    })
                }
                Err(skip) => {
                    warnings.push(skip);
                    None
                }
            }
        });
        match kept {
            Some(game) => {
                read.repaired += usize::from(!warnings.is_empty());
                read.games.push(game);
            }
            None => read.skipped += 1,
        }
        read.warnings.extend(warnings);
    }
    read
}

/// Reads the PDN file at `path` with [`read_recovering`]; the error (a file that
/// cannot be read) names it.
pub fn read_file(path: &std::path::Path) -> Result<PdnRead, String> {
    read_file_in(path, Variant::Italian)
}

/// [`read_file`], a game without `GameType` being of `default`.
pub fn read_file_in(path: &std::path::Path, default: Variant) -> Result<PdnRead, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(read_recovering_in(&bytes, default))
}

/// One line about a game for a picker: `1. White - Black, Event, Date, 1-0 (42 moves)`.
pub fn describe(index: usize, game: &PdnGame) -> String {
    let tag = |name| game.tag(name).filter(|v| !v.is_empty() && *v != "?");
    let mut text = format!(
        "{}. {} - {}",
        index + 1,
        tag("White").unwrap_or("?"),
        tag("Black").unwrap_or("?")
    );
    for name in ["Event", "Date"] {
        if let Some(v) = tag(name) {
            text.push_str(", ");
            text.push_str(v);
        }
    }
    let result = game.result.as_deref().unwrap_or("*");
    let moves = game.moves.len().div_ceil(2);
    text.push_str(&format!(", {result} ({moves} moves)"));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings_decode() {
        assert_eq!(decode(b"\xEF\xBB\xBF[Event \"x\"]"), "[Event \"x\"]");
        assert_eq!(decode("Città".as_bytes()), "Città");
        assert_eq!(decode(b"Citt\xe0 \x80 \x93\x96"), "Città € “–");
        assert_eq!(decode(b"\xFF\xFEa\0\xe0\0"), "aà");
        assert_eq!(decode(b"\xFE\xFF\0a\0\xe0"), "aà");
    }

    #[test]
    fn game_types() {
        let game = |t: &str| {
            let mut g = PdnGame::default();
            g.set_tag("GameType", t);
            g
        };
        assert_eq!(check_game_type(&PdnGame::default()), Ok(()));
        assert_eq!(check_game_type(&game("22")), Ok(()));
        assert_eq!(check_game_type(&game(" 22,W,8,8,A0,0")), Ok(()));
        assert_eq!(check_game_type(&game("21")), Ok(()));
        assert_eq!(
            game_variant(&game("21"), Variant::Italian),
            Ok(Variant::English)
        );
        assert_eq!(
            game_variant(&game("25"), Variant::Italian),
            Ok(Variant::Russian)
        );
        assert_eq!(
            game_variant(&game("26,W,8,8,A1,0"), Variant::Italian),
            Ok(Variant::Brazilian)
        );
        assert_eq!(
            game_variant(&PdnGame::default(), Variant::English),
            Ok(Variant::English)
        );
        assert_eq!(
            check_game_type(&game("20")),
            Err(
                "GameType 20 is international draughts, which Damiera does not play \
                 (it plays 21 English, 22 Italian, 23 Pool, 24 Spanish, 25 Russian, 26 Brazilian, 29 Czech, 31 Thai, 42 Damka)"
                    .into()
            )
        );
        assert_eq!(
            check_game_type(&game("99")),
            Err("GameType 99 is not a game type Damiera plays \
                 (21 English, 22 Italian, 23 Pool, 24 Spanish, 25 Russian, 26 Brazilian, 29 Czech, 31 Thai, 42 Damka)"
                .into())
        );
        assert!(check_game_type(&game("x")).is_err());
    }

    #[test]
    fn several_games_with_crlf_are_read_and_described() {
        let text = "[White \"Rossi\"]\r\n[Black \"Bianchi\"]\r\n\r\n1. 22-18 11-14 1-0\r\n\r\n\
                    [White \"A\"]\r\n\r\n1. 21-17 *\r\n";
        let games = read_games(text.as_bytes()).unwrap_or_default();
        assert_eq!(games.len(), 2);
        assert_eq!(describe(0, &games[0]), "1. Rossi - Bianchi, 1-0 (1 moves)");
        assert_eq!(games[1].moves.len(), 1);
        let wrong = "[GameType \"22\"]\n1. 22-18 *\n\n[GameType \"20\"]\n1. 32-28 *\n";
        assert_eq!(
            read_games(wrong.as_bytes()),
            Err(
                "PDN game 2: GameType 20 is international draughts, which Damiera does not \
                 play (it plays 21 English, 22 Italian, 23 Pool, 24 Spanish, 25 Russian, 26 Brazilian, 29 Czech, 31 Thai, 42 Damka)"
                    .into()
            )
        );
    }
}
