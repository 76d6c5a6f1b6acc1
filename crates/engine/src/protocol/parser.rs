//! Hub text layer: tokenizer, quoting rules and the GUI → engine command parser.
//!
//! A line is `<command> <arg>=<val> <arg>=<val> ...`; a value is a word (no blank,
//! control character, `=` or `"`) or a double-quoted string without `"`. An argument
//! without `=<val>` is a flag. Unknown commands are ignored (`Ok(None)`); a known
//! command with a bad or missing argument is an error naming the command and the
//! argument. Unknown arguments of known commands are ignored. When an argument is
//! repeated, the last occurrence wins.

use std::borrow::Cow;
use std::fmt::{self, Display, Write};
use std::str::FromStr;

use nom::bytes::complete::{take_till, take_while, take_while1};
use nom::character::complete::char;
use nom::combinator::{cut, eof, map_res, opt};
use nom::error::{ErrorKind, FromExternalError};
use nom::multi::many0;
use nom::sequence::preceded;
use nom::{IResult, Parser};

use crate::clock::{Limits, TimeLeft, millis, seconds_text};

/// Error for a line that names a known command or response but has a bad argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    message: String,
}

impl ParseError {
    /// Creates an error with the given human-readable message.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }

    /// The message, e.g. `level: bad value for depth: "abc"`.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParseError {}

/// nom error type: just a message.
#[derive(Debug)]
struct SyntaxError(String);

impl<'a> nom::error::ParseError<&'a str> for SyntaxError {
    fn from_error_kind(input: &'a str, _kind: ErrorKind) -> Self {
        let near: String = input.chars().take(24).collect();
        SyntaxError(format!("syntax error near {near:?}"))
    }

    fn append(_input: &'a str, _kind: ErrorKind, other: Self) -> Self {
        other
    }
}

impl<'a> FromExternalError<&'a str, String> for SyntaxError {
    fn from_external_error(_input: &'a str, _kind: ErrorKind, e: String) -> Self {
        SyntaxError(e)
    }
}

type PResult<'a, T> = IResult<&'a str, T, SyntaxError>;

fn failure<T>(message: impl Into<String>) -> Result<T, nom::Err<SyntaxError>> {
    Err(nom::Err::Failure(SyntaxError(message.into())))
}

/// True for characters that separate tokens.
pub fn is_blank(c: char) -> bool {
    c.is_whitespace()
}

/// True for characters allowed in an unquoted word (command, argument name or value).
pub fn is_word_char(c: char) -> bool {
    !c.is_whitespace() && !c.is_control() && c != '=' && c != '"'
}

fn blank0(input: &str) -> PResult<'_, &str> {
    take_while(is_blank).parse(input)
}

fn blank1(input: &str) -> PResult<'_, &str> {
    take_while1(is_blank).parse(input)
}

fn word(input: &str) -> PResult<'_, &str> {
    take_while1(is_word_char).parse(input)
}

fn quoted(input: &str) -> PResult<'_, &str> {
    let (input, _) = char('"').parse(input)?;
    let (input, body) = take_till(|c| c == '"').parse(input)?;
    match char::<&str, SyntaxError>('"').parse(input) {
        Ok((input, _)) => Ok((input, body)),
        Err(_) => failure("unterminated quoted value"),
    }
}

fn pair(input: &str) -> PResult<'_, (&str, Option<&str>)> {
    let (input, key) = word(input)?;
    let (input, eq) = opt(preceded(blank0, char('='))).parse(input)?;
    if eq.is_none() {
        return Ok((input, (key, None)));
    }
    match preceded(blank0, quoted)
        .or(preceded(blank0, word))
        .parse(input)
    {
        Ok((input, value)) => Ok((input, (key, Some(value)))),
        Err(nom::Err::Error(_)) => failure(format!("missing value after {key}=")),
        Err(e) => Err(e),
    }
}

fn arg_list(input: &str) -> PResult<'_, Args<'_>> {
    let (input, pairs) = many0(preceded(blank1, pair)).parse(input)?;
    let (input, _) = (blank0, eof).parse(input)?;
    Ok((input, Args { pairs }))
}

/// The arguments of one line, in order of appearance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Args<'a> {
    pairs: Vec<(&'a str, Option<&'a str>)>,
}

