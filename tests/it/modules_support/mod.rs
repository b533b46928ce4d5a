//! Helpers shared by the tool-module tests (`tests/it/modules*.rs`), on top of
//! `tests/common`: module findings carry the `tools:` entry that declares the
//! module as their first related location.

use crate::common::*;
use serde_json::Value;
use std::path::Path;

/// One expected finding and the `beeuni.yaml` line of the `tools:` entry that
/// declares its module (0: the finding has no related location).
pub type Found<'a> = (Expect<'a>, u64);

/// Asserts that related location `index` of a module finding is the
/// `name: value` entry at `line` of `beeuni.yaml` (entries are indented by two).
pub fn assert_declared(finding: &Value, line: u64) {
    assert_related(finding, 0, "beeuni.yaml", line, 3, "declared here");
}

/// Asserts the findings of a report (exactly these, in this order), each with
/// its related `tools:` entry.
pub fn assert_module_findings(report: &Value, expected: &[Found]) {
    let plain: Vec<Expect> = expected.iter().map(|(e, _)| *e).collect();
    assert_findings(report, &plain);
    for (finding, (_, line)) in diagnostics(report).iter().zip(expected) {
        if *line == 0 {
            assert!(finding["related"].as_array().is_none_or(|r| r.is_empty()), "no related place in {finding:#}");
        } else {
            assert_declared(finding, *line);
        }
    }
}

/// Lints the fixture `mod-<name>`; checks its findings and exit code.
pub fn trigger(name: &str, code: i32, expected: &[Found]) -> Value {
    let fixture = format!("mod-{name}");
    let (actual, report) = run(&fixture, &[]);
    assert_module_findings(&report, expected);
    assert_eq!(actual, code, "exit code of {fixture}");
    report
}

/// The twin `mod-<rule>-clean` has no finding of `rule`, nor any other.
pub fn clean_twin(rule: &str) {
    let name = format!("mod-{rule}-clean");
    let (code, report) = run(&name, &[]);
    assert!(of_rule(&report, rule).is_empty(), "{name} still has `{rule}`");
    assert_clean(&name, code, &report);
}

/// Asserts the help of every finding of `report`, in order.
pub fn assert_helps(report: &Value, helps: &[&str]) {
    let found = diagnostics(report);
    assert_eq!(found.len(), helps.len(), "{report:#}");
    for (finding, help) in found.iter().zip(helps) {
        assert_help(finding, help);
    }
}

/// The severities that appear in a report.
pub fn severities(report: &Value) -> Vec<&str> {
    diagnostics(report).iter().map(|d| d["severity"].as_str().unwrap()).collect()
}

/// Asserts that a report holds nothing above `info`, and exits 0.
pub fn assert_no_warning(name: &str, code: i32, report: &Value) {
    let above: Vec<&Value> = diagnostics(report).iter().filter(|d| d["severity"] != "info").collect();
    assert!(above.is_empty(), "{name}: findings above info:\n{above:#?}");
    assert_eq!(code, 0, "{name}: exit code");
}

/// The usual manifest of a one-module project: `web_search` kept, `tool: <module>` on line 3.
pub fn manifest_for(module: &str) -> String {
    format!("tools:\n  web_search: beeuni:web_search\n  lookup_order: {module}\n")
}

/// Writes a one-module project into `root`: the manifest and the module's bytes.
pub fn write_module(root: &Path, module: &str, bytes: &[u8]) {
    write(root, "beeuni.yaml", manifest_for(module).as_bytes());
    write(root, module, bytes);
}

/// `git init`, `git add` of `paths` and a commit, in `root`.
pub fn commit(root: &Path, paths: &[&str]) {
    git(root, &["init", "-q"]);
    let mut add = vec!["add", "--"];
    add.extend_from_slice(paths);
    git(root, &add);
    git(root, &["commit", "-q", "-m", "fixture"]);
}
