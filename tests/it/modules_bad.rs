//! Bad tool modules never crash beeuni-lint (exit code 0, 1 or 2, no panic:
//! `common::run_in` checks both), and each comes back as a located finding;
//! and the docs' own examples (docs/spec/rules.md §4, the "Tools" page) lint with no
//! warning or error.

use crate::common::*;
use crate::modules_support::*;
use serde_json::Value;

const MODULE: &str = "tools/lookup_order.ts";

/// Lints a one-module project whose module holds `bytes`; checks its single finding.
fn lint_module(bytes: &[u8], expected: Expect) -> Value {
    let dir = project(&[]);
    write_module(dir.path(), MODULE, bytes);
    let (code, report) = json_in(dir.path(), &[]);
    assert_module_findings(&report, &[(expected, 3)]);
    assert_eq!(code, 1, "exit code");
    report
}

fn syntax(message: &str) -> String {
    format!("`{MODULE}` does not parse: {message}")
}

#[test]
fn non_utf8_module_is_a_syntax_error_at_its_line() {
    let bytes =
        b"export default {\n  description: 'Look up an order',\n  // caf\xe9\n  parameters: { type: 'object' },\n}\n";
    let message = syntax("the module is not valid UTF-8");
    lint_module(bytes, ("module-syntax", "error", MODULE, 3, 1, &message));
    // A lone invalid byte, and a UTF-16 file (with its byte order mark).
    lint_module(b"\xff", ("module-syntax", "error", MODULE, 1, 1, &message));
    lint_module(b"\xff\xfee\x00x\x00p\x00", ("module-syntax", "error", MODULE, 1, 1, &message));
}

#[test]
fn nul_bytes_are_a_syntax_error() {
    let message = syntax("Invalid Character `\u{0}`");
    lint_module(b"export default {\0 description: 'x' }\n", ("module-syntax", "error", MODULE, 1, 17, &message));
    lint_module(b"\0", ("module-syntax", "error", MODULE, 1, 1, &message));
}

/// Lints a one-module project whose module holds `text`: its findings and the exit code.
fn lint_text(text: &str) -> (i32, Value) {
    let dir = project(&[]);
    write_module(dir.path(), MODULE, text.as_bytes());
    json_in(dir.path(), &[])
}

fn not_analysed(why: &str) -> String {
    format!("`{MODULE}` {why}: none of its checks were made")
}

#[test]
fn fifty_thousand_nested_parentheses_are_not_analysed() {
    let deep = format!("export default {}1{}\n", "(".repeat(50_000), ")".repeat(50_000));
    let message = not_analysed("is nested more than 5000 brackets deep, deeper than beeuni-lint analyses");
    // At the bracket that goes one level too deep: `export default ` is 15 columns. A warning: the default gate
    // fails (a limit is never a silent pass).
    let (code, report) = lint_text(&deep);
    assert_module_findings(&report, &[(("analysis-limit", "warning", MODULE, 1, 5016, &message), 3)]);
    assert_eq!(code, 1);
    // On a later line, inside `execute`.
    let deep = format!(
        "export default {{\n  description: 'x',\n  parameters: {{ type: 'object' }},\n  execute() {{\n    return {}1{}\n  }},\n}}\n",
        "(".repeat(50_000),
        ")".repeat(50_000)
    );
    // Two brackets are open already (the object, the method body): the 4,999th parenthesis.
    let (_, report) = lint_text(&deep);
    assert_module_findings(&report, &[(("analysis-limit", "warning", MODULE, 5, 5010, &message), 3)]);
}

/// A module nested deeper than the 1,000 brackets earlier versions analysed loads in Bun: no finding (it was a
/// false `module-syntax` error).
#[test]
fn two_thousand_nested_parentheses_are_fine() {
    let deep = format!(
        "export default {{\n  description: 'x',\n  parameters: {{ type: 'object' }},\n  execute() {{\n    return {}1{}\n  }},\n}}\n",
        "(".repeat(2_000),
        ")".repeat(2_000)
    );
    let (code, report) = lint_text(&deep);
    assert_module_findings(&report, &[]);
    assert_eq!(code, 0);
}

