//! `impact`'s causes: each change filed under the line that made it, in the three formats; paths from the
//! repository's root in a monorepo; links from `--link-base` with every part of the path escaped.

use crate::change_support::bin_in;
use crate::impact::{two_commits, with_causes};
use serde_json::{Value, json};

/// The case: one `exclude:` list emptied, in an imported file. Each format says the net change first,
/// then the cause at its line with what it gives, `pty_*` folded under `bash`; the human report is five lines.
#[test]
fn an_emptied_exclude_is_one_cause_at_its_line_in_every_format() {
    let manifest = ("beeuni.yaml", "imports: [config/agents.yaml]\n");
    let agents = |exclude: &str| {
        format!("agents:\n  # the support desk\n  support:\n    tools:\n      # no shell\n      exclude: [{exclude}]\n")
    };
    let repo = two_commits(
        &[manifest, ("config/agents.yaml", &agents("bash"))],
        &[manifest, ("config/agents.yaml", &agents(""))],
    );
    let report = with_causes(&repo);
    let support = &agents_of(&report)[0];
    assert_eq!(
        support["causes"],
        json!([{
            "change": "`exclude:` emptied", "path": "config/agents.yaml", "line": 6, "column": 7, "side": "head",
            "gains": ["bash", "pty_spawn", "pty_write", "pty_read", "pty_list", "pty_kill"], "loses": [],
            "secrets_granted": [], "secrets_revoked": []
        }])
    );
    assert!(support["harnesses"][0]["gained"].as_array().unwrap().iter().all(|row| row["cause"] == 0));
    let short = repo.short("main");
    let human = bin_in(&repo.dir, &["impact", "--base", "main"]).stdout;
    assert_eq!(
        human,
        format!(
            "1 agent gains tools\ncompared: merge base {short} of main and HEAD -> work tree\n\n\
             agent support: +bash (+pty_*)\n  config/agents.yaml:6  `exclude:` emptied: +bash (+pty_*)\n"
        )
    );
    let link = "https://github.example/o/r/blob/0123abc";
    let markdown = bin_in(&repo.dir, &["impact", "--base", "main", "--format", "markdown", "--link-base", link]);
    assert_eq!(
        markdown.stdout,
        format!(
            "### beeuni-lint impact\n\n1 agent gains tools\n\nCompared work tree with `merge base {short} of main and HEAD`.\n\n\
             - **`support`**: +`bash` (+`pty_*`)\n  \
             - [`config/agents.yaml:6`]({link}/config/agents.yaml#L6) `exclude:` emptied: +`bash` (+`pty_*`)\n"
        )
    );
}

fn agents_of(report: &Value) -> &Vec<Value> {
    report["projects"][0]["agents"].as_array().unwrap()
}

