//! Engine-vs-engine match support: statistics and PDN game records.

pub mod pdn;
pub mod stats;
