//! The game: what a played game is beyond its positions — PDN records and their replay.

pub mod pdn;
pub mod replay;
