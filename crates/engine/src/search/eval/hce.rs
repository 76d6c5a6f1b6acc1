//! Today's hand-made evaluation (`style=hce`), in hundredths of a man from White's view.
//!
//! Terms (each for both sides, White minus Black): material; advancement of men, worth
//! more as the board empties; a guarded back row while the opponent has men to crown;
//! men and kings in the centre; men that cannot be stopped from crowning (runaways);
//! mobility; and endgame scaling for material that cannot win.
//!
//! Each variant has its own weights ([`weights_for`]): the Italian ones were fitted to
//! self-play games; the others are a hand-made start, the Italian terms with each game's
//! own material values (a flying king of Russian and Brazilian draughts is worth about
//! three men, an English king about one and a half) and runaways worth more where a king
//! is worth more. Where men capture backward (Russian, Brazilian) an enemy man just behind
//! a man can still take it, so it is no runaway; and a flying king's endings are damped
//! as those games' theory has them (one king holds two pieces, or three on the long
//! diagonal).

use std::sync::OnceLock;

use crate::board::bitboard::{ALL_DIRECTIONS, Bitboard, bits, step};
use crate::board::{Color, Position, Square, Variant};

/// Evaluation weights, in hundredths of a man.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// A man.
    pub man: i32,
    /// A king.
    pub king: i32,
    /// Per man by rank (0 = own back row), when the board is full.
    pub advance_open: [i32; 7],
    /// Per man by rank, in the endgame.
    pub advance_end: [i32; 7],
    /// Per man on its own back row while the opponent still has men.
    pub back_row: i32,
    /// Per man on a centre square (14, 15, 18, 19).
    pub centre_man: i32,
    /// Per king on a centre square.
    pub centre_king: i32,
    /// Per king on an edge square.
    pub edge_king: i32,
    /// A runaway man, minus `runaway_step` per row still to go.
    pub runaway: i32,
    /// See `runaway`.
    pub runaway_step: i32,
    /// Per quiet move.
    pub mobility: i32,
}

impl Weights {
    /// Names of the tunable parameters, in [`Weights::to_vec`] order.
    pub fn names() -> Vec<String> {
        let mut names = vec!["man".to_string(), "king".to_string()];
        names.extend((0..7).map(|r| format!("advance_open[{r}]")));
        names.extend((0..7).map(|r| format!("advance_end[{r}]")));
        for n in [
            "back_row",
            "centre_man",
            "centre_king",
            "edge_king",
            "runaway",
            "runaway_step",
            "mobility",
        ] {
            names.push(n.to_string());
        }
        names
    }

    /// All parameters as one vector.
    pub fn to_vec(&self) -> Vec<i32> {
        let mut v = vec![self.man, self.king];
        v.extend(self.advance_open);
        v.extend(self.advance_end);
        v.extend([
            self.back_row,
            self.centre_man,
            self.centre_king,
            self.edge_king,
            self.runaway,
            self.runaway_step,
            self.mobility,
        ]);
        v
    }

    /// The inverse of [`Weights::to_vec`]; `None` if the length is wrong.
    pub fn from_slice(v: &[i32]) -> Option<Weights> {
        if v.len() != 23 {
            return None;
        }
        let mut open = [0; 7];
        let mut end = [0; 7];
        open.copy_from_slice(&v[2..9]);
        end.copy_from_slice(&v[9..16]);
        Some(Weights {
            man: v[0],
            king: v[1],
            advance_open: open,
            advance_end: end,
            back_row: v[16],
            centre_man: v[17],
            centre_king: v[18],
            edge_king: v[19],
            runaway: v[20],
            runaway_step: v[21],
            mobility: v[22],
        })
    }
}

/// The weights in use.
pub const WEIGHTS: Weights = Weights {
    man: 100,
    king: 185,
    advance_open: [0, 4, -8, -5, 5, 9, 6],
    advance_end: [0, 4, 1, 19, 29, 33, 54],
    back_row: 50,
    centre_man: -1,
    centre_king: 7,
    edge_king: 0,
    runaway: 27,
    runaway_step: 12,
    mobility: 6,
};

