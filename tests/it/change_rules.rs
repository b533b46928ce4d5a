//! The change-aware rules of docs/spec/rules.md §7 (`removed-beeuni-tool`,
//! `removed-tool-in-use`) on real git repositories: each change is seen with
//! `--staged`, with `--base main` on the work tree and with `--base main` once
//! committed (see `change_support::three_ways`).

use crate::change_support::*;
use crate::common::{assert_clean, assert_finding, assert_findings, diagnostics, of_rule};
use serde_json::Value;

/// The tools the one `removed-beeuni-tool` finding names (one change, one finding: docs/spec/rules.md §7, revision 2),
/// checked against the exact message and help, in canonical order.
fn removed(report: &Value) -> Vec<String> {
    let found = of_rule(report, "removed-beeuni-tool");
    assert_eq!(found.len(), 1, "one finding per change:\n{report:#}");
    let message = found[0]["message"].as_str().unwrap();
    let help = found[0]["help"].as_str().unwrap();
    let names: Vec<String> =
        message.split(':').next().unwrap().split('`').skip(1).step_by(2).map(String::from).collect();
    if let [name] = names.as_slice() {
        assert_eq!(message, removal(name));
    } else {
        let all: Vec<&str> = names.iter().map(String::as_str).collect();
        assert_eq!(message, removals(&all));
        let lines: Vec<String> = names.iter().map(|n| format!("{n}: beeuni:{n}")).collect();
        assert_eq!(help, lines.join("\n"), "the help is the block to paste");
    }
    names
}

fn sorted(names: &[&str]) -> Vec<String> {
    BEEUNI.iter().filter(|b| names.contains(b)).map(|n| n.to_string()).collect()
}

/// Every finding of `rule` points at `path:line:column`.
fn all_at(report: &Value, rule: &str, path: &str, line: u64, column: u64) {
    for finding in of_rule(report, rule) {
        assert_eq!(
            (finding["path"].as_str().unwrap(), &finding["line"], &finding["column"]),
            (path, &line.into(), &column.into()),
            "{finding:#}"
        );
    }
}

const BASE_TWO: &str = "# the shop\nagents:\n  helper:\n    tools: [read]\ntools:\n  web_search: beeuni:web_search\n  image_search: beeuni:image_search\n";

#[test]
fn a_deleted_line_is_reported_at_the_heads_tools_key() {
    // The head also gains two lines above `tools:`, so the key is on line 7 in the head (line 5 at the base).
    let head = "# the shop\n# (two agents soon)\nagents:\n  helper:\n    tools: [read]\n\ntools:\n  web_search: beeuni:web_search\n";
    let repo = change(&[("beeuni.yaml", BASE_TWO)], &[("beeuni.yaml", head)]);
    let (code, report) = three_ways(&repo);
    assert_eq!(code, 1, "a warning fails the default --fail-on warning");
    let message = removal("image_search");
    assert_eq!(
        message,
        "this change removes the Beeuni tool `image_search`: every agent of the project loses it, on both harnesses, in every session that starts after the change merges. Add `image_search: beeuni:image_search` under `tools:` to keep it."
    );
    assert_findings(&report, &[("removed-beeuni-tool", "warning", "beeuni.yaml", 7, 1, &message)]);
    let finding = &diagnostics(&report)[0];
    assert_eq!((&finding["end_line"], &finding["end_column"]), (&7.into(), &6.into()), "the span is the key `tools`");
    assert_eq!(report["summary"]["warning"], 1);
}

#[test]
fn a_deleted_line_in_an_imported_file_points_at_that_files_tools_key() {
    let root = "imports:\n  - config/tools.yaml\ntools:\n  web_search: beeuni:web_search\n";
    let base = "# Beeuni tools\ntools:\n  memory: beeuni:memory\n  show: beeuni:show\n";
    let head = "# Beeuni tools\ntools:\n  memory: beeuni:memory\n";
    let repo = change(
        &[("beeuni.yaml", root), ("config/tools.yaml", base)],
        &[("beeuni.yaml", root), ("config/tools.yaml", head)],
    );
    let (code, report) = three_ways(&repo);
    assert_eq!(code, 1);
    assert_findings(&report, &[("removed-beeuni-tool", "warning", "config/tools.yaml", 2, 1, &removal("show"))]);
}

