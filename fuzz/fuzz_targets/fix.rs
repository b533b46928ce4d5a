//! The fix engine on a fuzzed project (see `beeuni_lint::fuzzing::fix`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| beeuni_lint::fuzzing::fix(beeuni_lint_fuzz::scratch(), data));