impl<'a> Args<'a> {
    /// Value of `key` (last occurrence); a bare flag has the empty value.
    pub fn get(&self, key: &str) -> Option<&'a str> {
        self.pairs
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.unwrap_or(""))
    }

    /// True when `key` occurs, with or without a value.
    pub fn has(&self, key: &str) -> bool {
        self.pairs.iter().any(|(k, _)| *k == key)
    }

    /// Value of `key`, or the error `missing <key>`.
    pub fn require(&self, key: &str) -> Result<&'a str, String> {
        self.get(key).ok_or_else(|| format!("missing {key}"))
    }

    /// Parses the value of `key` with [`FromStr`]; absent gives `Ok(None)`.
    pub fn number<T: FromStr>(&self, key: &str) -> Result<Option<T>, String> {
        self.get(key)
            .map(|v| v.parse::<T>().map_err(|_| bad_value(key, v)))
            .transpose()
    }

    /// A finite real number (e.g. a score); absent gives `Ok(None)`.
    pub fn real(&self, key: &str) -> Result<Option<f64>, String> {
        let check = |x: f64, v: &str| {
            if x.is_finite() {
                Ok(x)
            } else {
                Err(bad_value(key, v))
            }
        };
        self.get(key)
            .map(|v| check(v.parse::<f64>().map_err(|_| bad_value(key, v))?, v))
            .transpose()
    }

    /// A finite, non-negative real number (seconds, speeds); absent gives `Ok(None)`.
    pub fn non_negative(&self, key: &str) -> Result<Option<f64>, String> {
        match self.real(key)? {
            Some(x) if x < 0.0 => Err(bad_value(key, self.get(key).unwrap_or(""))),
            Some(x) => Ok(Some(x.abs())),
            None => Ok(None),
        }
    }
}

/// The message `bad value for <key>: "<value>"`.
pub fn bad_value(key: &str, value: &str) -> String {
    format!("bad value for {key}: {value:?}")
}

/// Generic line parser shared by commands and responses: `lookup` recognises the
/// keyword, `build` turns the arguments of a known keyword into a typed value.
pub fn parse_line<K: Copy, T>(
    line: &str,
    lookup: fn(&str) -> Option<K>,
    build: fn(K, &Args<'_>) -> Result<T, String>,
) -> Result<Option<T>, ParseError> {
    let head = (blank0, word).parse(line);
    let Ok((rest, (_, name))) = head else {
        return Ok(None); // empty line or no command word: ignored
    };
    let Some(kind) = lookup(name) else {
        return Ok(None); // unknown keyword: ignored
    };
    let mut body = cut(map_res(arg_list, |args| build(kind, &args)));
    match body.parse(rest) {
        Ok((_, value)) => Ok(Some(value)),
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => {
            Err(ParseError::new(format!("{name}: {}", e.0)))
        }
        Err(nom::Err::Incomplete(_)) => Err(ParseError::new(format!("{name}: incomplete"))),
    }
}

/// Replaces what a value cannot carry: `"` becomes `'`, control characters a space.
pub fn sanitize(value: &str) -> String {
    value
        .chars()
        .map(|c| match c {
            '"' => '\'',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect()
}

/// A value as written on the wire: bare when it is a non-empty word, otherwise
/// sanitized (see [`sanitize`]) and double-quoted.
pub fn quote(value: &str) -> Cow<'_, str> {
    if !value.is_empty() && value.chars().all(is_word_char) {
        Cow::Borrowed(value)
    } else {
        Cow::Owned(quote_always(value))
    }
}

/// A value sanitized and always double-quoted (used for move lists such as `pv`).
pub fn quote_always(value: &str) -> String {
    format!("\"{}\"", sanitize(value))
}

/// Writes ` key=value` with [`quote`] applied to the value.
pub(crate) fn write_pair(f: &mut impl Write, key: &str, value: impl Display) -> fmt::Result {
    let text = value.to_string();
    write!(f, " {key}={}", quote(&text))
}

/// Writes ` key="m1 m2 ..."` (always quoted).
pub(crate) fn write_list(f: &mut impl Write, key: &str, items: &[String]) -> fmt::Result {
    write!(f, " {key}={}", quote_always(&items.join(" ")))
}

// ---------------------------------------------------------------------------
// Commands (GUI → engine)
// ---------------------------------------------------------------------------

/// Where a `pos` command starts from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionSpec {
    /// `pos start`: the initial position.
    Start,
    /// `pos pos=<text>`: side char plus 32 square chars, validated by the board layer.
    Hub(String),
}

/// Search mode of `go`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GoMode {
    /// `go think` (or bare `go`): find a move to play.
    Think,
    /// `go ponder`: think on the opponent's time until `ponder-hit` or `stop`.
    Ponder,
    /// `go analyze`: analysis, no game assumptions.
    Analyze,
}

