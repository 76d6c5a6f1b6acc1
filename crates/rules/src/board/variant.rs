//! The games of the 8x8 family that Damiera plays, and how each names its squares.
//!
//! Every variant is played on one internal board, the Italian one of [`super::Square`]:
//! the rules of all four are symmetric left to right, so a game whose board has its dark
//! corner on the other side (English, Russian and Brazilian: a1 dark) is the Italian board
//! seen in a mirror. Only the names of the squares differ:
//!
//! ```text
//!   Italian (FID)        English (PDN)         Russian, Brazilian (numbers)
//!   1   2   3   4          1   2   3   4       b8  d8  f8  h8   (29 30 31 32)
//!     5   6   7   8      5   6   7   8       a7  c7  e7  g7     (25 26 27 28)
//!   ...                  ...                 ...
//!    29  30  31  32     29  30  31  32       a1  c1  e1  g1     ( 1  2  3  4)
//! ```
//! Italian square 1 is the top-left corner; English square 1 is the second square of the
//! top row (its row starts with a light square), Russian a1 the bottom-left corner.

use std::fmt;
use std::str::FromStr;

use super::games::{self, Game, MenBackward, Rules, SquareNames};
use super::position::Color;
use super::square::Square;

/// The one list of games: the enum [`Variant`], [`Variant::ALL`] and [`Variant::rules`]
/// come from it, each game with the type that holds its rules ([`games`]). A game added
/// here must also be added to [`with_game!`](crate::with_game) and to every table keyed by
/// game (exhaustive `match`es), or the build fails.
macro_rules! variants {
    ($($(#[$attr:meta])* $name:ident => $game:ty,)+) => {
        /// A game of the draughts family on 64 squares.
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
        pub enum Variant {
            $($(#[$attr])* $name,)+
        }

        impl Variant {
            /// All games, in the order of the list (Italian first).
            pub const ALL: [Variant; [$(Variant::$name),+].len()] = [$(Variant::$name),+];

            /// The game's rules: the one table from a game to its rules ([`games`]). The
            /// accessors below read single fields through [`with_game!`](crate::with_game),
            /// so that the search's calls compile to a compare, not a load.
            pub const fn rules(self) -> &'static Rules {
                match self {
                    $(Variant::$name => &<$game as Game>::RULES,)+
                }
            }
        }
    };
}

variants! {
    /// Italian draughts, FID rules: men never capture kings, capture priorities (Art. 6.9).
    #[default]
    Italian => games::Italian,
    /// English draughts / American checkers: Black moves first, free choice of captures.
    English => games::English,
    /// Russian draughts: flying kings, men capture backward, crowned during a capture.
    Russian => games::Russian,
    /// Brazilian draughts: international rules on 8x8 (the majority capture is compulsory).
    Brazilian => games::Brazilian,
    /// Pool checkers (American pool): Black first, flying kings, men capture backward,
    /// free choice of captures, a man crowned during a capture stops.
    Pool => games::Pool,
    /// Czech draughts: flying kings, men capture forward only, a king's capture first.
    Czech => games::Czech,
    /// Spanish draughts: the Italian board numbered from White's side, flying kings, the
    /// most pieces then the most kings.
    Spanish => games::Spanish,
    /// Thai draughts: eight men each, kings that land just behind the piece they take,
    /// captured pieces removed at once.
    Thai => games::Thai,
    /// Damka, as commonly played in Israel: flying kings, a man's first jump forward and
    /// the later ones any way, a man crowned during a capture stops.
    Damka => games::Damka,
}

impl Variant {
    /// The number of games.
    pub const COUNT: usize = Variant::ALL.len();

    /// The game's place in [`Variant::ALL`]: the one conversion of a game to an index,
    /// for tables of [`Variant::COUNT`] entries and the training records.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The game at `index` in [`Variant::ALL`], if there is one.
    pub const fn from_index(index: usize) -> Option<Variant> {
        if index < Variant::COUNT {
            Some(Variant::ALL[index])
        } else {
            None
        }
    }

    /// The games' names joined for messages: `italian, english, ..., thai or damka`.
    pub fn names_listed() -> String {
        let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => names.concat(),
        }
    }

    /// The games' PDN `GameType` numbers and titles for messages: `21 English, 22
    /// Italian, ...`, ascending.
    pub fn game_types_listed() -> String {
        let mut all = Variant::ALL;
        all.sort_by_key(|v| v.game_type());
        let words: Vec<String> = all
            .iter()
            .map(|v| format!("{} {}", v.game_type(), v.short_title()))
            .collect();
        words.join(", ")
    }

    /// The title's first word: `Italian`, `English`, ...
    pub fn short_title(self) -> &'static str {
        self.title().split(' ').next().unwrap_or(self.title())
    }

    /// The lower-case name used on the command line, in the Hub protocol and the web board.
    pub const fn name(self) -> &'static str {
        self.rules().name
    }

    /// The name for people: `Italian draughts`, `English checkers`, ...
    pub const fn title(self) -> &'static str {
        self.rules().title
    }

    /// The PDN `GameType` number (also CheckerBoard's game type).
    pub const fn game_type(self) -> u32 {
        self.rules().game_type
    }

    /// The variant of a PDN `GameType` number, if Damiera plays it.
    pub fn from_game_type(n: u32) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.game_type() == n)
    }

    /// The side that moves first: Black in English checkers, White elsewhere.
    pub const fn first_mover(self) -> Color {
        crate::with_game!(self, G => G::RULES.first_mover)
    }

    /// Whether kings fly (move and capture along whole diagonals).
    pub const fn flying_kings(self) -> bool {
        crate::with_game!(self, G => G::FLYING)
    }

    /// Whether a man may capture backward at once (not only later in a chain): where it
    /// may, an enemy man diagonally behind a man can take it.
    pub const fn men_capture_backward(self) -> bool {
        crate::with_game!(self, G => matches!(G::RULES.men_capture_backward, MenBackward::Always))
    }

    /// Whether the board is the mirror of the Italian one (a1 dark).
    pub const fn mirrored(self) -> bool {
        crate::with_game!(self, G => G::RULES.board.mirrored)
    }

    /// How this variant writes squares.
    pub const fn square_names(self) -> SquareNames {
        crate::with_game!(self, G => G::RULES.board.names)
    }

    /// The number 1–32 of a square in this variant's numbering: FID for Italian, PDN for
    /// English, Spanish counted from White's side (1 at White's near right), and in the
    /// algebraic variants the numbers Russian PDN and pydraughts use, counted from White's
    /// side (a1 = 1, c1 = 2, ..., h8 = 32). The Hub position string follows this order.
    pub const fn number_of(self, sq: Square) -> u8 {
        match self.square_names() {
            SquareNames::Numbers if self.mirrored() => mirror(sq).number(),
            SquareNames::Numbers => sq.number(),
            SquareNames::NumbersFromWhite if self.mirrored() => 33 - mirror(sq).number(),
            SquareNames::NumbersFromWhite => 33 - sq.number(),
            SquareNames::Algebraic => {
                let (row, col) = self.row_col(sq);
                (7 - row) * 4 + col / 2 + 1
            }
        }
    }

    /// The square numbered `n` in this variant's numbering.
    pub const fn square_numbered(self, n: u8) -> Option<Square> {
        match self.square_names() {
            SquareNames::Numbers => match Square::new(n) {
                Some(sq) if self.mirrored() => Some(mirror(sq)),
                other => other,
            },
            SquareNames::NumbersFromWhite => {
                if n < 1 || n > 32 {
                    return None;
                }
                match Square::new(33 - n) {
                    Some(sq) if self.mirrored() => Some(mirror(sq)),
                    other => other,
                }
            }
            SquareNames::Algebraic => {
                if n < 1 || n > 32 {
                    return None;
                }
                let rank = (n - 1) / 4 + 1;
                let col = 2 * ((n - 1) % 4) + if rank.is_multiple_of(2) { 1 } else { 0 };
                self.square_at(8 - rank, col)
            }
        }
    }

    /// The square's name: `22`, or `c3` in the algebraic variants.
    pub fn square_name(self, sq: Square) -> String {
        match self.square_names() {
            SquareNames::Numbers | SquareNames::NumbersFromWhite => self.number_of(sq).to_string(),
            SquareNames::Algebraic => {
                let (row, col) = self.row_col(sq);
                format!("{}{}", (b'a' + col) as char, 8 - row)
            }
        }
    }

    /// Parses a square name: a number 1–32 in every variant, and in the algebraic ones
    /// also `a1`–`h8` (dark squares only).
    pub fn parse_square(self, text: &str) -> Option<Square> {
        let t = text.trim();
        if let Ok(n) = t.parse::<u8>() {
            return self.square_numbered(n);
        }
        if self.square_names() != SquareNames::Algebraic {
            return None;
        }
        let bytes = t.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let col = bytes[0].to_ascii_lowercase().checked_sub(b'a')?;
        let rank = bytes[1].checked_sub(b'0')?;
        if col > 7 || !(1..=8).contains(&rank) {
            return None;
        }
        self.square_at(8 - rank, col)
    }

    /// Row (0 at the top, Black's side) and column (0 at the left, as White sees the
    /// board) of a square on this variant's board.
    pub const fn row_col(self, sq: Square) -> (u8, u8) {
        if self.mirrored() {
            (sq.row(), 7 - sq.col())
        } else {
            (sq.row(), sq.col())
        }
    }

    /// The square at a row and column of this variant's board, if it is a dark square.
    pub const fn square_at(self, row: u8, col: u8) -> Option<Square> {
        if col > 7 {
            return None;
        }
        if self.mirrored() {
            Square::from_row_col(row, 7 - col)
        } else {
            Square::from_row_col(row, col)
        }
    }
}