/// English checkers: a king is worth about 1.4 men (it moves one step, men capture it).
pub const ENGLISH: Weights = Weights {
    king: 140,
    ..WEIGHTS
};

/// Russian draughts: a flying king is worth about three men, and so a man about to crown.
pub const RUSSIAN: Weights = Weights {
    king: 300,
    runaway: 120,
    runaway_step: 18,
    ..WEIGHTS
};

/// Brazilian draughts: flying kings as in Russian draughts.
pub const BRAZILIAN: Weights = RUSSIAN;

/// Pool checkers: flying kings and men capturing backward, as in Russian draughts.
pub const POOL: Weights = RUSSIAN;

/// Czech draughts: flying kings, as in Russian draughts (men capture forward only, which
/// the runaway term reads from the rules).
pub const CZECH: Weights = RUSSIAN;

/// Spanish draughts: flying kings, as in Russian draughts.
pub const SPANISH: Weights = RUSSIAN;

/// Thai draughts: flying kings, as in Russian draughts (landing just behind the piece
/// taken makes them weaker there; no games yet to fit a lower value).
pub const THAI: Weights = RUSSIAN;

/// Damka: flying kings, as in Russian draughts (men capture backward only after a
/// chain's first jump, which the runaway term reads from the rules).
pub const DAMKA: Weights = RUSSIAN;

/// The hand-made weights of `variant`.
pub const fn weights_for(variant: Variant) -> &'static Weights {
    match variant {
        Variant::Italian => &WEIGHTS,
        Variant::English => &ENGLISH,
        Variant::Russian => &RUSSIAN,
        Variant::Brazilian => &BRAZILIAN,
        Variant::Pool => &POOL,
        Variant::Czech => &CZECH,
        Variant::Spanish => &SPANISH,
        Variant::Thai => &THAI,
        Variant::Damka => &DAMKA,
    }
}

pub(super) fn material(pos: &Position, man: i32, king: i32) -> i32 {
    let side =
        |c: Color| pos.men(c).count_ones() as i32 * man + pos.kings(c).count_ones() as i32 * king;
    side(Color::White) - side(Color::Black)
}

/// The full evaluation with the given weights, from White's view (for the tuner).
pub fn evaluate_white(pos: &Position, w: &Weights) -> i32 {
    full(pos, w)
}

fn full(pos: &Position, w: &Weights) -> i32 {
    let raw = material(pos, w.man, w.king) + side_terms(pos, Color::White, w)
        - side_terms(pos, Color::Black, w);
    scale_endgame(pos, raw)
}

/// Per-square tables for both colours.
pub(super) struct Tables {
    /// Rank from the owner's back row, per colour and bit.
    pub(super) rank: [[u8; 36]; 2],
    /// Squares ahead of a man that could intercept it, per colour and bit.
    pub(super) cone: [[Bitboard; 36]; 2],
    /// The cone and the two squares diagonally behind: where men capture backward, an
    /// enemy man there can take the man at once.
    pub(super) cone_back: [[Bitboard; 36]; 2],
}

impl Tables {
    /// The squares that stop a man of `us` on bit `b` from running in `variant`.
    #[inline(always)]
    pub(super) fn stoppers(&self, variant: Variant, us: Color, b: u32) -> Bitboard {
        if variant.men_capture_backward() {
            self.cone_back[us as usize][b as usize]
        } else {
            self.cone[us as usize][b as usize]
        }
    }
}

