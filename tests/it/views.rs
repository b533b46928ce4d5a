//! `ls` and `agents` never guess: on a manifest they cannot read they print why and exit 2, and `agents`
//! agrees with `check` (docs/spec/rules.md §10, readings settled in revision 2).

use crate::common::{MODULE, fixture, project, run_in};
use serde_json::Value;

#[test]
fn views_refuse_a_manifest_that_is_not_yaml() {
    let dir = project(&[("beeuni.yaml", "tools:\n  web_search: beeuni:web_search\nagents: [\n")]);
    let check = run_in(dir.path(), &["--format", "short", "."]);
    assert_eq!(check.code, 1);
    for view in [&["ls", "."][..], &["ls", "--json", "."], &["agents", "."], &["agents", "--json", "."]] {
        let run = run_in(dir.path(), view);
        assert_eq!(run.code, 2, "{view:?}");
        assert_eq!(run.stdout, "", "{view:?}");
        let mut lines = run.stderr.lines();
        // The same line `check --format short` prints.
        assert_eq!(lines.next(), check.stdout.lines().next(), "{view:?}");
        assert!(
            check.stdout.starts_with("beeuni.yaml:3:9: error[yaml-syntax] unclosed bracket '['"),
            "{}",
            check.stdout
        );
        assert_eq!(
            lines.next(),
            Some(
                "beeuni-lint: the manifest cannot be read: fix the errors above (`beeuni-lint check` shows them in full)"
            )
        );
    }
}

#[test]
fn views_refuse_a_manifest_of_the_wrong_shape_in_an_import() {
    let dir = project(&[
        ("beeuni.yaml", "imports: [more.yaml]\n"),
        ("more.yaml", "tools: [web_search]\nagents:\n  a:\n    tools: all\n"),
    ]);
    for view in ["ls", "agents"] {
        let run = run_in(dir.path(), &[view, "."]);
        assert_eq!(run.code, 2);
        assert_eq!(run.stdout, "");
        assert!(run.stderr.starts_with("more.yaml:1:1: error[manifest-shape] "), "{view}: {}", run.stderr);
    }
}

#[test]
fn an_invalid_tool_list_is_invalid_never_a_tool_set() {
    let dir = project(&[(
        "beeuni.yaml",
        "agents:\n  a:\n    tools: bash\n  b:\n    tools:\n      exlude: [bash]\n  c:\n    tools: All\n",
    )]);
    let check = run_in(dir.path(), &["--format", "short", "."]);
    assert!(check.stdout.contains("error[agent-tools-shape]"), "{}", check.stdout);
    assert!(check.stdout.contains("error[unknown-key]"), "{}", check.stdout);
    let run = run_in(dir.path(), &["agents", "--json", "."]);
    assert_eq!(run.code, 0);
    let access: Value = serde_json::from_str(&run.stdout).unwrap();
    let entries = access.as_array().unwrap();
    assert_eq!(entries.len(), 6);
    for entry in entries {
        assert_eq!(entry["invalid"], true, "{entry:#}");
        assert_eq!(entry["tools"], serde_json::json!([]), "{entry:#}");
    }
    let text = run_in(dir.path(), &["agents", "."]).stdout;
    for agent in ["a", "b", "c"] {
        assert!(text.contains(&format!("\n{agent}      invalid (see check)  -        -       -\n")), "{text}");
    }
}

#[test]
fn refused_and_unknown_names_are_never_listed() {
    let dir = project(&[
        (
            "beeuni.yaml",
            "tools:\n  show: beeuni:show\n  Lookup-Order: tools/a.ts\n  bash: tools/bash.ts\n  list: tools/list.ts\n  \"\": tools/empty.ts\n  ok_tool: tools/ok.ts\nagents:\n  a:\n    tools: [Lookup-Order, bash, grpe, ok_tool, list]\n",
        ),
        ("tools/a.ts", MODULE),
        ("tools/bash.ts", MODULE),
        ("tools/list.ts", MODULE),
        ("tools/empty.ts", MODULE),
        ("tools/ok.ts", MODULE),
    ]);
    let run = run_in(dir.path(), &["agents", "--json", "."]);
    let access: Value = serde_json::from_str(&run.stdout).unwrap();
    let names: Vec<(&str, &str)> = access[0]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["name"].as_str().unwrap(), t["source"].as_str().unwrap()))
        .collect();
    // `bash` is the harness's own (the project tool of that name is refused), and the terminal follows it; `list`
    // is a tier-2 harness name (not always there): a project tool of that name is not offered either.
    let pty = ["pty_spawn", "pty_write", "pty_read", "pty_list", "pty_kill"].map(|p| (p, "harness"));
    let expected: Vec<(&str, &str)> =
        [("bash", "harness")].into_iter().chain(pty).chain([("ok_tool", "project")]).collect();
    assert_eq!(names, expected);
    let run = run_in(dir.path(), &["ls", "--json", "."]);
    let listing: Value = serde_json::from_str(&run.stdout).unwrap();
    let listed: Vec<&str> = listing["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(listed, ["show", "list", "ok_tool"]);
}

