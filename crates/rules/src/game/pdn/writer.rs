//! The writer: a game as PDN text (the seven-tag roster first, move numbers only where a
//! reader needs them, comments and variations kept).

use std::fmt;

use super::*;

/// Tags written first, in this order (the PDN seven-tag roster).
pub(super) const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Position of a tag name in the roster; other names come after it.
pub(super) fn roster_rank(name: &str) -> usize {
    ROSTER
        .iter()
        .position(|r| *r == name)
        .unwrap_or(ROSTER.len())
}

/// Move text lines are wrapped before this many characters.
pub(super) const LINE_WIDTH: usize = 80;

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
    /// move that does not follow the first move of the same number.
    fn movetext_words(&self) -> Vec<String> {
        let mut words = Vec::new();
        if let Some(c) = &self.comment {
            push_comment_words(&mut words, c);
        }
        for (i, m) in self.moves.iter().enumerate() {
            let follows_first = i
                .checked_sub(1)
                .and_then(|j| self.moves.get(j))
                .is_some_and(|p| p.slot == Slot::First && p.number == m.number);
            words.extend(number_word(m.number, m.slot, !follows_first));
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
pub(super) fn push_comment_words(words: &mut Vec<String>, comment: &str) {
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
pub(super) fn push_variation_words(words: &mut Vec<String>, variation: &str) {
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
pub(super) fn escape_tag_value(value: &str) -> String {
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

/// Writes several games as one PDN text, separated by blank lines.
pub fn write_pdn(games: &[PdnGame]) -> String {
    games
        .iter()
        .map(PdnGame::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The move number written before a move in `slot` of `number`, if any: `N.` before a
/// first move, `N...` before a second move that `opens` a line (the first move of a game
/// or a variation, or one after a comment or variation), nothing before a second move
/// that follows its first. Every PDN writer (games, the board's variations, the engine's
/// lines in annotations) numbers by this rule.
pub fn number_word(number: u32, slot: Slot, opens: bool) -> Option<String> {
    match slot {
        Slot::First => Some(format!("{number}.")),
        Slot::Second if opens => Some(format!("{number}...")),
        Slot::Second => None,
    }
}
