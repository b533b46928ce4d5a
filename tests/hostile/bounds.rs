//! Hostile inputs: bounds. Every count and size the repository controls is bounded: findings per rule per file,
//! ignore comments, the manifest graph (files, imports, cycles), a package's `exports` patterns, the config.

#[allow(unused_imports)]
use crate::support::*;
use serde_json::Value;

/// A manifest with one project tool, `tools/t.ts`.
fn manifest_with_tool() -> String {
    MANIFEST.replacen("agents:", "  mytool: tools/t.ts\nagents:", 1)
}

fn of_rule<'r>(report: &'r Value, rule: &str) -> Vec<&'r Value> {
    report["diagnostics"].as_array().expect("diagnostics").iter().filter(|d| d["rule"] == rule).collect()
}

/// Rule, path, line and message of a finding.
fn assert_at(finding: &Value, rule: &str, path: &str, line: u64, message: &str) {
    assert_eq!(
        (finding["rule"].as_str(), finding["path"].as_str(), finding["line"].as_u64(), finding["message"].as_str()),
        (Some(rule), Some(path), Some(line), Some(message)),
        "{finding:#}"
    );
}

/// 30 MB of `// beeuni-lint: ignore[…]` lines, ten unknown rule ids each: a finding each would be millions. The
/// file's first 1,000 ids are read (100 lines), the rest are not; of the 901 `unused-ignore` findings that gives
/// (900 ids, and one that says the rest were not read), 100 are shown and one summary counts the others.
#[test]
fn millions_of_ignore_comments_are_capped() {
    let ids: Vec<String> = (0..10).map(|i| format!("r{i}")).collect();
    let line = format!("// beeuni-lint: ignore[{}]\n", ids.join(","));
    let module = line.repeat(30_000_000 / line.len()) + MODULE;
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", manifest_with_tool()).file("tools/t.ts", module).commit("ignores");
    let outcome = sandbox.run(&["--format", "json", "."]);
    outcome.assert_bounded("30 MB of ignore comments");
    let report = outcome.json();
    let found = of_rule(&report, "unused-ignore");
    assert_eq!(report["diagnostics"].as_array().map(Vec::len), Some(101), "100 shown and one summary");
    assert_eq!(found.len(), 101);
    assert_at(found[0], "unused-ignore", "tools/t.ts", 1, "this ignore comment names `r0`, which is not a rule");
    assert_at(found[99], "unused-ignore", "tools/t.ts", 10, "this ignore comment names `r9`, which is not a rule");
    assert_at(
        found[100],
        "unused-ignore",
        "tools/t.ts",
        11,
        "… and 901 more `unused-ignore` findings in this file (at most 100 of a rule are shown per file)",
    );
    assert_eq!(found[100]["help"], "fix the `unused-ignore` findings shown and run again to see the rest");
}

/// The cap counts what is shown: with `--min-severity warning` the info findings are dropped before it, so none
/// of them is summed up; with `[rules]` turning the rule off, none either.
#[test]
fn the_cap_counts_after_min_severity_and_levels() {
    let module = "// beeuni-lint: ignore[nope]\n".repeat(150) + MODULE;
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", manifest_with_tool()).file("tools/t.ts", module).commit("ignores");
    let outcome = sandbox.run(&["--format", "json", "."]);
    outcome.assert_bounded("150 ignore comments");
    let report = outcome.json();
    let found = of_rule(&report, "unused-ignore");
    assert_eq!(found.len(), 101);
    assert_at(
        found[100],
        "unused-ignore",
        "tools/t.ts",
        101,
        "… and 50 more `unused-ignore` findings in this file (at most 100 of a rule are shown per file)",
    );
    let outcome = sandbox.run(&["--format", "json", "--min-severity", "warning", "."]);
    outcome.assert_bounded("150 ignore comments, --min-severity warning");
    assert_eq!(outcome.json()["diagnostics"], serde_json::json!([]));
    sandbox.file("beeuni-lint.toml", "[rules]\nunused-ignore = \"off\"\n").commit("off");
    let outcome = sandbox.run(&["--format", "json", "."]);
    outcome.assert_bounded("150 ignore comments, the rule off");
    assert_eq!(outcome.json()["diagnostics"], serde_json::json!([]));
}
