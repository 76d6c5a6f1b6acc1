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
//! - optionally (format version 3) a second dense layer 32 → 32, clipped ReLU, as
//!   GuiNN's networks have;
//! - an output layer 32 → 1: the score in hundredths of a man, side to move's view.
//! - heads: the dense and output layers together form a head; a network has one or
//!   more (up to [`MAX_HEADS`]), each for a range of piece counts
//!   ([`Network::head_index`]), as GuiNN has a network per game stage. The first layer
//!   is shared, so the accumulators do not care which head reads them, and a head costs
//!   an evaluation what the one head did.
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
//!   clipped to 0..=127; the second dense layer, where there is one, the same way;
//! - output: weights `i16`, `round(w × 32)` with `w` in hundredths of a man per unit;
//!   bias `i32`, `round(b × 127 × 32)`; the score is the sum divided by 127 × 32,
//!   rounded down (floor).
//!
//! The trainer (`scripts/nnue/train.py`) computes the same integers as its reference.

// One `unsafe` call: the AVX2 build of the dense layer, after the CPU check.
#![allow(unsafe_code)]

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

/// Most output heads a network may have.
pub const MAX_HEADS: usize = 8;

/// Pieces on the board at the start of the games whose heads are split by count.
const FULL_BOARD: usize = 24;

/// The network's weights, integers as stored (see the module text).
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// The game the network was trained for.
    pub variant: Variant,
    /// First layer biases.
    pub ft_bias: [i16; HIDDEN],
    /// First layer weights, one row per input feature.
    pub ft_weights: Box<[[i16; HIDDEN]; INPUTS]>,
    /// The dense and output layers, one set per range of piece counts
    /// ([`Network::head_index`]); one for all positions in a version 1 file.
    pub heads: Vec<Head>,
}

/// The layers after the first: a dense layer and the output.
#[derive(Clone, PartialEq, Eq)]
pub struct Head {
    /// Dense layer biases.
    pub dense_bias: [i32; DENSE],
    /// Dense layer weights by pairs of inputs, interleaved by neuron: `[p][2 × o + k]`
    /// weighs input `2 × p + k` in neuron `o` (values in the `i8` range, kept as `i16`).
    /// [`Head::dense_weight`] reads one by input and neuron. Pairs, because one
    /// multiply-add instruction (`pmaddwd`) takes two inputs' products for a neuron.
    pub dense_weights: Box<[[i16; 2 * DENSE]; HIDDEN]>,
    /// The second dense layer, if the network has one (every head or none).
    pub second: Option<SecondLayer>,
    /// Output bias.
    pub out_bias: i32,
    /// Output weights.
    pub out_weights: [i16; DENSE],
}

/// A second dense layer, [`DENSE`] → [`DENSE`], between the dense layer and the output:
/// integers as the dense layer's.
#[derive(Clone, PartialEq, Eq)]
pub struct SecondLayer {
    /// Biases, units 127 × 64.
    pub bias: [i32; DENSE],
    /// Weights, 64 a unit, by pairs of inputs as [`Head::dense_weights`] (values in the
    /// `i8` range, kept as `i16`); [`SecondLayer::weight`] reads one.
    pub weights: [[i16; 2 * DENSE]; DENSE / 2],
}

impl SecondLayer {
    /// Every weight and bias zero.
    pub(crate) fn zeroed() -> SecondLayer {
        SecondLayer {
            bias: [0; DENSE],
            weights: [[0; 2 * DENSE]; DENSE / 2],
        }
    }

    /// The weight of input `input` in neuron `neuron`.
    pub fn weight(&self, input: usize, neuron: usize) -> i16 {
        let (pair, slot) = pair_slot(input, neuron);
        self.weights[pair][slot]
    }

    /// Sets the weight of input `input` in neuron `neuron`.
    pub fn set_weight(&mut self, input: usize, neuron: usize, weight: i16) {
        let (pair, slot) = pair_slot(input, neuron);
        self.weights[pair][slot] = weight;
    }

    /// The layer that passes its inputs on unchanged (activations are already clipped
    /// to 0..=127): a head with it scores as the head without.
    pub fn identity() -> SecondLayer {
        let mut layer = SecondLayer::zeroed();
        for o in 0..DENSE {
            layer.set_weight(o, o, 1 << WEIGHT_SHIFT);
        }
        layer
    }

