//! The lexer: a PDN text as tokens (tags, move numbers, moves, comments, variations,
//! annotations, results), each with where it starts.

use super::*;

/// A lexical token with its starting position.
#[derive(Debug)]
pub(super) struct Token {
    pub(super) kind: TokenKind,
    pub(super) line: usize,
    pub(super) column: usize,
}

#[derive(Debug)]
pub(super) enum TokenKind {
    Tag(String, String),
    Comment(String),
    Variation(String),
    Symbol(String),
}

/// An error before the game number is known.
pub(super) struct RawError {
    pub(super) kind: PdnErrorKind,
    pub(super) line: usize,
    pub(super) column: usize,
    pub(super) token: String,
}

impl RawError {
    pub(super) fn into_error(self, game: usize) -> PdnError {
        PdnError {
            game,
            line: self.line,
            column: self.column,
            token: clip_token(&self.token),
            kind: self.kind,
        }
    }

    /// The fault in words, naming the token: ``invalid token `17-44` ``.
    pub(super) fn describe(&self) -> String {
        format!("{} `{}`", self.kind, clip_token(&self.token))
    }
}

/// At most [`PdnError::MAX_TOKEN_CHARS`] characters of `token`, control characters (a
/// comment's line breaks) as spaces: one line.
pub(super) fn clip_token(token: &str) -> String {
    token
        .chars()
        .take(PdnError::MAX_TOKEN_CHARS)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// Characters that end a symbol token.
pub(super) fn is_delimiter(c: char) -> bool {
    c.is_whitespace() || matches!(c, '[' | ']' | '{' | '}' | '(' | ')' | ';')
}

pub(super) struct Lexer<'a> {
    pub(super) text: &'a str,
    /// Byte offset of the next character.
    pub(super) pos: usize,
    pub(super) line: usize,
    pub(super) column: usize,
    /// Recovering (see [`recover_pdn`]): certain faults are repaired into `repairs`,
    /// tags must close on their line.
    pub(super) lenient: bool,
    pub(super) repairs: Vec<Repair>,
}

impl<'a> Lexer<'a> {
    pub(super) fn new(text: &'a str, first_line: usize, lenient: bool) -> Self {
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
    pub(super) fn next_token(&mut self) -> Result<Option<Token>, RawError> {
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
pub(super) fn matching_close(body: &str) -> Option<usize> {
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
pub(super) fn skip_space(s: &str, from: usize) -> usize {
    s[from..]
        .find(|c: char| !c.is_whitespace())
        .map_or(s.len(), |i| from + i)
}

/// The name of a tag starting at `s` (`[ Name "`): the name, and the offset of the
/// opening quote.
pub(super) fn tag_name(s: &str) -> Option<(String, usize)> {
    let from = skip_space(s, s.strip_prefix('[').map(|_| 1)?);
    let len = s[from..]
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len() - from);
    let quote = skip_space(s, from + len);
    (len > 0 && s[quote..].starts_with('"')).then(|| (s[from..from + len].to_string(), quote))
}

/// A tag pair `[Name "value"]` at the start of `s` (values escape `"` and `\` with
/// `\`): its name, value and length in bytes.
pub(super) fn parse_tag(s: &str) -> Option<(String, String, usize)> {
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
pub(super) fn repair_tag(line: &str) -> Option<(String, String, usize, &'static str)> {
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
pub(super) fn normalize_comment(raw: &str) -> String {
    raw.split_whitespace().collect::<Vec<_>>().join(" ")
}