impl GoMode {
    /// The protocol keyword.
    pub fn as_str(self) -> &'static str {
        match self {
            GoMode::Think => "think",
            GoMode::Ponder => "ponder",
            GoMode::Analyze => "analyze",
        }
    }
}

/// A GUI → engine command.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// `hub`: start of the handshake; the engine answers `id`, `param`s, `wait`.
    Hub,
    /// `init`: parameters are set; the engine initialises and answers `ready`.
    Init,
    /// `ping`: answered by `pong`, also during a search.
    Ping,
    /// `new-game`: the next search is unrelated to previous ones.
    NewGame,
    /// `set-param name=<name> value=<value>`.
    SetParam {
        /// Parameter name.
        name: String,
        /// New value as text (may be empty).
        value: String,
    },
    /// `pos (start | pos=<text>) [moves="<m1> <m2> ..."]`.
    Pos {
        /// Starting position.
        position: PositionSpec,
        /// Moves played from it (Hub or path form), unchecked.
        moves: Vec<String>,
    },
    /// `level ...`: limits of the next search.
    Level(Limits),
    /// `go [think|ponder|analyze]`: starts a search.
    Go(GoMode),
    /// `ponder-hit`: the expected move was played; the ponder search becomes a normal one.
    PonderHit,
    /// `stop`: end the current search now (it still answers `done`).
    Stop,
    /// `quit`: exit.
    Quit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kw {
    Hub,
    Init,
    Ping,
    NewGame,
    SetParam,
    Pos,
    Level,
    Go,
    PonderHit,
    Stop,
    Quit,
}

fn lookup(name: &str) -> Option<Kw> {
    Some(match name {
        "hub" => Kw::Hub,
        "init" => Kw::Init,
        "ping" => Kw::Ping,
        "new-game" => Kw::NewGame,
        "set-param" => Kw::SetParam,
        "pos" => Kw::Pos,
        "level" => Kw::Level,
        "go" => Kw::Go,
        "ponder-hit" => Kw::PonderHit,
        "stop" => Kw::Stop,
        "quit" => Kw::Quit,
        _ => return None,
    })
}

fn build(kw: Kw, args: &Args<'_>) -> Result<Command, String> {
    Ok(match kw {
        Kw::Hub => Command::Hub,
        Kw::Init => Command::Init,
        Kw::Ping => Command::Ping,
        Kw::NewGame => Command::NewGame,
        Kw::SetParam => build_set_param(args)?,
        Kw::Pos => build_pos(args)?,
        Kw::Level => Command::Level(build_level(args)?),
        Kw::Go => Command::Go(build_go(args)?),
        Kw::PonderHit => Command::PonderHit,
        Kw::Stop => Command::Stop,
        Kw::Quit => Command::Quit,
    })
}

