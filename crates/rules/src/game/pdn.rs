//! PDN reading and writing for Italian draughts, at the text level.
//!
//! Moves are kept as strings (`22-19`, `29x22x15x6`, `22x15`): replaying them
//! against the rules is left to the rules core. The reader checks only their
//! shape: squares 1..=32 joined by `-` (a plain move, two squares) or `x`
//! (a capture, two or more squares; `X` and `:` are accepted and written as
//! `x`).
//!
//! The reader skips `;` line comments, `%` escape lines and NAGs (`$1`).
//! `{comments}`, `(variations)` (nested, with any comments inside, kept as text)
//! and `!`/`?` move annotations are kept, with runs of whitespace collapsed to one
//! space. The result token
//! `*` (unknown or unfinished game) is read as `result: None`, and the writer
//! writes `None` as `*`.
//!
//! [`parse_pdn`] refuses a text at its first fault; [`recover_pdn`], the reader of
//! files from outside, reads every game it can, repairing faults of certain meaning
//! and skipping the other faulty games, each with a warning naming its line.
//!
//! The writer writes a move number before each White move, and before a move by
//! Black only where a reader would not infer it (a first move, or one that does not
//! follow White's move of the same number, as a file read with odd numbers may
//! hold): continuation numbers such as `11...` are optional in PDN, and some
//! readers (pydraughts 0.6.7) fail on them.
//!
//! Writing a game and reading it back gives the same game when its moves are
//! normalized move text, its comments are whitespace-normalized without `}`,
//! its variations are whitespace-normalized with balanced parentheses and no
//! braces, its annotations are runs of `!` and `?`,
//! its tag names are alphanumeric (or `_`) and its tags are in writing order
//! (see [`PdnGame::sort_tags`]). The writer does not keep the `Result` tag in
//! step with [`PdnGame::result`]; callers set both.

use std::fmt;

use crate::board::Color;

/// One move of a game's main line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnMove {
    /// Move text in normalized form, e.g. `22-19` or `29x22x15x6`.
    pub text: String,
    /// Full-move number the move belongs to (`1` for `1. 22-19 11-15`).
    pub number: u32,
    /// The side making the move.
    pub side: Color,
    /// Comment following the move, whitespace-normalized.
    pub comment: Option<String>,
    /// Annotation glyph written after the move, such as `?` (mistake), `??`, `!`.
    pub annotation: Option<String>,
    /// Variations after the move (alternatives to it), each the text between its
    /// parentheses, whitespace-normalized.
    pub variations: Vec<String>,
}

impl PdnMove {
    /// A move with no comment, annotation or variation.
    pub fn new(text: &str, number: u32, side: Color) -> PdnMove {
        PdnMove {
            text: text.to_string(),
            number,
            side,
            comment: None,
            annotation: None,
            variations: Vec::new(),
        }
    }
}

/// A game: tag pairs, main line and result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PdnGame {
    /// Tag pairs in file order, e.g. `("Event", "Torneo")`.
    pub tags: Vec<(String, String)>,
    /// Comment before the first move, whitespace-normalized.
    pub comment: Option<String>,
    /// The main line.
    pub moves: Vec<PdnMove>,
    /// Result token (`1-0`, `0-1`, `1/2-1/2`, `2-0`, `0-2`, `1-1`, `0-0`);
    /// `None` for an unknown result (`*` or no result token).
    pub result: Option<String>,
}

impl PdnGame {
    /// The value of the first tag called `name`, if any; without one, `White`,
    /// `Black` and `Result` are read from the Italian federation's names `Bianco`,
    /// `Nero` and `Risultato`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        let find = |name: &str| {
            self.tags
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        };
        find(name).or_else(|| {
            ITALIAN_TAGS
                .iter()
                .find(|(pdn, _)| *pdn == name)
                .and_then(|(_, italian)| find(italian))
        })
    }

    /// The result: the result token, else the `Result` tag's value when it is a
    /// result (`2-0`, `1-1`, `0-2` as well as `1-0`, `1/2-1/2`, `0-1`); `None` when
    /// unknown.
    pub fn result_or_tag(&self) -> Option<&str> {
        self.result.as_deref().or_else(|| {
            self.tag("Result")
                .map(str::trim)
                .filter(|r| RESULTS[..7].contains(r))
        })
    }

    /// Sets tag `name` to `value`, replacing the first tag of that name or
    /// appending a new one.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The side to move first: Black when the `FEN` tag starts with `B`,
    /// White otherwise.
    pub fn first_side(&self) -> Color {
        match self.tag("FEN").and_then(|f| f.trim_start().chars().next()) {
            Some('B') | Some('b') => Color::Black,
            _ => Color::White,
        }
    }
}

/// Tag names of the Italian federation's files read as their PDN equivalents, as
/// (PDN, Italian).
const ITALIAN_TAGS: [(&str, &str); 3] = [
    ("White", "Bianco"),
    ("Black", "Nero"),
    ("Result", "Risultato"),
];

/// What went wrong while reading PDN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PdnErrorKind {
    /// A `{` comment is not closed.
    UnterminatedComment,
    /// A `(` variation is not closed.
    UnterminatedVariation,
    /// A `)` without a matching `(`.
    UnmatchedParenthesis,
    /// A tag pair is not of the form `[Name "value"]`.
    MalformedTag,
    /// A token that is not a move, move number, result or annotation.
    BadToken,
}

impl fmt::Display for PdnErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PdnErrorKind::UnterminatedComment => "unterminated comment",
            PdnErrorKind::UnterminatedVariation => "unterminated variation",
            PdnErrorKind::UnmatchedParenthesis => "unmatched ')'",
            PdnErrorKind::MalformedTag => "malformed tag pair",
            PdnErrorKind::BadToken => "invalid token",
        })
    }
}

/// A PDN reading error, locating the bad token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnError {
    /// 1-based number of the game being read.
    pub game: usize,
    /// 1-based line of the token.
    pub line: usize,
    /// 1-based column (in characters) of the token.
    pub column: usize,
    /// The offending text (at most [`PdnError::MAX_TOKEN_CHARS`] characters, control
    /// characters as spaces, so that the error prints as one line).
    pub token: String,
    /// The kind of error.
    pub kind: PdnErrorKind,
}

impl PdnError {
    /// Longest token text kept in an error.
    pub const MAX_TOKEN_CHARS: usize = 40;
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "PDN game {}, line {}, column {}: {} `{}`",
            self.game, self.line, self.column, self.kind, self.token
        )
    }
}

impl std::error::Error for PdnError {}

/// Reads every game of a PDN text, strictly: the first fault refuses the text (see
/// [`recover_pdn`] for a reader that reads every game it can).
///
/// A game ends at its result token, or where a new tag section starts, or at
/// the end of the text. Text with no tags, moves or results yields no games.
pub fn parse_pdn(text: &str) -> Result<Vec<PdnGame>, PdnError> {
    let mut lexer = Lexer::new(text, 1, false);
    let mut games = Vec::new();
    let mut builder = GameBuilder::default();
    loop {
        let game_no = games.len() + 1;
        let Some(token) = lexer.next_token().map_err(|e| e.into_error(game_no))? else {
            break;
        };
        if let Some(done) = builder.feed(token).map_err(|e| e.into_error(game_no))? {
            games.push(done.game);
        }
    }
    if let Some(done) = builder.finish() {
        games.push(done.game);
    }
    Ok(games)
}

