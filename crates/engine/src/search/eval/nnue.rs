//! A small network evaluation (NNUE-style), an alternative to the pattern evaluation that
//! a `.dmn` file selects ([`super::nnue_file`]).
//!
//! Architecture, sizes fixed at build time:
//!
//! - inputs: [`INPUTS`] = 128 sparse features, one per dark square (32) and piece kind
//!   (own man, own king, other man, other king), seen from one side: from White's view
//!   the square is its FID index (square number − 1), from Black's the board is turned
//!   (index 31 − i) and the colours swapped. A position sets at most 24 of them per view.
//! - first layer: [`INPUTS`] → [`HIDDEN`] = 128, shared by both views, giving two
//!   accumulators (White's view, Black's view) that the search updates move by move;
//!   they are concatenated side to move first and clipped to 0..=1 (ReLU).
//! - a dense layer 2×[`HIDDEN`] = 256 → [`DENSE`] = 32, clipped ReLU;
//! - an output layer 32 → 1: the score in hundredths of a man, side to move's view.
//!
//! Why these sizes: the first layer costs nothing per node but an update of two rows of
//! 128 per changed piece (a quiet move changes two features per view), so its width is
//! cheap; the dense layer is the cost of each evaluation (256×32 multiply-adds), so it
//! stays small. 128 inputs carry the whole position, so a wider first layer mostly buys
//! capacity that the data at hand (about a million positions per variant) cannot fill.
//!
//! Because both views use the same weights and the side to move's comes first, the
//! position with colours swapped and the board turned scores exactly the same for the
//! side to move.
//!
//! Quantization (the trainer's floats `w`, activations in 0..=1):
//!
//! - first layer: weights and biases `i16`, `round(w × 127)`: an accumulator holds 127
//!   per unit, and the clipped activation is `clamp(acc, 0, 127)`. Sums wrap (the trainer
//!   keeps them far inside the `i16` range; wrapping keeps an update exactly equal to a
//!   refresh whatever a file holds);
//! - dense layer: weights `i8`, `round(w × 64)`; biases `i32`, `round(b × 127 × 64)`; the
//!   sum, in units of 127 × 64, is shifted right by [`WEIGHT_SHIFT`] (6, floor) and
//!   clipped to 0..=127;
//! - output: weights `i16`, `round(w × 32)` with `w` in hundredths of a man per unit;
//!   bias `i32`, `round(b × 127 × 32)`; the score is the sum divided by 127 × 32,
//!   rounded down (floor).
//!
//! The trainer (`scripts/nnue/train.py`) computes the same integers as its reference.

use crate::board::bitboard::bits;
use crate::board::{Color, Position, Variant};

use super::pattern::SQUARE_OF_BIT;

/// Input features: 4 piece kinds × 32 squares.
pub const INPUTS: usize = 128;
/// Neurons of the first layer, per view.
pub const HIDDEN: usize = 128;
/// Neurons of the dense layer.
pub const DENSE: usize = 32;
/// A unit activation in the first layer's integers (and the clip of both layers).
pub const ACTIVATION: i32 = 127;
/// Right shift from the dense layer's sums (units 127 × 64) to activations (units 127).
pub const WEIGHT_SHIFT: u32 = 6;
/// Output weights per hundredth of a man and unit activation.
pub const OUTPUT_SCALE: i32 = 32;

/// The network's weights, integers as stored (see the module text).
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// The game the network was trained for.
    pub variant: Variant,
    /// First layer biases.
    pub ft_bias: [i16; HIDDEN],
    /// First layer weights, one row per input feature.
    pub ft_weights: Box<[[i16; HIDDEN]; INPUTS]>,
    /// Dense layer biases.
    pub dense_bias: [i32; DENSE],
    /// Dense layer weights, one column per input: `[i][o]` weighs input `i` in neuron
    /// `o` (values in the `i8` range, kept as `i16`).
    pub dense_weights: Box<[[i16; DENSE]; 2 * HIDDEN]>,
    /// Output bias.
    pub out_bias: i32,
    /// Output weights.
    pub out_weights: [i16; DENSE],
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Network({}, {INPUTS}→2×{HIDDEN}→{DENSE}→1)",
            self.variant
        )
    }
}