pub(super) fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut t = Tables {
            rank: [[0; 36]; 2],
            cone: [[0; 36]; 2],
            cone_back: [[0; 36]; 2],
        };
        for sq in Square::all() {
            let b = sq.bit() as usize;
            t.rank[0][b] = 7 - sq.row();
            t.rank[1][b] = sq.row();
            t.cone[0][b] = cone(sq, Color::White);
            t.cone[1][b] = cone(sq, Color::Black);
            t.cone_back[0][b] = t.cone[0][b] | behind(sq, Color::White);
            t.cone_back[1][b] = t.cone[1][b] | behind(sq, Color::Black);
        }
        t
    })
}

/// The squares from which an enemy piece could block or capture a man on `sq` on its
/// way to the crowning row: the widening triangle ahead of it, one column wider each row.
fn cone(sq: Square, color: Color) -> Bitboard {
    let mut mask = 0;
    let (row, col) = (sq.row() as i32, sq.col() as i32);
    let dir = if color == Color::White { -1 } else { 1 };
    for dist in 1..8 {
        let r = row + dir * dist;
        if !(0..8).contains(&r) {
            break;
        }
        for c in (col - dist - 1)..=(col + dist + 1) {
            if (0..8).contains(&c)
                && let Some(s) = Square::from_row_col(r as u8, c as u8)
            {
                mask |= s.mask();
            }
        }
    }
    mask
}

/// The two squares diagonally behind a man of `color` on `sq`.
fn behind(sq: Square, color: Color) -> Bitboard {
    let r = sq.row() as i32 + if color == Color::White { 1 } else { -1 };
    let mut mask = 0;
    for c in [sq.col() as i32 - 1, sq.col() as i32 + 1] {
        if (0..8).contains(&r)
            && (0..8).contains(&c)
            && let Some(s) = Square::from_row_col(r as u8, c as u8)
        {
            mask |= s.mask();
        }
    }
    mask
}

/// Squares 14, 15, 18, 19.
const CENTRE: Bitboard = square_set(&[14, 15, 18, 19]);

/// The left and right edges: 5, 13, 21, 29 and 4, 12, 20, 28 are not edges; these are.
const EDGES: Bitboard = square_set(&[1, 9, 17, 25, 8, 16, 24, 32]);

const fn square_set(numbers: &[u8]) -> Bitboard {
    let mut set = 0;
    let mut i = 0;
    while i < numbers.len() {
        if let Some(sq) = Square::new(numbers[i]) {
            set |= sq.mask();
        }
        i += 1;
    }
    set
}

fn side_terms(pos: &Position, us: Color, w: &Weights) -> i32 {
    let t = tables();
    let them = us.opponent();
    let men = pos.men(us);
    let kings = pos.kings(us);
    let total_men = (pos.men(Color::White) | pos.men(Color::Black)).count_ones() as i32;
    let endgame = (24 - total_men).clamp(0, 24);
    let mut score = 0;

    for b in bits(men) {
        let rank = t.rank[us as usize][b as usize] as usize;
        let adv = w.advance_open[rank] * (24 - endgame) + w.advance_end[rank] * endgame;
        score += adv / 24;
    }
    if pos.men(them) != 0 {
        let back_row = them.crown_row();
        score += (men & back_row).count_ones() as i32 * w.back_row * (24 - endgame) / 24;
    }
    score += (men & CENTRE).count_ones() as i32 * w.centre_man;
    score += (kings & CENTRE).count_ones() as i32 * w.centre_king;
    score += (kings & EDGES).count_ones() as i32 * w.edge_king;
    score += runaways(pos, us, w);
    score += mobility(pos, us) * w.mobility;
    score
}

/// Men with no enemy piece in their cone, while the enemy has no king to chase them.
pub(super) fn runaways(pos: &Position, us: Color, w: &Weights) -> i32 {
    let them = us.opponent();
    if pos.kings(them) != 0 {
        return 0;
    }
    let t = tables();
    let (enemy, variant) = (pos.pieces(them), pos.variant());
    bits(pos.men(us))
        .filter(|&b| t.stoppers(variant, us, b) & enemy == 0)
        .map(|b| {
            let to_go = 7 - t.rank[us as usize][b as usize] as i32;
            w.runaway - w.runaway_step * to_go
        })
        .max()
        .unwrap_or(0)
}

