//! Ignores and deliberate removals (docs/spec/rules.md §10, revision 2): `removed-beeuni-tools` in the config, ignores of
//! change-aware rules in runs with a base, bare ignores, ignores in every file a finding points at (the legacy
//! folder's copies too), and whole-file findings suppressed from above the first statement.

use crate::common;
use crate::common::{MODULE, assert_findings, assert_help, diagnostics, git, json_in, project, rule_ids, write};

const KEEP_TWO: &str = "tools:\n  web_search: beeuni:web_search\n  scrape_webpage: beeuni:scrape_webpage\n";

/// A repository whose commit loads all five Beeuni tools and whose work tree keeps only two.
fn removal(config: &str) -> tempfile::TempDir {
    let dir = project(&[("beeuni.yaml", "agents:\n  a:\n    tools: [read]\n")]);
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "."]);
    git(dir.path(), &["commit", "-qm", "base"]);
    write(dir.path(), "beeuni.yaml", KEEP_TWO.as_bytes());
    write(dir.path(), "beeuni-lint.toml", config.as_bytes());
    dir
}

#[test]
fn removals_named_in_the_config_are_accepted_and_others_still_warn() {
    let dir = removal("removed-beeuni-tools = [\"image_search\", \"memory\"]\n");
    let (code, report) = json_in(dir.path(), &["--base", "HEAD"]);
    assert_eq!(code, 1);
    let message = "this change removes the Beeuni tool `show`: every agent of the project loses it, on both harnesses, in every session that starts after the change merges. Add `show: beeuni:show` under `tools:` to keep it.";
    assert_findings(&report, &[("removed-beeuni-tool", "warning", "beeuni.yaml", 1, 1, message)]);
    write(dir.path(), "beeuni-lint.toml", b"removed-beeuni-tools = [\"image_search\", \"memory\", \"show\"]\n");
    let (code, report) = json_in(dir.path(), &["--base", "HEAD"]);
    assert_eq!((code, diagnostics(&report).len()), (0, 0), "{report:#}");
}

#[test]
fn no_beeuni_tools_is_silent_only_when_every_tool_is_left_out_on_purpose() {
    let manifest = "tools:\n  lookup: tools/lookup.ts\n";
    let all = "removed-beeuni-tools = [\"web_search\", \"image_search\", \"scrape_webpage\", \"memory\", \"show\"]\n";
    let dir = project(&[("beeuni.yaml", manifest), ("tools/lookup.ts", MODULE), ("beeuni-lint.toml", all)]);
    let (code, report) = json_in(dir.path(), &[]);
    assert_eq!((code, diagnostics(&report).len()), (0, 0), "{report:#}");
    write(dir.path(), "beeuni-lint.toml", b"removed-beeuni-tools = [\"image_search\"]\n");
    let (_, report) = json_in(dir.path(), &[]);
    assert_eq!(rule_ids(&report), ["no-beeuni-tools"]);
}

#[test]
fn a_config_entry_for_a_tool_the_project_loads_is_unused_ignore_at_the_entry() {
    let dir = project(&[
        ("beeuni.yaml", KEEP_TWO),
        ("beeuni-lint.toml", "# on purpose\nremoved-beeuni-tools = [\"show\", \"web_search\"]\n"),
    ]);
    let (code, report) = json_in(dir.path(), &[]);
    assert_eq!(code, 0);
    assert_findings(
        &report,
        &[(
            "unused-ignore",
            "info",
            "beeuni-lint.toml",
            2,
            33,
            "`removed-beeuni-tools` names `web_search`, but the project loads it: the entry accepts no removal",
        )],
    );
    assert_help(
        &diagnostics(&report)[0],
        "remove `web_search` from `removed-beeuni-tools`, or remove `web_search: beeuni:web_search` from `tools:`",
    );
    // In a monorepo the config above the project is named from the repository root.
    let mono =
        project(&[("apps/a/beeuni.yaml", KEEP_TWO), ("beeuni-lint.toml", "removed-beeuni-tools = [\"web_search\"]\n")]);
    git(mono.path(), &["init", "-q"]);
    git(mono.path(), &["add", "."]);
    let (_, report) = json_in(&mono.path().join("apps/a"), &[]);
    assert_findings(
        &report,
        &[(
            "unused-ignore",
            "info",
            "beeuni-lint.toml",
            1,
            25,
            "`removed-beeuni-tools` names `web_search`, but the project loads it: the entry accepts no removal",
        )],
    );
}

