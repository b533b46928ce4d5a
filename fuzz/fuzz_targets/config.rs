//! The `beeuni-lint.toml` reader (see `beeuni_lint::fuzzing::config`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| beeuni_lint::fuzzing::config(data));