/// What the recovering reader did about a fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fix {
    /// The fault's meaning is certain: the game was read as it means.
    Repaired,
    /// The game could not be read and was left out; the rest of the text was read.
    Skipped,
}

impl fmt::Display for Fix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Fix::Repaired => "repaired",
            Fix::Skipped => "skipped",
        })
    }
}

/// A fault of one game found by the recovering reader, and what was done about it.
/// It prints as one line: `game 3, line 41: skipped: invalid token `17-44``.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnWarning {
    /// 1-based number of the game in the text (skipped games are counted).
    pub game: usize,
    /// 1-based line of the fault.
    pub line: usize,
    /// Repaired or skipped.
    pub fix: Fix,
    /// The fault, naming its token between backticks; one line.
    pub fault: String,
}

impl fmt::Display for PdnWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {}, line {}: {}: {}",
            self.game, self.line, self.fix, self.fault
        )
    }
}

/// A game of a text read by [`recover_pdn`], with where it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecoveredGame {
    /// 1-based number of the game in the text (skipped games are counted).
    pub number: usize,
    /// Line of the game's first token.
    pub line: usize,
    /// The game as read (repairs applied); `None` when it was skipped.
    pub game: Option<PdnGame>,
    /// The line of each move of `game`.
    pub move_lines: Vec<usize>,
    /// The repairs, in text order, and last the reason the game was skipped, if it was.
    pub warnings: Vec<PdnWarning>,
}

/// Reads every game of a PDN text that can be read: a fault costs at most its own game.
///
/// The text is first cut into games at tag sections: a line holding only tag pairs
/// starts a game after move text, or after a blank line (also inside a comment left
/// open, so that a stray `{` cannot swallow the games after it; a line starting with
/// `[` inside a comment is the comment's). In a game, a fault whose meaning is certain
/// is repaired and noted ([`Fix::Repaired`]):
/// - a tag value ending in a doubled quote, or holding an unescaped one
///   (`[Event "1 turno""]`);
/// - a comment holding braces: read to its matching `}` where there is one, else to
///   the first;
/// - a stray `}`, `]` or `)` outside comments, dropped;
/// - a result with a suffix (`0-2t`): the result, and the suffix kept as the
///   `Termination` tag (`t`: `time forfeit`).
///
/// Any other fault skips the game ([`Fix::Skipped`]) up to its result token or the next
/// tag section. Tags must close on their own line. Leading zeros (`06-10`), the
/// Italian results and tag names are no faults (see [`PdnGame::tag`]).
pub fn recover_pdn(text: &str) -> Vec<RecoveredGame> {
    let mut out = Vec::new();
    let mut pending = Vec::new();
    for (first_line, chunk) in split_games(text) {
        read_chunk(chunk, first_line, &mut out, &mut pending);
    }
    if let Some(last) = out.last_mut() {
        let number = last.number;
        last.warnings
            .extend(pending.into_iter().map(|r| r.into_warning(number)));
    }
    out
}

/// A repair noted before its game's number is known.
struct Repair {
    line: usize,
    fault: String,
}

impl Repair {
    fn into_warning(self, game: usize) -> PdnWarning {
        PdnWarning {
            game,
            line: self.line,
            fix: Fix::Repaired,
            fault: self.fault,
        }
    }
}

/// Reads the games of one piece of text cut by [`split_games`] into `out`.
fn read_chunk(
    chunk: &str,
    first_line: usize,
    out: &mut Vec<RecoveredGame>,
    pending: &mut Vec<Repair>,
) {
    let mut lexer = Lexer::new(chunk, first_line, true);
    let mut builder = GameBuilder {
        lenient: true,
        ..GameBuilder::default()
    };
    // The fault of the game being skipped, and the line it started on.
    let mut skipping: Option<(RawError, usize)> = None;
    let emit = |out: &mut Vec<RecoveredGame>,
                pending: &mut Vec<Repair>,
                done: Option<Built>,
                fault: Option<(RawError, usize)>| {
        let number = out.len() + 1;
        let mut warnings: Vec<PdnWarning> =
            pending.drain(..).map(|r| r.into_warning(number)).collect();
        let (line, game, move_lines) = match (done, &fault) {
            (Some(done), None) => (done.line, Some(done.game), done.move_lines),
            (_, Some((_, line))) => (*line, None, Vec::new()),
            (None, None) => return,
        };
        if let Some((e, _)) = fault {
            warnings.push(PdnWarning {
                game: number,
                line: e.line,
                fix: Fix::Skipped,
                fault: e.describe(),
            });
        }
        out.push(RecoveredGame {
            number,
            line,
            game,
            move_lines,
            warnings,
        });
    };
    loop {
        let token = lexer.next_token();
        if skipping.is_some() {
            // Repairs in a game skipped anyway are no news.
            lexer.repairs.clear();
        }
        pending.append(&mut lexer.repairs);
        let token = match token {
            Ok(Some(token)) => token,
            Ok(None) => break,
            Err(e) => {
                if skipping.is_none() {
                    let start = builder.first_line.unwrap_or(e.line);
                    pending.append(&mut builder.repairs);
                    builder = GameBuilder {
                        lenient: true,
                        ..GameBuilder::default()
                    };
                    skipping = Some((e, start));
                }
                continue;
            }
        };
        if skipping.is_some() {
            if let TokenKind::Symbol(sym) = &token.kind
                && split_result(sym).is_some()
            {
                emit(out, pending, None, skipping.take());
            }
            continue;
        }
        let line = token.line;
        match builder.feed(token) {
            Ok(Some(done)) => {
                pending.append(&mut builder.repairs);
                emit(out, pending, Some(done), None);
            }
            Ok(None) => {}
            Err(e) => {
                let start = builder.first_line.unwrap_or(line);
                pending.append(&mut builder.repairs);
                builder = GameBuilder {
                    lenient: true,
                    ..GameBuilder::default()
                };
                skipping = Some((e, start));
            }
        }
    }
    pending.append(&mut builder.repairs);
    match skipping {
        Some(fault) => emit(out, pending, None, Some(fault)),
        None => {
            let done = builder.finish();
            emit(out, pending, done, None);
        }
    }
}