#[test]
fn several_deleted_lines_give_one_finding() {
    let base = "tools:\n  web_search: beeuni:web_search\n  image_search: beeuni:image_search\n  scrape_webpage: beeuni:scrape_webpage\n  memory: beeuni:memory\n";
    let head = "tools:\n  image_search: beeuni:image_search\n";
    let repo = change(&[("beeuni.yaml", base)], &[("beeuni.yaml", head)]);
    let (_, report) = three_ways(&repo);
    assert_eq!(removed(&report), sorted(&["web_search", "scrape_webpage", "memory"]), "{report:#}");
    assert_eq!(diagnostics(&report).len(), 1, "{report:#}");
    all_at(&report, "removed-beeuni-tool", "beeuni.yaml", 1, 1);
}

#[test]
fn moving_a_tool_to_an_imported_file_or_ejecting_it_removes_nothing() {
    let head =
        "imports:\n  - more.yaml\nagents:\n  helper:\n    tools: [read]\ntools:\n  web_search: tools/web_search.ts\n";
    let repo = change(
        &[("beeuni.yaml", BASE_TWO)],
        &[
            ("beeuni.yaml", head),
            ("more.yaml", "tools:\n  image_search: beeuni:image_search\n"),
            ("tools/web_search.ts", MODULE),
        ],
    );
    let (code, report) = three_ways(&repo);
    // A module path that replaces a Beeuni tool keeps it loaded (docs/spec/rules.md §0, the selection rule).
    assert_clean("moved and ejected", code, &report);
}

#[test]
fn the_first_tools_key_with_only_a_project_tool_removes_all_five() {
    let base = "agents:\n  helper:\n    tools: [read]\n";
    let head = "agents:\n  helper:\n    tools: [read, lookup_order]\ntools:\n  lookup_order: tools/lookup_order.ts\n";
    let repo = change(&[("beeuni.yaml", base)], &[("beeuni.yaml", head), ("tools/lookup_order.ts", MODULE)]);
    let (code, report) = three_ways(&repo);
    assert_eq!(code, 1);
    assert_eq!(removed(&report), sorted(&BEEUNI), "{report:#}");
    all_at(&report, "removed-beeuni-tool", "beeuni.yaml", 4, 1);
    // One cause, one finding: the change drops the five, which `removed-beeuni-tool` says; `no-beeuni-tools`
    // (what a run without a base says of the same key) would repeat it.
    let found = diagnostics(&report);
    assert_eq!(found.len(), 1, "one removal of five:\n{report:#}");
    let (_, plain) = repo.lint(&[]);
    assert_findings(&plain, &[("no-beeuni-tools", "warning", "beeuni.yaml", 4, 1, NO_BEEUNI_TOOLS)]);
    assert_eq!(repo.lint(&["--base", "main"]), (code, report.clone()));
}

#[test]
fn the_first_tools_key_in_an_imported_file_removes_what_it_does_not_list() {
    let root = "imports:\n  - config/agents.yaml\n";
    let agents = "agents:\n  helper:\n    tools: [read]\n";
    let with_tools = "agents:\n  helper:\n    tools: [read]\n# project tools\ntools:\n  memory: beeuni:memory\n  lookup_order: tools/lookup_order.ts\n";
    let repo = change(
        &[("beeuni.yaml", root), ("config/agents.yaml", agents)],
        &[("beeuni.yaml", root), ("config/agents.yaml", with_tools), ("tools/lookup_order.ts", MODULE)],
    );
    let (code, report) = three_ways(&repo);
    assert_eq!(code, 1);
    assert_eq!(removed(&report), sorted(&["web_search", "image_search", "scrape_webpage", "show"]), "{report:#}");
    assert_eq!(diagnostics(&report).len(), 1, "memory is listed: no no-beeuni-tools\n{report:#}");
    all_at(&report, "removed-beeuni-tool", "config/agents.yaml", 5, 1);
}

