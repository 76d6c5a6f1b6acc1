//! A text board for people: the pieces on the left (`w`/`b` men, `W`/`B` kings, empty
//! dark squares show their name in the position's variant) and a key of every square
//! name on the right, seen from either side, within 80 columns.
//!
//! ```text
//!     +--------------------------------+   +------------------------+
//!     |  b       b       b       b     |   |  1     2     3     4    |
//!     |      b       b       b       b |   |     5     6     7     8 |
//! ```

use crate::board::{Color, Position, Square, piece_char};

/// Width of a square in the main board.
const CELL: usize = 4;
/// Width of a square in the number key.
const KEY_CELL: usize = 3;

/// The board diagram, seen from `bottom`'s side (that side's pieces at the bottom).
/// Each line ends without trailing spaces; the last line ends with a newline.
pub fn render(pos: &Position, bottom: Color) -> String {
    let border = format!(
        "    +{}+   +{}+",
        "-".repeat(8 * CELL),
        "-".repeat(8 * KEY_CELL)
    );
    let mut text = format!("{border}\n");
    for screen_row in 0..8u8 {
        let board: String = (0..8u8)
            .map(|c| cell(pos, square_at(pos, screen_row, c, bottom)))
            .collect();
        let key: String = (0..8u8)
            .map(|c| key_cell(pos, square_at(pos, screen_row, c, bottom)))
            .collect();
        text.push_str(&format!("    |{board}|   |{key}|\n"));
    }
    text.push_str(&border);
    text.push('\n');
    text
}

/// The square shown at a screen row and column, if it is a dark square of the
/// position's variant's board.
fn square_at(pos: &Position, screen_row: u8, screen_col: u8, bottom: Color) -> Option<Square> {
    let variant = pos.variant();
    match bottom {
        Color::White => variant.square_at(screen_row, screen_col),
        Color::Black => variant.square_at(7 - screen_row, 7 - screen_col),
    }
}

/// One square of the main board: a piece letter, the number of an empty dark square, or
/// blank for a light square.
fn cell(pos: &Position, sq: Option<Square>) -> String {
    let body = match sq {
        None => String::new(),
        Some(sq) => match pos.piece_at(sq) {
            Some(p) => piece_char(p).to_string(),
            None => pos.variant().square_name(sq),
        },
    };
    format!("{body:>w$} ", w = CELL - 1)
}

/// One square of the number key.
fn key_cell(pos: &Position, sq: Option<Square>) -> String {
    let body = sq.map(|s| pos.variant().square_name(s)).unwrap_or_default();
    format!("{body:>w$} ", w = KEY_CELL - 1)
}

/// Words wrapped into lines of at most `width` columns, each line starting with `indent`.
pub fn wrap(words: &[String], indent: &str, width: usize) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::from(indent);
    for word in words {
        if line.len() > indent.len() && line.len() + 1 + word.len() > width {
            lines.push(std::mem::replace(&mut line, String::from(indent)));
        }
        if line.len() > indent.len() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if line.len() > indent.len() {
        lines.push(line);
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_from_white() {
        let text = render(&Position::start(), Color::White);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 10);
        assert_eq!(
            lines[1],
            "    |  b       b       b       b     |   | 1     2     3     4    |"
        );
        assert_eq!(
            lines[4],
            "    |     13      14      15      16 |   |   13    14    15    16 |"
        );
        assert_eq!(
            lines[8],
            "    |      w       w       w       w |   |   29    30    31    32 |"
        );
        assert!(lines.iter().all(|l| l.len() <= 80));
    }

    #[test]
    fn flipped_puts_black_at_the_bottom() {
        let pos = Position::parse("W:WK14:B1").unwrap_or_default();
        let text = render(&pos, Color::Black);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[1].contains(" 32"), "{text}");
        assert!(lines[8].trim_end().ends_with(" 1 |"), "{text}");
        assert!(lines[8].contains("  b |"), "{text}");
        assert!(lines[5].contains("  W "), "{text}");
    }

    #[test]
    fn wrap_keeps_width() {
        let words: Vec<String> = (0..40).map(|i| format!("{i}x{i}")).collect();
        let text = wrap(&words, "  ", 30);
        assert!(text.lines().all(|l| l.len() <= 30 && l.starts_with("  ")));
        assert_eq!(text.split_whitespace().count(), 40);
        assert_eq!(wrap(&[], "  ", 30), "");
    }
}
