//! The command line: exit codes, `--fail-on`, the output formats, `ls`,
//! `rules`, `explain`, the docs' clean projects, and the rules' index page.

use crate::common::*;
use serde_json::Value;
use std::collections::BTreeSet;

/// `beeuni-lint rules` as (id, severity, summary) rows.
fn rules_rows() -> Vec<(String, String, String)> {
    let dir = tempfile::TempDir::new().unwrap();
    let run = run_in(dir.path(), &["rules"]);
    assert_eq!(run.code, 0);
    run.stdout
        .lines()
        .map(|line| {
            let (id, rest) = line.split_once(' ').unwrap_or_else(|| panic!("bad row {line:?}"));
            let (severity, summary) = rest.trim_start().split_once(' ').unwrap();
            (id.to_string(), severity.to_string(), summary.trim_start().to_string())
        })
        .collect()
}

#[test]
fn every_listed_rule_has_a_fixture_and_a_clean_twin() {
    let rows = rules_rows();
    assert!(rows.len() >= 36, "{rows:?}");
    for (id, severity, summary) in &rows {
        assert!(["error", "warning", "info"].contains(&severity.as_str()), "{id}: {severity}");
        assert!(!summary.is_empty(), "{id} has no summary");
        if id == "file-untracked" {
            continue; // needs git: tests/it/git.rs
        }
        for name in [id.clone(), format!("{id}-clean")] {
            assert!(fixture_path(&name).is_dir(), "no fixture tests/fixtures/{name}");
        }
    }
    let ids: BTreeSet<_> = rows.iter().map(|r| r.0.as_str()).collect();
    assert_eq!(ids.len(), rows.len(), "a rule is listed twice");
}

#[test]
fn rules_lists_the_catalogue_in_aligned_columns() {
    let dir = tempfile::TempDir::new().unwrap();
    let run = run_in(dir.path(), &["rules"]);
    let first = run.stdout.lines().next().unwrap();
    assert!(first.starts_with("yaml-syntax "), "{first}");
    // id column: the longest id plus two; severity column: nine wide.
    let width = rules_rows().iter().map(|r| r.0.len()).max().unwrap() + 2;
    for line in run.stdout.lines() {
        assert!(["error ", "warning ", "info "].iter().any(|s| line[width..].starts_with(s)), "{line:?}");
        assert_ne!(&line[width + 9..width + 10], " ", "{line:?}");
    }
    let ids: Vec<_> = rules_rows().into_iter().map(|r| r.0).collect();
    for id in [
        "yaml-syntax",
        "file-untracked",
        "unused-ignore",
        "unknown-excluded-tool",
        "task-escalation",
        "duplicate-agent",
    ] {
        assert!(ids.iter().any(|i| i == id), "{id} missing from `rules`");
    }
}

/// The rules' index page (docs/rules/index.md, generated) says what `beeuni-lint rules` says, in the same order
/// (its sections are the categories, in catalogue order).
#[test]
fn the_rule_index_matches_rules() {
    let index = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/rules/index.md")).unwrap();
    let mut rows = Vec::new();
    for line in index.lines().map(str::trim).filter(|l| l.starts_with('|')) {
        let inner = line.trim_start_matches('|').trim_end_matches('|');
        let cells: Vec<String> =
            inner.replace("\\|", "\u{0}").split('|').map(|c| c.trim().replace('\u{0}', "|")).collect();
        // Rule, severity, fix, summary: `rules` has all but the fix.
        assert_eq!(cells.len(), 4, "index row {line:?}");
        let Some((id, page)) = cells[0].strip_prefix("[`").and_then(|c| c.split_once("`](")) else {
            continue; // the header and the `---` line
        };
        assert_eq!(page, format!("{id}.md)"));
        rows.push((id.to_string(), cells[1].clone(), cells[3].clone()));
    }
    assert_eq!(rows, rules_rows(), "docs/rules/index.md differs from `beeuni-lint rules`");
}