/// Each part of a path is percent-escaped in a link: a folder named `a b#?)` cannot end the link or add to it.
#[test]
fn links_escape_each_part_of_the_path() {
    let manifest = ("beeuni.yaml", "imports: [\"odd dir/#x?)].yaml\"]\n");
    let repo = two_commits(
        &[manifest, ("odd dir/#x?)].yaml", "agents:\n  a:\n    tools: [read]\n")],
        &[manifest, ("odd dir/#x?)].yaml", "agents:\n  a:\n    tools: [read, grep]\n")],
    );
    let run = bin_in(
        &repo.dir,
        &["impact", "--base", "main", "--format", "markdown", "--link-base", "http://127.0.0.1:8/o/r/blob/1"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("\n  - [`odd dir/#x?)].yaml:3`](http://127.0.0.1:8/o/r/blob/1/odd%20dir/%23x%3F%29%5D.yaml#L3) `tools:` lists `grep`: +`grep`\n"),
        "{}",
        run.stdout
    );
    for bad in ["javascript:alert(1)", "https://x/a b", "https://x/a)b", "https://x/\u{1b}[2J"] {
        let run = bin_in(&repo.dir, &["impact", "--base", "main", "--link-base", bad]);
        assert_eq!((run.code, run.stdout.as_str(), run.stderr.lines().count()), (2, "", 1), "{bad}: {}", run.stderr);
        assert!(run.stderr.starts_with("beeuni-lint: --link-base must be an http or https URL"), "{}", run.stderr);
    }
}

/// Every path is the repository's, as `check` writes it: the module of the project `apps/two` is
/// `apps/two/tools/t.ts`, and each cause names its project's manifest from the root.
#[test]
fn a_monorepo_root_compares_every_project_with_paths_from_the_root() {
    let module = |description: &str| {
        format!(
            "export default {{\n  description: '{description}',\n  parameters: {{}},\n  async execute() {{ return ''; }},\n}};\n"
        )
    };
    let two = "tools:\n  t: ./tools/t.ts\nagents:\n  b:\n    tools: [read, t]\n";
    let repo = two_commits(
        &[
            ("apps/one/beeuni.yaml", "agents:\n  a:\n    tools: [read]\n"),
            ("apps/two/beeuni.yaml", two),
            ("apps/two/tools/t.ts", &module("Old")),
        ],
        &[
            ("apps/one/beeuni.yaml", "agents:\n  a:\n    tools: [read, grep]\n"),
            ("apps/two/beeuni.yaml", two),
            ("apps/two/tools/t.ts", &module("New")),
        ],
    );
    let run = bin_in(
        &repo.dir,
        &["impact", "--base", "main", "--format", "json", "--link-base", "https://x.test/o/r/blob/abc"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    let projects: Vec<(&str, usize)> = report["projects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["project"].as_str().unwrap(), p["agents"].as_array().unwrap().len()))
        .collect();
    assert_eq!(projects, [("apps/one", 1), ("apps/two", 0)]);
    let module = &report["projects"][1]["modules_changed"][0];
    assert_eq!((&module["module"], &module["line"]), (&json!("apps/two/tools/t.ts"), &json!(2)));
    assert_eq!(module["url"], "https://x.test/o/r/blob/abc/apps/two/tools/t.ts#L2");
    let cause = &report["projects"][0]["agents"][0]["causes"][0];
    assert_eq!(
        (&cause["path"], &cause["line"], &cause["column"], &cause["change"], &cause["gains"]),
        (&json!("apps/one/beeuni.yaml"), &json!(3), &json!(19), &json!("`tools:` lists `grep`"), &json!(["grep"]))
    );
    assert_eq!(cause["url"], "https://x.test/o/r/blob/abc/apps/one/beeuni.yaml#L3");
    let human = bin_in(&repo.dir, &["impact", "--base", "main"]).stdout;
    let short = repo.short("main");
    assert_eq!(
        human,
        format!(
            "1 agent gains tools; 1 tool module changed\ncompared: merge base {short} of main and HEAD -> work tree\n\n\
             ==> apps/one <==\nagent a: +grep\n  apps/one/beeuni.yaml:3  `tools:` lists grep: +grep\n\n\
             ==> apps/two <==\ntool t (apps/two/tools/t.ts:2): description changed\n"
        )
    );
    let markdown = bin_in(&repo.dir, &["impact", "--base", "main", "--format", "markdown"]).stdout;
    assert!(markdown.contains("\n- tool `t` (`apps/two/tools/t.ts:2`): description changed\n"), "{markdown}");
    assert!(markdown.contains("\n  - `apps/one/beeuni.yaml:3` `tools:` lists `grep`: +`grep`\n"), "{markdown}");
}

/// The docs' example in JSON: a tool listed gives the tools sharing its permission (standard harness), a secrets
/// list grants, a Beeuni tool no longer loaded is at the base's line; `task` reach is caused where `task` came.
#[test]
fn causes_of_a_shared_permission_a_secret_a_beeuni_tool_and_task() {
    let base = "tools:\n  memory: beeuni:memory\nagents:\n  support:\n    tools: [read, memory]\n    secrets: [A]\n  helper:\n    tools: [grep]\n";
    let head = "tools:\n  web_search: beeuni:web_search\nagents:\n  support:\n    tools: [read, edit, task]\n    secrets: [A, B]\n  helper:\n    tools: [grep]\n";
    let repo = two_commits(&[("beeuni.yaml", base)], &[("beeuni.yaml", head)]);
    let report = with_causes(&repo);
    let support = &agents_of(&report)[0];
    let cause = |change: &str, line: u64, column: u64, side: &str, gains: Value, loses: Value, granted: Value| {
        json!({ "change": change, "path": "beeuni.yaml", "line": line, "column": column, "side": side,
                "gains": gains, "loses": loses, "secrets_granted": granted, "secrets_revoked": [] })
    };
    let none = json!([]);
    assert_eq!(
        support["causes"],
        json!([
            cause(
                "`tools:` lists `edit`",
                5,
                19,
                "head",
                json!(["write", "edit", "apply_patch"]),
                none.clone(),
                none.clone()
            ),
            cause("`tools:` lists `task`", 5, 25, "head", json!(["task", "grep"]), none.clone(), none.clone()),
            cause(
                "`tools:` no longer loads the Beeuni tool: gone for every agent",
                2,
                3,
                "base",
                none.clone(),
                json!(["memory"]),
                none.clone()
            ),
            cause("`secrets:` list changed", 6, 5, "head", none.clone(), none.clone(), json!(["B"])),
        ])
    );
    // `grep`, reached through `task` via `helper`, is filed under `task`.
    assert_eq!(
        support["harnesses"][0]["task_gained"],
        json!([{ "name": "grep", "source": "harness", "via": "helper", "cause": 1 }])
    );
    let human = bin_in(&repo.dir, &["impact", "--base", "main"]).stdout;
    let expected = "\nagent support: +write [standard], +edit, +task, +apply_patch [standard], +grep through `task` \
                    [standard]; −memory; secret +B\n\
                    \x20 beeuni.yaml:5  `tools:` lists edit: +write [standard], +edit, +apply_patch [standard]\n\
                    \x20 beeuni.yaml:5  `tools:` lists task: +task, +grep through `task` [standard]\n\
                    \x20 beeuni.yaml:2 (base)  `tools:` no longer loads the Beeuni tool: gone for every agent: −memory\n\
                    \x20 beeuni.yaml:6  `secrets:` list changed: secret +B\n\
                    agent helper: secret +B\n\
                    \x20 beeuni.yaml:7  no `secrets:` list: every secret some agent lists: secret +B\n";
    assert!(human.ends_with(expected), "{human}");
}
