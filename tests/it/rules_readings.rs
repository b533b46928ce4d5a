//! The cases docs/spec/rules.md names in its rows and "Readings" (§0–2, §10) beyond
//! the one fixture a rule: every reason of `module-path`, the forms of
//! `beeuni-ref` and `tool-name`, near-miss keys, the selection rule over
//! several files, and the help of `import-missing`.

use crate::common::*;
use serde_json::Value;

fn lint(files: &[(&str, &str)]) -> (i32, Value) {
    let dir = project(files);
    json_in(dir.path(), &[])
}

fn row(rule: &str, line: u64, help: &str) -> (String, u64, String) {
    (rule.to_string(), line, help.to_string())
}

const REQUIREMENT: &str = "; it must be a repo-relative path to a .ts, .js, .mts, .mjs, .cts or .cjs module";

#[test]
fn module_path_says_why_and_skips_the_existence_check() {
    let (code, report) = lint(&[
        (
            "beeuni.yaml",
            "tools:\n  web_search: beeuni:web_search\n  a1: ~/x.ts\n  a2: https://example.com/x.ts\n  a3: C:/x.ts\n  a4: tools\\x.ts\n  a5: tools/x.d.ts\n  a6: ../x.ts\n  a7: ./tools/x.ts\n  a8: /abs/x.ts\n  a9: tools/x\n  b1: tools/x.json\n",
        ),
        ("tools/x.ts", MODULE),
    ]);
    assert_eq!(code, 1);
    // `./tools/x.ts` (line 9) is valid; a path that fails `module-path` gets no `module-missing`. Each message
    // names the tool, the value and what is wrong with it (here the part between the tool and the requirement).
    let reasons: Vec<(String, u64, String)> = diagnostics(&report)
        .iter()
        .map(|d| {
            let message = d["message"].as_str().unwrap();
            let reason = message.split_once(": ").unwrap().1;
            let reason = reason.strip_suffix(REQUIREMENT).unwrap_or_else(|| panic!("{message}"));
            (d["rule"].as_str().unwrap().to_string(), d["line"].as_u64().unwrap(), reason.to_string())
        })
        .collect();
    let tools: Vec<&str> =
        diagnostics(&report).iter().map(|d| d["message"].as_str().unwrap().split('`').nth(1).unwrap()).collect();
    assert_eq!(tools, ["a1", "a2", "a3", "a4", "a5", "a6", "a8", "a9", "b1"]);
    assert_eq!(
        reasons,
        [
            row("module-path", 3, "`~/x.ts` starts with `~`"),
            row("module-path", 4, "`https://example.com/x.ts` is a URL or has a scheme"),
            row("module-path", 5, "`C:/x.ts` starts with a drive letter"),
            row("module-path", 6, "`tools\\x.ts` uses backslashes"),
            row("module-path", 7, "`tools/x.d.ts` is a declaration file, which has no runtime code"),
            row("module-path", 8, "`../x.ts` escapes the repository"),
            row("module-path", 10, "`/abs/x.ts` is absolute"),
            row("module-path", 11, "`tools/x` has no extension"),
            row("module-path", 12, "`tools/x.json` ends in `.json`"),
        ]
    );
}

#[test]
fn beeuni_ref_forms() {
    let (_, report) = lint(&[(
        "beeuni.yaml",
        "tools:\n  web_search: web_search\n  show: tools/show.json\n  memory: \"beeuni:\"\n  image_search: beeuni:image_search\n",
    )]);
    let message = |name: &str| {
        format!(
            "must be `beeuni:{name}` (the Beeuni tool) or a repo-relative path to a .ts or .js module (e.g. `tools/{name}.ts`) that replaces it."
        )
    };
    let (a, b, c) = (message("web_search"), message("show"), message("memory"));
    assert_findings(
        &report,
        &[
            ("beeuni-ref", "error", "beeuni.yaml", 2, 3, &a),
            ("beeuni-ref", "error", "beeuni.yaml", 3, 3, &b),
            ("beeuni-ref", "error", "beeuni.yaml", 4, 3, &c),
        ],
    );
    assert_help(&diagnostics(&report)[1], "write `show: beeuni:show` to keep the Beeuni tool");
}

#[test]
fn beeuni_ref_project_suggests_a_close_beeuni_key() {
    let (_, report) = lint(&[("beeuni.yaml", "tools:\n  websearch: beeuni:web_search\n")]);
    let found = of_rule(&report, "beeuni-ref-project");
    assert_eq!(found.len(), 1, "{report:#}");
    assert_help(found[0], "did you mean `web_search: beeuni:web_search`?");
}

