//! The module analyser (see `beeuni_lint::fuzzing::module`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| beeuni_lint::fuzzing::module(data));
