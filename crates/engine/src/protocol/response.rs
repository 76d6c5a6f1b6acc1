//! Engine → GUI messages: typed values, their canonical text ([`Display`]) and a
//! lenient parser for lines written by any Hub engine ([`parse_response`]).
//!
//! Real numbers are printed with fixed decimals (see [`Info`]), so a value prints
//! back unchanged only when it already has that many decimals. Text values follow
//! [`quote`](super::parser::quote): a `"` inside a value is written as `'`.

use std::fmt::{self, Display};

use super::parser::{
    Args, ParseError, bad_value, parse_line, quote_always, write_list, write_pair,
};

/// `id name=.. version=.. author=.. country=..`; every field is optional on input.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Id {
    /// Engine name.
    pub name: Option<String>,
    /// Engine version.
    pub version: Option<String>,
    /// Author(s).
    pub author: Option<String>,
    /// Country.
    pub country: Option<String>,
}

/// Declared type of an engine parameter, with its constraints.
#[derive(Debug, Clone, PartialEq)]
pub enum ParamType {
    /// `type=bool`: value `true` or `false`.
    Bool,
    /// `type=int [min=..] [max=..]`.
    Int {
        /// Smallest allowed value.
        min: Option<i64>,
        /// Largest allowed value.
        max: Option<i64>,
    },
    /// `type=real [min=..] [max=..]`.
    Real {
        /// Smallest allowed value.
        min: Option<f64>,
        /// Largest allowed value.
        max: Option<f64>,
    },
    /// `type=string`.
    String,
    /// `type=enum values="a b c"`.
    Enum {
        /// Allowed values.
        values: Vec<String>,
    },
}

/// `param name=.. value=.. type=.. [min=..] [max=..] [values=".."]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    /// Parameter name (required, non-empty).
    pub name: String,
    /// Current (default) value as text; empty when absent.
    pub value: String,
    /// Declared type; `None` when absent or not one of the five protocol types.
    pub kind: Option<ParamType>,
}

/// `info ...`: search progress. Every field is optional; real fields must be finite.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Info {
    /// `depth=N`: completed nominal depth in plies.
    pub depth: Option<u32>,
    /// `mean-depth=R`: average leaf depth, printed with 1 decimal.
    pub mean_depth: Option<f64>,
    /// `score=R`: in men, side-to-move view, printed with 2 decimals.
    pub score: Option<f64>,
    /// `nodes=N`: nodes searched.
    pub nodes: Option<u64>,
    /// `time=R`: seconds since the search started, printed with 3 decimals.
    pub time: Option<f64>,
    /// `nps=R`: millions of nodes per second, printed with 1 decimal.
    pub nps: Option<f64>,
    /// `pv="m1 m2 ..."`: principal variation in Hub move form, always quoted.
    pub pv: Option<Vec<String>>,
    /// `multipv=N`: rank of this line among the best root moves (a Damiera extension,
    /// sent only when the `multipv` parameter is above 1).
    pub multipv: Option<u32>,
    /// `book=1`: the move is the opening book's (a Damiera extension; `depth=0`).
    pub book: Option<u32>,
}

/// `done [move=..] [ponder=..]`: the answer to a `go`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Done {
    /// The move to play; `None` (plain `done`) when the side to move has no legal move.
    pub mv: Option<String>,
    /// The expected reply, for pondering.
    pub ponder: Option<String>,
}

