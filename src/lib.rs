//! Damiera: an Italian draughts (dama italiana) engine following the FID rulebook.
//!
//! Rooms, each depending only on rooms before it in this list (no arrow runs back up):
//!
//! - [`board`]: squares, bitboards, positions and their text forms;
//! - [`movegen`] (→ board): the FID move rules, [`movegen::is_irreversible`], perft;
//! - [`game`] (→ board, movegen): one [`game::Game`] with its verdict under
//!   [`game::DrawRules`], PDN files in and out, replay, openings — every front end keeps
//!   its games here, so a game ends at the same ply wherever it is played;
//! - [`egdb`] (→ board, movegen): endgame databases;
//! - [`search`] (→ board, movegen, game, egdb): evaluation, transposition table,
//!   alpha-beta under the game's move limit; reports through a callback, never prints;
//! - [`engine`] (→ search): the search thread and its channels;
//! - [`train`] (→ search, game): self-play data and weight fitting;
//! - [`hub`] (→ engine, game): the Hub protocol, engine side and client side;
//! - [`review`] (→ search scores, game): a game's moves scored against the best ones,
//!   `?`/`??` marks, the evaluation curve and the annotated PDN, the same for
//!   `damiera analyse` and the web board;
//! - [`matchrun`] (→ hub client, game) and [`gui`] (→ hub client, game, review): Hub
//!   clients, the match runner and the web board;
//! - [`cli`] (→ all): the command-line tools;
//! - [`shard`] (no dependency): `--shard K/N`, the slices of a run for batch systems.

pub mod board;
pub mod cli;
pub mod egdb;
pub mod engine;
pub mod game;
pub mod gui;
pub mod hub;
pub mod matchrun;
pub mod memory;
pub mod movegen;
pub mod review;
pub mod search;
pub mod shard;
pub mod train;
