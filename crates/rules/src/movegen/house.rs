//! Damka's house rules around the flying walker. A position with house rules that change
//! the moves comes here from the one check at the top of a call (`fill_other`,
//! `count_other`, `perft`); the nine games' own loops never see them.
//!
//! - `men-forward-only` and `stop-chain` are read by the walker as constants: the game
//!   type is [`DamkaHouse`] (see [`with_walker_game!`]).
//! - `no-compulsory-capture` and `huffing` append the quiet moves after the captures.
//! - `last-man-backward` adds the backward steps of a side's only man to its quiet moves.
//! - `huffing` marks each quiet move played while a capture was possible with the piece it
//!   huffs ([`Move::huffed`]), which [`Position::play`] removes.

use super::capture::CaptureSink;
use super::flying::{self, FlyingMoves};
use super::forward;
use super::list::MoveList;
use crate::board::bitboard::{Bitboard, bits, step};
use crate::board::{Game, HouseRule, Move, Position, Square};

/// Runs `$body` with `$g` the [`Game`] type the capture walker plays for `$pos`: its
/// game's, or for Damka with `men-forward-only` or `stop-chain` a `DamkaHouse` type.
macro_rules! with_walker_game {
    ($pos:expr, $g:ident => $body:expr) => {{
        use $crate::board::HouseRule as R;
        let house = $pos.house_rules();
        match (
            house.contains(R::MenForwardOnly),
            house.contains(R::StopChain),
        ) {
            (false, false) => $crate::with_game!($pos.variant(), $g => $body),
            (true, false) => {
                type $g = $crate::board::games::DamkaHouse<true, false>;
                $body
            }
            (false, true) => {
                type $g = $crate::board::games::DamkaHouse<false, true>;
                $body
            }
            (true, true) => {
                type $g = $crate::board::games::DamkaHouse<true, true>;
                $body
            }
        }
    }};
}
pub(crate) use with_walker_game;

/// Fills `list` with the legal moves of a Damka position under its house rules.
pub(super) fn fill(pos: &Position, list: &mut MoveList) {
    with_walker_game!(pos, G => match pos.side_to_move() {
        crate::board::Color::White => fill_in::<G, true>(pos, list),
        crate::board::Color::Black => fill_in::<G, false>(pos, list),
    })
}

/// [`fill`] in game `G` with `WHITE` to move.
fn fill_in<G: Game, const WHITE: bool>(pos: &Position, list: &mut MoveList) {
    let house = pos.house_rules();
    let sources = flying::capturers::<G, WHITE>(pos);
    if sources != 0 {
        let mut sink = FlyingMoves::<G> {
            list,
            best: 0,
            game: std::marker::PhantomData,
        };
        flying::walk::<G, WHITE, _>(pos, sources, &mut sink);
        if !house.captures_optional() {
            return;
        }
    }
    let first_quiet = list.len();
    flying::quiet::<WHITE>(pos, list);
    if house.contains(HouseRule::LastManBackward) {
        push_last_man_back::<WHITE>(pos, list);
    }
    if sources != 0 && house.contains(HouseRule::Huffing) {
        let other = huffed_other::<G, WHITE>(pos, sources);
        mark_huffs(list, first_quiet, sources, other);
    }
}

/// Appends the backward steps of the side's only man, if it has exactly one.
fn push_last_man_back<const WHITE: bool>(pos: &Position, list: &mut MoveList) {
    for (from, to) in last_man_steps::<WHITE>(pos) {
        list.push(Move::from_bits(from, to, 0));
    }
}

/// The backward steps (from, to bits) of the side's only man.
fn last_man_steps<const WHITE: bool>(pos: &Position) -> Vec<(u32, u32)> {
    let men = pos.men(super::color::<WHITE>());
    if men.count_ones() != 1 {
        return Vec::new();
    }
    let from = men.trailing_zeros();
    // Backward for this side is forward for the other.
    let backward = if WHITE {
        forward::<false>()
    } else {
        forward::<true>()
    };
    backward
        .into_iter()
        .filter(|&d| step(men, d) & pos.empty() != 0)
        .map(|d| (from, (from as i32 + d) as u32))
        .collect()
}

/// Whether the side to move has a backward step of its last man under
/// `last-man-backward` (the quiet move the plain count does not see).
pub(super) fn has_last_man_step(pos: &Position) -> bool {
    pos.house_rules().contains(HouseRule::LastManBackward)
        && match pos.side_to_move() {
            crate::board::Color::White => !last_man_steps::<true>(pos).is_empty(),
            crate::board::Color::Black => !last_man_steps::<false>(pos).is_empty(),
        }
}

/// Marks the quiet moves from `first` on as huffing: a move of a piece that could have
/// captured huffs that piece where it lands; any other huffs `other`.
fn mark_huffs(list: &mut MoveList, first: usize, sources: Bitboard, other: u32) {
    for mv in &mut list.as_mut_slice()[first..] {
        let bit = if sources & (1u64 << mv.src_bit()) != 0 {
            mv.dst_bit()
        } else {
            other
        };
        *mv = mv.huffing(bit);
    }
}

/// The piece of `sources` huffed when another piece moves: the one that could take the
/// most pieces, ties broken by the lowest square number in the game's notation.
fn huffed_other<G: Game, const WHITE: bool>(pos: &Position, sources: Bitboard) -> u32 {
    let number = |bit: u32| pos.variant().number_of(Square::from_bit(bit));
    bits(sources)
        .map(|from| {
            let mut most = MostTaken(0);
            flying::walk::<G, WHITE, _>(pos, 1u64 << from, &mut most);
            (from, most.0)
        })
        .min_by_key(|&(from, taken)| (std::cmp::Reverse(taken), number(from)))
        .map_or(0, |(from, _)| from)
}

/// The most pieces any capture of a walk takes.
struct MostTaken(u32);

impl CaptureSink for MostTaken {
    fn record(&mut self, mv: Move, _key: u32, _path: &[u8]) {
        self.0 = self.0.max(mv.capture_count());
    }
}

/// Perft under house rules: the plain recursion over [`super::legal_moves`].
pub(super) fn perft(pos: &Position, depth: u32, paths: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let list = super::legal_moves(pos);
    if depth == 1 {
        return super::list_count(&list, paths);
    }
    list.iter()
        .enumerate()
        .map(|(i, &mv)| {
            let weight = if paths { list.paths(i) as u64 } else { 1 };
            weight * perft(&pos.play(mv), depth - 1, paths)
        })
        .sum()
}
