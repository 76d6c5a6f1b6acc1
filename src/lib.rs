//! Damiera: an Italian draughts (dama italiana) engine following the FID rulebook.
//!
//! Layers, each depending only on the ones before it:
//! `board` (squares, position, text forms) → `movegen` (FID move rules, perft) →
//! `search` (evaluation, transposition table, alpha-beta) → `engine` (search thread,
//! channels) → `hub` (the Hub protocol) and `cli` (the command-line tools). `matchrun`
//! and `gui` (the web board) are Hub clients: they drive engine processes. `train`
//! (self-play data and weight fitting for the pattern evaluation) sits beside `engine`.

pub mod board;
pub mod cli;
pub mod egdb;
pub mod engine;
pub mod game;
pub mod gui;
pub mod hub;
pub mod matchrun;
pub mod movegen;
pub mod search;
pub mod train;
