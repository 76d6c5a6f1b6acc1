//! The parser: tokens into games (one [`GameBuilder`] per game), with the move text
//! normalized and the result read from its token.

use super::*;

/// Result tokens recognized by the reader.
pub(super) const RESULTS: [&str; 8] = ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"];

/// A result token, or (recovering) a result with a suffix of letters (`0-2t`): the
/// result and the suffix.
pub(super) fn split_result(sym: &str) -> Option<(&str, &str)> {
    if RESULTS.contains(&sym) {
        return Some((sym, ""));
    }
    let body = sym.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    (body.len() < sym.len() && RESULTS[..7].contains(&body)).then(|| (body, &sym[body.len()..]))
}

/// The `Termination` of a result suffix: `t` (tempo) is a time forfeit.
pub(super) fn termination(suffix: &str) -> String {
    match suffix.to_ascii_lowercase().as_str() {
        "t" => "time forfeit".to_string(),
        _ => format!("result suffix {suffix}"),
    }
}

/// A game read by the builder, with the line of its first token and of each move.
pub(super) struct Built {
    pub(super) game: PdnGame,
    pub(super) line: usize,
    pub(super) move_lines: Vec<usize>,
}

/// Accumulates one game from tokens.
#[derive(Default)]
pub(super) struct GameBuilder {
    pub(super) game: PdnGame,
    /// Number and side of the next move, once known.
    pub(super) next: Option<(u32, Slot)>,
    /// Whether move text (moves, numbers, comments) has started.
    pub(super) in_movetext: bool,
    /// The line of the first token, once fed.
    pub(super) first_line: Option<usize>,
    /// The line of each move.
    pub(super) move_lines: Vec<usize>,
    /// Recovering: result suffixes are read (noted in `repairs`).
    pub(super) lenient: bool,
    pub(super) repairs: Vec<Repair>,
}

impl GameBuilder {
    /// Feeds a token; returns a finished game when the token ends one.
    pub(super) fn feed(&mut self, token: Token) -> Result<Option<Built>, RawError> {
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
        let slot = if dots == 1 { Slot::First } else { Slot::Second };
        self.next = Some((number, slot));
        rest
    }

    /// The number and slot of the next move: after the last one, or at the start (a
    /// game whose FEN has Black to move starts in the second slot).
    fn next_or_start(&self) -> (u32, Slot) {
        let start = match self.game.first_side() {
            Color::White => Slot::First,
            Color::Black => Slot::Second,
        };
        self.next.unwrap_or((1, start))
    }

    /// Appends a move if `text` is valid move text.
    fn push_move(&mut self, raw: &str, line: usize) -> bool {
        let Some(text) = normalize_move(raw) else {
            return false;
        };
        let (number, slot) = self.next_or_start();
        let mut mv = PdnMove::new(&text, number, slot);
        let glyph = raw_text_suffix(raw);
        mv.annotation = (!glyph.is_empty()).then(|| glyph.to_string());
        self.game.moves.push(mv);
        self.move_lines.push(line);
        self.next = Some(match slot {
            Slot::First => (number, Slot::Second),
            Slot::Second => (number.saturating_add(1), Slot::First),
        });
        true
    }

    /// Returns the game built so far, if anything was read, and resets (a recovering
    /// builder stays one; its repairs stay for the caller to take).
    pub(super) fn finish(&mut self) -> Option<Built> {
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

pub(super) fn append_comment(slot: &mut Option<String>, text: String) {
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
pub(super) fn raw_text_suffix(text: &str) -> &str {
    let body = text.trim_end_matches(['!', '?']);
    &text[body.len()..]
}

/// NAGs (`$12`) and stand-alone `!`/`?` annotations.
pub(super) fn is_annotation(sym: &str) -> bool {
    match sym.strip_prefix('$') {
        Some(n) => !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()),
        None => !sym.is_empty() && sym.chars().all(|c| c == '!' || c == '?'),
    }
}

/// Validates move text and returns it normalized (`!`/`?` suffixes and leading zeros
/// removed, capture separators written as `x`).
pub(super) fn normalize_move(text: &str) -> Option<String> {
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
pub(super) fn is_dark_algebraic(s: &str) -> bool {
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
