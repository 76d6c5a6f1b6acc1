//! Fuzz target: `damiera_checks::book` (see its documentation for the input format
//! and the properties checked).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(failure) = damiera_checks::book::check(data) {
        panic!("property failed: {failure}");
    }
});
