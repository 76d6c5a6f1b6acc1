//! Position text: PDN FEN (`W:W21,22,K30:B1-12`) and the Hub position string
//! (`Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww`), in both directions, plus a board diagram.

use std::fmt::{self, Write as _};
use std::str::FromStr;

use super::bitboard::Bitboard;
use super::games::SquareNames;
use super::position::{Color, Piece, Position};
use super::square::Square;
use super::variant::Variant;

/// Why a position text was rejected. Each variant names the offending token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The text is empty.
    Empty,
    /// The side char is not `W` or `B`.
    BadSide(String),
    /// A Hub string whose length is not 33.
    BadLength(usize),
    /// A Hub string char that is not one of `w b W B e`.
    BadSquareChar {
        /// The square (1–32).
        square: u8,
        /// The character found there.
        found: char,
    },
    /// A FEN part that is neither a `W…` nor a `B…` piece list.
    BadPart(String),
    /// A FEN token that is not a square number or range.
    BadToken(String),
    /// A square number outside 1–32 (or, in the algebraic variants, not a dark square).
    SquareOutOfRange(String),
    /// The same square given twice (its name in the variant's notation).
    SquareTwice(String),
    /// A man on its own crowning row.
    ManOnCrowningRow {
        /// The square, named in the variant's notation.
        square: String,
        /// The man's side.
        color: Color,
    },
    /// More than 12 pieces for one side.
    TooManyPieces {
        /// The side.
        color: Color,
        /// Its pieces.
        count: u32,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Empty => write!(f, "empty position text"),
            PositionError::BadSide(s) => write!(f, "unknown side to move {s:?} (expected W or B)"),
            PositionError::BadLength(n) => {
                write!(
                    f,
                    "hub position has {n} chars, expected 33 (side + 32 squares)"
                )
            }
            PositionError::BadSquareChar { square, found } => {
                write!(
                    f,
                    "hub position square {square}: {found:?} is not one of w b W B e"
                )
            }
            PositionError::BadPart(s) => {
                write!(f, "FEN part {s:?} is not a piece list starting with W or B")
            }
            PositionError::BadToken(s) => write!(f, "FEN token {s:?} is not a square or range"),
            PositionError::SquareOutOfRange(s) => {
                write!(f, "square {s} is outside 1-32 (or not a dark square a1-h8)")
            }
            PositionError::SquareTwice(n) => write!(f, "square {n} is used twice"),
            PositionError::ManOnCrowningRow { square, color } => {
                write!(
                    f,
                    "{} man on {square} stands on its own crowning row",
                    color_name(*color)
                )
            }
            PositionError::TooManyPieces { color, count } => {
                write!(
                    f,
                    "{} has {count} pieces, at most 12 allowed",
                    color_name(*color)
                )
            }
        }
    }
}

impl std::error::Error for PositionError {}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn parse_side(s: &str) -> Result<Color, PositionError> {
    match s.trim() {
        "W" | "w" => Ok(Color::White),
        "B" | "b" => Ok(Color::Black),
        other => Err(PositionError::BadSide(other.to_string())),
    }
}

/// Collects pieces, rejecting squares used twice, and validates the result.
struct Builder {
    variant: Variant,
    pieces: Vec<(Square, Piece)>,
    used: Bitboard,
}

impl Builder {
    fn new(variant: Variant) -> Self {
        Builder {
            variant,
            pieces: Vec::new(),
            used: 0,
        }
    }

    fn add(&mut self, sq: Square, piece: Piece) -> Result<(), PositionError> {
        if self.used & sq.mask() != 0 {
            return Err(PositionError::SquareTwice(self.variant.square_name(sq)));
        }
        if !piece.king && sq.mask() & piece.color.crown_row() != 0 {
            return Err(PositionError::ManOnCrowningRow {
                square: self.variant.square_name(sq),
                color: piece.color,
            });
        }
        self.used |= sq.mask();
        self.pieces.push((sq, piece));
        Ok(())
    }

    fn finish(self, side: Color) -> Result<Position, PositionError> {
        for color in [Color::White, Color::Black] {
            let count = self.pieces.iter().filter(|(_, p)| p.color == color).count() as u32;
            if count > 12 {
                return Err(PositionError::TooManyPieces { color, count });
            }
        }
        Ok(Position::from_pieces(&self.pieces, side).with_variant(self.variant))
    }
}