/// Cuts a text into pieces that each hold whole games, with the line each starts on:
/// a line of tag pairs starts a piece after move text, or after a blank line (see
/// [`recover_pdn`]).
fn split_games(text: &str) -> Vec<(usize, &str)> {
    let mut pieces = Vec::new();
    let (mut start, mut start_line, mut offset) = (0, 1, 0);
    let mut depth = 0usize;
    let (mut moves, mut content, mut blank_before) = (false, false, true);
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let trimmed = line.trim();
        let tags = is_tag_line(trimmed);
        if tags && content && (blank_before || (depth == 0 && moves)) {
            pieces.push((start_line, &text[start..offset]));
            (start, start_line) = (offset, i + 1);
            depth = 0;
            (moves, content) = (false, false);
        }
        offset += line.len();
        blank_before = trimmed.is_empty();
        if blank_before {
            continue;
        }
        content = true;
        if depth == 0 && (tags || line.starts_with('%')) {
            continue;
        }
        moves = true;
        for c in line.chars() {
            match c {
                ';' if depth == 0 => break,
                '{' => depth += 1,
                '}' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
    }
    pieces.push((start_line, &text[start..]));
    pieces
}

/// A line of tag pairs: it starts `[Name "` and ends `"]`.
fn is_tag_line(trimmed: &str) -> bool {
    let Some(inner) = trimmed.strip_prefix('[') else {
        return false;
    };
    let inner = inner.trim_start();
    let name_end = inner
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(inner.len());
    name_end > 0
        && inner[name_end..].trim_start().starts_with('"')
        && trimmed
            .strip_suffix(']')
            .is_some_and(|s| s.trim_end().ends_with('"'))
}

/// Writes several games as one PDN text, separated by blank lines.
pub fn write_pdn(games: &[PdnGame]) -> String {
    games
        .iter()
        .map(PdnGame::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

// ---------------------------------------------------------------- lexer --

/// A lexical token with its starting position.
#[derive(Debug)]
struct Token {
    kind: TokenKind,
    line: usize,
    column: usize,
}

#[derive(Debug)]
enum TokenKind {
    Tag(String, String),
    Comment(String),
    Variation(String),
    Symbol(String),
}

/// An error before the game number is known.
struct RawError {
    kind: PdnErrorKind,
    line: usize,
    column: usize,
    token: String,
}

impl RawError {
    fn into_error(self, game: usize) -> PdnError {
        PdnError {
            game,
            line: self.line,
            column: self.column,
            token: clip_token(&self.token),
            kind: self.kind,
        }
    }

    /// The fault in words, naming the token: ``invalid token `17-44` ``.
    fn describe(&self) -> String {
        format!("{} `{}`", self.kind, clip_token(&self.token))
    }
}

/// At most [`PdnError::MAX_TOKEN_CHARS`] characters of `token`, control characters (a
/// comment's line breaks) as spaces: one line.
fn clip_token(token: &str) -> String {
    token
        .chars()
        .take(PdnError::MAX_TOKEN_CHARS)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// Characters that end a symbol token.
fn is_delimiter(c: char) -> bool {
    c.is_whitespace() || matches!(c, '[' | ']' | '{' | '}' | '(' | ')' | ';')
}

struct Lexer<'a> {
    text: &'a str,
    /// Byte offset of the next character.
    pos: usize,
    line: usize,
    column: usize,
    /// Recovering (see [`recover_pdn`]): certain faults are repaired into `repairs`,
    /// tags must close on their line.
    lenient: bool,
    repairs: Vec<Repair>,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str, first_line: usize, lenient: bool) -> Self {
        Lexer {
            text,
            pos: 0,
            line: first_line,
            column: 1,
            lenient,
            repairs: Vec::new(),
        }
    }

    fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    /// Moves on by `bytes` bytes (a whole number of characters).
    fn advance(&mut self, bytes: usize) {
        let end = self.pos + bytes;
        while self.pos < end && self.bump().is_some() {}
    }

    fn skip_line(&mut self) {
        while let Some(c) = self.bump() {
            if c == '\n' {
                break;
            }
        }
    }

    fn repair(&mut self, line: usize, fault: String) {
        self.repairs.push(Repair { line, fault });
    }

    fn error(&self, kind: PdnErrorKind, line: usize, column: usize, token: String) -> RawError {
        RawError {
            kind,
            line,
            column,
            token,
        }
    }

    /// The next significant token; skips whitespace, line comments, escape
    /// lines and variations.
    fn next_token(&mut self) -> Result<Option<Token>, RawError> {
        while let Some(c) = self.peek() {
            let (line, column) = (self.line, self.column);
            let kind = match c {
                _ if c.is_whitespace() => {
                    self.bump();
                    continue;
                }
                ';' => {
                    self.skip_line();
                    continue;
                }
                '%' if column == 1 => {
                    self.skip_line();
                    continue;
                }
                '(' => TokenKind::Variation(self.read_variation()?),
                ')' | ']' | '}' => {
                    self.bump();
                    if self.lenient {
                        self.repair(line, format!("stray `{c}` dropped"));
                        continue;
                    }
                    let kind = if c == ')' {
                        PdnErrorKind::UnmatchedParenthesis
                    } else {
                        PdnErrorKind::BadToken
                    };
                    return Err(self.error(kind, line, column, c.to_string()));
                }
                '{' => TokenKind::Comment(self.read_comment()?),
                '[' => self.read_tag()?,
                _ => TokenKind::Symbol(self.read_symbol()),
            };
            return Ok(Some(Token { kind, line, column }));
        }
        Ok(None)
    }

    fn read_symbol(&mut self) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek() {
            if is_delimiter(c) {
                break;
            }
            s.push(c);
            self.bump();
        }
        s
    }

    /// Reads `{...}` (the lexer is on `{`) and returns the normalized text. Strictly a
    /// comment ends at the first `}`; recovering, one holding `{` ends at its matching
    /// `}` where there is one.
    fn read_comment(&mut self) -> Result<String, RawError> {
        let (line, column) = (self.line, self.column);
        let body = &self.rest()[1..];
        let Some(first_close) = body.find('}') else {
            self.advance(self.text.len() - self.pos);
            let token = format!("{{{body}");
            return Err(self.error(PdnErrorKind::UnterminatedComment, line, column, token));
        };
        let mut end = first_close;
        if self.lenient && body[..first_close].contains('{') {
            let fault = match matching_close(body) {
                Some(close) => {
                    end = close;
                    "comment holds braces, read to its matching `}`"
                }
                None => "comment holds a stray `{`, read to the first `}`",
            };
            let token = clip_token(&format!("{{{}}}", &body[..end]));
            self.repair(line, format!("{fault}: `{token}`"));
        }
        let raw = &body[..end];
        self.advance(end + 2);
        Ok(normalize_comment(raw))
    }

    /// Reads a `( ... )` variation, nested variations and comments included, and
    /// returns the normalized text between the outer parentheses.
    fn read_variation(&mut self) -> Result<String, RawError> {
        let (line, column) = (self.line, self.column);
        let mut depth = 0usize;
        let mut in_comment = false;
        let mut raw = String::new();
        while let Some(c) = self.bump() {
            raw.push(c);
            match c {
                '}' if in_comment => in_comment = false,
                _ if in_comment => {}
                '{' => in_comment = true,
                '(' => depth += 1,
                ')' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        let inner = &raw[1..raw.len() - 1];
                        return Ok(normalize_comment(inner));
                    }
                }
                _ => {}
            }
        }
        Err(self.error(
            PdnErrorKind::UnterminatedVariation,
            line,
            column,
            "(".to_string(),
        ))
    }

    /// Reads `[Name "value"]` (the lexer is on `[`). Recovering, the tag must close on
    /// its line, and a value with a stray quote is repaired.
    fn read_tag(&mut self) -> Result<TokenKind, RawError> {
        let (line, column) = (self.line, self.column);
        let rest = self.rest();
        let scope = if self.lenient {
            let end = rest.find('\n').unwrap_or(rest.len());
            rest[..end].trim_end_matches('\r')
        } else {
            rest
        };
        if let Some((name, value, used)) = parse_tag(scope) {
            self.advance(used);
            return Ok(TokenKind::Tag(name, value));
        }
        if self.lenient {
            if let Some((name, value, used, fault)) = repair_tag(scope) {
                let token = clip_token(&scope[..used]);
                self.repair(line, format!("{fault}: `{token}`"));
                self.advance(used);
                return Ok(TokenKind::Tag(name, value));
            }
            self.advance(scope.len());
        }
        let token = scope.lines().next().unwrap_or("[").to_string();
        Err(self.error(PdnErrorKind::MalformedTag, line, column, token))
    }
}

