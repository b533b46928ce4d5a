//! The fix engine on a fuzzed project: every fix (unsafe ones too) planned and applied. Each YAML file that
//! parsed before still parses after, and fixing the fixed project changes nothing (idempotence).
#![no_main]

use beeuni_lint::CheckOptions;
use beeuni_lint::diagnostic::Severity;
use beeuni_lint::fix::plan;
use beeuni_lint_fuzz::Scratch;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

static SCRATCH: OnceLock<Scratch> = OnceLock::new();

fuzz_target!(|data: &[u8]| {
    let scratch = SCRATCH.get_or_init(Scratch::new);
    if scratch.fill(data).is_none() {
        return;
    }
    let options = CheckOptions::new(scratch.root.clone());
    let outcome = plan(&options, true, Severity::Info).unwrap_or_else(|message| panic!("--fix failed: {message}"));
    for change in &outcome.changes {
        let path = scratch.path(&change.path);
        let Some(after) = &change.after else {
            std::fs::remove_file(&path).expect("delete a fixed file");
            continue;
        };
        std::fs::write(&path, after).expect("write a fixed file");
        if change.path.ends_with(".yaml") {
            let before = String::from_utf8_lossy(&change.before);
            let after = std::str::from_utf8(after).expect("a fix keeps the file UTF-8");
            if beeuni_lint::yaml::parse(&before).is_ok() {
                if let Err(e) = beeuni_lint::yaml::parse(after) {
                    panic!("a fix broke {}: {} at {}\n{after}", change.path, e.message, e.offset);
                }
            }
        }
    }
    if outcome.changes.is_empty() {
        return;
    }
    let again =
        plan(&options, true, Severity::Info).unwrap_or_else(|message| panic!("--fix failed on fixed files: {message}"));
    let changed: Vec<&str> = again.changes.iter().map(|c| c.path.as_str()).collect();
    assert!(changed.is_empty(), "a second --fix changed {changed:?}");
});
