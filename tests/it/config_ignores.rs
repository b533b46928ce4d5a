//! `beeuni-lint.toml` (levels, excludes, extra harness tools, bad configs) and
//! inline `# beeuni-lint: ignore[...]` comments (docs/spec/interface.md "Ignoring").

use crate::common::*;

const FIVE: &str = "tools:\n  web_search: beeuni:web_search\n  image_search: beeuni:image_search\n  scrape_webpage: beeuni:scrape_webpage\n  memory: beeuni:memory\n  show: beeuni:show\n";

/// The `unknown-tool` fixture with a config.
fn unknown_tool_with(config: &str) -> (i32, serde_json::Value) {
    let dir = fixture("unknown-tool");
    write(dir.path(), "beeuni-lint.toml", config.as_bytes());
    json_in(dir.path(), &[])
}

#[test]
fn a_level_changes_the_severity() {
    let (code, report) = unknown_tool_with("[rules]\nunknown-tool = \"error\"\n");
    assert_eq!(code, 1);
    let message = "agent `researcher` lists `grpe`, which is not a known tool: it is ignored";
    assert_findings(&report, &[("unknown-tool", "error", "beeuni.yaml", 11, 7, message)]);
    assert_eq!(report["summary"]["error"], 1);
    let dir = fixture("unknown-tool");
    write(dir.path(), "beeuni-lint.toml", b"[rules]\nunknown-tool = \"error\"\n");
    assert_eq!(json_in(dir.path(), &["--fail-on", "error"]).0, 1);
    let (code, report) = unknown_tool_with("[rules]\nunknown-tool = \"info\"\n");
    assert_eq!(code, 0);
    assert_eq!(diagnostics(&report)[0]["severity"], "info");
}

#[test]
fn off_removes_the_rule() {
    let (code, report) = unknown_tool_with("[rules]\nunknown-tool = \"off\"\n");
    assert_clean("unknown-tool off", code, &report);
}

#[test]
fn paths_exclude_drops_findings_in_matching_files() {
    let files = [
        (
            "beeuni.yaml",
            "imports: [examples/a/extra.yaml]\ntools:\n  web_search: beeuni:web_search\n  Bad: tools/x.ts\n",
        ),
        ("examples/a/extra.yaml", "tools:\n  Worse: tools/x.ts\n"),
        ("tools/x.ts", MODULE),
    ];
    let dir = project(&files);
    let (_, report) = json_in(dir.path(), &[]);
    let paths: Vec<_> = diagnostics(&report).iter().map(|d| d["path"].as_str().unwrap()).collect();
    assert_eq!(paths, ["beeuni.yaml", "examples/a/extra.yaml"]);
    write(dir.path(), "beeuni-lint.toml", b"[paths]\nexclude = [\"examples/**\"]\n");
    let (code, report) = json_in(dir.path(), &[]);
    assert_eq!(code, 1);
    assert_eq!(rule_ids(&report), ["tool-name"]);
    assert_eq!(diagnostics(&report)[0]["path"], "beeuni.yaml");
}

#[test]
fn harness_tools_are_known_and_tier_one() {
    let dir = project(&[
        (
            "beeuni.yaml",
            &format!("{FIVE}  my_builtin: tools/x.ts\nagents:\n  a:\n    tools: [read, my_builtin, other_builtin]\n"),
        ),
        ("tools/x.ts", MODULE),
        ("beeuni-lint.toml", "harness-tools = [\"my_builtin\", \"other_builtin\"]\n"),
    ]);
    let (code, report) = json_in(dir.path(), &[]);
    assert_eq!(code, 1);
    let message = "`my_builtin` is a harness tool; a project tool cannot take its name";
    assert_findings(&report, &[("harness-tool-name", "error", "beeuni.yaml", 7, 3, message)]);
}

#[test]
fn an_explicit_config_file() {
    let dir = fixture("tool-name");
    write(dir.path(), "other.toml", b"[rules]\ntool-name = \"warning\"\n");
    let (code, report) = json_in(dir.path(), &["--config", "other.toml"]);
    assert_eq!(code, 1);
    assert_eq!(diagnostics(&report)[0]["severity"], "warning");
    let missing = run_in(dir.path(), &["--config", "nope.toml", "."]);
    assert_eq!(missing.code, 2);
    assert!(missing.stderr.contains("nope.toml"), "{}", missing.stderr);
}

