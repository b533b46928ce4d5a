//! The manifest loader and everything a check builds on it (see `beeuni_lint::fuzzing::manifest`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| beeuni_lint::fuzzing::manifest(beeuni_lint_fuzz::scratch(), data));