impl Position {
    /// Parses either a PDN FEN or a Hub position string (told apart by the `:`), as an
    /// Italian position.
    pub fn parse(text: &str) -> Result<Position, PositionError> {
        Position::parse_in(Variant::Italian, text)
    }

    /// Parses a PDN FEN or a Hub position string in the notation of `variant`.
    pub fn parse_in(variant: Variant, text: &str) -> Result<Position, PositionError> {
        let t = text.trim();
        if t.is_empty() {
            Err(PositionError::Empty)
        } else if t.contains(':') {
            Position::from_fen_in(variant, t)
        } else {
            Position::from_hub_in(variant, t)
        }
    }

    /// Parses an Italian PDN FEN: `W:W21,22,K30:B1-12` — side, then the two piece lists in
    /// either order, `K` before a king's square, ranges `a-b`, an optional trailing `.`.
    pub fn from_fen(text: &str) -> Result<Position, PositionError> {
        Position::from_fen_in(Variant::Italian, text)
    }

    /// Parses a PDN FEN in the notation of `variant`: numbers in Italian and English,
    /// `W:Wa1,c1,Kh2:Bb8` (or their numbers, a1 = 1) in Russian and Brazilian.
    pub fn from_fen_in(variant: Variant, text: &str) -> Result<Position, PositionError> {
        let t = text.trim().trim_matches('"').trim_end_matches('.');
        let mut parts = t.split(':');
        let side = parse_side(parts.next().unwrap_or(""))?;
        let mut builder = Builder::new(variant);
        for part in parts {
            let part = part.trim();
            let color = match part.chars().next() {
                Some('W' | 'w') => Color::White,
                Some('B' | 'b') => Color::Black,
                _ => return Err(PositionError::BadPart(part.to_string())),
            };
            for token in part[1..]
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
            {
                add_fen_token(&mut builder, token, color)?;
            }
        }
        builder.finish(side)
    }

    /// Parses an Italian Hub position string: side char, then `w b W B e` for squares
    /// 1..32.
    pub fn from_hub(text: &str) -> Result<Position, PositionError> {
        Position::from_hub_in(Variant::Italian, text)
    }

    /// Parses a Hub position string whose squares follow `variant`'s numbering
    /// ([`Variant::number_of`]).
    pub fn from_hub_in(variant: Variant, text: &str) -> Result<Position, PositionError> {
        let chars: Vec<char> = text.trim().chars().collect();
        let side = parse_side(&chars.first().map(|c| c.to_string()).unwrap_or_default())?;
        if chars.len() != 33 {
            return Err(PositionError::BadLength(chars.len()));
        }
        let mut builder = Builder::new(variant);
        let squares = (1..=32).filter_map(|n| variant.square_numbered(n));
        for ((n, sq), &c) in (1u8..).zip(squares).zip(&chars[1..]) {
            let piece = match c {
                'w' => Piece {
                    color: Color::White,
                    king: false,
                },
                'b' => Piece {
                    color: Color::Black,
                    king: false,
                },
                'W' => Piece {
                    color: Color::White,
                    king: true,
                },
                'B' => Piece {
                    color: Color::Black,
                    king: true,
                },
                'e' => continue,
                found => {
                    return Err(PositionError::BadSquareChar { square: n, found });
                }
            };
            builder.add(sq, piece)?;
        }
        builder.finish(side)
    }

    /// The PDN FEN in the variant's notation, squares ascending (numbers, or algebraic
    /// names in alphabetical order), kings prefixed with `K`.
    pub fn to_fen(&self) -> String {
        let variant = self.variant();
        let mut fen = String::with_capacity(96);
        fen.push(if self.side_to_move() == Color::White {
            'W'
        } else {
            'B'
        });
        let mut pieces: Vec<(String, Piece)> = self
            .piece_list()
            .into_iter()
            .map(|(sq, p)| (variant.square_name(sq), p))
            .collect();
        pieces.sort_by(|(a, _), (b, _)| {
            if variant.square_names() != SquareNames::Algebraic {
                (a.len(), a).cmp(&(b.len(), b))
            } else {
                a.cmp(b)
            }
        });
        for (color, tag) in [(Color::White, ":W"), (Color::Black, ":B")] {
            fen.push_str(tag);
            let mine = pieces.iter().filter(|(_, p)| p.color == color);
            for (n, (sq, p)) in mine.enumerate() {
                if n > 0 {
                    fen.push(',');
                }
                if p.king {
                    fen.push('K');
                }
                // Writing to a String cannot fail.
                let _ = write!(fen, "{sq}");
            }
        }
        fen
    }

