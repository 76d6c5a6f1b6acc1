//! The learning pipeline of the pattern evaluation: self-play games that write training
//! positions ([`selfplay`], in the [`data`] format) and the fitting of the weights to
//! them ([`fit`]).

pub mod data;
pub mod fit;
pub mod selfplay;

pub use crate::rng::Rng;