/// The pieces of a position as the network sees them: White's men and kings, Black's
/// men and kings (internal bitboards).
pub type PieceSets = [u64; 4];

/// The piece sets of `pos`.
#[inline(always)]
pub fn piece_sets(pos: &Position) -> PieceSets {
    [
        pos.men(Color::White),
        pos.kings(Color::White),
        pos.men(Color::Black),
        pos.kings(Color::Black),
    ]
}

/// The feature of a piece of set `set` (as in [`PieceSets`]) on internal bit `bit`, from
/// each view: `[White's, Black's]`.
#[inline(always)]
pub fn features(set: usize, bit: u32) -> [usize; 2] {
    let square = SQUARE_OF_BIT[bit as usize & 63] as usize & 31;
    let (white_piece, king) = (set < 2, set & 1 == 1);
    let kind = |own: bool| (usize::from(!own) * 2 + usize::from(king)) * 32;
    [
        kind(white_piece) + square,
        kind(!white_piece) + (31 - square),
    ]
}

/// The first layer's output for both views: `[White's view, Black's view]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator(pub [[i16; HIDDEN]; 2]);

#[inline(always)]
fn add_row(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (a, &w) in acc.iter_mut().zip(row.iter()) {
        *a = a.wrapping_add(w);
    }
}

#[inline(always)]
fn sub_row(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (a, &w) in acc.iter_mut().zip(row.iter()) {
        *a = a.wrapping_sub(w);
    }
}

impl Network {
    /// A network of `variant` with every weight and bias zero, to be filled in.
    pub(crate) fn zeroed(variant: Variant) -> Network {
        Network {
            variant,
            ft_bias: [0; HIDDEN],
            ft_weights: Box::new([[0; HIDDEN]; INPUTS]),
            dense_bias: [0; DENSE],
            dense_weights: Box::new([[0; DENSE]; 2 * HIDDEN]),
            out_bias: 0,
            out_weights: [0; DENSE],
        }
    }

    /// The accumulators of a position with pieces `sets`, from scratch.
    pub fn refresh(&self, sets: &PieceSets) -> Accumulator {
        let mut acc = Accumulator([self.ft_bias; 2]);
        for (set, &pieces) in sets.iter().enumerate() {
            for bit in bits(pieces) {
                let [w, b] = features(set, bit);
                add_row(&mut acc.0[0], &self.ft_weights[w]);
                add_row(&mut acc.0[1], &self.ft_weights[b]);
            }
        }
        acc
    }

    /// Updates `acc`, the accumulators of pieces `from`, to those of pieces `to`: the
    /// rows of the pieces gone are taken off, those of the pieces arrived are added.
    pub fn update(&self, acc: &mut Accumulator, from: &PieceSets, to: &PieceSets) {
        for set in 0..4 {
            for bit in bits(from[set] & !to[set]) {
                let [w, b] = features(set, bit);
                sub_row(&mut acc.0[0], &self.ft_weights[w]);
                sub_row(&mut acc.0[1], &self.ft_weights[b]);
            }
            for bit in bits(to[set] & !from[set]) {
                let [w, b] = features(set, bit);
                add_row(&mut acc.0[0], &self.ft_weights[w]);
                add_row(&mut acc.0[1], &self.ft_weights[b]);
            }
        }
    }

