//! xcsh tool analysis (see `beeuni_lint::fuzzing::xcsh`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| beeuni_lint::fuzzing::xcsh(data));