#[test]
fn explain_prints_the_rule_documentation() {
    let dir = tempfile::TempDir::new().unwrap();
    let run = run_in(dir.path(), &["explain", "unknown-excluded-tool"]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.starts_with("unknown-excluded-tool (error)\n"), "{}", run.stdout);
    for heading in ["## What it checks", "## Why", "## Example", "## Fix"] {
        assert!(run.stdout.lines().any(|l| l == heading), "no {heading} in\n{}", run.stdout);
    }
    assert!(run.stdout.contains("exclude: [bsh, write]"), "{}", run.stdout);
    let page = "https://beeuni.github.io/beeuni-lint/rules/unknown-excluded-tool.html";
    assert!(run.stdout.ends_with(&format!("\nOnline: {page}\n")), "{}", run.stdout);
    let typo = run_in(dir.path(), &["explain", "unknown-excluded-tol"]);
    assert_eq!(typo.code, 2);
    assert!(typo.stderr.contains("did you mean `unknown-excluded-tool`?"), "{}", typo.stderr);
    // A part of an id (more than two edits away) names the ids that hold it.
    let part = run_in(dir.path(), &["explain", "unknown-exclude"]);
    assert_eq!(part.code, 2);
    assert!(
        part.stderr.contains("no rule `unknown-exclude`: did you mean `unknown-excluded-tool`?"),
        "{}",
        part.stderr
    );
    let vague = run_in(dir.path(), &["explain", "module"]);
    assert!(vague.stderr.contains("no rule `module`: `beeuni-lint rules` lists them"), "{}", vague.stderr);
}

#[test]
fn exit_codes() {
    let (code, _) = run("docs-starter", &[]);
    assert_eq!(code, 0);
    let (code, _) = run("tool-name", &[]);
    assert_eq!(code, 1);
    let empty = tempfile::TempDir::new().unwrap();
    let run = run_in(empty.path(), &["."]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("no beeuni.yaml at "), "{}", run.stderr);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    let ls = run_in(empty.path(), &["ls"]);
    assert_eq!(ls.code, 2);
    assert_eq!(run_in(empty.path(), &["--format", "xml", "."]).code, 2);
    assert_eq!(run_in(empty.path(), &["does/not/exist"]).code, 2);
}

#[test]
fn fail_on_thresholds() {
    // (fixture, its only finding's severity)
    let cases = [("empty-tool-list", "info"), ("shared-permission", "warning"), ("tool-name", "error")];
    let rank = |s: &str| ["info", "warning", "error"].iter().position(|x| *x == s).unwrap();
    for (fixture_name, severity) in cases {
        for fail_on in ["error", "warning", "info", "never"] {
            let (code, report) = run(fixture_name, &["--fail-on", fail_on]);
            assert_eq!(diagnostics(&report)[0]["severity"], severity);
            let fails = fail_on != "never" && rank(severity) >= rank(fail_on);
            assert_eq!(code, i32::from(fails), "{fixture_name} with --fail-on {fail_on}");
        }
    }
    // The default is `warning`.
    assert_eq!(run("empty-tool-list", &[]).0, 0);
    assert_eq!(run("shared-permission", &[]).0, 1);
}

#[test]
fn short_format_is_one_line_a_finding() {
    let dir = fixture("docs-agents");
    let run = run_in(dir.path(), &["--format", "short", "."]);
    assert_eq!(run.code, 0);
    let escalation = |tool: &str| {
        format!(
            "beeuni.yaml:14:5: info[task-escalation] agent `support` hides `{tool}` but can use `task`: on the standard harness a subagent gets its own list, so `support` can reach `{tool}` through `beeuni`\n"
        )
    };
    let expected = [
        escalation("bash"),
        escalation("edit"),
        escalation("write"),
        "beeuni.yaml:15:23: info[shared-permission] agent `support` hides `write` and `edit`: on the standard harness this hides `apply_patch` too (they share one permission); on the experimental harness it hides only `write` and `edit`\n".to_string(),
    ]
    .concat();
    assert_eq!(run.stdout, expected);
    let tool_name = fixture("tool-name");
    let run = run_in(tool_name.path(), &["check", "--format", "short", "."]);
    assert_eq!(
        run.stdout,
        "beeuni.yaml:7:3: error[tool-name] tool name `lookup-order` is not snake_case of at most 64 characters: it has a dash; use `_`\n"
    );
}