#[test]
fn a_bad_config_is_exit_2_with_its_place() {
    let cases = [
        ("[rules]\nunknown-toll = \"error\"\n", "beeuni-lint.toml:2:1: unknown rule `unknown-toll` in [rules]"),
        (
            "[rules]\nunknown-tool = \"loud\"\n",
            "beeuni-lint.toml:2:16: `loud` is not a level: use error, warning, info or off",
        ),
        ("[rulez]\n", "beeuni-lint.toml:1:"),
        ("\n\nx = [\n", "beeuni-lint.toml:3:"),
        ("[paths]\nexclude = [\"a[b\"]\n", "beeuni-lint.toml:2:12:"),
    ];
    for (config, expected) in cases {
        let dir = fixture("docs-starter");
        write(dir.path(), "beeuni-lint.toml", config.as_bytes());
        let run = run_in(dir.path(), &["--format", "json", "."]);
        assert_eq!(run.code, 2, "{config:?}");
        assert!(run.stdout.is_empty(), "{config:?}: {}", run.stdout);
        assert!(run.stderr.contains(expected), "{config:?}: {}", run.stderr);
    }
}

/// Lints `FIVE` + `extra` with a module at tools/x.ts.
fn lint_tools(extra: &str) -> (i32, serde_json::Value) {
    let dir = project(&[("beeuni.yaml", &format!("{FIVE}{extra}")), ("tools/x.ts", MODULE)]);
    json_in(dir.path(), &[])
}

#[test]
fn an_ignore_at_the_end_of_the_line() {
    let (code, report) = lint_tools("  Bad: tools/x.ts  # beeuni-lint: ignore[tool-name]\n");
    assert_clean("end of line", code, &report);
    let (code, report) = lint_tools("  Bad: tools/x.ts  # beeuni-lint: ignore[tool-name] -- a legacy name we keep\n");
    assert_clean("with a reason", code, &report);
}

#[test]
fn an_ignore_on_the_line_above() {
    let (code, report) = lint_tools("  # beeuni-lint: ignore[tool-name]\n  Bad: tools/x.ts\n");
    assert_clean("line above", code, &report);
    // Two ids in one comment, each used.
    let (code, report) = lint_tools("  # beeuni-lint: ignore[tool-name, module-missing]\n  Bad: tools/missing.ts\n");
    assert_clean("two ids", code, &report);
}

#[test]
fn an_ignore_names_its_rules_only() {
    let (_, report) = lint_tools("  Bad: tools/missing.ts  # beeuni-lint: ignore[tool-name]\n");
    assert_eq!(rule_ids(&report), ["module-missing"], "{report:#}");
    // Above a blank line it speaks for the blank line, not the entry below it.
    let (_, report) = lint_tools("  # beeuni-lint: ignore[tool-name]\n\n  Bad: tools/x.ts\n");
    assert_eq!(rule_ids(&report), ["unused-ignore", "tool-name"], "{report:#}");
}

#[test]
fn an_unused_ignore_is_reported() {
    let (code, report) = lint_tools("  good: tools/x.ts  # beeuni-lint: ignore[tool-name]\n");
    assert_eq!(code, 0, "unused-ignore is info");
    let message = "this ignore comment suppresses no `tool-name` finding";
    assert_findings(&report, &[("unused-ignore", "info", "beeuni.yaml", 7, 21, message)]);
    assert_help(&diagnostics(&report)[0], "remove it, or the rule id from it");
    let (_, report) = lint_tools("  good: tools/x.ts  # beeuni-lint: ignore[no-such-rule]\n");
    let message = "this ignore comment names `no-such-rule`, which is not a rule";
    assert_findings(&report, &[("unused-ignore", "info", "beeuni.yaml", 7, 21, message)]);
    assert_eq!(run("unused-ignore", &["--fail-on", "info"]).0, 1);
}

#[test]
fn an_ignore_after_an_eject_comment_goes_on_the_line_above() {
    let (_, report) =
        lint_tools("  # beeuni-lint: ignore[eject-comment]\n  extra: tools/x.ts  # ejected from beeuni:memory\n");
    assert_clean("eject comment ignored from above", 0, &report);
}
