//! Today's hand-made evaluation (`style=hce`), in hundredths of a man from White's view.
//!
//! Terms (each for both sides, White minus Black): material; advancement of men, worth
//! more as the board empties; a guarded back row while the opponent has men to crown;
//! men and kings in the centre; men that cannot be stopped from crowning (runaways);
//! mobility; and endgame scaling for material that cannot win.

use std::sync::OnceLock;

use crate::board::bitboard::{ALL_DIRECTIONS, Bitboard, bits, step};
use crate::board::{Color, Position, Square};

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
}

pub(super) fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut t = Tables {
            rank: [[0; 36]; 2],
            cone: [[0; 36]; 2],
        };
        for sq in Square::all() {
            let b = sq.bit() as usize;
            t.rank[0][b] = 7 - sq.row();
            t.rank[1][b] = sq.row();
            t.cone[0][b] = cone(sq, Color::White);
            t.cone[1][b] = cone(sq, Color::Black);
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
    let enemy = pos.pieces(them);
    bits(pos.men(us))
        .filter(|&b| t.cone[us as usize][b as usize] & enemy == 0)
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
