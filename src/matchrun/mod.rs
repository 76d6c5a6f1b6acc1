//! Engine-vs-engine match support: statistics, PDN game records, replaying games
//! against the rules, driving Hub engine processes and running whole matches.

pub mod game;
pub mod results;
pub mod runner;
pub mod stats;
pub mod time_use;
