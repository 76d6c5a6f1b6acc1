//! The readers: [`parse_pdn`] refuses a text at its first fault; [`recover_pdn`] reads
//! every game it can, repairing faults of certain meaning and skipping the other faulty
//! games, each with a warning naming its line.

use std::fmt;

use super::*;

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
pub(super) struct Repair {
    pub(super) line: usize,
    pub(super) fault: String,
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
pub(super) fn read_chunk(
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
pub(super) fn split_games(text: &str) -> Vec<(usize, &str)> {
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
pub(super) fn is_tag_line(trimmed: &str) -> bool {
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