    /// The layer's clipped outputs for clipped inputs `hidden`.
    fn forward(&self, hidden: &[i16; DENSE]) -> [i16; DENSE] {
        dense_sums(&self.bias, &self.weights, hidden).map(clipped)
    }
}

impl Head {
    /// A head with every weight and bias zero, with a second dense layer or without.
    pub(crate) fn zeroed(second: bool) -> Head {
        Head {
            dense_bias: [0; DENSE],
            dense_weights: Box::new([[0; 2 * DENSE]; HIDDEN]),
            second: second.then(SecondLayer::zeroed),
            out_bias: 0,
            out_weights: [0; DENSE],
        }
    }

    /// The weight of dense input `input` (0..2×[`HIDDEN`]) in neuron `neuron`.
    pub fn dense_weight(&self, input: usize, neuron: usize) -> i16 {
        let (pair, slot) = pair_slot(input, neuron);
        self.dense_weights[pair][slot]
    }

    /// Sets the weight of dense input `input` in neuron `neuron`.
    pub fn set_dense_weight(&mut self, input: usize, neuron: usize, weight: i16) {
        let (pair, slot) = pair_slot(input, neuron);
        self.dense_weights[pair][slot] = weight;
    }

    /// The score of clipped first-layer outputs `input`, hundredths of a man.
    fn score(&self, input: &[i16; 2 * HIDDEN]) -> i32 {
        let sums = dense_sums(&self.dense_bias, &self.dense_weights, input);
        let mut hidden = sums.map(clipped);
        if let Some(second) = &self.second {
            hidden = second.forward(&hidden);
        }
        let mut out = i64::from(self.out_bias);
        for (&h, &w) in hidden.iter().zip(self.out_weights.iter()) {
            out += i64::from(h) * i64::from(w);
        }
        let score = out.div_euclid(i64::from(ACTIVATION * OUTPUT_SCALE));
        score.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }
}

/// Where a dense layer stored by pairs of inputs keeps the weight of `input` in
/// `neuron`: its row (the pair) and its place in the row (interleaved by neuron).
#[inline(always)]
fn pair_slot(input: usize, neuron: usize) -> (usize, usize) {
    (input / 2, 2 * neuron + input % 2)
}

/// A dense layer's sum as an activation: shifted to units of 127 and clipped to 0..=127.
#[inline(always)]
fn clipped(sum: i32) -> i16 {
    (sum >> WEIGHT_SHIFT).clamp(0, ACTIVATION) as i16
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let second = if self.has_second_layer() {
            format!("→{DENSE}")
        } else {
            String::new()
        };
        write!(
            f,
            "Network({}, {INPUTS}→2×{HIDDEN}→{DENSE}{second}→1, {} heads)",
            self.variant,
            self.heads.len()
        )
    }
}

/// The pieces of a position as the network sees them: White's men and kings, Black's
/// men and kings (internal bitboards).
pub type PieceSets = [u64; 4];

/// How many pieces `sets` hold.
#[inline(always)]
pub fn piece_count(sets: &PieceSets) -> u32 {
    sets.iter().map(|s| s.count_ones()).sum()
}

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
    /// A network of `variant` with `heads` heads, with second dense layers or without,
    /// every weight and bias zero, to be filled in.
    pub(crate) fn zeroed(variant: Variant, heads: usize, second: bool) -> Network {
        Network {
            variant,
            ft_bias: [0; HIDDEN],
            ft_weights: Box::new([[0; HIDDEN]; INPUTS]),
            heads: (0..heads).map(|_| Head::zeroed(second)).collect(),
        }
    }

    /// Whether the heads have a second dense layer (format version 3).
    pub fn has_second_layer(&self) -> bool {
        self.heads.iter().any(|head| head.second.is_some())
    }

    /// The head that scores a position of `pieces` pieces: with `n` heads, the piece
    /// counts 1 to 24 in `n` equal ranges, fewest first (four heads: 1–6, 7–12, 13–18,
    /// 19–24; more than 24, as an analysed board may hold, the last).
    pub fn head_index(&self, pieces: u32) -> usize {
        let n = self.heads.len();
        ((pieces.max(1) as usize - 1) * n / FULL_BOARD).min(n.saturating_sub(1))
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

    /// The score of accumulators `acc` of a position of `pieces` pieces, for `side` to
    /// move, hundredths of a man.
    pub fn output(&self, acc: &Accumulator, side: Color, pieces: u32) -> i32 {
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
        let head = self.heads.get(self.head_index(pieces));
        head.map_or(0, |head| head.score(&input))
    }

    /// The score of `pos` for the side to move, from scratch.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let sets = piece_sets(pos);
        self.output(&self.refresh(&sets), pos.side_to_move(), piece_count(&sets))
    }
}

