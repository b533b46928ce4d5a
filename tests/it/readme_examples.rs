//! The README's walk-through of `examples/` is what the binary prints in a clone of this repository: the
//! walk-through's command and its block word for word, the JSON excerpt's finding and summary, the starter's clean run.

use crate::common::*;
use serde_json::Value;
use std::path::Path;

fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap()
}

/// The body of the first ```` ```lang ```` block after `heading` in the README.
fn fenced_block(readme: &str, heading: &str, lang: &str) -> String {
    let (_, rest) = readme.split_once(heading).unwrap_or_else(|| panic!("README.md has no {heading:?}"));
    let (_, rest) = rest.split_once(&format!("```{lang}\n")).unwrap();
    rest.split_once("```").unwrap().0.to_string()
}

/// A clone: `examples/` of this repository in a git work tree whose index holds every file.
fn clone_of_examples() -> tempfile::TempDir {
    let dir = tempfile::TempDir::new().unwrap();
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("examples"), &dir.path().join("examples"));
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "-A"]);
    dir
}

#[test]
fn the_walk_through_block_is_what_its_command_prints_on_examples_broken() {
    let dir = clone_of_examples();
    let readme = readme();
    let block = fenced_block(&readme, "## A walk through: `examples/broken`", "text");
    let (command, shown) = block.split_once('\n').unwrap();
    let args: Vec<&str> =
        command.strip_prefix("$ beeuni-lint ").expect("the block opens with the command").split(' ').collect();
    assert_eq!(&args[..3], ["examples/broken", "--format", "short"], "{command}");
    let run = run_in(dir.path(), &args);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(shown, run.stdout, "README.md's walk-through differs from `{command}`");
    let first = run.stdout.lines().next().unwrap();
    assert!(first.starts_with("examples/broken/beeuni.yaml:4:1: warning[no-beeuni-tools] Sessions of this project"));
}

#[test]
fn the_json_excerpt_is_a_finding_of_examples_broken_with_its_summary() {
    let dir = clone_of_examples();
    let run = run_in(dir.path(), &["examples/broken", "--format", "json"]);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    let readme = readme();
    let excerpt: Value = serde_json::from_str(&fenced_block(&readme, "### Positions and JSON", "json")).unwrap();
    assert_eq!(excerpt["project"], report["project"]);
    assert_eq!(report["project"], "examples/broken");
    assert_eq!(excerpt["summary"], report["summary"]);
    let shown = &excerpt["diagnostics"][0];
    assert_eq!(shown["rule"], "unknown-excluded-tool");
    let actual = diagnostics(&report)
        .iter()
        .find(|d| d["rule"] == shown["rule"] && d["line"] == shown["line"])
        .unwrap_or_else(|| panic!("no {} finding at line {}", shown["rule"], shown["line"]));
    for key in ["severity", "message", "path", "line", "column", "end_line", "end_column", "help"] {
        assert_eq!(shown[key], actual[key], "README.md's JSON excerpt: `{key}`");
    }
    let count = diagnostics(&report).len().to_string();
    assert!(readme.contains(&format!("(one of the {count} findings of `examples/broken` shown.)")));
}

#[test]
fn the_starter_example_lints_clean() {
    let dir = clone_of_examples();
    let run = run_in(dir.path(), &["examples/starter"]);
    assert_eq!((run.code, run.stdout.as_str()), (0, "no problems in 2 files\n"), "{}", run.stderr);
}