/// Other constructs the recursive parser would follow without bound: each a located finding.
#[test]
fn deep_chains_never_overflow_the_stack() {
    let chained = not_analysed("chains operators or statements deeper than beeuni-lint analyses");
    let expressions = not_analysed(
        "nests more than 25000 expressions and statements inside one another, deeper than beeuni-lint analyses",
    );
    let cases = [
        format!("const x = {}1\n", "!".repeat(100_000)),
        format!("const f = {}1\n", "x => ".repeat(100_000)),
        format!("type T = {}B{}\n", "A<".repeat(50_000), ">".repeat(50_000)),
        format!("if (a) {{}} {}\n", "else if (a) {} ".repeat(100_000)),
        format!("const c = a{}\n", ".b".repeat(200_000)),
        format!("const c = f{}\n", "()".repeat(200_000)),
    ];
    for (i, source) in cases.iter().enumerate() {
        let (code, report) = lint_text(source);
        let found = of_rule(&report, "analysis-limit");
        assert_eq!(found.len(), 1, "case {i}: {report:#}");
        assert_eq!(found[0]["line"], 1, "case {i}");
        assert_eq!(found[0]["severity"], "warning", "case {i}");
        let message = found[0]["message"].as_str().unwrap();
        assert!(message == chained || message == expressions, "case {i}: {message}");
        assert!(of_rule(&report, "module-syntax").is_empty(), "case {i}: {report:#}");
        assert!(of_rule(&report, "module-no-default-export").is_empty(), "case {i}: {report:#}");
        assert_eq!(code, 1, "case {i}: a warning fails the default gate");
    }
}

#[test]
fn empty_module_has_no_default_export() {
    let message = format!("`{MODULE}` has no default export: the module is skipped at load");
    lint_module(b"", ("module-no-default-export", "error", MODULE, 1, 1, &message));
    lint_module(b"\n\n// nothing yet\n", ("module-no-default-export", "error", MODULE, 1, 1, &message));
}

/// A FIFO is never opened (it would block): `module-missing` at the `tools:` entry.
#[cfg(unix)]
#[test]
fn fifo_module_is_never_read() {
    let dir = project(&[("beeuni.yaml", &manifest_for(MODULE))]);
    std::fs::create_dir_all(dir.path().join("tools")).unwrap();
    let status = std::process::Command::new("mkfifo").arg(dir.path().join(MODULE)).status().expect("mkfifo runs");
    assert!(status.success());
    let (code, report) = json_in(dir.path(), &[]);
    let message =
        "module `tools/lookup_order.ts` of tool `lookup_order` is not a regular file (a FIFO, socket or device)";
    assert_findings(&report, &[("module-missing", "error", "beeuni.yaml", 3, 3, message)]);
    assert_eq!(code, 1);
}

/// A symlink to a file outside the repository: `module-missing`, and its content is never
/// printed, in any format.
#[cfg(unix)]
#[test]
fn symlink_to_outside_is_missing_and_never_read() {
    let outer = tempfile::TempDir::new().unwrap();
    write(outer.path(), "secret.ts", b"export default { description: 'TOP-SECRET-CONTENT' \n");
    let root = outer.path().join("repo");
    write(&root, "beeuni.yaml", manifest_for(MODULE).as_bytes());
    std::fs::create_dir_all(root.join("tools")).unwrap();
    std::os::unix::fs::symlink(outer.path().join("secret.ts"), root.join(MODULE)).unwrap();
    let (code, report) = json_in(&root, &[]);
    let message = "module `tools/lookup_order.ts` is a symlink to outside the repository; its target is not read";
    assert_findings(&report, &[("module-missing", "error", "beeuni.yaml", 3, 3, message)]);
    assert_eq!(code, 1);
    for format in ["human", "short", "json"] {
        let run = run_in(&root, &["--format", format, "--color", "never", "."]);
        assert!(run.stdout.contains("symlink to outside"), "{format}: {}", run.stdout);
        assert!(!run.stdout.contains("TOP-SECRET") && !run.stderr.contains("TOP-SECRET"), "{format}: {}", run.stdout);
    }
}

