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

/// The side that makes a move. White moves first in Italian draughts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The white side.
    White,
    /// The black side.
    Black,
}

/// One move of a game's main line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnMove {
    /// Move text in normalized form, e.g. `22-19` or `29x22x15x6`.
    pub text: String,
    /// Full-move number the move belongs to (`1` for `1. 22-19 11-15`).
    pub number: u32,
    /// The side making the move.
    pub side: Side,
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
    pub fn new(text: &str, number: u32, side: Side) -> PdnMove {
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
    /// The value of the first tag called `name`, if any.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
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
    pub fn first_side(&self) -> Side {
        match self.tag("FEN").and_then(|f| f.trim_start().chars().next()) {
            Some('B') | Some('b') => Side::Black,
            _ => Side::White,
        }
    }
}

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

/// Reads every game of a PDN text.
///
/// A game ends at its result token, or where a new tag section starts, or at
/// the end of the text. Text with no tags, moves or results yields no games.
pub fn parse_pdn(text: &str) -> Result<Vec<PdnGame>, PdnError> {
    let mut lexer = Lexer::new(text);
    let mut games = Vec::new();
    let mut builder = GameBuilder::default();
    loop {
        let game_no = games.len() + 1;
        let Some(token) = lexer.next_token().map_err(|e| e.into_error(game_no))? else {
            break;
        };
        if let Some(game) = builder.feed(token).map_err(|e| e.into_error(game_no))? {
            games.push(game);
        }
    }
    if let Some(game) = builder.finish() {
        games.push(game);
    }
    Ok(games)
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
            // Control characters (a comment's line breaks) as spaces: one line of error.
            token: self
                .token
                .chars()
                .take(PdnError::MAX_TOKEN_CHARS)
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect(),
            kind: self.kind,
        }
    }
}

/// Characters that end a symbol token.
fn is_delimiter(c: char) -> bool {
    c.is_whitespace() || matches!(c, '[' | ']' | '{' | '}' | '(' | ')' | ';')
}