/// A quoted value's text as the writer writes it back: control characters, which no
/// value can carry on the wire (see [`sanitize`]), read as spaces.
fn text(value: &str) -> String {
    value
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

fn build_set_param(args: &Args<'_>) -> Result<Command, String> {
    let name = args.require("name")?;
    if name.is_empty() {
        return Err(bad_value("name", name));
    }
    let value = args.require("value")?;
    Ok(Command::SetParam {
        name: text(name),
        value: text(value),
    })
}

fn build_pos(args: &Args<'_>) -> Result<Command, String> {
    let position = match (args.has("start"), args.get("pos")) {
        (true, Some(_)) => return Err("both start and pos= given".to_string()),
        (true, None) => PositionSpec::Start,
        (false, Some("")) => return Err(bad_value("pos", "")),
        (false, Some(value)) => PositionSpec::Hub(text(value)),
        (false, None) => return Err("missing pos (or start)".to_string()),
    };
    let moves = args
        .get("moves")
        .map(|m| text(m).split_whitespace().map(str::to_string).collect())
        .unwrap_or_default();
    Ok(Command::Pos { position, moves })
}

/// The engine's clock of `[moves=M] time=T [inc=I]`. On the wire the increment is added
/// before the move, so `T + I` is usable now; in Damiera it is added after the move
/// ([`crate::clock`]), so the reading is `remaining = T + I`.
fn build_clock(args: &Args<'_>) -> Result<Option<TimeLeft>, String> {
    let moves = args.number::<u32>("moves")?;
    // `time` may be negative: clients that send their clock minus the increment (as
    // pydraughts does) go below zero when the clock is under one increment.
    let time = args.real("time")?;
    let inc = args.non_negative("inc")?;
    match time {
        Some(time) => {
            let increment_ms = millis(inc.unwrap_or(0.0));
            Ok(Some(TimeLeft {
                remaining_ms: millis(time).saturating_add(increment_ms),
                increment_ms,
                moves_to_go: moves.filter(|&m| m > 0),
            }))
        }
        None if moves.is_some() || inc.is_some() => Err("missing time".to_string()),
        None => Ok(None),
    }
}

fn build_level(args: &Args<'_>) -> Result<Limits, String> {
    let level = Limits {
        depth: args.number("depth")?,
        nodes: args.number("nodes")?,
        move_time: args.non_negative("move-time")?,
        clock: build_clock(args)?,
        infinite: args.has("infinite"),
        analysis: false,
        since: None,
    };
    if level == Limits::default() {
        return Err("missing limit (depth, nodes, move-time, time or infinite)".to_string());
    }
    Ok(level)
}

fn build_go(args: &Args<'_>) -> Result<GoMode, String> {
    let modes: Vec<GoMode> = [GoMode::Think, GoMode::Ponder, GoMode::Analyze]
        .into_iter()
        .filter(|m| args.has(m.as_str()))
        .collect();
    match modes.as_slice() {
        [] => Ok(GoMode::Think),
        [mode] => Ok(*mode),
        _ => Err("conflicting modes (give one of think, ponder, analyze)".to_string()),
    }
}

/// Parses one GUI → engine line.
///
/// `Ok(None)` for an empty line or an unknown command; `Err` for a known command
/// with a bad or missing argument or broken syntax. Never panics.
pub fn parse_command(line: &str) -> Result<Option<Command>, ParseError> {
    parse_line(line, lookup, build)
}

/// `level ...` for `limits` (the `analysis` flag has no Hub form).
fn write_level(f: &mut fmt::Formatter<'_>, limits: &Limits) -> fmt::Result {
    f.write_str("level")?;
    if let Some(d) = limits.depth {
        write_pair(f, "depth", d)?;
    }
    if let Some(n) = limits.nodes {
        write_pair(f, "nodes", n)?;
    }
    if let Some(t) = limits.move_time {
        write_pair(f, "move-time", t)?;
    }
    if let Some(c) = limits.clock {
        write_clock(f, &c)?;
    }
    if limits.infinite {
        f.write_str(" infinite")?;
    }
    Ok(())
}

/// `[moves=M] time=T [inc=I]`, `T` the clock before this move's increment (the wire's
/// meaning, see [`build_clock`]).
fn write_clock(f: &mut fmt::Formatter<'_>, c: &TimeLeft) -> fmt::Result {
    if let Some(m) = c.moves_to_go {
        write_pair(f, "moves", m)?;
    }
    let time = c.remaining_ms.saturating_sub(c.increment_ms);
    write_pair(f, "time", seconds_text(time))?;
    if c.increment_ms != 0 {
        write_pair(f, "inc", seconds_text(c.increment_ms))?;
    }
    Ok(())
}

fn write_pos(f: &mut fmt::Formatter<'_>, position: &PositionSpec, moves: &[String]) -> fmt::Result {
    match position {
        PositionSpec::Start => f.write_str("pos start")?,
        PositionSpec::Hub(text) => {
            f.write_str("pos")?;
            write_pair(f, "pos", text)?;
        }
    }
    if !moves.is_empty() {
        write_list(f, "moves", moves)?;
    }
    Ok(())
}

impl Display for Command {
    /// The canonical line (no newline); it parses back to an equal command.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Hub => f.write_str("hub"),
            Command::Init => f.write_str("init"),
            Command::Ping => f.write_str("ping"),
            Command::NewGame => f.write_str("new-game"),
            Command::SetParam { name, value } => {
                f.write_str("set-param")?;
                write_pair(f, "name", name)?;
                write_pair(f, "value", value)
            }
            Command::Pos { position, moves } => write_pos(f, position, moves),
            Command::Level(level) => write_level(f, level),
            Command::Go(mode) => write!(f, "go {}", mode.as_str()),
            Command::PonderHit => f.write_str("ponder-hit"),
            Command::Stop => f.write_str("stop"),
            Command::Quit => f.write_str("quit"),
        }
    }
}

#[cfg(test)]
pub(super) mod tests;