#[test]
fn tool_name_says_which_part_fails() {
    let long = "a".repeat(65);
    let yaml = format!(
        "tools:\n  web_search: beeuni:web_search\n  LookupOrder: tools/x.ts\n  1abc: tools/x.ts\n  look-up: tools/x.ts\n  {long}: tools/x.ts\n  look.up: tools/x.ts\n  {}: tools/x.ts\n",
        "b".repeat(64)
    );
    let (_, report) = lint(&[("beeuni.yaml", &yaml), ("tools/x.ts", MODULE)]);
    let messages: Vec<_> = of_rule(&report, "tool-name").iter().map(|d| d["message"].as_str().unwrap()).collect();
    let prefix = "is not snake_case of at most 64 characters: ";
    assert_eq!(
        messages,
        [
            format!("tool name `LookupOrder` {prefix}it has the upper-case letter `L`"),
            format!("tool name `1abc` {prefix}it starts with a digit"),
            format!("tool name `look-up` {prefix}it has a dash; use `_`"),
            format!("tool name `{long}` {prefix}it has 65 characters, more than 64"),
            format!("tool name `look.up` {prefix}it has the character `.`"),
        ],
        "64 characters are fine"
    );
    assert_help(
        of_rule(&report, "tool-name")[0],
        "rename it, e.g. `lookup_order`, here and in every agent list that names it",
    );
}

#[test]
fn near_miss_keys_and_far_ones() {
    let (_, report) = lint(&[(
        "beeuni.yaml",
        "Tools:\n  web_search: beeuni:web_search\nimport: [a.yaml]\nagnets: {}\nhooks: {}\nmodel: x\nagents:\n  a:\n    secret: [X]\n    conectors: [github]\n    permision: {}\n    model: y\n",
    )]);
    let found: Vec<_> = diagnostics(&report)
        .iter()
        .map(|d| (d["line"].as_u64().unwrap(), d["message"].as_str().unwrap(), d["help"].as_str().unwrap()))
        .collect();
    assert_eq!(
        found,
        [
            (1, "unknown top-level key `Tools`: it is ignored", "did you mean `tools`?"),
            (3, "unknown top-level key `import`: it is ignored", "did you mean `imports`?"),
            (4, "unknown top-level key `agnets`: it is ignored", "did you mean `agents`?"),
            (9, "unknown setting `secret` of agent `a`: it is ignored", "did you mean `secrets`?"),
            (10, "unknown setting `conectors` of agent `a`: it is ignored", "did you mean `connectors`?"),
            (11, "unknown setting `permision` of agent `a`: it is ignored", "did you mean `permission`?"),
        ],
        "`hooks` and `model` are not near misses"
    );
    assert!(rule_ids(&report).iter().all(|r| *r == "unknown-key"));
}

#[test]
fn an_empty_or_null_tools_key_still_selects() {
    for yaml in ["tools: {}\n", "tools:\n", "tools:\n  # every line deleted\n"] {
        let (code, report) = lint(&[("beeuni.yaml", yaml)]);
        assert_eq!(code, 1, "{yaml:?}");
        assert_eq!(rule_ids(&report), ["no-beeuni-tools"], "{yaml:?}");
        assert_eq!(
            (diagnostics(&report)[0]["line"].as_u64(), diagnostics(&report)[0]["column"].as_u64()),
            (Some(1), Some(1))
        );
    }
}

#[test]
fn no_beeuni_tools_once_at_the_first_tools_key_in_graph_order() {
    let (_, report) = lint(&[
        ("beeuni.yaml", "imports:\n  - config/a.yaml\n  - config/b.yaml\n"),
        ("config/a.yaml", "imports: [config/c.yaml]\nagents: {}\n"),
        ("config/c.yaml", "# c\ntools: {}\n"),
        ("config/b.yaml", "tools:\n  lookup_order: tools/x.ts\n"),
        ("tools/x.ts", MODULE),
    ]);
    let found = of_rule(&report, "no-beeuni-tools");
    assert_eq!(found.len(), 1, "{report:#}");
    assert_eq!((found[0]["path"].as_str(), found[0]["line"].as_u64()), (Some("config/c.yaml"), Some(2)));
}

#[test]
fn beeuni_tools_listed_in_several_files_count_together() {
    let dir = project(&[
        ("beeuni.yaml", "imports: [config/tools.yaml]\ntools:\n  web_search: beeuni:web_search\n"),
        ("config/tools.yaml", "tools:\n  memory: beeuni:memory\n"),
    ]);
    let (code, report) = json_in(dir.path(), &[]);
    assert_clean("union", code, &report);
    let run = run_in(dir.path(), &["ls", "--json", "."]);
    let listing: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(listing["removed"], serde_json::json!(["image_search", "scrape_webpage", "show"]));
}