/// The byte offset in `body` (the text after a `{`) of the `}` that closes it when
/// braces nest.
fn matching_close(body: &str) -> Option<usize> {
    let mut depth = 1usize;
    for (i, c) in body.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Skips whitespace; returns the offset of the next character.
fn skip_space(s: &str, from: usize) -> usize {
    s[from..]
        .find(|c: char| !c.is_whitespace())
        .map_or(s.len(), |i| from + i)
}

/// The name of a tag starting at `s` (`[ Name "`): the name, and the offset of the
/// opening quote.
fn tag_name(s: &str) -> Option<(String, usize)> {
    let from = skip_space(s, s.strip_prefix('[').map(|_| 1)?);
    let len = s[from..]
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len() - from);
    let quote = skip_space(s, from + len);
    (len > 0 && s[quote..].starts_with('"')).then(|| (s[from..from + len].to_string(), quote))
}

/// A tag pair `[Name "value"]` at the start of `s` (values escape `"` and `\` with
/// `\`): its name, value and length in bytes.
fn parse_tag(s: &str) -> Option<(String, String, usize)> {
    let (name, quote) = tag_name(s)?;
    let mut value = String::new();
    let mut chars = s[quote + 1..].char_indices();
    let close = loop {
        match chars.next()? {
            (i, '"') => break quote + 1 + i,
            (_, '\\') => match chars.next()?.1 {
                c @ ('"' | '\\') => value.push(c),
                c => {
                    value.push('\\');
                    value.push(c);
                }
            },
            (_, c) => value.push(c),
        }
    };
    let end = skip_space(s, close + 1);
    s[end..].starts_with(']').then_some((name, value, end + 1))
}

/// A tag pair on one line whose value holds a stray quote (`[Event "1 turno""]`,
/// `[Event "Torneo "Citta""]`): its name, value, length in bytes and the fault in
/// words. The value runs to the first quote followed by `]`; quotes ending it are
/// dropped, those inside kept.
fn repair_tag(line: &str) -> Option<(String, String, usize, &'static str)> {
    let (name, quote) = tag_name(line)?;
    let (close, used) = line
        .char_indices()
        .skip_while(|&(i, _)| i <= quote)
        .find_map(|(i, c)| {
            let before = line[..i].trim_end();
            (c == ']' && before.len() > quote + 1 && before.ends_with('"'))
                .then(|| (before.len() - 1, i + 1))
        })?;
    let raw = &line[quote + 1..close];
    let trimmed = raw.trim_end_matches('"');
    let fault = if trimmed.len() < raw.len() {
        "tag value ends in a doubled quote"
    } else if raw.contains('"') {
        "tag value holds an unescaped quote"
    } else {
        "tag value ends in a backslash"
    };
    let value = trimmed.replace("\\\"", "\"").replace("\\\\", "\\");
    Some((name, value, used, fault))
}

/// Collapses runs of whitespace into one space and trims the ends.
fn normalize_comment(raw: &str) -> String {
    raw.split_whitespace().collect::<Vec<_>>().join(" ")
}

// --------------------------------------------------------------- parser --

/// Result tokens recognized by the reader.
const RESULTS: [&str; 8] = ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"];

/// A result token, or (recovering) a result with a suffix of letters (`0-2t`): the
/// result and the suffix.
fn split_result(sym: &str) -> Option<(&str, &str)> {
    if RESULTS.contains(&sym) {
        return Some((sym, ""));
    }
    let body = sym.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    (body.len() < sym.len() && RESULTS[..7].contains(&body)).then(|| (body, &sym[body.len()..]))
}

/// The `Termination` of a result suffix: `t` (tempo) is a time forfeit.
fn termination(suffix: &str) -> String {
    match suffix.to_ascii_lowercase().as_str() {
        "t" => "time forfeit".to_string(),
        _ => format!("result suffix {suffix}"),
    }
}

/// A game read by the builder, with the line of its first token and of each move.
struct Built {
    game: PdnGame,
    line: usize,
    move_lines: Vec<usize>,
}

/// Accumulates one game from tokens.
#[derive(Default)]
struct GameBuilder {
    game: PdnGame,
    /// Number and side of the next move, once known.
    next: Option<(u32, Color)>,
    /// Whether move text (moves, numbers, comments) has started.
    in_movetext: bool,
    /// The line of the first token, once fed.
    first_line: Option<usize>,
    /// The line of each move.
    move_lines: Vec<usize>,
    /// Recovering: result suffixes are read (noted in `repairs`).
    lenient: bool,
    repairs: Vec<Repair>,
}

impl GameBuilder {
    /// Feeds a token; returns a finished game when the token ends one.
    fn feed(&mut self, token: Token) -> Result<Option<Built>, RawError> {
        match token.kind {
            TokenKind::Tag(name, value) => {
                let done = if self.in_movetext {
                    self.finish()
                } else {
                    None
                };
                self.first_line.get_or_insert(token.line);
                self.game.tags.push((name, value));
                Ok(done)
            }
            TokenKind::Comment(text) => {
                self.first_line.get_or_insert(token.line);
                self.in_movetext = true;
                let slot = match self.game.moves.last_mut() {
                    Some(m) => &mut m.comment,
                    None => &mut self.game.comment,
                };
                append_comment(slot, text);
                Ok(None)
            }
            TokenKind::Variation(text) => {
                self.first_line.get_or_insert(token.line);
                self.in_movetext = true;
                if let Some(m) = self.game.moves.last_mut() {
                    m.variations.push(text);
                }
                Ok(None)
            }
            TokenKind::Symbol(sym) => self.symbol(&sym, token.line, token.column),
        }
    }

    fn symbol(&mut self, sym: &str, line: usize, column: usize) -> Result<Option<Built>, RawError> {
        self.first_line.get_or_insert(line);
        self.in_movetext = true;
        if RESULTS.contains(&sym) {
            self.game.result = (sym != "*").then(|| sym.to_string());
            return Ok(self.finish());
        }
        if self.lenient
            && let Some((result, suffix)) = split_result(sym)
        {
            self.game.result = Some(result.to_string());
            let ending = termination(suffix);
            if self.game.tag("Termination").is_none() {
                self.game.set_tag("Termination", &ending);
            }
            self.repairs.push(Repair {
                line,
                fault: format!("result `{sym}` read as {result}, ending: {ending}"),
            });
            return Ok(self.finish());
        }
        if is_annotation(sym) {
            if !sym.starts_with('$')
                && let Some(m) = self.game.moves.last_mut()
            {
                m.annotation = Some(sym.to_string());
            }
            return Ok(None);
        }
        let rest = self.move_number_prefix(sym);
        if rest.is_empty() || self.push_move(rest, line) {
            return Ok(None);
        }
        Err(RawError {
            kind: PdnErrorKind::BadToken,
            line,
            column,
            token: sym.to_string(),
        })
    }