#[test]
fn the_docs_agents_example_as_two_tables() {
    let dir = fixture("docs-agents");
    let run = run_in(dir.path(), &["agents", "."]);
    assert_eq!(run.code, 0);
    assert_eq!(
        run.stdout,
        "Standard harness (opencode): `write`, `edit`, `apply_patch` share one permission; `pty_*` follow `bash`
AGENT       WHY                       HARNESS                                 BEEUNI      PROJECT
beeuni      `all`                     all                                     all         lookup_order
            follows `bash`            pty_*                                   -           -
researcher  listed                    read, grep                              web_search  lookup_order
support     not excluded              all but bash, write, edit, apply_patch  all         lookup_order
            through `task`: `beeuni`  bash, write, edit, apply_patch, pty_*   -           -
greeter     no tool                   -                                       -           -

Experimental harness: every name as written; no terminal plugin
AGENT       WHY           HARNESS                    BEEUNI      PROJECT
beeuni      `all`         all                        all         lookup_order
researcher  listed        read, grep                 web_search  lookup_order
support     not excluded  all but bash, write, edit  all         lookup_order
greeter     no tool       -                          -           -
"
    );
    // JSON: what `task` reaches is its own key, naming the agent it goes through; the tools stay direct.
    let run = run_in(dir.path(), &["agents", "--json", "."]);
    let access: Value = serde_json::from_str(&run.stdout).unwrap();
    let support = access.as_array().unwrap().iter().find(|e| e["agent"] == "support" && e["harness"] == "standard");
    let support = support.unwrap();
    assert_eq!(support["through_task"][0], serde_json::json!({"name": "bash", "source": "harness", "via": "beeuni"}));
    assert!(!support["tools"].as_array().unwrap().iter().any(|t| t["name"] == "bash"));
    // The experimental harness gives a subagent only what both lists allow: nothing more through `task`.
    let experimental =
        access.as_array().unwrap().iter().find(|e| e["agent"] == "support" && e["harness"] == "experimental");
    assert!(experimental.unwrap().get("through_task").is_none());
}

#[test]
fn a_misspelt_tools_key_is_invalid_not_every_tool() {
    let dir = project(&[("beeuni.yaml", "agents:\n  a:\n    tool: [read]\n  b:\n    tools: [task]\n")]);
    let check = run_in(dir.path(), &["--format", "short", "."]);
    assert_eq!(
        check.stdout,
        "beeuni.yaml:3:5: warning[unknown-key] unknown setting `tool` of agent `a`: it is ignored\n"
    );
    let run = run_in(dir.path(), &["agents", "--json", "."]);
    let access: Value = serde_json::from_str(&run.stdout).unwrap();
    let a = &access[0];
    assert_eq!((&a["agent"], &a["invalid"], &a["tools"]), (&"a".into(), &true.into(), &serde_json::json!([])));
    // Nor does `b` reach anything through `task` by starting `a`.
    assert!(access[1].get("through_task").is_none(), "{access:#}");
}

/// `ls` keeps the documented table and adds after it a line for each listed tool whose module `check` says is
/// skipped at load; `ls --json` marks them with `skipped_at_load: true` (left out when false). Each fixture's
/// clean twin gets neither.
#[test]
fn ls_points_at_the_tools_whose_module_is_skipped_at_load() {
    let line = "\nlookup_order: tools/lookup_order.ts will be skipped at load, so sessions do not get the tool (`beeuni-lint check` says why)\n";
    for name in ["module-syntax", "module-missing", "module-import-missing"] {
        let dir = fixture(name);
        let run = run_in(dir.path(), &["ls", "."]);
        assert_eq!(run.code, 0, "{name}: {}", run.stderr);
        let table = "NAME            KIND     SOURCE\nweb_search      beeuni   beeuni:web_search\nimage_search    beeuni   beeuni:image_search\nscrape_webpage  beeuni   beeuni:scrape_webpage\nmemory          beeuni   beeuni:memory\nshow            beeuni   beeuni:show\nlookup_order    project  tools/lookup_order.ts\n";
        assert_eq!(run.stdout, format!("{table}{line}"), "{name}");
        let listing: Value = serde_json::from_str(&run_in(dir.path(), &["ls", "--json", "."]).stdout).unwrap();
        assert_eq!(listing["tools"][5]["skipped_at_load"], true, "{name}: {listing:#}");
        assert!(listing["tools"][0].get("skipped_at_load").is_none(), "{name}: {listing:#}");
        let clean = fixture(&format!("{name}-clean"));
        let run = run_in(clean.path(), &["ls", "."]);
        assert!(!run.stdout.contains("skipped at load"), "{name}-clean: {}", run.stdout);
        let listing: Value = serde_json::from_str(&run_in(clean.path(), &["ls", "--json", "."]).stdout).unwrap();
        let marked = listing["tools"].as_array().unwrap().iter().any(|t| t.get("skipped_at_load").is_some());
        assert!(!marked, "{name}-clean: {listing:#}");
    }
    // A helper that fails at load takes down the declared module that imports it; an import in `execute` fails
    // only when called, and the module loads.
    let dir = project(&[
        ("beeuni.yaml", "tools:\n  show: beeuni:show\n  a_tool: tools/a.ts\n  b_tool: tools/b.ts\n"),
        (
            "tools/a.ts",
            "import { x } from './helper'\nexport default { description: x, parameters: { type: 'object', properties: {} }, async execute() { return 'a' } }\n",
        ),
        ("tools/helper.ts", "import { y } from './nope'\nexport const x = 'd' + y\n"),
        (
            "tools/b.ts",
            "export default { description: 'd', parameters: { type: 'object', properties: {} }, async execute() { const m = await import('./gone'); return m.x } }\n",
        ),
    ]);
    let run = run_in(dir.path(), &["ls", "."]);
    assert!(
        run.stdout.ends_with("\na_tool: tools/a.ts will be skipped at load, so sessions do not get the tool (`beeuni-lint check` says why)\n"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("b_tool: tools/b.ts will"), "{}", run.stdout);
}