#[test]
fn a_new_import_that_brings_the_first_tools_key_removes_all_five() {
    let base = "agents:\n  helper:\n    tools: [read]\n";
    let root = "agents:\n  helper:\n    tools: [read]\nimports:\n  - tools.yaml\n";
    let imported = "\ntools:\n  lookup_order: tools/lookup_order.ts\n";
    let repo = change(
        &[("beeuni.yaml", base)],
        &[("beeuni.yaml", root), ("tools.yaml", imported), ("tools/lookup_order.ts", MODULE)],
    );
    let (_, report) = three_ways(&repo);
    assert_eq!(removed(&report), sorted(&BEEUNI), "{report:#}");
    all_at(&report, "removed-beeuni-tool", "tools.yaml", 2, 1);
    assert_eq!(diagnostics(&report).len(), 1, "no no-beeuni-tools beside it: {report:#}");
}

#[test]
fn removing_the_import_that_held_the_only_tools_key_brings_all_five_back() {
    // Base: the import lists two Beeuni tools, so sessions get only those two. Head: no `tools:` key anywhere, so
    // by the selection rule sessions get all five again: nothing is removed.
    let root = "imports:\n  - config/tools.yaml\nagents:\n  helper:\n    tools: [read]\n";
    let tools = "tools:\n  web_search: beeuni:web_search\n  memory: beeuni:memory\n";
    let head = "agents:\n  helper:\n    tools: [read]\n";
    let repo = change(&[("beeuni.yaml", root), ("config/tools.yaml", tools)], &[("beeuni.yaml", head)]);
    let (code, report) = three_ways(&repo);
    assert_clean("import removed, no tools key left", code, &report);
}

#[test]
fn emptying_the_only_tools_key_of_an_import_while_keeping_the_key_removes_its_tools() {
    // `tools:` with every line deleted is null: still a `tools:` key, so it loads no Beeuni tool.
    let root = "imports:\n  - config/tools.yaml\n";
    let tools = "tools:\n  web_search: beeuni:web_search\n  memory: beeuni:memory\n";
    let repo = change(
        &[("beeuni.yaml", root), ("config/tools.yaml", tools)],
        &[("beeuni.yaml", root), ("config/tools.yaml", "tools:\n")],
    );
    let (_, report) = three_ways(&repo);
    assert_eq!(removed(&report), sorted(&["web_search", "memory"]), "{report:#}");
    all_at(&report, "removed-beeuni-tool", "config/tools.yaml", 1, 1);
    assert_eq!(of_rule(&report, "no-beeuni-tools").len(), 0, "removed-beeuni-tool says it: {report:#}");
}

#[test]
fn removing_an_import_while_the_root_keeps_a_shorter_tools_key_removes_the_imports_tools() {
    let root = "tools:\n  web_search: beeuni:web_search\nimports:\n  - config/tools.yaml\n";
    let tools = "tools:\n  image_search: beeuni:image_search\n  memory: beeuni:memory\n";
    let head = "# web search only\ntools:\n  web_search: beeuni:web_search\n";
    let repo = change(&[("beeuni.yaml", root), ("config/tools.yaml", tools)], &[("beeuni.yaml", head)]);
    let (code, report) = three_ways(&repo);
    assert_eq!(code, 1);
    assert_eq!(removed(&report), sorted(&["image_search", "memory"]), "{report:#}");
    assert_eq!(diagnostics(&report).len(), 1, "{report:#}");
    // The file that declared them is gone: the head's (only) `tools:` key.
    all_at(&report, "removed-beeuni-tool", "beeuni.yaml", 2, 1);
}

#[test]
fn deleting_the_only_tools_key_removes_nothing() {
    let repo =
        change(&[("beeuni.yaml", BASE_TWO)], &[("beeuni.yaml", "# the shop\nagents:\n  helper:\n    tools: [read]\n")]);
    let (code, report) = three_ways(&repo);
    assert_clean("tools key deleted: all five load", code, &report);
}