/// Quiet steps available (an estimate of mobility that ignores captures).
fn mobility(pos: &Position, us: Color) -> i32 {
    let empty = pos.empty();
    let forward = if us == Color::White { [-5, -4] } else { [4, 5] };
    let men = pos.men(us);
    let kings = pos.kings(us);
    let mut n = 0;
    for d in forward {
        n += (step(men, d) & empty).count_ones();
    }
    for d in ALL_DIRECTIONS {
        n += (step(kings, d) & empty).count_ones();
    }
    n as i32
}

/// Damps scores of endgames the stronger side cannot win: kings only and equal numbers,
/// one king against one, or a single extra piece against kings.
pub(super) fn scale_endgame(pos: &Position, raw: i32) -> i32 {
    let (w, b) = (
        pos.count(Color::White) as i32,
        pos.count(Color::Black) as i32,
    );
    let no_men = pos.men(Color::White) | pos.men(Color::Black) == 0;
    let (strong, weak) = if raw >= 0 {
        (Color::White, Color::Black)
    } else {
        (Color::Black, Color::White)
    };
    let diff = (w - b).abs();
    if no_men && diff == 0 {
        return raw / 8;
    }
    if pos.variant().flying_kings() && flying_king_holds(pos, strong, weak) {
        return raw / 8;
    }
    if w + b <= 3
        && diff <= 1
        && pos.kings(weak) != 0
        && pos.men(strong) == 0
        && pos.count(strong) <= 1
    {
        return raw / 8;
    }
    raw
}

/// A lone flying king against at most two pieces, or against three kings while it
/// stands on the long diagonal (a1–h8 in Russian and Brazilian notation): the theory's
/// draws, which the weaker side holds in all but a few positions.
fn flying_king_holds(pos: &Position, strong: Color, weak: Color) -> bool {
    if pos.count(weak) != 1 || pos.kings(weak) == 0 {
        return false;
    }
    match pos.count(strong) {
        0..=2 => true,
        3 => pos.men(strong) == 0 && pos.kings(weak) & LONG_DIAGONAL != 0,
        _ => false,
    }
}

/// The long diagonal of the flying-king variants, a1–h8, on the internal board.
const LONG_DIAGONAL: Bitboard = long_diagonal();