    /// The score of accumulators `acc` for `side` to move, hundredths of a man.
    pub fn output(&self, acc: &Accumulator, side: Color) -> i32 {
        let (first, second) = match side {
            Color::White => (&acc.0[0], &acc.0[1]),
            Color::Black => (&acc.0[1], &acc.0[0]),
        };
        let mut input = [0i16; 2 * HIDDEN];
        for (x, &a) in input[..HIDDEN].iter_mut().zip(first.iter()) {
            *x = a.clamp(0, ACTIVATION as i16);
        }
        for (x, &a) in input[HIDDEN..].iter_mut().zip(second.iter()) {
            *x = a.clamp(0, ACTIVATION as i16);
        }
        // Input by input, skipping the zeros (the clipped ReLU makes many), each adding
        // its column to the 32 sums: a fixed-length loop that the compiler makes SIMD and
        // keeps in registers (on x86-64, eight `pmaddwd` and `paddd` an input). Pairing
        // inputs for `pmaddwd`'s two products was tried: without intrinsics the compiler
        // does not pair them, and it was no faster.
        let mut sums = self.dense_bias;
        for (&a, column) in input.iter().zip(self.dense_weights.iter()) {
            if a != 0 {
                let a = i32::from(a);
                for (sum, &w) in sums.iter_mut().zip(column.iter()) {
                    *sum = sum.wrapping_add(a * i32::from(w));
                }
            }
        }
        let mut out = i64::from(self.out_bias);
        for (&sum, &w) in sums.iter().zip(self.out_weights.iter()) {
            let hidden = (sum >> WEIGHT_SHIFT).clamp(0, ACTIVATION);
            out += i64::from(hidden) * i64::from(w);
        }
        let score = out.div_euclid(i64::from(ACTIVATION * OUTPUT_SCALE));
        score.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }

    /// The score of `pos` for the side to move, from scratch.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.output(&self.refresh(&piece_sets(pos)), pos.side_to_move())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rng::Rng;

    /// A network of seeded random weights, in the ranges a trained one has.
    pub(crate) fn random_network(seed: u64, variant: Variant) -> Network {
        let mut rng = Rng::new(seed);
        let mut small = |range: i64| (rng.below(2 * range as u64 + 1) as i64 - range) as i16;
        let mut net = Network::zeroed(variant);
        net.ft_bias.iter_mut().for_each(|b| *b = small(60));
        net.ft_weights
            .iter_mut()
            .flatten()
            .for_each(|w| *w = small(40));
        net.dense_bias
            .iter_mut()
            .for_each(|b| *b = i32::from(small(3000)));
        net.dense_weights
            .iter_mut()
            .flatten()
            .for_each(|w| *w = small(127));
        net.out_bias = i32::from(small(5000));
        net.out_weights.iter_mut().for_each(|w| *w = small(3000));
        net
    }

    #[test]
    fn each_piece_has_one_feature_per_view_and_kinds_do_not_overlap() {
        let mut seen = [[false; INPUTS]; 2];
        for set in 0..4 {
            for bit in bits(crate::board::bitboard::BOARD) {
                let f = features(set, bit);
                for view in 0..2 {
                    assert!(!seen[view][f[view]], "{set} {bit}");
                    seen[view][f[view]] = true;
                }
            }
        }
        assert!(seen.iter().flatten().all(|&s| s));
    }

    #[test]
    fn an_update_equals_a_refresh() {
        let net = random_network(3, Variant::Italian);
        let a = Position::start();
        let b = Position::parse("B:W18,K1,22:B12,K30,5").unwrap();
        let mut acc = net.refresh(&piece_sets(&a));
        net.update(&mut acc, &piece_sets(&a), &piece_sets(&b));
        assert_eq!(acc, net.refresh(&piece_sets(&b)));
    }

    #[test]
    fn mirrored_positions_score_the_same() {
        let net = random_network(5, Variant::Italian);
        for (a, b) in [
            ("W:W21-32:B1-12", "B:W21-32:B1-12"),
            ("W:W22,23,K5:B9,10", "B:B11,10,K28:W24,23"),
            ("B:W18,19,25,K1:B2,7,K30", "W:B15,14,8,K32:W31,26,K3"),
        ] {
            let (a, b) = (Position::parse(a).unwrap(), Position::parse(b).unwrap());
            assert_eq!(net.evaluate(&a), net.evaluate(&b), "{a:?}");
        }
    }
}