#[test]
fn a_project_tool_removed_while_an_agent_still_lists_it() {
    let base = "tools:\n  web_search: beeuni:web_search\n  lookup_order: tools/lookup_order.ts\nagents:\n  researcher:\n    tools:\n      - read\n      - lookup_order\n";
    let head = "tools:\n  web_search: beeuni:web_search\nagents:\n  researcher:\n    tools:\n      - read\n      - lookup_order\n";
    let repo = change(&[("beeuni.yaml", base), ("tools/lookup_order.ts", MODULE)], &[("beeuni.yaml", head)]);
    let (code, report) = three_ways(&repo);
    assert_eq!(code, 1);
    // docs/spec/rules.md §10: agent-list rules point at the list item (in block lists the `- item` line, at its `-`). One
    // finding per cause: the name is no longer declared because the change removed it, which
    // `removed-tool-in-use` says; `unknown-tool` (whose help would suggest a spelling) says nothing more.
    let message = in_use("lookup_order", "researcher");
    assert_findings(&report, &[("removed-tool-in-use", "error", "beeuni.yaml", 7, 7, &message)]);
    // Without a base there is no change to blame: the name is an unknown tool.
    let (_, report) = repo.lint(&[]);
    assert_eq!(crate::common::rule_ids(&report), ["unknown-tool"], "{report:#}");
    // An error: it fails even `--fail-on error`.
    assert_eq!(repo.lint(&["--base", "main", "--fail-on", "error"]).0, 1);
}

#[test]
fn a_removed_project_tool_in_flow_exclude_and_map_lists() {
    let tools =
        "tools:\n  web_search: beeuni:web_search\n  lookup_order: tools/lookup_order.ts\n  refund: tools/refund.ts\n";
    let agents = "agents:\n  a: {tools: [read, lookup_order]}\n  b: {tools: {exclude: [refund]}}\n  c: {tools: {lookup_order: false}}\n";
    let head = "tools:\n  web_search: beeuni:web_search\nagents:\n  a: {tools: [read, lookup_order]}\n  b: {tools: {exclude: [refund]}}\n  c: {tools: {lookup_order: false}}\n";
    let repo = change(
        &[("beeuni.yaml", &format!("{tools}{agents}")), ("tools/lookup_order.ts", MODULE), ("tools/refund.ts", MODULE)],
        &[("beeuni.yaml", head)],
    );
    let (_, report) = three_ways(&repo);
    let found = of_rule(&report, "removed-tool-in-use");
    assert_eq!(found.len(), 3, "{report:#}");
    // Nothing else about those names: no `unknown-tool`, no `unknown-excluded-tool` for `refund`.
    let unknown = diagnostics(&report).iter().filter(|d| d["rule"].as_str().is_some_and(|r| r.starts_with("unknown-")));
    assert_eq!(unknown.count(), 0, "{report:#}");
    assert_finding(found[0], &("removed-tool-in-use", "error", "beeuni.yaml", 4, 21, &in_use("lookup_order", "a")));
    assert_finding(found[1], &("removed-tool-in-use", "error", "beeuni.yaml", 5, 25, &in_use("refund", "b")));
    assert_finding(found[2], &("removed-tool-in-use", "error", "beeuni.yaml", 6, 15, &in_use("lookup_order", "c")));
}

#[test]
fn a_project_tool_removed_and_no_longer_listed_or_moved_is_fine() {
    let base = "tools:\n  web_search: beeuni:web_search\n  lookup_order: tools/lookup_order.ts\n  refund: tools/refund.ts\nagents:\n  a:\n    tools: [read, lookup_order, refund]\n";
    // refund is gone from the list too; lookup_order moved to an imported file.
    let head = "imports: [more.yaml]\ntools:\n  web_search: beeuni:web_search\nagents:\n  a:\n    tools: [read, lookup_order]\n";
    let repo = change(
        &[("beeuni.yaml", base), ("tools/lookup_order.ts", MODULE), ("tools/refund.ts", MODULE)],
        &[
            ("beeuni.yaml", head),
            ("more.yaml", "tools:\n  lookup_order: tools/lookup_order.ts\n"),
            ("tools/lookup_order.ts", MODULE),
        ],
    );
    let (code, report) = three_ways(&repo);
    assert_clean("removed and unlisted, or moved", code, &report);
}