/// The square in the same row, mirrored left to right: Italian 1 ↔ 4, 5 ↔ 8, ...
const fn mirror(sq: Square) -> Square {
    let n = sq.number() - 1;
    match Square::new((n / 4) * 4 + (3 - n % 4) + 1) {
        Some(s) => s,
        None => sq,
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A variant name that Damiera does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown variant {:?} (expected {})",
            self.0,
            Variant::names_listed()
        )
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        let t = s.trim().to_ascii_lowercase();
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == t || v.rules().aliases.contains(&t.as_str()))
            .ok_or_else(|| UnknownVariant(s.trim().to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for v in Variant::ALL {
            assert_eq!(v.name().parse::<Variant>(), Ok(v));
            assert_eq!(Variant::from_game_type(v.game_type()), Some(v));
            for sq in Square::all() {
                assert_eq!(v.parse_square(&v.square_name(sq)), Some(sq), "{v} {sq}");
                assert_eq!(v.square_numbered(v.number_of(sq)), Some(sq));
                let (r, c) = v.row_col(sq);
                assert_eq!(v.square_at(r, c), Some(sq));
            }
        }
        assert!("dama".parse::<Variant>().is_err());
    }

    #[test]
    fn the_list_of_games_and_its_texts() {
        for (i, v) in Variant::ALL.into_iter().enumerate() {
            assert_eq!((v.index(), Variant::from_index(i)), (i, Some(v)));
        }
        assert_eq!(Variant::from_index(Variant::COUNT), None);
        assert_eq!(
            Variant::names_listed(),
            "italian, english, russian, brazilian, pool, czech, spanish, thai or damka"
        );
        assert_eq!(
            Variant::game_types_listed(),
            "21 English, 22 Italian, 23 Pool, 24 Spanish, 25 Russian, 26 Brazilian, 29 Czech, 31 Thai, 42 Damka"
        );
        assert_eq!("Checkers".parse(), Ok(Variant::English));
        assert_eq!("shashki".parse(), Ok(Variant::Russian));
    }

    #[test]
    fn corners() {
        let sq = |n| Square::new(n).unwrap();
        // Italian 1 is the top-left corner; in the mirrored games the top-left is light.
        assert_eq!(Variant::Italian.row_col(sq(1)), (0, 0));
        assert_eq!(Variant::English.square_name(sq(4)), "1");
        assert_eq!(Variant::English.row_col(sq(4)), (0, 1));
        assert_eq!(Variant::Russian.square_name(sq(32)), "a1");
        assert_eq!(Variant::Russian.square_name(sq(1)), "h8");
        assert_eq!(
            Variant::Russian.parse_square("c3"),
            Variant::English.square_numbered(22)
        );
        assert_eq!(Variant::Russian.parse_square("a2"), None);
        assert_eq!(Variant::English.parse_square("c3"), None);
    }
}
