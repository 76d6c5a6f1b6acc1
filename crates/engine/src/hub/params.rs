//! Parameters of the Hub protocol: their `param` declarations and the checking of
//! `set-param` values. The engine's own parameters (threads, tt-size, style, multipv,
//! contempt, ...) are declared once, in [`EngineOptions::PARAMETERS`]; this room adds
//! those of the protocol and the session: `variant`, `ponder`, `egdb-path`,
//! `eval-file`, `draw-moves`, `book` and `house-rules`.

use crate::board::{HouseRules, Position, Variant};
use crate::engine::{EngineOptions, ParameterKind};
use crate::game::DrawRules;
use crate::protocol::response::{Param, ParamType};
use crate::search::eval::EvalFile;

/// The `book` value of no book.
const BOOK_OFF: &str = "off";
/// The `book` value of the book shipped for the variant.
const BOOK_EMBEDDED: &str = "embedded";

/// Smallest and largest `draw-moves` value (0: no move limit).
const DRAW_MOVES: (i64, i64) = (0, 1000);

/// The parameter values a GUI can set.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// The engine's options: its parameters, the weights of `eval_file` and, once the
    /// session has loaded them, the databases of `egdb_path`.
    pub engine: EngineOptions,
    /// The game: its rules, its start position and the notation of positions and moves.
    pub variant: Variant,
    /// The GUI will use `go ponder`.
    pub ponder: bool,
    /// Endgame database directory; empty: the default directory, used when present.
    pub egdb_path: String,
    /// Moves per side without a capture or a man move that draw the game (0: no limit);
    /// the search scores such lines as draws. `None`: the variant's own rule (40 moves
    /// Italian and English, 15 Russian, 25 Brazilian).
    pub draw_moves: Option<u32>,
    /// The pattern evaluation's weights and the file they came from.
    pub eval_file: EvalFile,
    /// The opening book's file as set: `off`, `embedded` (the book shipped for the
    /// variant) or a path; the book itself is in `engine.book`.
    pub book: String,
    /// Damka's house rules (none in any other game).
    pub house_rules: HouseRules,
}

impl Default for Params {
    fn default() -> Self {
        let eval_file = EvalFile::embedded();
        Params {
            engine: EngineOptions {
                weights: std::sync::Arc::clone(eval_file.weights()),
                ..EngineOptions::default()
            },
            variant: Variant::Italian,
            ponder: false,
            egdb_path: String::new(),
            draw_moves: None,
            eval_file,
            book: BOOK_OFF.to_string(),
            house_rules: HouseRules::NONE,
        }
    }
}

impl Params {
    /// The draw rules of the session's games: the variant's, with `draw-moves` if set.
    pub fn rules(&self) -> DrawRules {
        let rules = DrawRules::for_variant(self.variant);
        match self.draw_moves {
            Some(moves) => rules.with_quiet_moves(moves),
            None => rules,
        }
    }

    /// `pos` under the session's house rules.
    pub fn with_house_rules(&self, pos: Position) -> Position {
        pos.with_house_rules(self.house_rules)
    }

    /// The start position of the session's game, under its house rules.
    pub fn start(&self) -> Position {
        self.with_house_rules(Position::start_of(self.variant))
    }

    /// The `draw-moves` value in force: the one set, or the variant's.
    pub fn draw_moves(&self) -> u32 {
        self.rules().quiet_moves.unwrap_or(0)
    }

    /// The `param` lines answering `hub`, in declaration order, with current values:
    /// `variant`, the engine's parameters, then the session's.
    pub fn declarations(&self) -> Vec<Param> {
        let names = Variant::ALL.map(Variant::name);
        let mut params = vec![declare("variant", self.variant.name(), enumeration(&names))];
        params.extend(EngineOptions::PARAMETERS.iter().map(|p| {
            let value = self.engine.get(p.name).unwrap_or_default();
            let kind = match p.kind {
                ParameterKind::Int { min, max } => int((min, max)),
                ParameterKind::Enum(names) => enumeration(names),
                ParameterKind::Bool => ParamType::Bool,
            };
            declare(p.name, &value, kind)
        }));
        params.extend([
            declare("ponder", bool_text(self.ponder), ParamType::Bool),
            declare("egdb-path", &self.egdb_path, ParamType::String),
            declare("eval-file", self.eval_file.name(), ParamType::String),
            declare(
                "draw-moves",
                &self.draw_moves().to_string(),
                int(DRAW_MOVES),
            ),
            declare("book", &self.book, ParamType::String),
            declare(
                "house-rules",
                &self.house_rules.to_string(),
                ParamType::String,
            ),
        ]);
        params
    }

