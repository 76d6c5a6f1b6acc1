//! Engine parameters of the Hub protocol: their `param` declarations and the checking
//! of `set-param` values.

use super::response::{Param, ParamType};
use crate::engine::EngineOptions;
use crate::game::DrawRules;
use crate::search::Style;
use crate::search::eval::EvalFile;

/// Smallest and largest `threads` value.
const THREADS: (i64, i64) = (1, 64);
/// Smallest and largest `tt-size` value, MiB (1 TiB: a size the machine cannot give is
/// refused when the table is allocated, see [`crate::engine::Searcher::configure`]).
pub const TT_MIB: (i64, i64) = (1, 1 << 20);
/// Smallest and largest `multipv` value.
const MULTIPV: (i64, i64) = (1, 32);
/// Smallest and largest `draw-moves` value (0: no move limit).
const DRAW_MOVES: (i64, i64) = (0, 1000);
/// Smallest and largest `contempt` value, hundredths of a man.
const CONTEMPT: (i64, i64) = (-100, 100);

/// The parameter values a GUI can set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    /// Search threads.
    pub threads: usize,
    /// Transposition table size, MiB.
    pub tt_mib: usize,
    /// The GUI will use `go ponder`.
    pub ponder: bool,
    /// Search features: `full` (the engine), `hce` (the hand-made evaluation) or
    /// `baseline` (first version); the last two are match yardsticks.
    pub style: Style,
    /// Endgame database directory; empty: the default directory, used when present.
    pub egdb_path: String,
    /// Best root moves reported per iteration (a Damiera extension).
    pub multipv: usize,
    /// Moves per side without a capture or a man move that draw the game (0: no limit);
    /// the search scores such lines as draws.
    pub draw_moves: u32,
    /// The pattern evaluation's weights and the file they came from.
    pub eval_file: EvalFile,
    /// Contempt for draws in play, hundredths of a man (a Damiera extension).
    pub contempt: i32,
}

impl Default for Params {
    fn default() -> Self {
        let options = EngineOptions::default();
        Params {
            threads: options.threads,
            tt_mib: options.tt_mib,
            ponder: false,
            style: options.style,
            egdb_path: String::new(),
            multipv: options.multipv,
            draw_moves: options.rules.quiet_moves.unwrap_or(0),
            eval_file: EvalFile::embedded(),
            contempt: options.contempt,
        }
    }
}

impl Params {
    /// The engine settings these parameters ask for.
    pub fn engine_options(&self) -> EngineOptions {
        EngineOptions {
            threads: self.threads,
            tt_mib: self.tt_mib,
            style: self.style,
            multipv: self.multipv,
            rules: DrawRules::default().with_quiet_moves(self.draw_moves),
            contempt: self.contempt,
        }
    }

    /// The `param` lines answering `hub`, in declaration order, with current values.
    pub fn declarations(&self) -> Vec<Param> {
        vec![
            declare("variant", "italian", enumeration(&["italian"])),
            declare("threads", &self.threads.to_string(), int(THREADS)),
            declare("tt-size", &self.tt_mib.to_string(), int(TT_MIB)),
            declare("ponder", bool_text(self.ponder), ParamType::Bool),
            declare(
                "style",
                style_name(self.style),
                enumeration(&["full", "hce", "baseline"]),
            ),
            declare("egdb-path", &self.egdb_path, ParamType::String),
            declare("multipv", &self.multipv.to_string(), int(MULTIPV)),
            declare("eval-file", self.eval_file.name(), ParamType::String),
            declare("draw-moves", &self.draw_moves.to_string(), int(DRAW_MOVES)),
            declare("contempt", &self.contempt.to_string(), int(CONTEMPT)),
        ]
    }

    /// Applies `set-param name=<name> value=<value>`; on error nothing changes and the
    /// reason (without the `set-param: ` prefix) is returned.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "variant" if value == "italian" => {}
            "variant" => return Err(bad(name, value, "only italian is supported")),
            "threads" => self.threads = parse_int(name, value, THREADS)?,
            "tt-size" => self.tt_mib = parse_int(name, value, TT_MIB)?,
            "ponder" => self.ponder = parse_bool(name, value)?,
            "style" => self.style = parse_style(name, value)?,
            "egdb-path" => self.egdb_path = value.to_string(),
            "multipv" => self.multipv = parse_int(name, value, MULTIPV)?,
            "draw-moves" => self.draw_moves = parse_int(name, value, DRAW_MOVES)? as u32,
            "contempt" => self.contempt = parse_signed(name, value, CONTEMPT)? as i32,
            "eval-file" => {
                self.eval_file =
                    EvalFile::load(value).map_err(|e| bad(name, value, &e.to_string()))?
            }
            _ => return Err(format!("unknown parameter '{name}'")),
        }
        Ok(())
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

fn style_name(style: Style) -> &'static str {
    if style == Style::BASELINE {
        "baseline"
    } else if style == Style::HCE {
        "hce"
    } else {
        "full"
    }
}

fn bad(name: &str, value: &str, why: &str) -> String {
    format!("bad value for {name}: '{value}' ({why})")
}

fn parse_int(name: &str, value: &str, range: (i64, i64)) -> Result<usize, String> {
    let n = parse_signed(name, value, range)?;
    usize::try_from(n).map_err(|_| bad(name, value, "expected a count"))
}

fn parse_signed(name: &str, value: &str, (min, max): (i64, i64)) -> Result<i64, String> {
    match value.parse::<i64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(bad(
            name,
            value,
            &format!("expected an integer {min}..{max}"),
        )),
    }
}

fn parse_bool(name: &str, value: &str) -> Result<bool, String> {
    match value {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(bad(name, value, "expected true or false")),
    }
}

fn parse_style(name: &str, value: &str) -> Result<Style, String> {
    match value {
        "full" => Ok(Style::FULL),
        "hce" => Ok(Style::HCE),
        "baseline" => Ok(Style::BASELINE),
        _ => Err(bad(name, value, "expected full, hce or baseline")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_print_as_documented() {
        let lines: Vec<String> = Params::default()
            .declarations()
            .iter()
            .map(|p| p.to_string())
            .collect();
        assert_eq!(
            lines,
            [
                r#"param name=variant value=italian type=enum values="italian""#,
                "param name=threads value=1 type=int min=1 max=64",
                "param name=tt-size value=64 type=int min=1 max=1048576",
                "param name=ponder value=false type=bool",
                r#"param name=style value=full type=enum values="full hce baseline""#,
                r#"param name=egdb-path value="" type=string"#,
                "param name=multipv value=1 type=int min=1 max=32",
                "param name=eval-file value=embedded type=string",
                "param name=draw-moves value=40 type=int min=0 max=1000",
                "param name=contempt value=0 type=int min=-100 max=100",
            ]
        );
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
            ("variant", "brazilian"),
            ("hash", "1"),
        ] {
            assert!(p.set(name, value).is_err(), "{name}={value}");
        }
        assert_eq!(p, before);
        assert_eq!(p.engine_options().style, Style::BASELINE);
        assert_eq!(p.engine_options().multipv, 32);
        assert_eq!(p.engine_options().rules.quiet_moves, None);
        assert_eq!(p.engine_options().contempt, -100);
    }
}
