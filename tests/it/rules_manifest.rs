//! docs/spec/rules.md §1 (files and YAML) and §2 (tool declarations): one triggering
//! fixture and one clean twin a rule, with the exact place and message.

use crate::common::*;

/// The clean twin `<rule>-clean` has no finding of the rule, nor any other.
fn clean_twin(rule: &str) {
    let name = format!("{rule}-clean");
    let (code, report) = run(&name, &[]);
    assert!(of_rule(&report, rule).is_empty(), "{name} still has `{rule}`");
    assert_clean(&name, code, &report);
}

/// Lints the fixture `<rule>` and checks the findings and the exit code.
fn trigger(rule: &str, code: i32, expected: &[Expect]) -> serde_json::Value {
    let (actual, report) = run(rule, &[]);
    assert_findings(&report, expected);
    assert_eq!(actual, code, "exit code of {rule}");
    report
}

#[test]
fn yaml_syntax() {
    let message = "while parsing a block mapping, did not find expected key";
    trigger("yaml-syntax", 1, &[("yaml-syntax", "error", "beeuni.yaml", 3, 2, message)]);
    clean_twin("yaml-syntax");
}

#[test]
fn duplicate_key() {
    let message = "duplicate key `web_search`: YAML keeps only one of them";
    let report = trigger("duplicate-key", 1, &[("duplicate-key", "error", "beeuni.yaml", 4, 3, message)]);
    let finding = &diagnostics(&report)[0];
    assert_related(finding, 0, "beeuni.yaml", 2, 3, "first defined here");
    assert_help(finding, "remove one of the two entries");
    clean_twin("duplicate-key");
}

/// yaml-test-suite 2JQS (two empty keys) parses, and Bun's YAML parser keeps only the last entry
/// (`{ null: 'b' }`): one key, `null`, repeated, like `~` and `null`.
#[test]
fn duplicate_empty_keys() {
    let dir = project(&[("beeuni.yaml", "tools:\n  web_search: beeuni:web_search\n  : a\n  : b\n~: c\nnull: d\n")]);
    let (code, report) = json_in(dir.path(), &[]);
    let empty = "duplicate empty key (read as `null`): YAML keeps only one of them";
    let null = "duplicate key `null`: YAML keeps only one of them";
    let duplicates: Vec<serde_json::Value> = of_rule(&report, "duplicate-key").into_iter().cloned().collect();
    let only = serde_json::json!({ "diagnostics": duplicates });
    assert_findings(
        &only,
        &[
            ("duplicate-key", "error", "beeuni.yaml", 4, 3, empty),
            ("duplicate-key", "error", "beeuni.yaml", 6, 1, null),
        ],
    );
    assert_related(&duplicates[0], 0, "beeuni.yaml", 3, 3, "first defined here");
    assert_related(&duplicates[1], 0, "beeuni.yaml", 5, 1, "first defined here");
    assert_eq!(code, 1);
}

#[test]
fn manifest_shape() {
    let message = "`imports` must be a list of repo-relative paths, not a string";
    trigger("manifest-shape", 1, &[("manifest-shape", "error", "beeuni.yaml", 1, 1, message)]);
    clean_twin("manifest-shape");
}

#[test]
fn manifest_name() {
    let message = "the manifest must be named `beeuni.yaml`; `beeuni.yml` is not read";
    let report = trigger("manifest-name", 1, &[("manifest-name", "error", "beeuni.yml", 1, 1, message)]);
    assert_help(&diagnostics(&report)[0], "rename `beeuni.yml` to `beeuni.yaml`");
    clean_twin("manifest-name");
}

#[test]
fn unknown_key() {
    let message = "unknown setting `tool` of agent `support`: it is ignored";
    let report = trigger("unknown-key", 1, &[("unknown-key", "warning", "beeuni.yaml", 9, 5, message)]);
    assert_help(&diagnostics(&report)[0], "did you mean `tools`?");
    clean_twin("unknown-key");
}

#[test]
fn import_missing() {
    let message = "imported file `config/agent.yaml` does not exist";
    // Column: docs/spec/rules.md §10 says the `- path` item; see `spec_import_findings_point_at_the_dash`.
    trigger("import-missing", 1, &[("import-missing", "error", "beeuni.yaml", 2, 3, message)]);
    clean_twin("import-missing");
}

#[test]
fn import_path() {
    let message = "import path `../outside/agents.yaml` escapes the repository";
    trigger("import-path", 1, &[("import-path", "error", "beeuni.yaml", 2, 3, message)]);
    clean_twin("import-path");
}

