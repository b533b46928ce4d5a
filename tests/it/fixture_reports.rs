//! One insta snapshot a fixture, `tests/it/snapshots/fixtures/<name>.snap`: the exit code and the report in
//! `--format short` (`path:line:col: severity[rule] message`, one line a finding), linted on a copy of the fixture
//! in a temporary folder without git. A change fixture (with `base/` and `head/`) is linted `--staged` in a
//! repository whose HEAD is `base/` and whose index is `head/` (tests/it/change_fixtures.rs). The temporary
//! folder's path, should a report name it, reads `[TEMP]`.
//!
//! Every folder of tests/fixtures/ is read, so a fixture is covered the day it lands: without its snapshot the
//! test fails and says how to write one; a snapshot whose fixture is gone fails too. Write or update them with
//! `INSTA_UPDATE=always cargo test --test it fixture_reports` (or `cargo insta test --accept`), and review the
//! diff: each line is a finding the fixture must keep.

use crate::change_fixtures::history;
use crate::common::{fixture, fixture_path, run_in};
use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

/// Beside this file: `tests/it/snapshots/fixtures/`.
const SNAPSHOTS: &str = "snapshots/fixtures";

/// The names of the folders of tests/fixtures/, sorted.
fn fixture_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(fixture_path(""))
        .unwrap()
        .map(|entry| entry.unwrap())
        .filter(|entry| entry.file_type().unwrap().is_dir())
        .map(|entry| entry.file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

fn snapshot_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it").join(SNAPSHOTS)
}

/// The exit code, the short report and anything on standard error, with the temporary folder's path replaced.
fn report(name: &str) -> String {
    let change = fixture_path(name).join("base").is_dir();
    let dir = if change { history(name) } else { fixture(name) };
    let mut args = vec!["--format", "short", "--color", "never"];
    if change {
        args.push("--staged");
    }
    // `policy-gain` is reported only with `--policy`.
    if name.starts_with("policy-gain") {
        args.push("--policy");
    }
    args.push(".");
    let run = run_in(dir.path(), &args);
    let mut text = format!("exit {}\n{}", run.code, run.stdout);
    if !run.stderr.is_empty() {
        text.push_str("--- stderr\n");
        text.push_str(&run.stderr);
    }
    let canonical = dir.path().canonicalize().unwrap();
    for root in [canonical.as_path(), dir.path()] {
        text = text.replace(root.to_str().unwrap(), "[TEMP]");
    }
    text
}

/// Whether insta was asked to write snapshots (then a missing one is written, not refused).
fn writing() -> bool {
    let update = std::env::var("INSTA_UPDATE").unwrap_or_default();
    matches!(update.as_str(), "always" | "new") || std::env::var_os("INSTA_FORCE_UPDATE").is_some()
}

#[test]
fn every_fixture_report_matches_its_snapshot() {
    let names = fixture_names();
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(SNAPSHOTS);
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    let mut failures = Vec::new();
    for name in &names {
        if !writing() && !snapshot_dir().join(format!("{name}.snap")).is_file() {
            failures.push(format!(
                "tests/fixtures/{name} has no snapshot: write it with \
                 `INSTA_UPDATE=always cargo test --test it fixture_reports`, review \
                 tests/it/snapshots/fixtures/{name}.snap and commit it"
            ));
            continue;
        }
        let report = report(name);
        settings.set_input_file(fixture_path(name));
        let checked =
            catch_unwind(AssertUnwindSafe(|| settings.bind(|| insta::assert_snapshot!(name.as_str(), report))));
        if checked.is_err() {
            failures.push(format!("tests/fixtures/{name}: the report differs from its snapshot (diff above)"));
        }
    }
    let known: BTreeSet<&str> = names.iter().map(String::as_str).collect();
    for entry in std::fs::read_dir(snapshot_dir()).unwrap() {
        let file = entry.unwrap().file_name().into_string().unwrap();
        if let Some(name) = file.strip_suffix(".snap")
            && !known.contains(name)
        {
            failures.push(format!("tests/it/snapshots/fixtures/{file}: no fixture {name} any more: delete it"));
        }
    }
    assert!(failures.is_empty(), "{} of {} fixtures:\n{}", failures.len(), names.len(), failures.join("\n"));
}
