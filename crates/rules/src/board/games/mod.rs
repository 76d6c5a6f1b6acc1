//! Each game's rules as one value of named fields ([`Rules`]), one file a game naming its
//! rulebook's articles, and the type of each game ([`Game`]) through which the move
//! generator sees those fields as constants.
//!
//! The hot loops are generic over a [`Game`]: a front end's call is dispatched once, at
//! its top, by [`with_game!`](crate::with_game), and the loops below it are compiled once
//! a game with every rule a constant, so a rule costs nothing where it does not apply.

mod brazilian;
mod czech;
mod damka;
mod english;
mod italian;
mod pool;
mod russian;
mod spanish;
mod thai;

pub use brazilian::Brazilian;
pub use czech::Czech;
pub use damka::{Damka, DamkaHouse};
pub use english::English;
pub use italian::Italian;
pub use pool::Pool;
pub use russian::Russian;
pub use spanish::Spanish;
pub use thai::Thai;

use super::position::Color;
use super::variant::Variant;

/// The rules of one game of the 8x8 family.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Rules {
    /// The lower-case name: the CLI's `--variant`, the Hub's `variant`, the web board's.
    pub name: &'static str,
    /// The name for people: `Italian draughts`.
    pub title: &'static str,
    /// Other names the command line and PDN readers take (`checkers`).
    pub aliases: &'static [&'static str],
    /// The rules followed, as the console's greeting names them: `FID rules`.
    pub rulebook: &'static str,
    /// The PDN `GameType` number (also CheckerBoard's game type).
    pub game_type: u32,
    /// The side that moves first.
    pub first_mover: Color,
    /// How the board lies and how its squares are named.
    pub board: Board,
    /// The rows of men each side starts on, from its own edge: 3 (twelve men), or 2
    /// (eight men, Thai draughts).
    pub rows_of_men: u8,
    /// The character between the squares of a capture written out (`x` or `:`).
    pub capture_separator: char,
    /// Whether men capture backward.
    pub men_capture_backward: MenBackward,
    /// Whether a man may capture a king.
    pub men_capture_kings: bool,
    /// How far kings move and capture.
    pub kings: Kings,
    /// What happens to a man that reaches its last row during a capture.
    pub promotion: Promotion,
    /// When captured pieces leave the board.
    pub removal: Removal,
    /// Which of the possible captures the player must choose.
    pub precedence: Precedence,
    /// How a game is drawn.
    pub draws: Draws,
}

/// How the board lies before the players and how its squares are named.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Board {
    /// Whether the lower-left corner (a1) is dark: the Italian board seen in a mirror.
    pub mirrored: bool,
    /// How squares are written.
    pub names: SquareNames,
}

/// How a game writes its squares.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SquareNames {
    /// Numbers 1–32 (Italian or English order), 1 on Black's side.
    Numbers,
    /// Numbers 1–32 counted from White's side: 1 the dark square at White's near right,
    /// along each row from right to left (Spanish).
    NumbersFromWhite,
    /// Algebraic `a1`–`h8`, a1 at White's lower left.
    Algebraic,
}

/// Whether men capture backward.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MenBackward {
    /// Never: a man captures forward only.
    Never,
    /// Always, as forward.
    Always,
    /// Not on a chain's first jump, in any direction after it.
    AfterFirstJump,
}

/// How far kings move and capture.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kings {
    /// One square, as a man, in all four directions.
    Short,
    /// Along a whole diagonal, landing after a capture as [`Landing`] says.
    Flying(Landing),
}

/// Where a flying king lands after taking a piece.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Landing {
    /// On any free square behind it, but on one from which the capture goes on if there
    /// is such a square.
    OnwardFirst,
    /// On the square just behind it.
    JustBehind,
}

/// What a man that reaches its last row during a capture does.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Promotion {
    /// It stops there, crowned: the move ends.
    Stop,
    /// It is crowned at once and goes on capturing as a king.
    CrownAndContinue,
    /// It goes on as a man and is crowned only if the capture ends on the last row.
    ContinueUncrowned,
}

/// When captured pieces leave the board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Removal {
    /// At the end of the move: until then they block, and none is jumped twice.
    EndOfMove,
    /// Each as it is jumped: the capturing piece may pass its square again later in the
    /// chain (Thai draughts).
    AtOnce,
}

/// Which captures the player may choose among.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Precedence {
    /// Any capture (a capture taken goes on to its end).
    Free,
    /// One taking the most pieces, kings and men alike.
    Quantity,
    /// The most pieces, then the most kings.
    QuantityThenKings,
    /// The Italian Art. 6.9 key: most pieces, then capturing with a king, then most
    /// kings, then kings met earliest.
    Italian,
    /// A king's capture if a king can capture, else free.
    KingFirst,
}

/// How a game is drawn, besides agreement.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Draws {
    /// The occurrence of a position (same side to move) that draws: 3 is the third.
    pub repetitions: u32,
    /// Moves per side without a capture or a man move that draw.
    pub quiet_moves: u32,
    /// The rules for endings of little material.
    pub endings: Endings,
}