#[test]
fn import_missing_helps_with_a_path_relative_to_the_importer() {
    let (_, report) = lint(&[
        ("beeuni.yaml", "imports: [config/tools.yaml]\ntools:\n  web_search: beeuni:web_search\n"),
        ("config/tools.yaml", "imports: [more.yaml]\n"),
        ("config/more.yaml", "agents: {}\n"),
    ]);
    let message = "imported file `more.yaml` does not exist";
    assert_findings(&report, &[("import-missing", "error", "config/tools.yaml", 1, 11, message)]);
    assert_help(
        &diagnostics(&report)[0],
        "import paths are repo-relative; relative to `config/tools.yaml` it is `config/more.yaml`: write that instead",
    );
}

#[test]
fn import_path_forms() {
    let (_, report) = lint(&[(
        "beeuni.yaml",
        "imports: [/etc/x.yaml, 'https://example.com/a.yaml', ~/a.yaml, 'C:/a.yaml']\ntools:\n  web_search: beeuni:web_search\n",
    )]);
    let messages: Vec<_> = of_rule(&report, "import-path").iter().map(|d| d["message"].as_str().unwrap()).collect();
    assert_eq!(
        messages,
        [
            "import path `/etc/x.yaml` is absolute",
            "import path `https://example.com/a.yaml` is a URL or has a scheme",
            "import path `~/a.yaml` starts with `~`",
            "import path `C:/a.yaml` starts with a drive letter",
        ]
    );
}

#[test]
fn duplicate_keys_compare_values_not_quotes() {
    let (_, report) =
        lint(&[("beeuni.yaml", "x:\n  1: a\n  \"1\": b\n  a: 1\n  'a': 2\ntools:\n  web_search: beeuni:web_search\n")]);
    let message = "duplicate key `a`: YAML keeps only one of them";
    assert_findings(&report, &[("duplicate-key", "error", "beeuni.yaml", 5, 3, message)]);
}

#[test]
fn tool_value_for_every_non_string() {
    let (_, report) = lint(&[(
        "beeuni.yaml",
        "tools:\n  web_search:\n  b1: 3\n  b2: [a]\n  b3: {a: b}\n  b4: true\n  memory: beeuni:memory\n",
    )]);
    let messages: Vec<_> = of_rule(&report, "tool-value").iter().map(|d| d["message"].as_str().unwrap()).collect();
    assert_eq!(
        messages,
        [
            "the value of tool `web_search` must be a string, not null",
            "the value of tool `b1` must be a string, not a number",
            "the value of tool `b2` must be a string, not a list",
            "the value of tool `b3` must be a string, not a mapping",
            "the value of tool `b4` must be a string, not a boolean",
        ]
    );
    assert_help(
        of_rule(&report, "tool-value")[0],
        "write `web_search: beeuni:web_search`, or the path of a module that replaces it",
    );
}

#[test]
fn a_misnamed_manifest_in_other_letter_case() {
    let (code, report) = lint(&[("Beeuni.yaml", "tools:\n  web_search: beeuni:web_search\n")]);
    assert_eq!(code, 1);
    let message = "the manifest must be named `beeuni.yaml`; `Beeuni.yaml` is not read";
    assert_findings(&report, &[("manifest-name", "error", "Beeuni.yaml", 1, 1, message)]);
}

/// RULES §10: a name in capitals only is suggested lower-cased (`LOOKUP` → `lookup`, not `l_o_o_k_u_p`), and a
/// name with two faults names both.
#[test]
fn tool_name_suggests_the_lowercase_name_and_names_every_fault() {
    let yaml = "tools:\n  web_search: beeuni:web_search\n  LOOKUP: tools/x.ts\n  Lookup-Order: tools/x.ts\n";
    let (_, report) = lint(&[("beeuni.yaml", yaml), ("tools/x.ts", MODULE)]);
    let prefix = "is not snake_case of at most 64 characters: ";
    let found = of_rule(&report, "tool-name");
    assert_findings(
        &serde_json::json!({ "diagnostics": found }),
        &[
            (
                "tool-name",
                "error",
                "beeuni.yaml",
                3,
                3,
                &format!("tool name `LOOKUP` {prefix}it has the upper-case letter `L`"),
            ),
            (
                "tool-name",
                "error",
                "beeuni.yaml",
                4,
                3,
                &format!("tool name `Lookup-Order` {prefix}it has the upper-case letter `L`; it has a dash; use `_`"),
            ),
        ],
    );
    assert_help(found[0], "rename it, e.g. `lookup`, here and in every agent list that names it");
    assert_help(found[1], "rename it, e.g. `lookup_order`, here and in every agent list that names it");
}
