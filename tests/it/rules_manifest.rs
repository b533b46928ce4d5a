//! docs/spec/rules.md §1 (files and YAML) and §2 (tool declarations). Each rule has a triggering fixture and a
//! clean twin, whose findings and exit code are their snapshots (tests/it/fixture_reports.rs); here what a snapshot
//! does not show (helps, related locations, fixes), projects written for cases no fixture holds, and the readings
//! of §10.

use crate::common::*;

#[test]
fn duplicate_key() {
    let report = run("duplicate-key", &[]).1;
    let finding = &diagnostics(&report)[0];
    assert_related(finding, 0, "beeuni.yaml", 2, 3, "first defined here");
    assert_help(finding, "remove one of the two entries");
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
fn manifest_name() {
    let report = run("manifest-name", &[]).1;
    assert_help(&diagnostics(&report)[0], "rename `beeuni.yml` to `beeuni.yaml`");
}

#[test]
fn unknown_key() {
    let report = run("unknown-key", &[]).1;
    assert_help(&diagnostics(&report)[0], "did you mean `tools`?");
    assert!(diagnostics(&report)[0]["fix"].is_null(), "{report:#}");
    let report = run("unknown-key-exclude", &[]).1;
    assert_help(&diagnostics(&report)[0], "did you mean `exclude`?");
    assert_eq!(diagnostics(&report)[0]["fix"]["safety"], "unsafe", "{report:#}");
}

/// A near miss of `exclude`: the message names only the listed tools the project knows (each once, five at most),
/// and beside another key of the mapping it says what stays enabled, with no fix (renamed, the mapping would mix
/// `exclude` with `tool: false`), nor for one name instead of a list. A near miss of another key stays a warning.
#[test]
fn a_misspelt_exclude_names_what_stays_enabled() {
    let manifest = "tools:\n  lookup: tools/lookup.ts\nagents:\n  a:\n    tools: {excludes: [bsh, lookup, bash, bash]}\n  b:\n    tools: {exlude: [bsh]}\n  c:\n    tools:\n      excludes: [read, grep, glob, edit, write, bash, task]\n  d:\n    tools: {Exclude: [bash], edit: false}\n  e:\n    Tools: [read]\n  f:\n    tools: {excludes: bash}\n";
    let dir = project(&[
        ("beeuni.yaml", manifest),
        (
            "tools/lookup.ts",
            "export default { description: 'd', parameters: { type: 'object', properties: {} }, async execute() { return 'x' } }\n",
        ),
    ]);
    let (code, report) = json_in(dir.path(), &["--min-severity", "warning"]);
    assert_eq!(code, 1);
    let unknown = of_rule(&report, "unknown-key");
    let expected: [Expect; 4] = [
        (
            "unknown-key",
            "error",
            "beeuni.yaml",
            5,
            13,
            "unknown key `excludes` in the `tools` of agent `a`: it is ignored, so every tool stays enabled, `lookup` and `bash` included; rename it to `exclude`",
        ),
        (
            "unknown-key",
            "error",
            "beeuni.yaml",
            7,
            13,
            "unknown key `exlude` in the `tools` of agent `b`: it is ignored, so every tool stays enabled; rename it to `exclude`",
        ),
        (
            "unknown-key",
            "error",
            "beeuni.yaml",
            10,
            7,
            "unknown key `excludes` in the `tools` of agent `c`: it is ignored, so every tool stays enabled, `read`, `grep`, `glob`, `edit` and `write` and 2 more it lists included; rename it to `exclude`",
        ),
        (
            "unknown-key",
            "error",
            "beeuni.yaml",
            12,
            13,
            "unknown key `Exclude` in the `tools` of agent `d`: it is ignored, so `bash` stays enabled; rename it to `exclude`",
        ),
    ];
    for (finding, expected) in unknown.iter().zip(&expected) {
        assert_finding(finding, expected);
    }
    assert_eq!(unknown.len(), 6, "{report:#}");
    // One name, not a list: renamed, `{exclude: bash}` would be the wrong shape, so no fix.
    assert_finding(
        unknown[5],
        &(
            "unknown-key",
            "error",
            "beeuni.yaml",
            16,
            13,
            "unknown key `excludes` in the `tools` of agent `f`: it is ignored, so every tool stays enabled, `bash` included; rename it to `exclude`",
        ),
    );
    assert!(unknown[5]["fix"].is_null(), "{:#}", unknown[5]);
    assert!(unknown[3]["fix"].is_null(), "{:#}", unknown[3]);
    assert!(unknown[..3].iter().all(|d| d["fix"]["safety"] == "unsafe"), "{report:#}");
    assert_finding(
        unknown[4],
        &("unknown-key", "warning", "beeuni.yaml", 14, 5, "unknown setting `Tools` of agent `e`: it is ignored"),
    );
}

#[test]
fn import_cycle() {
    let report = run("import-cycle", &[]).1;
    assert_related(&diagnostics(&report)[0], 0, "config/a.yaml", 2, 3, "part of the cycle");
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
fn tool_name() {
    let report = run("tool-name", &[]).1;
    assert_help(&diagnostics(&report)[0], "rename it, e.g. `lookup_order`, here and in every agent list that names it");
}

#[test]
fn beeuni_ref() {
    let report = run("beeuni-ref", &[]).1;
    let fix = &diagnostics(&report)[0]["fix"];
    assert_eq!(fix["safety"], "safe", "{fix:#}");
    assert_eq!(fix["edits"][0]["content"], "beeuni:web_search", "{fix:#}");
    assert_eq!(fix["edits"][0]["path"], "beeuni.yaml", "{fix:#}");
}

#[test]
fn module_path() {
    let report = run("module-path", &[]).1;
    assert_help(&diagnostics(&report)[0], "point `lookup_order` at a `.ts` or `.js` module inside the repository");
}

#[test]
fn module_missing() {
    let report = run("module-missing", &[]).1;
    assert_help(&diagnostics(&report)[0], "`tools/lookup_order.js` exists: point the entry at it");
}

#[test]
fn duplicate_tool() {
    let report = run("duplicate-tool", &[]).1;
    assert_related(&diagnostics(&report)[0], 0, "beeuni.yaml", 9, 3, "first declared here");
}

#[test]
fn eject_comment() {
    // docs/spec/rules.md §10 puts tools-entry rules (eject-comment among them) on the `name: value` entry.
    let report = run("eject-comment", &[]).1;
    assert_related(&diagnostics(&report)[0], 0, "beeuni.yaml", 3, 28, "the eject comment");
    // A leftover comment on a restored `<x>: beeuni:<x>` line is fine: the twin, clean in its snapshot, has one.
}

#[test]
fn ejected_template() {
    let report = run("ejected-template", &[]).1;
    assert_related(&diagnostics(&report)[0], 0, "beeuni.yaml", 2, 3, "declared here");
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