/// The material rules of a game: a class of endings drawn after so many moves each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Endings {
    /// None (Italian, English).
    #[default]
    None,
    /// The Russian federation's: 3+ kings against a lone king (15 moves), the balance
    /// with kings on both sides (30 moves with 4–5 pieces, 60 with 6–7).
    Russian,
    /// The FMJD's: 3 pieces with a king against a lone king (16 moves), 2 or 1 pieces
    /// with a king against a lone king (5 moves).
    Fmjd,
    /// Damka's: one or two kings (no man) against a lone king cannot be won, and is
    /// drawn as soon as it stands on the board with no capture to make; and with any
    /// material, 50 moves each without a capture (men's moves included) draw.
    Damka,
}

impl Rules {
    /// Whether the short walker (`movegen::capture`) plays these rules: short kings, men
    /// capturing forward only, a man crowned during a capture stopping there, captured
    /// pieces removed at the end of the move, and a precedence it knows.
    pub const fn short_walker(&self) -> bool {
        matches!(self.kings, Kings::Short)
            && matches!(self.men_capture_backward, MenBackward::Never)
            && matches!(self.promotion, Promotion::Stop)
            && matches!(self.removal, Removal::EndOfMove)
            && matches!(self.precedence, Precedence::Free | Precedence::Italian)
    }

    /// Whether the flying walker (`movegen::flying`) plays these rules: flying kings
    /// (landing anywhere behind, onward squares first, or just behind), captured pieces
    /// removed at the end or at once, and a precedence it knows (all but the Italian key).
    pub const fn flying_walker(&self) -> bool {
        matches!(self.kings, Kings::Flying(_)) && !matches!(self.precedence, Precedence::Italian)
    }
}

/// A game as a type: its rules as constants for the move generator's generic loops.
pub trait Game: 'static {
    /// The game's value in the list of games.
    const VARIANT: Variant;
    /// Its rules.
    const RULES: Rules;
    /// Whether kings fly (the flying walker plays the game).
    const FLYING: bool = matches!(Self::RULES.kings, Kings::Flying(_));
    /// Whether the player chooses freely among captures.
    const FREE: bool = matches!(Self::RULES.precedence, Precedence::Free);
    /// Whether the flying walker keeps only the captures of the highest key (the most
    /// pieces, then, where the rules say, the most kings).
    const MAJORITY: bool = matches!(
        Self::RULES.precedence,
        Precedence::Quantity | Precedence::QuantityThenKings
    );
    /// Whether the key also counts the kings taken (most pieces, then most kings).
    const KINGS_IN_KEY: bool = matches!(Self::RULES.precedence, Precedence::QuantityThenKings);
    /// Whether a king's capture must be chosen when a king can capture (Czech).
    const KING_FIRST: bool = matches!(Self::RULES.precedence, Precedence::KingFirst);
    /// Whether a flying king lands just behind the piece it takes (Thai).
    const LANDS_JUST_BEHIND: bool = matches!(Self::RULES.kings, Kings::Flying(Landing::JustBehind));
    /// Whether captured pieces leave the board as they are jumped (Thai).
    const REMOVED_AT_ONCE: bool = matches!(Self::RULES.removal, Removal::AtOnce);
    /// Whether captures are chosen by the Italian Art. 6.9 key.
    const ITALIAN_PRECEDENCE: bool = matches!(Self::RULES.precedence, Precedence::Italian);
    /// Whether men capture kings.
    const MEN_TAKE_KINGS: bool = Self::RULES.men_capture_kings;
    /// Whether a capture may end with a man crowned elsewhere ([`crate::board::Move::crowns`]).
    const CROWNS_IN_PASSING: bool = matches!(Self::RULES.promotion, Promotion::CrownAndContinue);
    /// Whether a capture chain may stop at any landing (Damka's `stop-chain` house rule):
    /// a house rule, not a field of [`Rules`], so that the games' own files need not
    /// name it.
    const STOP_ANYWHERE: bool = false;
    /// Whether a move generator plays the rules: checked when a game is compiled.
    const PLAYABLE: () = assert!(
        Self::RULES.short_walker() || Self::RULES.flying_walker(),
        "no move generator plays this combination of rules"
    );
}

/// Runs `$body` with `$g` the [`Game`] type of `$variant`: the one dispatch from a game's
/// value to its compiled rules, a `match` over every game.
///
/// ```
/// use damiera_rules::board::{Game, Variant};
/// fn title<G: Game>() -> &'static str {
///     G::RULES.title
/// }
/// let v = Variant::Russian;
/// assert_eq!(damiera_rules::with_game!(v, G => title::<G>()), "Russian draughts");
/// ```
#[macro_export]
macro_rules! with_game {
    ($variant:expr, $g:ident => $body:expr) => {
        match $variant {
            $crate::board::Variant::Italian => {
                type $g = $crate::board::games::Italian;
                $body
            }
            $crate::board::Variant::English => {
                type $g = $crate::board::games::English;
                $body
            }
            $crate::board::Variant::Russian => {
                type $g = $crate::board::games::Russian;
                $body
            }
            $crate::board::Variant::Brazilian => {
                type $g = $crate::board::games::Brazilian;
                $body
            }
            $crate::board::Variant::Pool => {
                type $g = $crate::board::games::Pool;
                $body
            }
            $crate::board::Variant::Czech => {
                type $g = $crate::board::games::Czech;
                $body
            }
            $crate::board::Variant::Spanish => {
                type $g = $crate::board::games::Spanish;
                $body
            }
            $crate::board::Variant::Thai => {
                type $g = $crate::board::games::Thai;
                $body
            }
            $crate::board::Variant::Damka => {
                type $g = $crate::board::games::Damka;
                $body
            }
        }
    };
}