/// The dense layer's sums: `bias` plus every input times its weights.
///
/// On x86-64 two inputs are taken at a time, the shape of the multiply-add instruction
/// (`pmaddwd`: `a₀ × w₀ + a₁ × w₁` per neuron): with AVX2 where the CPU has it (checked at
/// run time, once per process by the standard library's cache), with SSE2 (every x86-64
/// CPU) otherwise; the compiler does not find this pairing on its own. Elsewhere (the
/// browser build) the loop is plain code. All give the same integers: a pair's sum is at
/// most 2 × 127 × 128, and the running sums wrap.
///
/// `input` has two values per row of `weights` (the first dense layer: 256; the second:
/// 32).
#[inline]
fn dense_sums<const PAIRS: usize>(
    bias: &[i32; DENSE],
    weights: &[[i16; 2 * DENSE]; PAIRS],
    input: &[i16],
) -> [i32; DENSE] {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has just been found to support AVX2, the one requirement
            // of this `target_feature(enable = "avx2")` function.
            return unsafe { x86::dense_sums_avx2(bias, weights, input) };
        }
        // SAFETY: SSE2 is part of every x86-64 CPU (the architecture's baseline).
        unsafe { x86::dense_sums_sse2(bias, weights, input) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    dense_sums_portable(bias, weights, input)
}

/// Input by input, skipping the zeros (the clipped ReLU makes many).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn dense_sums_portable<const PAIRS: usize>(
    bias: &[i32; DENSE],
    weights: &[[i16; 2 * DENSE]; PAIRS],
    input: &[i16],
) -> [i32; DENSE] {
    let mut sums = *bias;
    for (pair, column) in input.chunks_exact(2).zip(weights.iter()) {
        for (k, &a) in pair.iter().enumerate() {
            if a != 0 {
                let a = i32::from(a);
                for (o, sum) in sums.iter_mut().enumerate() {
                    *sum = sum.wrapping_add(a * i32::from(column[2 * o + k]));
                }
            }
        }
    }
    sums
}