    /// The Hub position string, squares in the variant's numbering order.
    pub fn to_hub(&self) -> String {
        let variant = self.variant();
        let mut s = String::with_capacity(33);
        s.push(if self.side_to_move() == Color::White {
            'W'
        } else {
            'B'
        });
        for sq in (1..=32).filter_map(|n| variant.square_numbered(n)) {
            s.push(match self.piece_at(sq) {
                None => 'e',
                Some(Piece {
                    color: Color::White,
                    king: false,
                }) => 'w',
                Some(Piece {
                    color: Color::Black,
                    king: false,
                }) => 'b',
                Some(Piece {
                    color: Color::White,
                    king: true,
                }) => 'W',
                Some(Piece {
                    color: Color::Black,
                    king: true,
                }) => 'B',
            });
        }
        s
    }
}

fn parse_square(variant: Variant, token: &str, whole: &str) -> Result<Square, PositionError> {
    let t = token.trim();
    let numeric = t.parse::<u32>().ok();
    let algebraic = variant.square_names() == SquareNames::Algebraic
        && t.len() == 2
        && t.starts_with(|c: char| c.is_ascii_alphabetic())
        && t.ends_with(|c: char| c.is_ascii_digit());
    if numeric.is_none() && !algebraic {
        return Err(PositionError::BadToken(whole.to_string()));
    }
    variant
        .parse_square(t)
        .ok_or_else(|| PositionError::SquareOutOfRange(t.to_string()))
}

fn add_fen_token(builder: &mut Builder, token: &str, color: Color) -> Result<(), PositionError> {
    let variant = builder.variant;
    let (king, body) = match token.strip_prefix(['K', 'k']) {
        Some(rest) => (true, rest),
        None => (false, token),
    };
    let piece = Piece { color, king };
    match body.split_once('-') {
        Some((a, b)) => {
            let (a, b) = (
                parse_square(variant, a, token)?,
                parse_square(variant, b, token)?,
            );
            let (a, b) = (variant.number_of(a), variant.number_of(b));
            if a > b {
                return Err(PositionError::BadToken(token.to_string()));
            }
            for n in a..=b {
                if let Some(sq) = variant.square_numbered(n) {
                    builder.add(sq, piece)?;
                }
            }
            Ok(())
        }
        None => builder.add(parse_square(variant, body, token)?, piece),
    }
}

impl FromStr for Position {
    type Err = PositionError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Position::parse(s)
    }
}

/// A board diagram from White's side: `w`/`b` men, `W`/`B` kings, `.` empty dark squares,
/// drawn as the variant's players see the board.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..8u8 {
            for col in 0..8u8 {
                let cell = match self.variant().square_at(row, col) {
                    None => "  ".to_string(),
                    Some(sq) => match self.piece_at(sq) {
                        None => " .".to_string(),
                        Some(p) => format!(" {}", piece_char(p)),
                    },
                };
                f.write_str(&cell)?;
            }
            writeln!(f)?;
        }
        let side = if self.side_to_move() == Color::White {
            "White"
        } else {
            "Black"
        };
        write!(f, "{side} to move")
    }
}

