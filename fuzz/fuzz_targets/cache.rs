//! The cache's entry decoder (see `beeuni_lint::fuzzing::cache`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| beeuni_lint::fuzzing::cache(data));