    /// Consumes a leading move number (`12.` or `12...`) or ellipsis (`...`)
    /// and returns the rest of the symbol.
    fn move_number_prefix<'s>(&mut self, sym: &'s str) -> &'s str {
        let digits_end = sym.find(|c: char| !c.is_ascii_digit()).unwrap_or(sym.len());
        let (digits, after) = sym.split_at(digits_end);
        let rest = after.trim_start_matches('.');
        let dots = after.len() - rest.len();
        if dots == 0 {
            return sym;
        }
        let number = match digits.parse::<u32>() {
            Ok(n) => n,
            Err(_) if digits.is_empty() => self.next_or_start().0,
            Err(_) => return sym,
        };
        let side = if dots == 1 {
            Color::White
        } else {
            Color::Black
        };
        self.next = Some((number, side));
        rest
    }

    fn next_or_start(&self) -> (u32, Color) {
        self.next.unwrap_or((1, self.game.first_side()))
    }

    /// Appends a move if `text` is valid move text.
    fn push_move(&mut self, raw: &str, line: usize) -> bool {
        let Some(text) = normalize_move(raw) else {
            return false;
        };
        let (number, side) = self.next_or_start();
        let mut mv = PdnMove::new(&text, number, side);
        let glyph = raw_text_suffix(raw);
        mv.annotation = (!glyph.is_empty()).then(|| glyph.to_string());
        self.game.moves.push(mv);
        self.move_lines.push(line);
        self.next = Some(match side {
            Color::White => (number, Color::Black),
            Color::Black => (number.saturating_add(1), Color::White),
        });
        true
    }

    /// Returns the game built so far, if anything was read, and resets (a recovering
    /// builder stays one; its repairs stay for the caller to take).
    fn finish(&mut self) -> Option<Built> {
        let fresh = GameBuilder {
            lenient: self.lenient,
            repairs: std::mem::take(&mut self.repairs),
            ..GameBuilder::default()
        };
        let builder = std::mem::replace(self, fresh);
        (builder.in_movetext || !builder.game.tags.is_empty()).then(|| Built {
            line: builder.first_line.unwrap_or(1),
            game: builder.game,
            move_lines: builder.move_lines,
        })
    }
}

fn append_comment(slot: &mut Option<String>, text: String) {
    match slot {
        Some(existing) if !text.is_empty() => {
            if !existing.is_empty() {
                existing.push(' ');
            }
            existing.push_str(&text);
        }
        Some(_) => {}
        None => *slot = Some(text),
    }
}

/// The `!`/`?` glyphs at the end of move text.
fn raw_text_suffix(text: &str) -> &str {
    let body = text.trim_end_matches(['!', '?']);
    &text[body.len()..]
}

/// NAGs (`$12`) and stand-alone `!`/`?` annotations.
fn is_annotation(sym: &str) -> bool {
    match sym.strip_prefix('$') {
        Some(n) => !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()),
        None => !sym.is_empty() && sym.chars().all(|c| c == '!' || c == '?'),
    }
}

/// Validates move text and returns it normalized (`!`/`?` suffixes and leading zeros
/// removed, capture separators written as `x`).
fn normalize_move(text: &str) -> Option<String> {
    let text = text.trim_end_matches(['!', '?']);
    let capture = text.contains(['x', 'X', ':']);
    let quiet = text.contains('-');
    if capture == quiet {
        return None;
    }
    let squares: Vec<&str> = text.split(['x', 'X', ':', '-']).collect();
    if squares.len() < 2 || (quiet && squares.len() != 2) {
        return None;
    }
    let valid_square = |s: &str| {
        (1..=2).contains(&s.len())
            && s.chars().all(|c| c.is_ascii_digit())
            && s.parse::<u8>().is_ok_and(|n| (1..=32).contains(&n))
    };
    let squares: Vec<String> = if squares.iter().all(|s| valid_square(s)) {
        // Leading zeros (`06-10`) are dropped.
        squares
            .iter()
            .map(|s| s.trim_start_matches('0').to_string())
            .collect()
    } else if squares.iter().all(|s| is_dark_algebraic(s)) {
        squares.iter().map(|s| s.to_ascii_lowercase()).collect()
    } else {
        return None;
    };
    if quiet && squares.first() == squares.last() {
        // `1-1` would be a result token, and is no move anyway.
        return None;
    }
    Some(squares.join(if quiet { "-" } else { "x" }))
}

/// Whether `s` names a dark square in algebraic notation (`a1`, `c3`, ... `h8`; a1
/// dark), as Russian and Brazilian moves are written.
fn is_dark_algebraic(s: &str) -> bool {
    match s.as_bytes() {
        &[file, rank] => {
            let file = file.to_ascii_lowercase();
            (b'a'..=b'h').contains(&file)
                && (b'1'..=b'8').contains(&rank)
                && (file - b'a' + rank - b'1').is_multiple_of(2)
        }
        _ => false,
    }
}

// --------------------------------------------------------------- writer --

/// Tags written first, in this order (the PDN seven-tag roster).
const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Position of a tag name in the roster; other names come after it.
fn roster_rank(name: &str) -> usize {
    ROSTER
        .iter()
        .position(|r| *r == name)
        .unwrap_or(ROSTER.len())
}

/// Move text lines are wrapped before this many characters.
const LINE_WIDTH: usize = 80;

impl PdnGame {
    /// Tags in writing order: roster tags first, then the others as stored.
    fn ordered_tags(&self) -> Vec<&(String, String)> {
        let mut tags: Vec<_> = self.tags.iter().collect();
        tags.sort_by_key(|(name, _)| roster_rank(name));
        tags
    }

    /// Reorders the tags as the writer writes them: the seven-tag roster
    /// (Event, Site, Date, Round, White, Black, Result) first in that order,
    /// then the other tags in their current order.
    pub fn sort_tags(&mut self) {
        self.tags.sort_by_key(|(name, _)| roster_rank(name));
    }

    /// The move text as words, each placed whole on a line. Black's moves get a
    /// number (`12...`) only where a reader would not infer it: a first move, and a
    /// move that does not follow White's move of the same number.
    fn movetext_words(&self) -> Vec<String> {
        let mut words = Vec::new();
        if let Some(c) = &self.comment {
            push_comment_words(&mut words, c);
        }
        for (i, m) in self.moves.iter().enumerate() {
            let follows_white = i
                .checked_sub(1)
                .and_then(|j| self.moves.get(j))
                .is_some_and(|p| p.side == Color::White && p.number == m.number);
            match m.side {
                Color::White => words.push(format!("{}.", m.number)),
                Color::Black if !follows_white => words.push(format!("{}...", m.number)),
                Color::Black => {}
            }
            words.push(format!(
                "{}{}",
                m.text,
                m.annotation.as_deref().unwrap_or("")
            ));
            if let Some(c) = &m.comment {
                push_comment_words(&mut words, c);
            }
            for v in &m.variations {
                push_variation_words(&mut words, v);
            }
        }
        words.push(self.result.clone().unwrap_or_else(|| "*".to_string()));
        words
    }
}

