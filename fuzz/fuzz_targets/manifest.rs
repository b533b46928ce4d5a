//! The manifest loader and everything a check builds on it: YAML -> spanned tree -> manifest graph (imports
//! followed, cycles cut) -> model -> rules -> report. Any `Err` is an exit 2, which a project's files must
//! never cause (they get located findings).
#![no_main]

use beeuni_lint::CheckOptions;
use beeuni_lint_fuzz::Scratch;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

static SCRATCH: OnceLock<Scratch> = OnceLock::new();

fuzz_target!(|data: &[u8]| {
    let scratch = SCRATCH.get_or_init(Scratch::new);
    if scratch.fill(data).is_none() {
        return;
    }
    let report = beeuni_lint::check(&CheckOptions::new(scratch.root.clone()));
    if let Err(message) = report {
        panic!("a project's files made the run fail: {message}");
    }
});