/// The Hub char of a piece: `w b W B`.
pub fn piece_char(p: Piece) -> char {
    match (p.color, p.king) {
        (Color::White, false) => 'w',
        (Color::Black, false) => 'b',
        (Color::White, true) => 'W',
        (Color::Black, true) => 'B',
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START_HUB: &str = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";

    #[test]
    fn start_texts() {
        let start = Position::start();
        assert_eq!(start.to_hub(), START_HUB);
        assert_eq!(Position::parse(START_HUB), Ok(start));
        assert_eq!(Position::parse("W:W21-32:B1-12."), Ok(start));
        assert_eq!(Position::parse("W:B1-12:W21-32"), Ok(start));
        assert_eq!(Position::parse(&start.to_fen()), Ok(start));
    }

    #[test]
    fn kings_and_black_to_move() {
        let p = Position::parse("B:WK27,K28,17:BK19,4").unwrap();
        assert_eq!(p.side_to_move(), Color::Black);
        assert_eq!(p.to_fen(), "B:W17,K27,K28:B4,K19");
        assert_eq!(Position::parse(&p.to_hub()), Ok(p));
    }

    #[test]
    fn errors_name_the_token() {
        use PositionError::*;
        let err = |t: &str| Position::parse(t).unwrap_err();
        assert_eq!(err("W:W33:B1"), SquareOutOfRange("33".into()));
        assert_eq!(err("W:W0:B1"), SquareOutOfRange("0".into()));
        assert_eq!(err("W:W22,22:B1"), SquareTwice("22".into()));
        assert_eq!(err("W:W22:B22"), SquareTwice("22".into()));
        assert_eq!(
            err("W:W3:B10"),
            ManOnCrowningRow {
                square: "3".into(),
                color: Color::White
            }
        );
        assert_eq!(
            err("W:W22:B30"),
            ManOnCrowningRow {
                square: "30".into(),
                color: Color::Black
            }
        );
        assert_eq!(
            err("W:W1-13:B30"),
            ManOnCrowningRow {
                square: "1".into(),
                color: Color::White
            }
        );
        assert_eq!(
            err("W:W5-17:B1"),
            TooManyPieces {
                color: Color::White,
                count: 13
            }
        );
        assert_eq!(err("X:W22:B1"), BadSide("X".into()));
        assert_eq!(err("W:W2x:B1"), BadToken("2x".into()));
        assert_eq!(err("W:Q1"), BadPart("Q1".into()));
        assert_eq!(err("Wbbb"), BadLength(4));
        assert_eq!(err("Xbbb"), BadSide("X".into()));
        assert_eq!(
            err(&format!("{}x", &START_HUB[..32])),
            BadSquareChar {
                square: 32,
                found: 'x'
            }
        );
        assert_eq!(err(""), Empty);
        assert!(err("W:W99999999999:B1").to_string().contains("99999999999"));
    }

    #[test]
    fn variant_notations() {
        let russian = Position::start_of(Variant::Russian);
        let fen = russian.to_fen();
        assert_eq!(
            fen,
            "W:Wa1,a3,b2,c1,c3,d2,e1,e3,f2,g1,g3,h2:Ba7,b6,b8,c7,d6,d8,e7,f6,f8,g7,h6,h8"
        );
        assert_eq!(Position::parse_in(Variant::Russian, &fen), Ok(russian));
        assert_eq!(
            Position::parse_in(Variant::Russian, "W:W1-12:B21-32"),
            Ok(russian)
        );
        assert_eq!(
            Position::parse_in(Variant::Russian, &russian.to_hub()),
            Ok(russian)
        );
        let english = Position::start_of(Variant::English);
        assert_eq!(
            english.to_fen(),
            "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
        );
        assert_eq!(
            Position::parse_in(Variant::English, "B:W21-32:B1-12"),
            Ok(english)
        );
        // English 29 is the bottom-left corner, Italian 29 the square right of it.
        let p = Position::parse_in(Variant::English, "W:WK29:B1").unwrap();
        assert!(p.to_string().starts_with("   b"));
        assert!(p.to_string().contains("\n W   .   .   .  \n"));
        assert_eq!(
            Position::parse_in(Variant::Russian, "W:Wa2:Bb8"),
            Err(PositionError::SquareOutOfRange("a2".into()))
        );
        assert_eq!(
            Position::parse_in(Variant::Russian, "W:Wc8:Bb6"),
            Err(PositionError::SquareOutOfRange("c8".into()))
        );
        assert_eq!(
            Position::parse_in(Variant::Russian, "W:Wd8:Bb6"),
            Err(PositionError::ManOnCrowningRow {
                square: "d8".into(),
                color: Color::White
            })
        );
    }
}
