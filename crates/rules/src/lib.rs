//! The rules of 8x8 draughts — Italian (FID), English, Russian and Brazilian — as one
//! bitboard core: what a position is, which moves it has, how a game ends and how it is
//! written down. No threads, no I/O beyond parsing text.
//!
//! Rooms, each depending only on rooms before it:
//!
//! - [`rng`] (no dependency): a small seeded generator (SplitMix64) for reproducible
//!   games, shuffles and test data;
//! - [`board`]: squares, bitboards, positions and their text forms;
//! - [`movegen`] (→ board): each federation's move rules, [`movegen::is_irreversible`],
//!   perft, and the move and line texts every front end writes;
//! - [`game`] (→ board, movegen): one [`game::Game`] with its verdict under
//!   [`game::DrawRules`] (and the search's twofold shortcut of its repetition rule), PDN
//!   files in and out (read game by game, faults repaired or skipped), the one game → PDN
//!   record, replay, openings — every front end keeps its games here, so a game ends at
//!   the same ply wherever it is played.

pub mod board;
pub mod game;
pub mod movegen;
pub mod rng;