// ---------------------------------------------------------------------------
// The docs' own examples: no warning, no error.

/// Lints a docs fixture with `--fail-on info`: it must have no finding at all.
fn docs_example(name: &str) {
    let (code, report) = run(name, &["--fail-on", "info"]);
    assert_clean(name, code, &report);
}

#[test]
fn docs_lookup_order_example_is_clean() {
    docs_example("mod-docs-lookup-order");
}

/// With the secret granted: `secrets: all` for `beeuni`, `secrets: [WEATHER_API_KEY]` for a
/// scoped agent.
#[test]
fn docs_weather_now_example_with_the_secret_granted_is_clean() {
    docs_example("mod-docs-weather-now");
}

/// The same project with a third agent that may call `weather_now` but lists no secret:
/// `secret-not-granted` at its `secrets:` key. Without `forecaster`'s grant no agent lists
/// `WEATHER_API_KEY`, so it is no secret of the project (docs/spec/rules.md §3) and nothing is reported.
#[test]
fn docs_weather_now_example_without_the_grant() {
    let dir = fixture("mod-docs-weather-now");
    let manifest = std::fs::read_to_string(dir.path().join("beeuni.yaml")).unwrap();
    let with_support = format!("{manifest}  support:\n    tools: [weather_now]\n    secrets: []\n");
    write(dir.path(), "beeuni.yaml", with_support.as_bytes());
    let (code, report) = json_in(dir.path(), &[]);
    let message = "agent `support` can call `weather_now`, whose module reads `context.env.WEATHER_API_KEY`, but its `secrets:` does not grant `WEATHER_API_KEY`";
    assert_findings(&report, &[("secret-not-granted", "warning", "beeuni.yaml", 16, 5, message)]);
    assert_related(&diagnostics(&report)[0], 0, "beeuni.yaml", 7, 3, "the tool is declared here");
    assert_eq!(code, 1);

    write(dir.path(), "beeuni.yaml", with_support.replace("[WEATHER_API_KEY]", "[]").as_bytes());
    let (code, report) = json_in(dir.path(), &[]);
    assert_clean("weather_now, no agent lists the secret", code, &report);
}

/// An ejected `web_search` that replaces the Beeuni tool (`node:*` imports only, secrets from
/// `context.env`, the docs' `site:` change): no finding, and `no-beeuni-tools` does not fire.
#[test]
fn docs_ejected_web_search_is_clean() {
    docs_example("mod-docs-web-search");
}

/// The zod example outside git: only the `module-unanalyzable` info (see tests/it/modules_git.rs
/// for the tracked and untracked `node_modules`).
#[test]
fn docs_zod_example_earns_only_the_unanalyzable_info() {
    let (code, report) = run("mod-docs-zod", &[]);
    let message = "`parameters` of `tools/lookup_order.ts` cannot be read without running it (built at run time by `z.toJSONSchema(...)`): it was not checked";
    assert_module_findings(&report, &[(("module-unanalyzable", "info", MODULE, 5, 3, message), 3)]);
    assert_no_warning("mod-docs-zod", code, &report);
    assert_eq!(severities(&report), ["info"]);
}

/// A module's bytes reach the terminal raw: an escape sequence in a module (here one that sets
/// the terminal's title) is printed as is in the human report's source excerpt, and a NUL or ESC
/// that the parser names is printed raw in its message (human and short formats). docs/spec/rules.md is
/// silent; a reviewer linting a pull request should not have its terminal driven by the PR.
#[test]
fn spec_module_control_characters_never_reach_the_terminal_raw() {
    let dir = project(&[]);
    write_module(dir.path(), MODULE, b"export default {\x1b]0;pwned\x07 description: 'x' }\n");
    for format in ["human", "short"] {
        let run = run_in(dir.path(), &["--format", format, "--color", "never", "."]);
        assert!(!run.stdout.contains('\u{1b}') && !run.stdout.contains('\u{7}'), "{format}: {:?}", run.stdout);
    }
}