/// The dense layer with x86-64's multiply-add, a pair of inputs at a time, every pair:
/// skipping pairs of zeros (about half of them, in no order a branch predictor can learn)
/// cost more in mispredicted branches than their multiply-adds (bench: 2.3 M nodes/s with
/// the test, 3.0 M without).
#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use super::DENSE;

    /// Both inputs of a pair in one 32-bit lane: `a₀` low, `a₁` high.
    #[inline(always)]
    fn pair_lane(pair: &[i16]) -> i32 {
        i32::from(pair[0] as u16) | (i32::from(pair[1] as u16) << 16)
    }

    /// SSE2, which every x86-64 CPU has: 32 sums in eight registers.
    #[target_feature(enable = "sse2")]
    pub(super) fn dense_sums_sse2<const PAIRS: usize>(
        bias: &[i32; DENSE],
        weights: &[[i16; 2 * DENSE]; PAIRS],
        input: &[i16],
    ) -> [i32; DENSE] {
        const LANES: usize = 4;
        let mut sums = [_mm_setzero_si128(); DENSE / LANES];
        for (k, sum) in sums.iter_mut().enumerate() {
            // SAFETY: reads 4 `i32` at `bias[4k..4k + 4]`, inside the array; unaligned
            // loads allow any address.
            *sum = unsafe { _mm_loadu_si128(bias.as_ptr().add(LANES * k).cast()) };
        }
        for (pair, column) in input.chunks_exact(2).zip(weights.iter()) {
            let both = _mm_set1_epi32(pair_lane(pair));
            for (k, sum) in sums.iter_mut().enumerate() {
                // SAFETY: reads 8 `i16` at `column[8k..8k + 8]`, inside the array.
                let w = unsafe { _mm_loadu_si128(column.as_ptr().add(2 * LANES * k).cast()) };
                *sum = _mm_add_epi32(*sum, _mm_madd_epi16(both, w));
            }
        }
        let mut out = [0i32; DENSE];
        for (k, sum) in sums.iter().enumerate() {
            // SAFETY: writes 4 `i32` at `out[4k..4k + 4]`, inside the array.
            unsafe { _mm_storeu_si128(out.as_mut_ptr().add(LANES * k).cast(), *sum) };
        }
        out
    }

    /// AVX2: 32 sums in four registers, half the instructions of SSE2.
    #[target_feature(enable = "avx2")]
    pub(super) fn dense_sums_avx2<const PAIRS: usize>(
        bias: &[i32; DENSE],
        weights: &[[i16; 2 * DENSE]; PAIRS],
        input: &[i16],
    ) -> [i32; DENSE] {
        const LANES: usize = 8;
        let mut sums = [_mm256_setzero_si256(); DENSE / LANES];
        for (k, sum) in sums.iter_mut().enumerate() {
            // SAFETY: reads 8 `i32` at `bias[8k..8k + 8]`, inside the array.
            *sum = unsafe { _mm256_loadu_si256(bias.as_ptr().add(LANES * k).cast()) };
        }
        for (pair, column) in input.chunks_exact(2).zip(weights.iter()) {
            let both = _mm256_set1_epi32(pair_lane(pair));
            for (k, sum) in sums.iter_mut().enumerate() {
                // SAFETY: reads 16 `i16` at `column[16k..16k + 16]`, inside the array.
                let w = unsafe { _mm256_loadu_si256(column.as_ptr().add(2 * LANES * k).cast()) };
                *sum = _mm256_add_epi32(*sum, _mm256_madd_epi16(both, w));
            }
        }
        let mut out = [0i32; DENSE];
        for (k, sum) in sums.iter().enumerate() {
            // SAFETY: writes 8 `i32` at `out[8k..8k + 8]`, inside the array.
            unsafe { _mm256_storeu_si256(out.as_mut_ptr().add(LANES * k).cast(), *sum) };
        }
        out
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rng::Rng;

    /// A network of seeded random weights, in the ranges a trained one has, with
    /// `heads` heads.
    pub(crate) fn random_network_with_heads(seed: u64, variant: Variant, heads: usize) -> Network {
        random_network_with(seed, variant, heads, false)
    }

    /// A network of seeded random weights with `heads` heads, each with a second dense
    /// layer or without.
    pub(crate) fn random_network_with(
        seed: u64,
        variant: Variant,
        heads: usize,
        second: bool,
    ) -> Network {
        let mut rng = Rng::new(seed);
        let mut small = |range: i64| (rng.below(2 * range as u64 + 1) as i64 - range) as i16;
        let mut net = Network::zeroed(variant, heads, second);
        net.ft_bias.iter_mut().for_each(|b| *b = small(60));
        net.ft_weights
            .iter_mut()
            .flatten()
            .for_each(|w| *w = small(40));
        for head in net.heads.iter_mut() {
            head.dense_bias
                .iter_mut()
                .for_each(|b| *b = i32::from(small(3000)));
            head.dense_weights
                .iter_mut()
                .flatten()
                .for_each(|w| *w = small(127));
            if let Some(layer) = head.second.as_mut() {
                layer
                    .bias
                    .iter_mut()
                    .for_each(|b| *b = i32::from(small(3000)));
                layer
                    .weights
                    .iter_mut()
                    .flatten()
                    .for_each(|w| *w = small(127));
            }
            head.out_bias = i32::from(small(5000));
            head.out_weights.iter_mut().for_each(|w| *w = small(3000));
        }
        net
    }

    /// A network of seeded random weights with one head.
    pub(crate) fn random_network(seed: u64, variant: Variant) -> Network {
        random_network_with_heads(seed, variant, 1)
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

    /// Random activations in 0..=127, about half of them zero (as the clipped ReLU
    /// leaves them), some pairs both zero.
    fn random_input(rng: &mut Rng) -> [i16; 2 * HIDDEN] {
        let mut input = [0i16; 2 * HIDDEN];
        for a in input.iter_mut() {
            if rng.below(2) == 0 {
                *a = rng.below(128) as i16;
            }
        }
        input
    }

    #[test]
    fn every_build_of_the_dense_layer_gives_the_same_sums() {
        let mut rng = Rng::new(17);
        for seed in 0..8 {
            let mut net = random_network(seed, Variant::English);
            let head = &mut net.heads[0];
            // The extremes of the file's `i8` range, to show no sum saturates.
            head.set_dense_weight(0, 0, -128);
            head.set_dense_weight(1, 0, -128);
            for _ in 0..50 {
                let mut input = random_input(&mut rng);
                input[..2].fill(127);
                let plain = dense_sums_portable(&head.dense_bias, &head.dense_weights, &input);
                let used = dense_sums(&head.dense_bias, &head.dense_weights, &input);
                assert_eq!(plain, used);
                #[cfg(target_arch = "x86_64")]
                {
                    // SAFETY: SSE2 is part of every x86-64 CPU.
                    let sse2 = unsafe {
                        x86::dense_sums_sse2(&head.dense_bias, &head.dense_weights, &input)
                    };
                    assert_eq!(plain, sse2);
                }
            }
        }
    }

    #[test]
    fn every_build_of_the_second_layer_gives_the_same_sums() {
        let mut rng = Rng::new(19);
        let net = random_network_with(9, Variant::English, 1, true);
        let Some(layer) = &net.heads[0].second else {
            panic!("a second layer was asked for")
        };
        for _ in 0..50 {
            let input: [i16; DENSE] = std::array::from_fn(|_| rng.below(128) as i16);
            let plain = dense_sums_portable(&layer.bias, &layer.weights, &input);
            assert_eq!(plain, dense_sums(&layer.bias, &layer.weights, &input));
            #[cfg(target_arch = "x86_64")]
            {
                // SAFETY: SSE2 is part of every x86-64 CPU.
                let sse2 = unsafe { x86::dense_sums_sse2(&layer.bias, &layer.weights, &input) };
                assert_eq!(plain, sse2);
            }
        }
    }

    #[test]
    fn heads_split_the_piece_counts_evenly_fewest_first() {
        let four = random_network_with_heads(6, Variant::English, 4);
        let heads: Vec<usize> = (0..=32).map(|n| four.head_index(n)).collect();
        assert_eq!(heads[..7], [0; 7]);
        assert_eq!(heads[7..13], [1; 6]);
        assert_eq!(heads[13..19], [2; 6]);
        assert_eq!(heads[19..], [3; 14]);
        let one = random_network(6, Variant::English);
        assert!((0..=32).all(|n| one.head_index(n) == 0));
    }

    #[test]
    fn a_position_is_scored_by_the_head_of_its_piece_count() {
        let four = random_network_with_heads(7, Variant::English, 4);
        for (fen, head) in [("W:W21-32:B1-12", 3), ("B:W18,K1,22:B12,K30,5", 0)] {
            let pos = Position::parse(fen).unwrap();
            let mut alone = four.clone();
            alone.heads = vec![four.heads[head].clone()];
            assert_eq!(four.evaluate(&pos), alone.evaluate(&pos), "{fen}");
            alone.heads = vec![four.heads[(head + 1) % 4].clone()];
            assert_ne!(four.evaluate(&pos), alone.evaluate(&pos), "{fen}");
        }
    }

    #[test]
    fn an_identity_second_layer_scores_as_none() {
        let one = random_network_with_heads(8, Variant::English, 2);
        let mut two = one.clone();
        two.heads
            .iter_mut()
            .for_each(|head| head.second = Some(SecondLayer::identity()));
        assert!(two.has_second_layer() && !one.has_second_layer());
        for fen in [
            "W:W21-32:B1-12",
            "B:W18,K1,22:B12,K30,5",
            "W:W22,23,K5:B9,10",
        ] {
            let pos = Position::parse(fen).unwrap();
            assert_eq!(one.evaluate(&pos), two.evaluate(&pos), "{fen}");
        }
        let random = random_network_with(8, Variant::English, 2, true);
        let pos = Position::start();
        assert_ne!(random.evaluate(&pos), one.evaluate(&pos));
    }

    #[test]
    fn the_second_layer_sums_clips_and_shifts() {
        let mut layer = SecondLayer::zeroed();
        layer.bias[0] = -64;
        for (input, w) in [64, -128, 127].into_iter().enumerate() {
            layer.set_weight(input, 0, w);
        }
        layer.set_weight(0, 1, 127);
        let mut hidden = [0; DENSE];
        hidden[..3].copy_from_slice(&[100, 10, 1]);
        let out = layer.forward(&hidden);
        // (−64 + 6400 − 1280 + 127) >> 6 = 5183 >> 6 = 80; 12700 >> 6 = 198, clipped.
        assert_eq!(out[..3], [80, 127, 0]);
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