struct Lexer<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    column: usize,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Self {
        Lexer {
            chars: text.chars().peekable(),
            line: 1,
            column: 1,
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn skip_line(&mut self) {
        while let Some(c) = self.bump() {
            if c == '\n' {
                break;
            }
        }
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

    /// Reads `{...}` (the lexer is on `{`) and returns the normalized text.
    fn read_comment(&mut self) -> Result<String, RawError> {
        let (line, column) = (self.line, self.column);
        self.bump();
        let mut raw = String::new();
        loop {
            match self.bump() {
                Some('}') => return Ok(normalize_comment(&raw)),
                Some(c) => raw.push(c),
                None => {
                    let token = format!("{{{raw}");
                    return Err(self.error(PdnErrorKind::UnterminatedComment, line, column, token));
                }
            }
        }
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

    /// Reads `[Name "value"]` (the lexer is on `[`).
    fn read_tag(&mut self) -> Result<TokenKind, RawError> {
        let (line, column) = (self.line, self.column);
        let mut raw = String::new();
        match self.read_tag_parts(&mut raw) {
            Some((name, value)) => Ok(TokenKind::Tag(name, value)),
            None => Err(self.error(PdnErrorKind::MalformedTag, line, column, raw)),
        }
    }

    /// Consumes characters (also recorded in `raw`) while they fit a tag.
    fn read_tag_parts(&mut self, raw: &mut String) -> Option<(String, String)> {
        let mut take = |lx: &mut Self| {
            let c = lx.bump()?;
            raw.push(c);
            Some(c)
        };
        take(self)?; // '['
        self.skip_inline_space_into(&mut take);
        let mut name = String::new();
        while let Some(c) = self.peek() {
            if !(c.is_alphanumeric() || c == '_') {
                break;
            }
            name.push(c);
            take(self)?;
        }
        self.skip_inline_space_into(&mut take);
        if name.is_empty() || take(self)? != '"' {
            return None;
        }
        let mut value = String::new();
        loop {
            match take(self)? {
                '"' => break,
                '\\' => match take(self)? {
                    c @ ('"' | '\\') => value.push(c),
                    c => {
                        value.push('\\');
                        value.push(c);
                    }
                },
                c => value.push(c),
            }
        }
        self.skip_inline_space_into(&mut take);
        (take(self)? == ']').then_some((name, value))
    }

    fn skip_inline_space_into(&mut self, take: &mut impl FnMut(&mut Self) -> Option<char>) {
        while self.peek().is_some_and(char::is_whitespace) {
            take(self);
        }
    }
}

/// Collapses runs of whitespace into one space and trims the ends.
fn normalize_comment(raw: &str) -> String {
    raw.split_whitespace().collect::<Vec<_>>().join(" ")
}

// --------------------------------------------------------------- parser --

/// Result tokens recognized by the reader.
const RESULTS: [&str; 8] = ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"];

/// Accumulates one game from tokens.
#[derive(Default)]
struct GameBuilder {
    game: PdnGame,
    /// Number and side of the next move, once known.
    next: Option<(u32, Side)>,
    /// Whether move text (moves, numbers, comments) has started.
    in_movetext: bool,
}

impl GameBuilder {
    /// Feeds a token; returns a finished game when the token ends one.
    fn feed(&mut self, token: Token) -> Result<Option<PdnGame>, RawError> {
        match token.kind {
            TokenKind::Tag(name, value) => {
                let done = if self.in_movetext {
                    self.finish()
                } else {
                    None
                };
                self.game.tags.push((name, value));
                Ok(done)
            }
            TokenKind::Comment(text) => {
                self.in_movetext = true;
                let slot = match self.game.moves.last_mut() {
                    Some(m) => &mut m.comment,
                    None => &mut self.game.comment,
                };
                append_comment(slot, text);
                Ok(None)
            }
            TokenKind::Variation(text) => {
                self.in_movetext = true;
                if let Some(m) = self.game.moves.last_mut() {
                    m.variations.push(text);
                }
                Ok(None)
            }
            TokenKind::Symbol(sym) => self.symbol(&sym, token.line, token.column),
        }
    }

    fn symbol(
        &mut self,
        sym: &str,
        line: usize,
        column: usize,
    ) -> Result<Option<PdnGame>, RawError> {
        self.in_movetext = true;
        if RESULTS.contains(&sym) {
            self.game.result = (sym != "*").then(|| sym.to_string());
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
        if rest.is_empty() || self.push_move(rest) {
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
        let side = if dots == 1 { Side::White } else { Side::Black };
        self.next = Some((number, side));
        rest
    }

    fn next_or_start(&self) -> (u32, Side) {
        self.next.unwrap_or((1, self.game.first_side()))
    }

    /// Appends a move if `text` is valid move text.
    fn push_move(&mut self, raw: &str) -> bool {
        let Some(text) = normalize_move(raw) else {
            return false;
        };
        let (number, side) = self.next_or_start();
        let mut mv = PdnMove::new(&text, number, side);
        let glyph = raw_text_suffix(raw);
        mv.annotation = (!glyph.is_empty()).then(|| glyph.to_string());
        self.game.moves.push(mv);
        self.next = Some(match side {
            Side::White => (number, Side::Black),
            Side::Black => (number.saturating_add(1), Side::White),
        });
        true
    }

    /// Returns the game built so far, if anything was read, and resets.
    fn finish(&mut self) -> Option<PdnGame> {
        let builder = std::mem::take(self);
        (builder.in_movetext || !builder.game.tags.is_empty()).then_some(builder.game)
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

/// Validates move text and returns it normalized (`!`/`?` suffixes removed,
/// capture separators written as `x`).
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
    if !squares.iter().all(|s| valid_square(s)) {
        return None;
    }
    if quiet && squares.first() == squares.last() {
        // `1-1` would be a result token, and is no move anyway.
        return None;
    }
    Some(squares.join(if quiet { "-" } else { "x" }))
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
                .is_some_and(|p| p.side == Side::White && p.number == m.number);
            match m.side {
                Side::White => words.push(format!("{}.", m.number)),
                Side::Black if !follows_white => words.push(format!("{}...", m.number)),
                Side::Black => {}
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

    fn mv(number: u32, side: Side, text: &str, comment: Option<&str>) -> PdnMove {
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
        use Side::{Black as B, White as W};
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
        assert_eq!(g.first_side(), Side::Black);
        assert_eq!(g.moves[0], mv(1, Side::Black, "11-15", None));
        assert_eq!(g.moves[1], mv(2, Side::White, "18x11", None));
        let g = parse_one("17... 11-15 18. 22x13 *");
        assert_eq!(g.moves[0], mv(17, Side::Black, "11-15", None));
        assert_eq!(g.moves[1], mv(18, Side::White, "22x13", None));
    }

    /// Found by fuzzing (fuzz/regressions/pdn/): a file's odd numbering (`2...` on a
    /// move that follows Black's) was written without the number, read back as White's
    /// move, and written again differently.
    #[test]
    fn odd_numbering_is_written_as_read() {
        let g = parse_one("1. 22-19 11-15 2... 19x1 3... 5-9 *");
        assert_eq!(g.moves[2], mv(2, Side::Black, "19x1", None));
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
                mv(1, Side::White, "22-19", None),
                mv(1, Side::Black, "11-15", Some("main line")),
                mv(2, Side::White, "19x10", None),
                mv(2, Side::Black, "6x15", None),
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
                mv(1, Side::Black, "12-16", None),
                mv(2, Side::White, "18-14", Some("threat")),
                mv(2, Side::Black, "16-20", None),
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
            game.moves.push(mv(n, Side::White, "22x13x4", None));
            game.moves.push(mv(n, Side::Black, "11-15", Some("a b c")));
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
                        Side::Black
                    } else {
                        Side::White
                    },
                );
                let moves = moves
                    .into_iter()
                    .map(|(text, comment, (annotation, variations))| {
                        let (number, side) = next;
                        next = match side {
                            Side::White => (number, Side::Black),
                            Side::Black => (number + 1, Side::White),
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
        #[test]
        fn arbitrary_text_never_panics(text in "\\PC*") {
            let _ = parse_pdn(&text);
        }

        #[test]
        fn pdn_like_text_never_panics(text in "[\\[\\]{}()\"\\\\;%$!?.xX:0-9 \\n*/-]{0,200}") {
            let _ = parse_pdn(&text);
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