    /// Applies `set-param name=<name> value=<value>`; on error nothing changes and the
    /// reason (without the `set-param: ` prefix) is returned.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        if self.engine.set(name, value)? {
            return Ok(());
        }
        match name {
            "variant" => {
                let variant = parse_variant(name, value)?;
                if self.book == BOOK_EMBEDDED {
                    self.engine.book = crate::book::embedded(variant).map(std::sync::Arc::new);
                }
                self.variant = variant;
                if variant != Variant::Damka {
                    self.house_rules = HouseRules::NONE;
                }
            }
            "house-rules" => {
                let house = HouseRules::parse(value).map_err(|e| bad(name, value, &e))?;
                house
                    .check_variant(self.variant)
                    .map_err(|e| bad(name, value, &e))?;
                self.house_rules = house;
            }
            "book" => {
                self.engine.book = self.load_book(value).map_err(|e| bad(name, value, &e))?;
                self.book = if value.is_empty() { BOOK_OFF } else { value }.to_string();
            }
            "ponder" => self.ponder = parse_bool(name, value)?,
            "egdb-path" => self.egdb_path = value.to_string(),
            "draw-moves" => self.draw_moves = Some(parse_count(name, value, DRAW_MOVES)?),
            "eval-file" => {
                self.eval_file =
                    EvalFile::load(value).map_err(|e| bad(name, value, &e.to_string()))?;
                self.engine.weights = std::sync::Arc::clone(self.eval_file.weights());
            }
            _ => return Err(format!("unknown parameter '{name}'")),
        }
        Ok(())
    }
}

impl Params {
    /// The book a `book` value names, of the session's variant.
    fn load_book(&self, value: &str) -> Result<Option<std::sync::Arc<crate::book::Book>>, String> {
        let book = match value {
            "" | BOOK_OFF => return Ok(None),
            BOOK_EMBEDDED => {
                return Ok(crate::book::embedded(self.variant).map(std::sync::Arc::new));
            }
            path => crate::book::Book::open_for(std::path::Path::new(path), self.variant)
                .map_err(|e| e.to_string())?,
        };
        Ok(Some(std::sync::Arc::new(book)))
    }
}

fn declare(name: &str, value: &str, kind: ParamType) -> Param {
    Param {
        name: name.to_string(),
        value: value.to_string(),
        kind: Some(kind),
    }
}

fn enumeration(values: &[&str]) -> ParamType {
    ParamType::Enum {
        values: values.iter().map(|v| v.to_string()).collect(),
    }
}

fn int((min, max): (i64, i64)) -> ParamType {
    ParamType::Int {
        min: Some(min),
        max: Some(max),
    }
}

fn bool_text(value: bool) -> &'static str {
    if value { "true" } else { "false" }
}

fn bad(name: &str, value: &str, why: &str) -> String {
    format!("bad value for {name}: '{value}' ({why})")
}

fn parse_count(name: &str, value: &str, (min, max): (i64, i64)) -> Result<u32, String> {
    match value.parse::<i64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n as u32),
        _ => Err(bad(
            name,
            value,
            &format!("expected an integer {min}..{max}"),
        )),
    }
}

/// A variant by its exact protocol name (the declared values; no aliases).
fn parse_variant(name: &str, value: &str) -> Result<Variant, String> {
    Variant::ALL
        .into_iter()
        .find(|v| v.name() == value)
        .ok_or_else(|| {
            bad(
                name,
                value,
                &format!("expected {}", Variant::names_listed()),
            )
        })
}

