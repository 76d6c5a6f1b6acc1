//! The network file reader under random input on stable Rust (the fuzz target
//! `network` runs the same check under libFuzzer): random edits of a valid file, with
//! and without the checksum recomputed, and random cuts and tails of it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code: a failed unwrap fails the test

use damiera_checks::network::{HEADS, ORIGINAL, SECOND, check};
use proptest::prelude::*;

/// The check's input for `file` cut to `len` bytes and extended by `tail`.
fn cut_and_extended(file: &[u8], len: usize, tail: Vec<u8>) -> Vec<u8> {
    let mut data = vec![0u8];
    data.extend_from_slice(&file[..len]);
    data.extend(tail);
    data
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn edited_files_keep_the_properties(mode in any::<u8>(), edits in proptest::collection::vec(any::<u8>(), 0..48)) {
        let mut data = vec![mode | 1];
        data.extend(edits);
        prop_assert_eq!(check(&data), Ok(()));
    }

    #[test]
    fn cut_and_extended_files_keep_the_properties(len in 0..=ORIGINAL.len(), tail in proptest::collection::vec(any::<u8>(), 0..8)) {
        prop_assert_eq!(check(&cut_and_extended(ORIGINAL, len, tail)), Ok(()));
    }

    #[test]
    fn cut_and_extended_files_of_four_heads_keep_the_properties(len in 0..=HEADS.len(), tail in proptest::collection::vec(any::<u8>(), 0..8)) {
        prop_assert_eq!(check(&cut_and_extended(HEADS, len, tail)), Ok(()));
    }

    #[test]
    fn cut_and_extended_files_with_second_layers_keep_the_properties(len in 0..=SECOND.len(), tail in proptest::collection::vec(any::<u8>(), 0..8)) {
        prop_assert_eq!(check(&cut_and_extended(SECOND, len, tail)), Ok(()));
    }
}