#[test]
fn import_cycle() {
    let message = "import cycle: config/a.yaml → config/b.yaml → config/a.yaml";
    let report = trigger("import-cycle", 1, &[("import-cycle", "error", "config/b.yaml", 2, 3, message)]);
    assert_related(&diagnostics(&report)[0], 0, "config/a.yaml", 2, 3, "part of the cycle");
    clean_twin("import-cycle");
}

/// The same file named three ways (`a.yaml`, `./a.yaml`, `a.yaml/`): the file is read once and the repeat stops
/// nothing, so it is not reported; a trailing `/` names a folder, which the loader cannot open as a file.
#[test]
fn one_file_named_three_ways() {
    let dir = project(&[
        (
            "beeuni.yaml",
            "imports: [a.yaml, ./a.yaml, a.yaml/]
",
        ),
        ("a.yaml", "agents:\n  greeter:\n    tools: none\n"),
    ]);
    let (code, report) = json_in(dir.path(), &[]);
    assert_eq!(code, 1);
    assert_findings(
        &report,
        &[(
            "import-missing",
            "error",
            "beeuni.yaml",
            1,
            29,
            "imported file `a.yaml/` ends in `/`: it names a folder, not a file",
        )],
    );
    assert_help(&diagnostics(&report)[0], "write `a.yaml`");
}

#[test]
fn a_module_path_ending_in_a_slash_names_a_folder() {
    let dir = project(&[
        ("beeuni.yaml", "tools:\n  web_search: beeuni:web_search\n  look: tools/look.ts/\n"),
        ("tools/look.ts", MODULE),
    ]);
    let (_, report) = json_in(dir.path(), &[]);
    let message = "module path of tool `look`: `tools/look.ts/` ends in `/`: it names a folder, not a module; it must be a repo-relative path to a .ts, .js, .mts, .mjs, .cts or .cjs module";
    assert_findings(&report, &[("module-path", "error", "beeuni.yaml", 3, 3, message)]);
    assert_help(&diagnostics(&report)[0], "point `look` at a `.ts` or `.js` module inside the repository");
}

#[test]
fn unused_ignore() {
    let message = "this ignore comment suppresses no `tool-name` finding";
    trigger("unused-ignore", 0, &[("unused-ignore", "info", "beeuni.yaml", 7, 40, message)]);
    // The twin's comment suppresses a real `tool-name` finding: nothing is left.
    clean_twin("unused-ignore");
}

#[test]
fn tool_name() {
    let message = "tool name `lookup-order` is not snake_case of at most 64 characters: it has a dash; use `_`";
    let report = trigger("tool-name", 1, &[("tool-name", "error", "beeuni.yaml", 7, 3, message)]);
    assert_help(&diagnostics(&report)[0], "rename it, e.g. `lookup_order`, here and in every agent list that names it");
    clean_twin("tool-name");
}

#[test]
fn harness_tool_name() {
    let message = "`bash` is a harness tool; a project tool cannot take its name";
    trigger("harness-tool-name", 1, &[("harness-tool-name", "error", "beeuni.yaml", 7, 3, message)]);
    clean_twin("harness-tool-name");
}

#[test]
fn reserved_tool_name() {
    let message = "`list` is the name of a harness tool in some versions or behind flags: it may collide";
    trigger("reserved-tool-name", 0, &[("reserved-tool-name", "info", "beeuni.yaml", 7, 3, message)]);
    clean_twin("reserved-tool-name");
}

#[test]
fn beeuni_ref() {
    let message = "must be `beeuni:web_search` (the Beeuni tool) or a repo-relative path to a .ts or .js module (e.g. `tools/web_search.ts`) that replaces it.";
    let report = trigger("beeuni-ref", 1, &[("beeuni-ref", "error", "beeuni.yaml", 2, 3, message)]);
    let fix = &diagnostics(&report)[0]["fix"];
    assert_eq!(fix["safety"], "safe", "{fix:#}");
    assert_eq!(fix["edits"][0]["content"], "beeuni:web_search", "{fix:#}");
    assert_eq!(fix["edits"][0]["path"], "beeuni.yaml", "{fix:#}");
    clean_twin("beeuni-ref");
}

#[test]
fn beeuni_ref_project() {
    let message = "`search` is not a Beeuni tool: a project tool needs a module path, not `beeuni:web_search`";
    trigger("beeuni-ref-project", 1, &[("beeuni-ref-project", "error", "beeuni.yaml", 3, 3, message)]);
    clean_twin("beeuni-ref-project");
}

#[test]
fn tool_value() {
    let message = "the value of tool `lookup_order` must be a string, not null";
    trigger("tool-value", 1, &[("tool-value", "error", "beeuni.yaml", 7, 3, message)]);
    clean_twin("tool-value");
}

