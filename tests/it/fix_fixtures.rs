//! Every fixable finding of every fixture, applied with `--unsafe-fixes`: the result parses, the fixed
//! findings are gone, no byte outside the edits changed, and a second run changes nothing.

use crate::common::{fixture, fixture_path};
use crate::fix_support::{fix_and_check, lint};

#[test]
fn every_fixture_fixes_cleanly() {
    let mut names: Vec<String> = std::fs::read_dir(fixture_path(""))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut fixed = 0;
    for name in &names {
        let dir = fixture(name);
        if !dir.path().join("beeuni.yaml").exists() {
            continue; // manifest-name: exit 2 before any fix
        }
        let offered = lint(dir.path())["diagnostics"].as_array().unwrap().iter().any(|d| d["fix"].is_object());
        let diff = fix_and_check(dir.path());
        assert_eq!(offered, !diff.is_empty(), "{name}: offered a fix but changed nothing, or the reverse\n{diff}");
        fixed += usize::from(offered);
    }
    // The fixtures of the fixable rules are among them.
    assert!(fixed >= 6, "only {fixed} fixtures had a fix");
}