/// An engine → GUI message.
#[derive(Debug, Clone, PartialEq)]
pub enum Response {
    /// Engine identification, first answer to `hub`.
    Id(Id),
    /// Parameter declaration, answer to `hub`.
    Param(Param),
    /// End of the `hub` answer.
    Wait,
    /// Answer to `init`.
    Ready,
    /// Answer to `ping`.
    Pong,
    /// Search progress.
    Info(Info),
    /// Search result, exactly once per `go`.
    Done(Done),
    /// `error message="..."`: a known command had a bad argument (state unchanged).
    Error {
        /// Human-readable reason.
        message: String,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kw {
    Id,
    Param,
    Wait,
    Ready,
    Pong,
    Info,
    Done,
    Error,
}

fn lookup(name: &str) -> Option<Kw> {
    Some(match name {
        "id" => Kw::Id,
        "param" => Kw::Param,
        "wait" => Kw::Wait,
        "ready" => Kw::Ready,
        "pong" => Kw::Pong,
        "info" => Kw::Info,
        "done" => Kw::Done,
        "error" => Kw::Error,
        _ => return None,
    })
}

fn owned(value: Option<&str>) -> Option<String> {
    value.map(str::to_string)
}

fn non_empty(value: Option<&str>) -> Option<String> {
    value.filter(|v| !v.is_empty()).map(str::to_string)
}

fn words(value: &str) -> Vec<String> {
    value.split_whitespace().map(str::to_string).collect()
}

fn build(kw: Kw, args: &Args<'_>) -> Result<Response, String> {
    Ok(match kw {
        Kw::Id => Response::Id(Id {
            name: owned(args.get("name")),
            version: owned(args.get("version")),
            author: owned(args.get("author")),
            country: owned(args.get("country")),
        }),
        Kw::Param => Response::Param(build_param(args)?),
        Kw::Wait => Response::Wait,
        Kw::Ready => Response::Ready,
        Kw::Pong => Response::Pong,
        Kw::Info => Response::Info(build_info(args)?),
        Kw::Done => Response::Done(Done {
            mv: non_empty(args.get("move")),
            ponder: non_empty(args.get("ponder")),
        }),
        Kw::Error => Response::Error {
            message: args.get("message").unwrap_or("").to_string(),
        },
    })
}

fn build_param_type(args: &Args<'_>) -> Result<Option<ParamType>, String> {
    Ok(Some(match args.get("type").unwrap_or("") {
        "bool" => ParamType::Bool,
        "int" => ParamType::Int {
            min: args.number("min")?,
            max: args.number("max")?,
        },
        "real" => ParamType::Real {
            min: args.real("min")?,
            max: args.real("max")?,
        },
        "string" => ParamType::String,
        "enum" => ParamType::Enum {
            values: words(args.get("values").unwrap_or("")),
        },
        _ => return Ok(None),
    }))
}

fn build_param(args: &Args<'_>) -> Result<Param, String> {
    let name = args.require("name")?;
    if name.is_empty() {
        return Err(bad_value("name", name));
    }
    Ok(Param {
        name: name.to_string(),
        value: args.get("value").unwrap_or("").to_string(),
        kind: build_param_type(args)?,
    })
}

fn build_info(args: &Args<'_>) -> Result<Info, String> {
    Ok(Info {
        depth: args.number("depth")?,
        mean_depth: args.real("mean-depth")?,
        score: args.real("score")?,
        nodes: args.number("nodes")?,
        time: args.non_negative("time")?,
        nps: args.non_negative("nps")?,
        pv: args.get("pv").map(words),
        multipv: args.number("multipv")?,
        book: args.number("book")?,
    })
}

/// Parses one engine → GUI line.
///
/// `Ok(None)` for an empty line or an unknown message (engines may print other
/// text, e.g. during `init`); `Err` for a known message with a bad value or broken
/// syntax. Unknown keys and bare flags are ignored. Never panics.
pub fn parse_response(line: &str) -> Result<Option<Response>, ParseError> {
    parse_line(line, lookup, build)
}

fn write_opt(f: &mut fmt::Formatter<'_>, key: &str, value: &Option<String>) -> fmt::Result {
    match value {
        Some(v) => write_pair(f, key, v),
        None => Ok(()),
    }
}

fn write_real(
    f: &mut fmt::Formatter<'_>,
    key: &str,
    value: Option<f64>,
    decimals: usize,
) -> fmt::Result {
    match value {
        Some(v) => write!(f, " {key}={v:.decimals$}"),
        None => Ok(()),
    }
}

fn write_plain<T: Display>(f: &mut fmt::Formatter<'_>, key: &str, value: Option<T>) -> fmt::Result {
    match value {
        Some(v) => write!(f, " {key}={v}"),
        None => Ok(()),
    }
}

impl Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("id")?;
        write_opt(f, "name", &self.name)?;
        write_opt(f, "version", &self.version)?;
        write_opt(f, "author", &self.author)?;
        write_opt(f, "country", &self.country)
    }
}

impl Display for ParamType {
    /// ` type=.. [min=..] [max=..] [values=".."]` with a leading space.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamType::Bool => f.write_str(" type=bool"),
            ParamType::Int { min, max } => {
                f.write_str(" type=int")?;
                write_plain(f, "min", *min)?;
                write_plain(f, "max", *max)
            }
            ParamType::Real { min, max } => {
                f.write_str(" type=real")?;
                write_plain(f, "min", *min)?;
                write_plain(f, "max", *max)
            }
            ParamType::String => f.write_str(" type=string"),
            ParamType::Enum { values } => {
                f.write_str(" type=enum")?;
                write_list(f, "values", values)
            }
        }
    }
}

impl Display for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("param")?;
        write_pair(f, "name", &self.name)?;
        write_pair(f, "value", &self.value)?;
        match &self.kind {
            Some(kind) => kind.fmt(f),
            None => Ok(()),
        }
    }
}

impl Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        write_plain(f, "depth", self.depth)?;
        write_plain(f, "multipv", self.multipv)?;
        write_real(f, "mean-depth", self.mean_depth, 1)?;
        write_real(f, "score", self.score, 2)?;
        write_plain(f, "nodes", self.nodes)?;
        write_real(f, "time", self.time, 3)?;
        write_real(f, "nps", self.nps, 1)?;
        if let Some(pv) = &self.pv {
            write_list(f, "pv", pv)?;
        }
        write_plain(f, "book", self.book)
    }
}

impl Display for Done {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("done")?;
        write_opt(f, "move", &self.mv)?;
        write_opt(f, "ponder", &self.ponder)
    }
}

impl Display for Response {
    /// The canonical line (no newline).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Response::Id(id) => id.fmt(f),
            Response::Param(param) => param.fmt(f),
            Response::Wait => f.write_str("wait"),
            Response::Ready => f.write_str("ready"),
            Response::Pong => f.write_str("pong"),
            Response::Info(info) => info.fmt(f),
            Response::Done(done) => done.fmt(f),
            Response::Error { message } => write!(f, "error message={}", quote_always(message)),
        }
    }
}

#[cfg(test)]
mod tests;