const fn long_diagonal() -> Bitboard {
    let (mut set, mut i) = (0, 0);
    while i < 8 {
        if let Some(sq) = Variant::Russian.square_at(7 - i, i) {
            set |= sq.mask();
        }
        i += 1;
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::eval::embedded_weights;
    use crate::search::eval::{EvalStyle, evaluate};

    #[test]
    fn weights_vector_round_trip() {
        assert_eq!(Weights::from_slice(&WEIGHTS.to_vec()), Some(WEIGHTS));
        assert_eq!(Weights::names().len(), WEIGHTS.to_vec().len());
        assert_eq!(Weights::from_slice(&[1, 2]), None);
    }

    #[test]
    fn start_is_balanced() {
        let start = Position::start();
        assert_eq!(evaluate(&start, EvalStyle::Hce, &embedded_weights()), 0);
        assert_eq!(
            evaluate(&start, EvalStyle::Material, &embedded_weights()),
            0
        );
    }

    #[test]
    fn symmetric_for_both_sides() {
        // The same position mirrored (colours swapped, board turned) scores the same.
        let a = Position::parse("W:W22,23,K5:B9,10").unwrap();
        let b = Position::parse("B:B11,10,K28:W24,23").unwrap();
        assert_eq!(
            evaluate(&a, EvalStyle::Hce, &embedded_weights()),
            evaluate(&b, EvalStyle::Hce, &embedded_weights())
        );
    }

    #[test]
    fn material_counts() {
        let p = Position::parse("W:W22,K5:B9").unwrap();
        assert_eq!(evaluate(&p, EvalStyle::Material, &embedded_weights()), 230);
        assert_eq!(
            evaluate(
                &p.with_side(Color::Black),
                EvalStyle::Material,
                &embedded_weights()
            ),
            -230
        );
    }

    #[test]
    fn every_variant_starts_level_with_its_own_material() {
        for v in Variant::ALL {
            let start = Position::start_of(v);
            for style in [EvalStyle::Hce, EvalStyle::Material] {
                assert_eq!(evaluate(&start, style, &embedded_weights()), 0, "{v}");
            }
        }
        assert_eq!(weights_for(Variant::Italian), &WEIGHTS);
        // A flying king is worth about three men, an English king about one and a half.
        for v in [Variant::Russian, Variant::Brazilian] {
            assert!((250..=350).contains(&weights_for(v).king));
        }
        assert!((130..=150).contains(&weights_for(Variant::English).king));
        let p = Position::parse_in(Variant::Russian, "W:Wc3,Ke1:Bf6").unwrap();
        assert_eq!(evaluate(&p, EvalStyle::Material, &embedded_weights()), 300);
    }

    #[test]
    fn a_lone_flying_king_holds_two_pieces_and_three_on_the_long_diagonal() {
        let raw = 500;
        let pos = |v: Variant, text: &str| Position::parse_in(v, text).unwrap();
        for v in [Variant::Russian, Variant::Brazilian] {
            assert_eq!(scale_endgame(&pos(v, "W:WKc1,Kg1:BKb8"), raw), raw / 8);
            assert_eq!(scale_endgame(&pos(v, "W:WKc1,e3:BKb8"), raw), raw / 8);
            assert_eq!(scale_endgame(&pos(v, "W:WKc1,Ke1,Kg1:BKd4"), raw), raw / 8);
            assert_eq!(scale_endgame(&pos(v, "W:WKc1,Ke1,Kg1:BKh8"), raw), raw / 8);
            assert_eq!(scale_endgame(&pos(v, "W:WKc1,Ke1,Kg1:BKb8"), raw), raw);
            assert_eq!(scale_endgame(&pos(v, "W:WKc1,Ke1,g3:BKd4"), raw), raw);
        }
        // Without flying kings two kings beat one.
        let english = pos(Variant::English, "W:WK1,K2:BK32");
        assert_eq!(scale_endgame(&english, raw), raw);
    }

    #[test]
    fn where_men_capture_backward_a_man_just_behind_stops_a_runaway() {
        let w = &RUSSIAN;
        // White's man on d4 with a black man on e3 behind it: taken backward at once.
        let caught = Position::parse_in(Variant::Russian, "B:Wd4:Be3").unwrap();
        assert_eq!(runaways(&caught, Color::White, w), 0);
        let free = Position::parse_in(Variant::Russian, "B:Wd4:Bh2").unwrap();
        assert!(runaways(&free, Color::White, w) > 0);
        // In Italian and English men capture forward only: the man runs.
        let italian = Position::parse("B:W10:B14").unwrap();
        let w = &WEIGHTS;
        assert_eq!(
            runaways(&italian, Color::White, w),
            w.runaway - 2 * w.runaway_step
        );
    }

    #[test]
    fn runaway_men() {
        let w = &WEIGHTS;
        // White's man on 18 has nothing ahead of it; Black's man on 12 is out of its way.
        let free = Position::parse("W:W18:B12").unwrap();
        assert_eq!(
            runaways(&free, Color::White, w),
            w.runaway - 4 * w.runaway_step
        );
        // A black man on 6 stands in its cone; a black king can always chase it.
        assert_eq!(
            runaways(&Position::parse("W:W18:B6").unwrap(), Color::White, w),
            0
        );
        assert_eq!(
            runaways(&Position::parse("W:W18:BK32").unwrap(), Color::White, w),
            0
        );
    }
}