#[test]
fn an_ignore_of_a_change_aware_rule_that_suppresses_nothing_is_reported_in_a_run_with_a_base() {
    let dir = removal("");
    write(dir.path(), "beeuni.yaml", b"# beeuni-lint: ignore[removed-beeuni-tool] -- we drop three\ntools:\n  web_search: beeuni:web_search\n  scrape_webpage: beeuni:scrape_webpage\n");
    let (code, report) = json_in(dir.path(), &["--base", "HEAD"]);
    assert_eq!((code, diagnostics(&report).len()), (0, 0), "the ignore is used: {report:#}");
    // Nothing removed any more: the ignore is stale, and a run with a base says so.
    git(dir.path(), &["add", "."]);
    git(dir.path(), &["commit", "-qm", "drop three"]);
    let (_, report) = json_in(dir.path(), &["--base", "HEAD"]);
    assert_findings(
        &report,
        &[(
            "unused-ignore",
            "info",
            "beeuni.yaml",
            1,
            1,
            "this ignore comment suppresses no `removed-beeuni-tool` finding",
        )],
    );
    // Without a base the rule does not run: its ignore waits.
    let (_, report) = json_in(dir.path(), &[]);
    assert_eq!(diagnostics(&report).len(), 0, "{report:#}");
}

#[test]
fn a_bare_ignore_names_no_rule_and_is_reported_with_help() {
    let dir = project(&[(
        "beeuni.yaml",
        "agents:\n  a:\n    tools: [grpe]  # beeuni-lint: ignore\n  b:\n    tools: [read]  # beeuni-lint: ignore[] -- why\n",
    )]);
    let (_, report) = json_in(dir.path(), &[]);
    let bare = "this ignore comment names no rule, so it suppresses nothing";
    assert_findings(
        &report,
        &[
            (
                "unknown-tool",
                "warning",
                "beeuni.yaml",
                3,
                13,
                "agent `a` lists `grpe`, which is not a known tool: it is ignored",
            ),
            ("unused-ignore", "info", "beeuni.yaml", 3, 20, bare),
            ("unused-ignore", "info", "beeuni.yaml", 5, 20, bare),
        ],
    );
    assert_help(
        &diagnostics(&report)[1],
        "name the rule it is for: `beeuni-lint: ignore[rule-id]` (`beeuni-lint rules` lists them)",
    );
}

#[test]
fn a_misspelt_rule_id_in_an_ignore_gets_did_you_mean() {
    let dir = project(&[("beeuni.yaml", "agents:\n  a:\n    tools: [grpe]  # beeuni-lint: ignore[unknwon-tool]\n")]);
    let (_, report) = json_in(dir.path(), &[]);
    let unused = common::of_rule(&report, "unused-ignore");
    assert_eq!(unused[0]["message"], "this ignore comment names `unknwon-tool`, which is not a rule");
    assert_help(unused[0], "did you mean `unknown-tool`?");
}

#[test]
fn ignores_work_in_the_legacy_folders_copies_and_for_whole_file_findings() {
    let dir = project(&[
        ("beeuni.yaml", "agents:\n  a:\n    tools: all\n"),
        // At the end of line 1.
        (
            "harnesses/opencode/tools/web_search.ts",
            "export default {} // beeuni-lint: ignore[legacy-beeuni-copy] -- kept for the old harness\n",
        ),
        // Alone on a line before the first statement.
        (
            "harnesses/opencode/tools/memory.ts",
            "// the old memory tool\n\n// beeuni-lint: ignore[legacy-beeuni-copy]\n\nexport default {}\n",
        ),
        // After the first statement it speaks only for its next line.
        ("harnesses/opencode/tools/show.ts", "export default {}\n// beeuni-lint: ignore[legacy-beeuni-copy]\n"),
    ]);
    let (_, report) = json_in(dir.path(), &[]);
    assert_eq!(rule_ids(&report), ["legacy-beeuni-copy", "unused-ignore"], "{report:#}");
    let found = diagnostics(&report);
    assert_eq!(found[0]["path"], "harnesses/opencode/tools/show.ts");
    assert_eq!(
        (found[1]["path"].as_str(), found[1]["line"].as_u64()),
        (Some("harnesses/opencode/tools/show.ts"), Some(2))
    );
}

#[test]
fn a_module_finding_on_line_one_is_ignored_from_above_the_first_statement() {
    let dir = project(&[
        ("beeuni.yaml", "tools:\n  lookup: tools/lookup.ts\n"),
        (
            "tools/lookup.ts",
            "/**\n * Looks things up.\n */\n// beeuni-lint: ignore[module-no-default-export] -- a draft\n\nexport const draft = 1\n",
        ),
    ]);
    let (_, report) = json_in(dir.path(), &[]);
    assert_eq!(rule_ids(&report), ["no-beeuni-tools"], "{report:#}");
}