#[test]
fn module_path() {
    let message = "module path of tool `lookup_order`: `tools/lookup_order.tsx` ends in `.tsx`; it must be a repo-relative path to a .ts, .js, .mts, .mjs, .cts or .cjs module";
    let report = trigger("module-path", 1, &[("module-path", "error", "beeuni.yaml", 7, 3, message)]);
    assert_help(&diagnostics(&report)[0], "point `lookup_order` at a `.ts` or `.js` module inside the repository");
    clean_twin("module-path");
}

#[test]
fn module_missing() {
    let message = "module `tools/lookup_order.ts` of tool `lookup_order` does not exist";
    let report = trigger("module-missing", 1, &[("module-missing", "error", "beeuni.yaml", 7, 3, message)]);
    assert_help(&diagnostics(&report)[0], "`tools/lookup_order.js` exists: point the entry at it");
    clean_twin("module-missing");
}

#[test]
fn duplicate_tool() {
    let message = "tool `lookup_order` is already declared in `beeuni.yaml`: a name may be declared in one file only";
    let report = trigger("duplicate-tool", 1, &[("duplicate-tool", "error", "config/tools.yaml", 2, 3, message)]);
    assert_related(&diagnostics(&report)[0], 0, "beeuni.yaml", 9, 3, "first declared here");
    clean_twin("duplicate-tool");
}

#[test]
fn no_beeuni_tools() {
    let message = "Sessions of this project get no Beeuni tool (web_search, image_search, scrape_webpage, memory, show). Add `<name>: beeuni:<name>` to keep one.";
    trigger("no-beeuni-tools", 1, &[("no-beeuni-tools", "warning", "beeuni.yaml", 1, 1, message)]);
    clean_twin("no-beeuni-tools");
}

#[test]
fn eject_comment() {
    let message = "this line declares `memory` but says it was ejected from `beeuni:web_search`";
    // docs/spec/rules.md §10 puts tools-entry rules (eject-comment among them) on the `name: value` entry.
    let report = trigger("eject-comment", 1, &[("eject-comment", "warning", "beeuni.yaml", 3, 3, message)]);
    assert_related(&diagnostics(&report)[0], 0, "beeuni.yaml", 3, 28, "the eject comment");
    // A leftover comment on a restored `<x>: beeuni:<x>` line is fine (the twin has one).
    clean_twin("eject-comment");
}

#[test]
fn stale_ejected_copy() {
    let message = "`tools/web_search.ts` is a leftover copy: `web_search` points back at `beeuni:web_search`";
    trigger("stale-ejected-copy", 0, &[("stale-ejected-copy", "info", "beeuni.yaml", 2, 3, message)]);
    clean_twin("stale-ejected-copy");
}

#[test]
fn ejected_template() {
    let message = "`tools/web_search.ts` is still the starter `eject --template` wrote: every agent calling `web_search` would run it";
    let report =
        trigger("ejected-template", 1, &[("ejected-template", "warning", "tools/web_search.ts", 1, 1, message)]);
    assert_related(&diagnostics(&report)[0], 0, "beeuni.yaml", 2, 3, "declared here");
    clean_twin("ejected-template");
}

// ---- The places docs/spec/rules.md §10 gives where the implementation points elsewhere.
// Run with `cargo test -- --ignored`; each is reported as a discrepancy.

#[test]
fn spec_import_findings_point_at_the_dash() {
    for rule in ["import-missing", "import-path"] {
        let (_, report) = run(rule, &[]);
        assert_eq!(of_rule(&report, rule)[0]["column"], 3, "{rule}: `  - path` starts at column 3");
    }
    let (_, report) = run("import-cycle", &[]);
    assert_eq!(of_rule(&report, "import-cycle")[0]["column"], 3);
}

#[test]
fn spec_eject_comment_points_at_the_entry() {
    let (_, report) = run("eject-comment", &[]);
    let finding = of_rule(&report, "eject-comment")[0];
    assert_eq!((&finding["line"], &finding["column"]), (&3.into(), &3.into()), "{finding:#}");
}

#[test]
fn spec_stale_copy_imported_by_a_module_is_not_stale() {
    let importer = "import search from './web_search.ts'\nexport default { description: 'x', parameters: { type: 'object', properties: {} }, async execute() { return search } }\n";
    let dir = project(&[
        ("beeuni.yaml", "tools:\n  web_search: beeuni:web_search\n  lookup_order: tools/lookup_order.ts\n"),
        ("tools/lookup_order.ts", importer),
        ("tools/web_search.ts", MODULE),
    ]);
    let (_, report) = json_in(dir.path(), &[]);
    assert!(of_rule(&report, "stale-ejected-copy").is_empty(), "{report:#}");
}