/// Splits a comment into words wrapped in braces; `}` cannot appear inside a
/// PDN comment and is written as `)`.
fn push_comment_words(words: &mut Vec<String>, comment: &str) {
    let clean = comment.replace('}', ")");
    let mut parts: Vec<String> = clean.split_whitespace().map(str::to_string).collect();
    if let Some(first) = parts.first_mut() {
        first.insert(0, '{');
    }
    match parts.last_mut() {
        Some(last) => last.push('}'),
        None => parts.push("{}".to_string()),
    }
    words.extend(parts);
}

/// Splits a variation into words, the first starting with `(` and the last
/// ending with `)`.
fn push_variation_words(words: &mut Vec<String>, variation: &str) {
    let mut parts: Vec<String> = variation.split_whitespace().map(str::to_string).collect();
    if let Some(first) = parts.first_mut() {
        first.insert(0, '(');
    }
    match parts.last_mut() {
        Some(last) => last.push(')'),
        None => parts.push("()".to_string()),
    }
    words.extend(parts);
}

/// Escapes a tag value for writing between double quotes.
fn escape_tag_value(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

impl fmt::Display for PdnGame {
    /// Writes the game as PDN: tag pairs (roster first), a blank line, move
    /// text wrapped at 80 columns, and the result (`*` when unknown).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tags = self.ordered_tags();
        for (name, value) in &tags {
            writeln!(f, "[{} \"{}\"]", name, escape_tag_value(value))?;
        }
        if !tags.is_empty() {
            writeln!(f)?;
        }
        let mut width = 0;
        for word in self.movetext_words() {
            let len = word.chars().count();
            if width > 0 && width + 1 + len > LINE_WIDTH {
                writeln!(f)?;
                width = 0;
            }
            if width > 0 {
                f.write_str(" ")?;
                width += 1;
            }
            f.write_str(&word)?;
            width += len;
        }
        writeln!(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const SAMPLE: &str = r#"[Event "Campionato \"Assoluto\""]
[White "Rossi"]
[Black "Bianchi \\ jr"]
[Result "1-0"]
[GameType "22"]

; a line comment 99-99 (
{Opening comment}
1. 22-19 11-15 2. 19x10! 6x15 $1 (2... 7x14 {a (tricky) comment} (3. 21-18?))
3. 24-20 {quiet
   move} 3... 15-19?! 4. 23x14x5 1-0

[Event "Second"]
1.21-17 12-16 2.17x8x1 *
"#;

    fn mv(number: u32, side: Color, text: &str, comment: Option<&str>) -> PdnMove {
        PdnMove {
            comment: comment.map(str::to_string),
            ..PdnMove::new(text, number, side)
        }
    }

    fn parse_one(text: &str) -> PdnGame {
        let games = parse_pdn(text).expect("valid PDN");
        assert_eq!(games.len(), 1, "{games:?}");
        games.into_iter().next().unwrap_or_default()
    }

    #[test]
    fn reads_sample_file() {
        let games = parse_pdn(SAMPLE).expect("valid PDN");
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.tag("Event"), Some("Campionato \"Assoluto\""));
        assert_eq!(g.tag("Black"), Some("Bianchi \\ jr"));
        assert_eq!(g.tag("GameType"), Some("22"));
        assert_eq!(g.tags.len(), 5);
        assert_eq!(g.comment.as_deref(), Some("Opening comment"));
        use Color::{Black as B, White as W};
        let annotated = |m: PdnMove, glyph: &str| PdnMove {
            annotation: Some(glyph.to_string()),
            ..m
        };
        let expected = vec![
            mv(1, W, "22-19", None),
            mv(1, B, "11-15", None),
            annotated(mv(2, W, "19x10", None), "!"),
            PdnMove {
                variations: vec!["2... 7x14 {a (tricky) comment} (3. 21-18?)".to_string()],
                ..mv(2, B, "6x15", None)
            },
            mv(3, W, "24-20", Some("quiet move")),
            annotated(mv(3, B, "15-19", None), "?!"),
            mv(4, W, "23x14x5", None),
        ];
        assert_eq!(g.moves, expected);
        assert_eq!(g.result.as_deref(), Some("1-0"));
        let g2 = &games[1];
        assert_eq!(g2.tag("Event"), Some("Second"));
        assert_eq!(
            g2.moves,
            vec![
                mv(1, W, "21-17", None),
                mv(1, B, "12-16", None),
                mv(2, W, "17x8x1", None),
            ]
        );
        assert_eq!(g2.result, None);
    }

    #[test]
    fn reads_all_result_tokens() {
        for r in ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0"] {
            let g = parse_one(&format!("1. 22-18 {r}"));
            assert_eq!(g.result.as_deref(), Some(r));
        }
        assert_eq!(parse_one("1. 22-18 *").result, None);
    }

    #[test]
    fn games_split_on_results_and_tags() {
        let games = parse_pdn("1. 22-18 2-0 1. 21-17 0-2 [Event \"x\"] 1. 23-19").expect("valid");
        assert_eq!(games.len(), 3);
        assert_eq!(games[2].tag("Event"), Some("x"));
        assert_eq!(games[2].result, None);
        let games = parse_pdn("1. 22-18\n[Event \"next\"]\n1. 21-17").expect("valid");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves.len(), 1);
        assert!(
            parse_pdn(" \n; only a comment\n% escape\n")
                .expect("valid")
                .is_empty()
        );
    }

    #[test]
    fn black_to_move_from_fen_or_number() {
        let g = parse_one("[FEN \"B:W18,24:B12,16\"]\n11-15 18x11 1/2-1/2");
        assert_eq!(g.first_side(), Color::Black);
        assert_eq!(g.moves[0], mv(1, Color::Black, "11-15", None));
        assert_eq!(g.moves[1], mv(2, Color::White, "18x11", None));
        let g = parse_one("17... 11-15 18. 22x13 *");
        assert_eq!(g.moves[0], mv(17, Color::Black, "11-15", None));
        assert_eq!(g.moves[1], mv(18, Color::White, "22x13", None));
    }

    /// Found by fuzzing (fuzz/regressions/pdn/): a file's odd numbering (`2...` on a
    /// move that follows Black's) was written without the number, read back as White's
    /// move, and written again differently.
    #[test]
    fn odd_numbering_is_written_as_read() {
        let g = parse_one("1. 22-19 11-15 2... 19x1 3... 5-9 *");
        assert_eq!(g.moves[2], mv(2, Color::Black, "19x1", None));
        let text = write_pdn(std::slice::from_ref(&g));
        assert_eq!(text, "1. 22-19 11-15 2... 19x1 3... 5-9 *\n");
        assert_eq!(parse_one(&text), g);
        // Regular numbering still writes no continuation numbers.
        let regular = parse_one("1. 22-19 11-15 2. 24-20 12-16 *");
        assert_eq!(write_pdn(&[regular]), "1. 22-19 11-15 2. 24-20 12-16 *\n");
    }

    /// Found by fuzzing the web board's API (fuzz/regressions/web_api/): an unterminated
    /// comment's line breaks went into the error, which the API promises as one line.
    #[test]
    fn an_error_is_one_line() {
        let e = parse_pdn("1. 22-18 {a\n\nb\r\tc *").expect_err("unterminated");
        assert_eq!(e.token, "{a  b  c *");
        assert!(!e.to_string().contains(['\n', '\r', '\t']), "{e}");
    }

    #[test]
    fn normalizes_move_text() {
        assert_eq!(normalize_move("22-19!?").as_deref(), Some("22-19"));
        assert_eq!(normalize_move("29X22:15x6").as_deref(), Some("29x22x15x6"));
        assert_eq!(normalize_move("9x18"), Some("9x18".to_string()));
        for bad in [
            "22-19-15", "22-33", "1-1", "0-4", "22", "22x", "x22", "22-x19", "a-b", "022-19", "",
        ] {
            assert_eq!(normalize_move(bad), None, "{bad}");
        }
    }

    #[test]
    fn errors_locate_the_bad_token() {
        let e = parse_pdn("1. 22-18 1-0\n\n1. 21-17 12-16\n2. 17-44 *").expect_err("bad move");
        assert_eq!((e.game, e.line, e.column), (2, 4, 4));
        assert_eq!(e.token, "17-44");
        assert_eq!(e.kind, PdnErrorKind::BadToken);
        assert_eq!(
            e.to_string(),
            "PDN game 2, line 4, column 4: invalid token `17-44`"
        );

        let kind = |t: &str| parse_pdn(t).expect_err("invalid").kind;
        assert_eq!(
            kind("1. 22-18 {never closed"),
            PdnErrorKind::UnterminatedComment
        );
        assert_eq!(
            kind("1. 22-18 (1... 11-15 (x)"),
            PdnErrorKind::UnterminatedVariation
        );
        assert_eq!(kind("1. 22-18 )"), PdnErrorKind::UnmatchedParenthesis);
        assert_eq!(kind("[Event \"x\"\n1. 22-18"), PdnErrorKind::MalformedTag);
        assert_eq!(kind("[Event x]"), PdnErrorKind::MalformedTag);
        assert_eq!(kind("[ \"x\"]"), PdnErrorKind::MalformedTag);
        assert_eq!(kind("1. 22-18 }"), PdnErrorKind::BadToken);
        assert_eq!(kind("1. e2-e4"), PdnErrorKind::BadToken);
        // Algebraic moves (Russian, Brazilian): dark squares only, `:` read as `x`.
        let russian = parse_pdn("1. c3-d4 f6-e5 2. D4:F6 g7xe5 *").unwrap_or_default();
        let texts: Vec<&str> = russian[0].moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, ["c3-d4", "f6-e5", "d4xf6", "g7xe5"]);
        assert_eq!(kind("1. c3-22"), PdnErrorKind::BadToken);
        assert_eq!(kind("99999999999. 22-18"), PdnErrorKind::BadToken);
    }

    #[test]
    fn writes_standard_pdn() {
        let game = PdnGame {
            tags: vec![
                ("GameType".into(), "22".into()),
                ("Result".into(), "1-0".into()),
                ("Black".into(), "B \"q\"".into()),
                ("Event".into(), "E".into()),
                ("TimeControl".into(), "60+1".into()),
            ],
            comment: None,
            moves: vec![
                mv(1, Color::White, "22-19", None),
                mv(1, Color::Black, "11-15", Some("main line")),
                mv(2, Color::White, "19x10", None),
                mv(2, Color::Black, "6x15", None),
            ],
            result: Some("1-0".into()),
        };
        let text = game.to_string();
        assert_eq!(
            text,
            "[Event \"E\"]\n[Black \"B \\\"q\\\"\"]\n[Result \"1-0\"]\n[GameType \"22\"]\n\
             [TimeControl \"60+1\"]\n\n1. 22-19 11-15 {main line} 2. 19x10 6x15 1-0\n"
        );
        let mut sorted = game.clone();
        sorted.sort_tags();
        assert_eq!(parse_one(&text), sorted);
    }

    #[test]
    fn writes_ellipsis_only_for_black_first() {
        let game = PdnGame {
            tags: vec![("FEN".into(), "B:W18:B12".into())],
            comment: Some("start".into()),
            moves: vec![
                mv(1, Color::Black, "12-16", None),
                mv(2, Color::White, "18-14", Some("threat")),
                mv(2, Color::Black, "16-20", None),
            ],
            result: None,
        };
        let text = game.to_string();
        assert!(
            text.ends_with("{start} 1... 12-16 2. 18-14 {threat} 16-20 *\n"),
            "{text}"
        );
        assert_eq!(parse_one(&text), game);
    }

    #[test]
    fn wraps_long_move_text() {
        let mut game = PdnGame::default();
        for n in 1..=60 {
            game.moves.push(mv(n, Color::White, "22x13x4", None));
            game.moves.push(mv(n, Color::Black, "11-15", Some("a b c")));
        }
        let text = game.to_string();
        assert!(
            text.lines().all(|l| l.chars().count() <= LINE_WIDTH),
            "{text}"
        );
        assert!(text.lines().count() > 10);
        assert_eq!(parse_one(&text), game);
    }

    #[test]
    fn write_many_then_read() {
        let a = parse_pdn(SAMPLE).expect("valid PDN");
        let text = write_pdn(&a);
        assert_eq!(parse_pdn(&text).expect("written PDN is valid"), a);
    }

    /// Reads `text` with [`recover_pdn`]: the games read (by number) and the warnings.
    fn recover(text: &str) -> (Vec<(usize, PdnGame)>, Vec<String>) {
        let read = recover_pdn(text);
        let warnings = read.iter().flat_map(|g| &g.warnings).map(|w| w.to_string());
        let warnings = warnings.collect();
        let games = read
            .into_iter()
            .filter_map(|g| g.game.map(|game| (g.number, game)));
        (games.collect(), warnings)
    }

    #[test]
    fn recovers_the_faults_of_real_files() {
        let (games, warnings) = recover("[Event \"1 turno\"\"]\n\n1. 22-18 06-10 1-0\n");
        assert_eq!(games[0].1.tag("Event"), Some("1 turno"));
        assert_eq!(games[0].1.moves[1].text, "6-10");
        assert_eq!(
            warnings,
            [
                "game 1, line 1: repaired: tag value ends in a doubled quote: `[Event \"1 turno\"\"]`"
            ]
        );
        let (games, warnings) = recover("1. 22-18 {a {PARI} b} 1/2-1/2 } 11-15 0-2t");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].1.moves[0].comment.as_deref(), Some("a {PARI} b"));
        assert_eq!(games[1].1.result.as_deref(), Some("0-2"));
        assert_eq!(games[1].1.tag("Termination"), Some("time forfeit"));
        assert_eq!(warnings.len(), 3, "{warnings:?}");
        assert!(warnings[1].starts_with("game 2, line 1: repaired: stray `}` dropped"));
        // A bad game is skipped to its result; the games around it are read.
        let (games, warnings) = recover("1. 22-18 2-0\n1. 22-99 11-15 0-2\n1. 21-17 1-1\n");
        let numbers: Vec<usize> = games.iter().map(|g| g.0).collect();
        assert_eq!(numbers, [1, 3]);
        assert_eq!(warnings, ["game 2, line 2: skipped: invalid token `22-99`"]);
        // `[` at a line start in a comment is the comment's, even as a tag pair; after
        // a blank line it starts a game, so a comment never closed costs one game.
        let text = "[White \"a\"]\n1. 22-18 {see\n[White \"b\"]\n} *\n\n[White \"c\"]\n1. 22-18 {x\n\n[White \"d\"]\n1. 21-17 *\n";
        let (games, warnings) = recover(text);
        let whites: Vec<_> = games.iter().map(|g| g.1.tag("White")).collect();
        assert_eq!(whites, [Some("a"), Some("d")]);
        assert_eq!(
            games[0].1.moves[0].comment.as_deref(),
            Some("see [White \"b\"]")
        );
        assert_eq!(
            warnings,
            ["game 2, line 7: skipped: unterminated comment `{x  `"]
        );
        // Recovering, a tag closes on its line.
        let (games, warnings) =
            recover("[Event \"a\nb\"]\n1. 22-18 *\n\n[Event \"c\"]\n1. 21-17 *\n");
        assert_eq!(games.len(), 1);
        assert!(
            warnings[0].starts_with("game 1, line 1: skipped: malformed tag pair `[Event \"a`"),
            "{warnings:?}"
        );
    }

    #[test]
    fn italian_tag_names_and_results() {
        let g = parse_one("[Bianco \"Rossi\"]\n[Nero \"Verdi\"]\n[Risultato \"2-0\"]\n1. 22-18");
        assert_eq!(
            (g.tag("White"), g.tag("Black")),
            (Some("Rossi"), Some("Verdi"))
        );
        assert_eq!(
            (g.result.as_deref(), g.result_or_tag()),
            (None, Some("2-0"))
        );
        let mut g = g;
        g.set_tag("White", "Neri");
        assert_eq!(g.tag("White"), Some("Neri"));
    }

    #[test]
    fn tag_helpers() {
        let mut g = PdnGame::default();
        g.set_tag("Event", "a");
        g.set_tag("Event", "b");
        g.set_tag("Round", "1");
        assert_eq!(g.tags.len(), 2);
        assert_eq!(g.tag("Event"), Some("b"));
        assert_eq!(g.tag("Site"), None);
    }

    fn arb_move_text() -> impl Strategy<Value = String> {
        let square = 1u8..=32;
        prop_oneof![
            (square.clone(), square.clone())
                .prop_filter("distinct squares", |(a, b)| a != b)
                .prop_map(|(a, b)| format!("{a}-{b}")),
            prop::collection::vec(square, 2..6)
                .prop_map(|v| { v.iter().map(u8::to_string).collect::<Vec<_>>().join("x") }),
        ]
    }

    fn arb_comment() -> impl Strategy<Value = Option<String>> {
        prop::option::of(
            prop::collection::vec("[a-zA-Z0-9;()%\\[\\]\"!?.{*-]{1,8}", 0..5)
                .prop_map(|w| w.join(" ")),
        )
    }

    fn arb_game() -> impl Strategy<Value = PdnGame> {
        let tag = ("[A-Za-z][A-Za-z0-9_]{0,8}", "\\PC{0,12}");
        let result = prop::option::of(prop::sample::select(&RESULTS[..7]))
            .prop_map(|r| r.map(str::to_string));
        let glyph = prop::option::of(prop::sample::select(&["?", "??", "!", "!?", "?!"][..]))
            .prop_map(|g| g.map(str::to_string));
        let variation = prop::collection::vec(arb_move_text(), 0..4).prop_map(|w| w.join(" "));
        let extras = (glyph, prop::collection::vec(variation, 0..2));
        let moves = prop::collection::vec((arb_move_text(), arb_comment(), extras), 0..40);
        (
            prop::collection::vec(tag, 0..6),
            arb_comment(),
            1u32..200,
            any::<bool>(),
            moves,
            result,
        )
            .prop_map(|(tags, comment, start, black_first, moves, result)| {
                let mut next = (
                    start,
                    if black_first {
                        Color::Black
                    } else {
                        Color::White
                    },
                );
                let moves = moves
                    .into_iter()
                    .map(|(text, comment, (annotation, variations))| {
                        let (number, side) = next;
                        next = match side {
                            Color::White => (number, Color::Black),
                            Color::Black => (number + 1, Color::White),
                        };
                        PdnMove {
                            comment,
                            annotation,
                            variations,
                            ..PdnMove::new(&text, number, side)
                        }
                    })
                    .collect();
                PdnGame {
                    tags,
                    comment,
                    moves,
                    result,
                }
            })
    }

    proptest! {
        /// Whatever text comes before it, a game after a blank line is read, and every
        /// fault found names a line of the text and its token.
        #[test]
        fn a_game_after_any_text_is_read(
            junk in prop_oneof![
                "\\PC{0,200}",
                "[\\[\\]{}()\"\\\\;%$!?.xX:0-9 \\n*/-]{0,200}",
                "(\\[[A-Za-z]{1,5} \"[a-z\"]{0,4}\"\\]\n|[0-9]{1,2}[-x][0-9]{1,2} |\\{|\\}|1-0t? |\n){0,30}",
            ],
            game in arb_game(),
        ) {
            let mut game = game;
            game.tags.insert(0, ("Event".to_string(), "x".to_string()));
            let text = format!("{junk}\n\n{}", write_pdn(std::slice::from_ref(&game)));
            let read = recover_pdn(&text);
            let lines = text.split('\n').count();
            for w in read.iter().flat_map(|g| &g.warnings) {
                prop_assert!((1..=lines).contains(&w.line), "{w}");
                prop_assert!(w.fault.contains('`'), "{w}");
                prop_assert!(!w.to_string().contains(['\n', '\r']), "{w}");
            }
            game.sort_tags();
            let last = read.last().and_then(|g| g.game.as_ref());
            prop_assert!(last.is_some(), "{text}");
            if let Some(last) = last {
                prop_assert_eq!(&last.moves, &game.moves, "{}", text);
                prop_assert_eq!(&last.result, &game.result);
                prop_assert_eq!(&last.comment, &game.comment);
                prop_assert!(last.tags.ends_with(&game.tags), "{:?}", last.tags);
            }
            // Numbers count every game, skipped ones too.
            let numbers: Vec<usize> = read.iter().map(|g| g.number).collect();
            prop_assert_eq!(numbers, (1..=read.len()).collect::<Vec<_>>());
        }

        #[test]
        fn written_games_read_back_equal(games in prop::collection::vec(arb_game(), 1..4)) {
            // Games without tags must end in a result to stay separate; the
            // writer always writes one (`*` for None).
            let text = write_pdn(&games);
            let mut expected = games;
            expected.iter_mut().for_each(PdnGame::sort_tags);
            prop_assert_eq!(parse_pdn(&text).map_err(|e| e.to_string()), Ok(expected), "{}", text);
        }
    }
}
