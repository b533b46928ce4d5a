//! The human report (`--color never`) of a few representative fixtures, as
//! insta snapshots under tests/it/snapshots/ (`it__snapshots__*`). Write them with
//! `INSTA_UPDATE=always cargo test --test it snapshots::`, review, commit.

use crate::common::*;

fn human(fixture_name: &str) -> String {
    let dir = fixture(fixture_name);
    let run = run_in(dir.path(), &["--color", "never", "."]);
    let root = dir.path().canonicalize().unwrap();
    assert!(!run.stdout.contains(root.to_str().unwrap()), "absolute path in\n{}", run.stdout);
    assert!(!run.stdout.contains('\u{1b}'), "colour in\n{}", run.stdout);
    let again = run_in(dir.path(), &["--color", "never", "."]);
    assert_eq!(run.stdout, again.stdout, "the human report changes from run to run");
    run.stdout
}

#[test]
fn unknown_excluded_tool_report() {
    insta::assert_snapshot!("unknown_excluded_tool", human("unknown-excluded-tool"));
}

#[test]
fn duplicate_tool_report_labels_the_other_file() {
    insta::assert_snapshot!("duplicate_tool", human("duplicate-tool"));
}

#[test]
fn docs_agents_report() {
    insta::assert_snapshot!("docs_agents", human("docs-agents"));
}

#[test]
fn yaml_syntax_report() {
    insta::assert_snapshot!("yaml_syntax", human("yaml-syntax"));
}

#[test]
fn clean_report_is_one_line() {
    assert_eq!(human("docs-starter"), "no problems in 1 file\n");
}