#[test]
fn json_report_shape_is_stable() {
    let dir = fixture("duplicate-tool");
    let (code, report) = json_in(dir.path(), &[]);
    assert_eq!(code, 1);
    assert_eq!(report["version"], 1);
    assert_eq!(report["tool"]["name"], "beeuni-lint");
    assert_eq!(report["tool"]["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(report["summary"], serde_json::json!({"error": 1, "warning": 0, "info": 0, "files": 4}));
    let first = run_in(dir.path(), &["--format", "json", "."]).stdout;
    let again = run_in(dir.path(), &["--format", "json", "."]).stdout;
    assert_eq!(first, again, "the report changes from run to run");
    let root = dir.path().canonicalize().unwrap();
    for format in ["json", "human", "short"] {
        let out = run_in(dir.path(), &["--format", format, "--color", "never", "."]).stdout;
        assert!(!out.contains(root.to_str().unwrap()), "{format} holds an absolute path:\n{out}");
    }
}

#[test]
fn check_takes_a_path_quiet_and_output() {
    let dir = fixture("docs-starter");
    let elsewhere = tempfile::TempDir::new().unwrap();
    let path = dir.path().to_str().unwrap();
    let run = run_in(elsewhere.path(), &["check", "--color", "never", path]);
    assert_eq!((run.code, run.stdout.as_str()), (0, "no problems in 1 file\n"));
    let quiet = run_in(elsewhere.path(), &["--quiet", path]);
    assert_eq!((quiet.code, quiet.stdout.as_str()), (0, ""));
    let noisy = fixture("tool-name");
    assert!(!run_in(noisy.path(), &["-q", "--format", "short"]).stdout.is_empty());
    let out = elsewhere.path().join("report.txt");
    let run = run_in(noisy.path(), &["--format", "short", "--output", out.to_str().unwrap(), "."]);
    assert_eq!((run.code, run.stdout.as_str()), (1, ""));
    let written = std::fs::read_to_string(out).unwrap();
    assert!(written.starts_with("beeuni.yaml:7:3: error[tool-name] "), "{written}");
}

/// The clean projects of the docs (and the other shapes a manifest may take).
const DOCS_PROJECTS: [&str; 7] = [
    "docs-starter",
    "docs-lookup-order",
    "docs-weather-now",
    "flow-style",
    "quoted-keys",
    "tools-in-import",
    "ls-docs",
];

#[test]
fn docs_projects_are_clean() {
    for name in DOCS_PROJECTS {
        let (code, report) = run(name, &["--fail-on", "info"]);
        assert_clean(name, code, &report);
    }
}

/// `beeuni-lint schema` (the command's output, as an editor gets it) accepts the manifest of every project the
/// linter finds clean (the clean twins and the docs' projects) with no finding ignored or turned off: an editor
/// must not mark what the lint accepts.
#[test]
fn the_schema_accepts_every_clean_fixture() {
    let dir = tempfile::TempDir::new().unwrap();
    let run = run_in(dir.path(), &["schema"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let schema: Value = serde_json::from_str(&run.stdout).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let mut names: Vec<String> = std::fs::read_dir(fixture_path(""))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with("-clean"))
        .chain(DOCS_PROJECTS.iter().map(|name| name.to_string()))
        .collect();
    names.sort();
    let (mut checked, mut failed) = (0, Vec::new());
    for name in &names {
        // A project of xcsh tools alone has no manifest.
        let Ok(text) = std::fs::read_to_string(fixture_path(name).join("beeuni.yaml")) else { continue };
        if text.contains("beeuni-lint: ignore") || fixture_path(name).join("beeuni-lint.toml").exists() {
            continue;
        }
        let doc = beeuni_lint::yaml::parse(&text).unwrap_or_else(|e| panic!("{name}: {}", e.message));
        let manifest = doc.root.map_or(Value::Null, |root| json_of(&doc, root));
        let errors: Vec<String> =
            validator.iter_errors(&manifest).map(|e| format!("{}: {e}", e.instance_path())).collect();
        if !errors.is_empty() {
            failed.push(format!("{name}: {errors:#?}"));
        }
        checked += 1;
    }
    assert_eq!(failed, Vec::<String>::new());
    assert!(checked > 40, "only {checked} manifests checked");
}

/// A YAML node as the JSON value an editor's YAML support hands the schema.
fn json_of(doc: &beeuni_lint::yaml::Document, id: beeuni_lint::yaml::NodeId) -> Value {
    use beeuni_lint::yaml::{Value as Yaml, scalar::ScalarKind};
    match &doc.node(id).value {
        Yaml::Scalar { text, kind, .. } => match kind {
            ScalarKind::Null => Value::Null,
            ScalarKind::Bool => Value::Bool(text.eq_ignore_ascii_case("true")),
            ScalarKind::Int => text.parse::<i64>().map_or_else(|_| Value::String(text.to_string()), Value::from),
            ScalarKind::Float => text.parse::<f64>().map_or_else(|_| Value::String(text.to_string()), Value::from),
            ScalarKind::Str => Value::String(text.to_string()),
        },
        Yaml::Seq(items) => items.iter().map(|&item| json_of(doc, item)).collect(),
        Yaml::Map(entries) => entries
            .iter()
            .map(|entry| {
                let key = match json_of(doc, entry.key) {
                    Value::String(key) => key,
                    other => other.to_string(),
                };
                (key, json_of(doc, entry.value))
            })
            .collect(),
        Yaml::Alias(target) => json_of(doc, *target),
    }
}

#[test]
fn ls_prints_the_docs_table() {
    let dir = fixture("ls-docs");
    let run = run_in(dir.path(), &["ls"]);
    assert_eq!(run.code, 0);
    assert_eq!(
        run.stdout,
        "NAME            KIND                 SOURCE\n\
         web_search      beeuni (overridden)  tools/web_search.ts\n\
         scrape_webpage  beeuni               beeuni:scrape_webpage\n\
         memory          beeuni               beeuni:memory\n\
         show            beeuni               beeuni:show\n\
         lookup_order    project              tools/lookup_order.ts\n\
         \n\
         Removed Beeuni tools: image_search\n\
         Add `<name>: beeuni:<name>` under `tools:` to get one back.\n"
    );
}

#[test]
fn ls_columns_are_as_wide_as_their_longest_cell_plus_two() {
    let dir = project(&[
        (
            "beeuni.yaml",
            "tools:\n  web_search: beeuni:web_search\n  image_search: beeuni:image_search\n  scrape_webpage: beeuni:scrape_webpage\n  memory: beeuni:memory\n  show: beeuni:show\n  a_rather_long_tool_name: tools/x.ts\n",
        ),
        ("tools/x.ts", MODULE),
    ]);
    let run = run_in(dir.path(), &["ls", "."]);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], "NAME                     KIND     SOURCE");
    assert_eq!(lines[6], "a_rather_long_tool_name  project  tools/x.ts");
    assert_eq!(lines.len(), 7, "no `Removed` lines when nothing is removed:\n{}", run.stdout);
}

#[test]
fn ls_json() {
    let dir = fixture("ls-docs");
    let run = run_in(dir.path(), &["ls", "--json"]);
    let listing: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let tool = |name: &str, kind: &str, source: &str| serde_json::json!({"name": name, "kind": kind, "source": source});
    assert_eq!(
        listing,
        serde_json::json!({
            "manifest": "beeuni.yaml",
            "tools_key": true,
            "tools": [
                tool("web_search", "beeuni (overridden)", "tools/web_search.ts"),
                tool("scrape_webpage", "beeuni", "beeuni:scrape_webpage"),
                tool("memory", "beeuni", "beeuni:memory"),
                tool("show", "beeuni", "beeuni:show"),
                tool("lookup_order", "project", "tools/lookup_order.ts"),
            ],
            "removed": ["image_search"],
        })
    );
    // No `tools:` key anywhere: all five, nothing removed.
    let bare = project(&[("beeuni.yaml", "agents:\n  greeter:\n    tools: none\n")]);
    let run = run_in(bare.path(), &["ls", "--json", "."]);
    let listing: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(listing["tools_key"], false);
    assert_eq!(listing["removed"], serde_json::json!([]));
    let names: Vec<_> = listing["tools"].as_array().unwrap().iter().map(|t| t["name"].clone()).collect();
    assert_eq!(names, ["web_search", "image_search", "scrape_webpage", "memory", "show"]);
    // A `tools:` key in an imported file counts for the selection rule.
    let imported = fixture("tools-in-import");
    let run = run_in(imported.path(), &["ls", "--json", "."]);
    let listing: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(listing["tools_key"], true);
    assert_eq!(listing["removed"], serde_json::json!(["scrape_webpage", "memory", "show"]));
}

/// Every fixture's report: sorted by path, line, column and rule; paths
/// repo-relative with `/` and naming a file of the fixture; each finding with
/// an end; a summary that counts the findings.
#[test]
fn every_fixture_report_is_sorted_relative_and_counted() {
    let mut names: Vec<String> = DOCS_PROJECTS.iter().map(|n| n.to_string()).collect();
    for (id, ..) in rules_rows() {
        names.push(format!("{id}-clean"));
        names.push(id);
    }
    for name in names {
        if !fixture_path(&name).is_dir() || fixture_path(&name).join("base").is_dir() {
            continue; // file-untracked has none; a change has base/ and head/ (tests/it/change_fixtures.rs)
        }
        let dir = fixture(&name);
        let (_, report) = json_in(dir.path(), &[]);
        let found = diagnostics(&report);
        let key = |d: &serde_json::Value| {
            (
                d["path"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap(),
                d["column"].as_u64().unwrap(),
                d["rule"].as_str().unwrap().to_string(),
            )
        };
        let keys: Vec<_> = found.iter().map(key).collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted, "{name}: findings are not sorted");
        for (path, ..) in &keys {
            assert!(!path.starts_with('/') && !path.contains('\\'), "{name}: path {path}");
            assert!(dir.path().join(path).is_file(), "{name}: {path} is not a file of the fixture");
        }
        // What the snapshots (short form) leave out and `assert_finding` checked: every finding has an end.
        for finding in found {
            for field in ["end_line", "end_column"] {
                assert!(finding[field].as_u64().is_some_and(|n| n >= 1), "{name}: {field} of {finding:#}");
            }
        }
        for severity in ["error", "warning", "info"] {
            let count = found.iter().filter(|d| d["severity"] == severity).count();
            assert_eq!(report["summary"][severity], count, "{name}: summary.{severity}");
        }
    }
}

#[test]
fn color_always_styles_and_never_does_not() {
    let dir = fixture("tool-name");
    let styled = run_in(dir.path(), &["--color", "always", "."]);
    assert!(styled.stdout.contains('\u{1b}'), "{}", styled.stdout);
    let plain = run_in(dir.path(), &["--color", "never", "."]);
    assert!(!plain.stdout.contains('\u{1b}'), "{}", plain.stdout);
    // `auto` with standard output not a terminal: plain.
    let auto = run_in(dir.path(), &["."]);
    assert!(!auto.stdout.contains('\u{1b}'), "{}", auto.stdout);
}