fn parse_bool(name: &str, value: &str) -> Result<bool, String> {
    match value {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(bad(name, value, "expected true or false")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exact declaration lines of protocol.md's parameter table, in order.
    fn documented() -> Vec<String> {
        include_str!("../../../../protocol.md")
            .lines()
            .filter(|l| !l.contains("name=<n>"))
            .filter_map(|l| l.split_once("| `param name=").map(|(_, rest)| rest))
            .filter_map(|rest| {
                rest.split_once("` |")
                    .map(|(decl, _)| format!("param name={decl}"))
            })
            .collect()
    }

    #[test]
    fn house_rules_are_damka_only_and_follow_the_variant() {
        let mut p = Params::default();
        let err = p.set("house-rules", "huffing").unwrap_err();
        assert!(err.contains("damka only"), "{err}");
        assert!(p.set("variant", "damka").is_ok());
        assert!(p.set("house-rules", "huffing,stop-chain").is_ok());
        assert_eq!(p.house_rules.to_string(), "huffing,stop-chain");
        assert!(
            p.start()
                .house_rules()
                .contains(crate::board::HouseRule::Huffing)
        );
        let err = p.set("house-rules", "huffing,blowing").unwrap_err();
        assert!(
            err.contains("blowing") && err.contains("count-pieces"),
            "{err}"
        );
        assert_eq!(p.house_rules.to_string(), "huffing,stop-chain", "unchanged");
        assert!(p.set("house-rules", "").is_ok());
        assert!(p.house_rules.is_empty());
        assert!(p.set("house-rules", "men-forward-only").is_ok());
        assert!(p.set("variant", "russian").is_ok());
        assert!(p.house_rules.is_empty());
    }

    #[test]
    fn declarations_print_as_documented() {
        let lines: Vec<String> = Params::default()
            .declarations()
            .iter()
            .map(|p| p.to_string())
            .collect();
        assert_eq!(lines, documented());
        assert!(lines[0].starts_with("param name=variant "), "{lines:?}");
    }

    #[test]
    fn set_checks_values_and_keeps_state_on_error() {
        let mut p = Params::default();
        assert!(p.set("threads", "2").is_ok());
        assert!(p.set("tt-size", "16").is_ok());
        assert!(p.set("ponder", "true").is_ok());
        assert!(p.set("style", "baseline").is_ok());
        assert!(p.set("variant", "italian").is_ok());
        assert!(p.set("multipv", "32").is_ok());
        assert!(p.set("draw-moves", "0").is_ok());
        assert!(p.set("contempt", "-100").is_ok());
        let before = p.clone();
        for (name, value) in [
            ("threads", "0"),
            ("threads", "65"),
            ("threads", "x"),
            ("tt-size", "1048577"),
            ("tt-size", "0"),
            ("tt-size", ""),
            ("ponder", "yes"),
            ("style", "fast"),
            ("multipv", "0"),
            ("multipv", "33"),
            ("draw-moves", "-1"),
            ("draw-moves", "1001"),
            ("contempt", "101"),
            ("contempt", "-101"),
            ("contempt", "1.5"),
            ("eval-file", "/nonexistent/weights.dmw"),
            ("book", "/nonexistent/italian.book"),
            ("book-mode", "random"),
            ("book-margin", "-1"),
            ("variant", "international"),
            ("variant", "Italian"),
            ("hash", "1"),
        ] {
            assert!(p.set(name, value).is_err(), "{name}={value}");
        }
        assert_eq!(p, before);
        assert_eq!(p.engine.style, crate::search::Style::BASELINE);
        assert_eq!(p.engine.multipv, 32);
        assert_eq!(p.rules().quiet_moves, None);
        assert_eq!(p.engine.contempt, -100);
    }

    #[test]
    fn the_embedded_book_follows_the_variant() {
        let mut p = Params::default();
        assert!(p.engine.book.is_none(), "no book unless asked for");
        assert!(p.set("book", "embedded").is_ok());
        assert_eq!(
            p.engine.book.as_ref().map(|b| b.game()),
            Some(Variant::Italian)
        );
        for game in [
            Variant::Russian,
            Variant::Brazilian,
            Variant::Pool,
            Variant::Czech,
            Variant::Thai,
            Variant::Spanish,
            Variant::Damka,
            Variant::English,
        ] {
            assert!(p.set("variant", game.name()).is_ok());
            let shipped = (game != Variant::Thai).then_some(game);
            assert_eq!(p.engine.book.as_ref().map(|b| b.game()), shipped, "{game}");
        }
        assert!(p.set("book", "off").is_ok());
        assert!(p.engine.book.is_none());
        assert_eq!(p.book, "off");
    }

    #[test]
    fn variant_picks_its_rules_unless_draw_moves_is_set() {
        let mut p = Params::default();
        assert_eq!(p.draw_moves(), 40);
        assert!(p.set("variant", "russian").is_ok());
        assert_eq!((p.variant, p.draw_moves()), (Variant::Russian, 15));
        assert_eq!(p.rules(), DrawRules::for_variant(Variant::Russian));
        assert!(p.set("variant", "brazilian").is_ok());
        assert_eq!(p.draw_moves(), 25);
        assert!(p.set("draw-moves", "50").is_ok());
        assert!(p.set("variant", "english").is_ok());
        assert_eq!(
            p.draw_moves(),
            50,
            "a draw-moves set stays whatever the variant"
        );
        let first = p.declarations()[0].to_string();
        assert!(
            first.starts_with("param name=variant value=english"),
            "{first}"
        );
    }
}