#[test]
fn a_removed_tool_in_use_in_an_imported_agents_file() {
    let base_root =
        "imports: [agents.yaml]\ntools:\n  web_search: beeuni:web_search\n  lookup_order: tools/lookup_order.ts\n";
    let head_root = "imports: [agents.yaml]\ntools:\n  web_search: beeuni:web_search\n";
    let agents = "agents:\n  prüfer: {tools: [read, lookup_order]}\n";
    let repo = change(
        &[("beeuni.yaml", base_root), ("agents.yaml", agents), ("tools/lookup_order.ts", MODULE)],
        &[("beeuni.yaml", head_root), ("agents.yaml", agents)],
    );
    let (_, report) = three_ways(&repo);
    let found = of_rule(&report, "removed-tool-in-use");
    assert_eq!(found.len(), 1, "{report:#}");
    // Columns count UTF-16 code units: `ü` is one.
    assert_finding(
        found[0],
        &("removed-tool-in-use", "error", "agents.yaml", 2, 26, &in_use("lookup_order", "prüfer")),
    );
}

#[test]
fn deleting_an_ejected_beeuni_tool_removes_it() {
    // At the base a module replaces web_search: sessions get web_search (the module). Deleting the line removes it.
    let base = "tools:\n  web_search: tools/web_search.ts\n  image_search: beeuni:image_search\n";
    let repo = change(
        &[("beeuni.yaml", base), ("tools/web_search.ts", MODULE)],
        &[("beeuni.yaml", "tools:\n  image_search: beeuni:image_search\n")],
    );
    let (_, report) = three_ways(&repo);
    assert_findings(&report, &[("removed-beeuni-tool", "warning", "beeuni.yaml", 1, 1, &removal("web_search"))]);
}

#[test]
fn adding_the_project_removes_nothing() {
    // No beeuni.yaml at the base: there was no project, so no session lost anything.
    let repo = change(
        &[("README.md", "hello\n")],
        &[("README.md", "hello\n"), ("beeuni.yaml", "tools:\n  show: beeuni:show\n")],
    );
    let (code, report) = three_ways(&repo);
    assert_clean("new project", code, &report);
}

#[test]
fn a_head_that_does_not_parse_reports_the_syntax_error_only() {
    let repo = change(
        &[("beeuni.yaml", BASE_TWO)],
        &[("beeuni.yaml", "tools:\n  web_search: beeuni:web_search\n  image_search: [beeuni:image_search\n")],
    );
    let (code, report) = three_ways(&repo);
    assert_eq!(code, 1);
    assert_eq!(rules_at(&report), ["yaml-syntax@3"], "{report:#}");
}

#[test]
fn ignore_comments_and_config_levels_apply_to_the_change_aware_rules() {
    let head = "tools: # beeuni-lint: ignore[removed-beeuni-tool] -- image search is retired\n  web_search: beeuni:web_search\n";
    let repo = change(&[("beeuni.yaml", BASE_TWO)], &[("beeuni.yaml", head)]);
    for args in [&["--staged"][..], &["--base", "main"][..], &["--staged", "--only-changed"][..]] {
        let (code, report) = repo.lint(args);
        assert_clean("ignored", code, &report);
    }
    repo.write("beeuni.yaml", "tools:\n  web_search: beeuni:web_search\n");
    repo.write("beeuni-lint.toml", "[rules]\nremoved-beeuni-tool = \"error\"\n").stage();
    let (code, report) = repo.lint(&["--staged", "--fail-on", "error"]);
    assert_eq!(code, 1);
    assert_findings(&report, &[("removed-beeuni-tool", "error", "beeuni.yaml", 1, 1, &removal("image_search"))]);
    repo.write("beeuni-lint.toml", "[rules]\nremoved-beeuni-tool = \"off\"\n").stage();
    let (code, report) = repo.lint(&["--staged"]);
    assert_clean("off", code, &report);
    // The `check` subcommand takes the same options.
    let run = bin_in(&repo.dir, &["check", "--staged", "--format", "json", "--config", "/dev/null", "."]);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(rules_at(&report), ["removed-beeuni-tool@1"]);
}
