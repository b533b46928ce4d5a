//! `beeuni-lint impact`: repositories of two commits (`main`, then `feature` checked out), one for each kind of
//! change; the JSON asserted exactly, the Markdown snapshotted, and every run checked against `agents --json` at
//! both commits: what `impact` says each agent gains and loses is exactly the difference of the two answers.

use crate::change_support::{MODULE, Repo, bin_in};
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// `main` holds `base`, `feature` (checked out) holds `head`: each a commit.
pub(crate) fn two_commits(base: &[(&str, &str)], head: &[(&str, &str)]) -> Repo {
    let repo = Repo::new();
    for (path, text) in base {
        repo.write(path, text);
    }
    repo.commit("base");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.git(&["rm", "-r", "-q", "."]);
    for (path, text) in head {
        repo.write(path, text);
    }
    repo.git(&["add", "-A"]);
    // A change that leaves the manifest as it was is a commit too.
    repo.git(&["commit", "-q", "--allow-empty", "-m", "head"]);
    repo
}

/// `impact --base main --format json` (exit 0), checked against `agents --json` at both commits and its causes
/// against its rows; returned without the fields that file rows under causes (`causes`, each row's `cause`, a
/// module's `line`), which the tests of causes assert ([`with_causes`]).
fn impact(repo: &Repo) -> Value {
    let mut report = with_causes(repo);
    for project in report["projects"].as_array_mut().unwrap() {
        for module in project["modules_changed"].as_array_mut().unwrap() {
            module.as_object_mut().unwrap().remove("line");
        }
        for agent in project["agents"].as_array_mut().unwrap() {
            agent.as_object_mut().unwrap().remove("causes");
            for harness in agent["harnesses"].as_array_mut().unwrap() {
                for list in harness.as_object_mut().unwrap().values_mut().filter_map(Value::as_array_mut) {
                    list.iter_mut().for_each(|row| drop(row.as_object_mut().unwrap().remove("cause")));
                }
            }
            for field in ["secrets_granted", "secrets_revoked"] {
                for secret in agent[field].as_array_mut().unwrap() {
                    secret.as_object_mut().unwrap().remove("cause");
                }
            }
        }
    }
    report
}

/// The whole report, checked: against `agents --json`, and every row's `cause` an index into its agent's
/// `causes`, which lists the row's name among what it gains or loses (and nothing no row names).
pub(crate) fn with_causes(repo: &Repo) -> Value {
    let run = bin_in(&repo.dir, &["impact", "--base", "main", "--format", "json"]);
    assert_eq!(run.code, 0, "stderr:\n{}", run.stderr);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    agrees_with_agents(repo, &report["projects"][0]);
    for agent in report["projects"].as_array().unwrap().iter().flat_map(|p| p["agents"].as_array().unwrap()) {
        let causes = agent["causes"].as_array().unwrap();
        let mut named: BTreeSet<(usize, &str, &str)> = BTreeSet::new();
        let mut rows = Vec::new();
        for harness in agent["harnesses"].as_array().unwrap() {
            for (list, field) in
                [("gained", "gains"), ("task_gained", "gains"), ("lost", "loses"), ("task_lost", "loses")]
            {
                rows.extend(harness[list].as_array().unwrap().iter().map(|row| (row, field)));
            }
        }
        rows.extend(agent["secrets_granted"].as_array().unwrap().iter().map(|row| (row, "secrets_granted")));
        rows.extend(agent["secrets_revoked"].as_array().unwrap().iter().map(|row| (row, "secrets_revoked")));
        for (row, field) in rows {
            let index = row["cause"].as_u64().unwrap() as usize;
            let name = row["name"].as_str().unwrap();
            assert!(causes[index][field].as_array().unwrap().iter().any(|n| n == name), "{row} in {agent:#}");
            named.insert((index, field, name));
        }
        for (index, cause) in causes.iter().enumerate() {
            for field in ["gains", "loses", "secrets_granted", "secrets_revoked"] {
                for name in cause[field].as_array().unwrap() {
                    assert!(named.contains(&(index, field, name.as_str().unwrap())), "{name} of {cause}");
                }
            }
        }
    }
    report
}

/// The one project's agents, without the fields every test repeats.
fn agents(report: &Value) -> &Value {
    &report["projects"][0]["agents"]
}

/// `agents --json` at `rev`: (agent, harness) -> (tools, tools reached through `task`).
/// (agent, harness) and (its tools, what it reaches through `task`), as `agents --json` lists them.
type Answer = ((String, String), (BTreeSet<String>, BTreeSet<String>));

fn agents_at(repo: &Repo, rev: &str) -> Vec<Answer> {
    repo.git(&["checkout", "-q", rev]);
    let run = bin_in(&repo.dir, &["agents", "--json"]);
    if run.code == 2 && run.stderr.starts_with("beeuni-lint: no beeuni.yaml at ") {
        return Vec::new();
    }
    assert_eq!(run.code, 0, "agents at {rev}: {}", run.stderr);
    let names = |list: &Value| {
        list.as_array()
            .map_or_else(BTreeSet::new, |l| l.iter().map(|t| t["name"].as_str().unwrap().to_string()).collect())
    };
    let list: Value = serde_json::from_str(&run.stdout).unwrap();
    list.as_array()
        .unwrap()
        .iter()
        .map(|a| {
            let key = (a["agent"].as_str().unwrap().to_string(), a["harness"].as_str().unwrap().to_string());
            (key, (names(&a["tools"]), names(&a["through_task"])))
        })
        .collect()
}

/// For every agent and harness: head = base - lost + gained, for its tools and for what it reaches via `task`.
fn agrees_with_agents(repo: &Repo, project: &Value) {
    let (base, head) = (agents_at(repo, "main"), agents_at(repo, "feature"));
    let changes = |agent: &str, harness: &str, field: &str| -> BTreeSet<String> {
        let entry = project["agents"].as_array().unwrap().iter().find(|a| a["agent"] == agent);
        let harness = entry.and_then(|e| e["harnesses"].as_array().unwrap().iter().find(|h| h["harness"] == harness));
        harness.map_or_else(BTreeSet::new, |h| {
            h[field].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap().to_string()).collect()
        })
    };
    let empty = (BTreeSet::new(), BTreeSet::new());
    let keys: BTreeSet<&(String, String)> = base.iter().chain(&head).map(|(key, _)| key).collect();
    for key @ (agent, harness) in keys {
        let before = base.iter().find(|(k, _)| k == key).map_or(&empty, |(_, v)| v);
        let after = head.iter().find(|(k, _)| k == key).map_or(&empty, |(_, v)| v);
        let expected = |b: &BTreeSet<String>, gained: &str, lost: &str| -> BTreeSet<String> {
            b.difference(&changes(agent, harness, lost)).cloned().chain(changes(agent, harness, gained)).collect()
        };
        assert_eq!(expected(&before.0, "gained", "lost"), after.0, "tools of {agent} on {harness}");
        assert_eq!(expected(&before.1, "task_gained", "task_lost"), after.1, "task reach of {agent} on {harness}");
    }
    let names = |list: &[((String, String), _)]| list.iter().map(|((a, _), _)| a.clone()).collect::<BTreeSet<_>>();
    let (before, after) = (names(&base), names(&head));
    let listed = |field: &str| {
        project[field].as_array().unwrap().iter().map(|n| n.as_str().unwrap().to_string()).collect::<BTreeSet<_>>()
    };
    assert_eq!(listed("agents_added"), after.difference(&before).cloned().collect());
    assert_eq!(listed("agents_removed"), before.difference(&after).cloned().collect());
}

fn change(name: &str, source: &str, why: &str) -> Value {
    json!({ "name": name, "source": source, "why": why })
}

const PTY: [&str; 5] = ["pty_spawn", "pty_write", "pty_read", "pty_list", "pty_kill"];

#[test]
fn an_emptied_exclude_gives_bash_and_the_terminal_tools() {
    let repo = two_commits(
        &[("beeuni.yaml", "agents:\n  coder:\n    tools:\n      exclude: [bash, webfetch]\n")],
        &[("beeuni.yaml", "agents:\n  coder:\n    tools:\n      exclude: [webfetch]\n")],
    );
    let report = impact(&repo);
    let before = "(before: `exclude:` lists it)";
    let pty_why = "follows `bash` (before: follows `bash`, and for `bash`: `exclude:` lists it)";
    let mut standard = vec![change("bash", "harness", &format!("not excluded {before}"))];
    standard.extend(PTY.iter().map(|p| change(p, "harness", pty_why)));
    let base = format!("merge base {} of main and HEAD", repo.short("main"));
    assert_eq!(
        report,
        json!({
            "version": 1, "base": base, "head": "work tree",
            "projects": [{
                "project": ".", "base_manifest": "read", "head_manifest": "read",
                "agents_added": [], "agents_removed": [], "tools_added": [], "tools_removed": [],
                "modules_changed": [],
                "agents": [{
                    "agent": "coder", "change": "changed", "secrets_granted": [], "secrets_revoked": [],
                    "harnesses": [
                        { "harness": "standard", "gained": standard, "lost": [], "task_gained": [], "task_lost": [] },
                        { "harness": "experimental", "gained": [change("bash", "harness", &format!("not excluded {before}"))],
                          "lost": [], "task_gained": [], "task_lost": [] },
                    ]
                }]
            }]
        })
    );
}

#[test]
fn tools_dropping_a_beeuni_tool_takes_it_from_every_agent() {
    let both = "agents:\n  a:\n    tools: [read, memory]\n  b:\n    tools: [memory, web_search]\n";
    let repo = two_commits(
        &[("beeuni.yaml", &format!("tools:\n  web_search: beeuni:web_search\n  memory: beeuni:memory\n{both}"))],
        &[("beeuni.yaml", &format!("tools:\n  web_search: beeuni:web_search\n{both}"))],
    );
    let report = impact(&repo);
    let project = &report["projects"][0];
    assert_eq!(project["tools_removed"], json!([{ "name": "memory", "source": "beeuni" }]));
    let lost = json!([change("memory", "beeuni", "`tools:` no longer loads this Beeuni tool: gone for every agent")]);
    for (at, agent) in ["a", "b"].iter().enumerate() {
        assert_eq!(agents(&report)[at]["agent"], *agent);
        for harness in 0..2 {
            assert_eq!(agents(&report)[at]["harnesses"][harness]["lost"], lost, "{agent}");
            assert_eq!(agents(&report)[at]["harnesses"][harness]["gained"], json!([]), "{agent}");
        }
    }
}

#[test]
fn all_gives_every_tool_a_list_left_out() {
    let repo = two_commits(
        &[(
            "beeuni.yaml",
            "agents:\n  a:\n    tools: [read, grep, glob, question, webfetch, websearch, todowrite, skill, task]\n",
        )],
        &[("beeuni.yaml", "agents:\n  a:\n    tools: all\n")],
    );
    let report = impact(&repo);
    let was = "(before: not in its `tools:` list)";
    let beeuni = ["web_search", "image_search", "scrape_webpage", "memory", "show"];
    let pty_why = "follows `bash` (before: follows `bash`, and for `bash`: not in its `tools:` list)";
    let standard: Vec<Value> = ["bash", "write", "edit", "apply_patch"]
        .iter()
        .map(|t| change(t, "harness", &format!("`all` {was}")))
        .chain(beeuni.iter().map(|t| change(t, "beeuni", &format!("`all` {was}"))))
        .chain(PTY.iter().map(|p| change(p, "harness", pty_why)))
        .collect();
    let gained = &agents(&report)[0]["harnesses"][0]["gained"];
    let names = |list: &Value| {
        list.as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap().to_string()).collect::<BTreeSet<_>>()
    };
    assert_eq!(names(gained), names(&json!(standard)));
    for expected in &standard {
        assert!(gained.as_array().unwrap().contains(expected), "{expected} in {gained:#}");
    }
    assert_eq!(agents(&report)[0]["harnesses"][1]["harness"], "experimental");
    assert_eq!(
        names(&agents(&report)[0]["harnesses"][1]["gained"]),
        ["apply_patch", "bash", "edit", "write"].iter().chain(&beeuni).map(|t| t.to_string()).collect()
    );
}

#[test]
fn one_tool_of_a_shared_permission_brings_the_others_on_the_standard_harness() {
    let repo = two_commits(
        &[("beeuni.yaml", "agents:\n  a:\n    tools: [read]\n")],
        &[("beeuni.yaml", "agents:\n  a:\n    tools: [read, edit]\n")],
    );
    let report = impact(&repo);
    let was = "(before: not in its `tools:` list)";
    assert_eq!(
        agents(&report)[0]["harnesses"],
        json!([
            { "harness": "standard", "gained": [
                change("write", "harness", &format!("shares a permission with `edit` {was}")),
                change("edit", "harness", &format!("listed {was}")),
                change("apply_patch", "harness", &format!("shares a permission with `edit` {was}")),
              ], "lost": [], "task_gained": [], "task_lost": [] },
            { "harness": "experimental", "gained": [change("edit", "harness", &format!("listed {was}"))],
              "lost": [], "task_gained": [], "task_lost": [] },
        ])
    );
}

#[test]
fn excluding_one_tool_of_a_shared_permission_loses_the_others() {
    let repo = two_commits(
        &[("beeuni.yaml", "agents:\n  a:\n    tools:\n      exclude: [bash]\n")],
        &[("beeuni.yaml", "agents:\n  a:\n    tools:\n      exclude: [bash, write]\n")],
    );
    let report = impact(&repo);
    let shared = "`exclude:` lists `write`, which shares its permission (before: not excluded)";
    assert_eq!(
        agents(&report)[0]["harnesses"],
        json!([
            { "harness": "standard", "gained": [], "lost": [
                change("write", "harness", "`exclude:` lists it (before: not excluded)"),
                change("edit", "harness", shared),
                change("apply_patch", "harness", shared),
              ], "task_gained": [], "task_lost": [] },
            { "harness": "experimental", "gained": [],
              "lost": [change("write", "harness", "`exclude:` lists it (before: not excluded)")],
              "task_gained": [], "task_lost": [] },
        ])
    );
}

#[test]
fn secrets_granted_and_revoked() {
    let repo = two_commits(
        &[(
            "beeuni.yaml",
            "agents:\n  a:\n    tools: [read]\n    secrets: [GH_TOKEN, OLD_KEY]\n  b:\n    tools: [read]\n",
        )],
        &[(
            "beeuni.yaml",
            "agents:\n  a:\n    tools: [read]\n    secrets: [GH_TOKEN, STRIPE_KEY]\n  b:\n    tools: [read]\n",
        )],
    );
    let report = impact(&repo);
    let secret = |name: &str, why: &str| json!({ "name": name, "why": why });
    assert_eq!(
        agents(&report),
        &json!([
            { "agent": "a", "change": "changed", "harnesses": [],
              "secrets_granted": [secret("STRIPE_KEY", "in its `secrets:` list")],
              "secrets_revoked": [secret("OLD_KEY", "not in its `secrets:` list")] },
            { "agent": "b", "change": "changed", "harnesses": [],
              "secrets_granted": [secret("STRIPE_KEY", "no `secrets:` list: every secret of the project")],
              "secrets_revoked": [secret("OLD_KEY", "no agent lists it any more")] },
        ])
    );
}

#[test]
fn task_makes_the_other_agents_tools_reachable() {
    let repo = two_commits(
        &[("beeuni.yaml", "agents:\n  lead:\n    tools: [read]\n  shell:\n    tools: [bash]\n")],
        &[("beeuni.yaml", "agents:\n  lead:\n    tools: [read, task]\n  shell:\n    tools: [bash]\n")],
    );
    let report = impact(&repo);
    let was = "(before: not in its `tools:` list)";
    let reach = |name: &str| json!({ "name": name, "source": "harness", "via": "shell" });
    let mut reached = vec![reach("bash")];
    reached.extend(PTY.iter().map(|p| reach(p)));
    assert_eq!(
        agents(&report),
        &json!([{ "agent": "lead", "change": "changed", "secrets_granted": [], "secrets_revoked": [], "harnesses": [
            { "harness": "standard", "gained": [change("task", "harness", &format!("listed {was}"))], "lost": [],
              "task_gained": reached, "task_lost": [] },
            { "harness": "experimental", "gained": [change("task", "harness", &format!("listed {was}"))], "lost": [],
              "task_gained": [], "task_lost": [] },
        ]}])
    );
}

const CRM_BEFORE: &str = "export default {\n  description: 'Find a customer',\n  parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },\n  async execute() { return 'ok' },\n};\n";
const CRM_AFTER: &str = "export default {\n  description: 'Find or delete a customer',\n  parameters: {\n    type: 'object',\n    properties: { email: { type: 'string' }, delete: { type: 'boolean' } },\n    required: ['email'],\n  },\n  async execute() { return 'ok' },\n};\n";

#[test]
fn project_tools_added_removed_and_their_schema_changed() {
    let repo = two_commits(
        &[
            (
                "beeuni.yaml",
                "tools:\n  crm: ./tools/crm.ts\n  old: ./tools/old.ts\nagents:\n  a:\n    tools: [crm, old]\n",
            ),
            ("tools/crm.ts", CRM_BEFORE),
            ("tools/old.ts", MODULE),
        ],
        &[
            (
                "beeuni.yaml",
                "tools:\n  crm: ./tools/crm.ts\n  fresh: ./tools/fresh.ts\nagents:\n  a:\n    tools: [crm, fresh]\n",
            ),
            ("tools/crm.ts", CRM_AFTER),
            ("tools/fresh.ts", MODULE),
        ],
    );
    let report = impact(&repo);
    let project = &report["projects"][0];
    assert_eq!(project["tools_added"], json!([{ "name": "fresh", "source": "project" }]));
    assert_eq!(project["tools_removed"], json!([{ "name": "old", "source": "project" }]));
    assert_eq!(
        project["modules_changed"],
        json!([{ "name": "crm", "module": "tools/crm.ts", "description_changed": true, "parameters_changed": true,
                 "properties_added": ["delete", "email"], "properties_removed": ["id"],
                 "required_added": ["email"], "required_removed": ["id"] }])
    );
    let fresh = change("fresh", "project", "newly declared under `tools:`: listed");
    let old =
        change("old", "project", "no longer declared under `tools:` (or its module is gone): gone for every agent");
    for harness in 0..2 {
        assert_eq!(agents(&report)[0]["harnesses"][harness]["gained"], json!([fresh]));
        assert_eq!(agents(&report)[0]["harnesses"][harness]["lost"], json!([old]));
    }
}

/// `impact` reads the facts a `check` of the project cached for both sides (the base's unchanged modules are the
/// same blobs as the head's), writes no cache of its own, and says the same with the cache as without it.
#[test]
fn impact_reads_the_facts_a_check_cached_and_writes_none() {
    let yaml = "tools:\n  crm: ./tools/crm.ts\n  old: ./tools/old.ts\nagents:\n  a:\n    tools: [crm, old]\n";
    let repo = two_commits(
        &[("beeuni.yaml", yaml), ("tools/crm.ts", CRM_BEFORE), ("tools/old.ts", MODULE)],
        &[("beeuni.yaml", yaml), ("tools/crm.ts", CRM_AFTER), ("tools/old.ts", MODULE)],
    );
    let stats = |args: &[&str]| {
        let run = crate::common::bin(&repo.dir).env("BEEUNI_LINT_STATS", "1").args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
        let line =
            stderr.lines().find_map(|l| l.strip_prefix("stats: modules read ")).unwrap_or_else(|| panic!("{stderr}"));
        let parsed: usize =
            line.split(", parsed ").nth(1).and_then(|rest| rest.split(';').next()?.parse().ok()).unwrap();
        (String::from_utf8_lossy(&run.stdout).into_owned(), parsed)
    };
    let args = ["impact", "--base", "main", "--format", "json"];
    let (cold, parsed) = stats(&args);
    assert_eq!(parsed, 4, "no cache: both sides' two modules");
    assert!(!repo.path(".beeuni-lint-cache").exists(), "impact leaves no cache behind");
    assert_ne!(bin_in(&repo.dir, &["check", "."]).code, 2);
    let cache = std::fs::read(repo.path(".beeuni-lint-cache/modules.bin")).unwrap();
    let (warm, parsed) = stats(&args);
    assert_eq!(parsed, 1, "only the base's crm.ts, which no check of the head saw");
    assert_eq!(warm, cold);
    assert_eq!(std::fs::read(repo.path(".beeuni-lint-cache/modules.bin")).unwrap(), cache, "read, never written");
}

#[test]
fn a_module_reformatted_is_not_a_change() {
    let spaced = CRM_BEFORE.replace("{ type: 'object',", "{\n    type: 'object',\n   ");
    let yaml = "tools:\n  crm: ./tools/crm.ts\nagents:\n  a:\n    tools: [crm]\n";
    let repo = two_commits(
        &[("beeuni.yaml", yaml), ("tools/crm.ts", CRM_BEFORE)],
        &[("beeuni.yaml", yaml), ("tools/crm.ts", &spaced)],
    );
    assert_eq!(impact(&repo)["projects"][0]["modules_changed"], json!([]));
}

#[test]
fn a_module_that_became_a_link_out_of_the_repository_is_not_read() {
    let yaml = "tools:\n  crm: ./tools/crm.ts\nagents:\n  a:\n    tools: [crm]\n";
    let repo = two_commits(&[("beeuni.yaml", yaml), ("tools/crm.ts", CRM_BEFORE)], &[("beeuni.yaml", yaml)]);
    let outside = repo.tmp.path().join("outside.ts");
    std::fs::write(&outside, CRM_AFTER.replace("email", "stolen_from_outside")).unwrap();
    std::fs::create_dir(repo.path("tools")).unwrap();
    std::os::unix::fs::symlink(&outside, repo.path("tools/crm.ts")).unwrap();
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "--amend", "--no-edit"]);
    let report = impact(&repo);
    // What the module said is gone (the link is never followed), and where it was is named as declared.
    assert_eq!(
        report["projects"][0]["modules_changed"],
        json!([{ "name": "crm", "module": "tools/crm.ts", "description_changed": true, "parameters_changed": true,
                 "properties_added": [], "properties_removed": ["id"],
                 "required_added": [], "required_removed": ["id"] }])
    );
}

#[test]
fn agents_added_and_removed() {
    let repo = two_commits(
        &[("beeuni.yaml", "agents:\n  gone:\n    tools: [read]\n  kept:\n    tools: [read]\n")],
        &[("beeuni.yaml", "agents:\n  kept:\n    tools: [read]\n  fresh:\n    tools: [grep]\n")],
    );
    let report = impact(&repo);
    let project = &report["projects"][0];
    assert_eq!((&project["agents_added"], &project["agents_removed"]), (&json!(["fresh"]), &json!(["gone"])));
    let harnesses = |name: &str, field: &str, why: &str| {
        json!(["standard", "experimental"].map(|h| {
            let mut entry = json!({ "harness": h, "gained": [], "lost": [], "task_gained": [], "task_lost": [] });
            entry[field] = json!([change(name, "harness", why)]);
            entry
        }))
    };
    let entry = |agent: &str, kind: &str, harnesses: Value| json!({ "agent": agent, "change": kind, "secrets_granted": [], "secrets_revoked": [], "harnesses": harnesses });
    assert_eq!(
        agents(&report),
        &json!([
            entry("fresh", "added", harnesses("grep", "gained", "new agent: listed")),
            entry("gone", "removed", harnesses("read", "lost", "agent removed")),
        ])
    );
}

#[test]
fn nothing_changed_is_one_line() {
    let yaml = "agents:\n  a:\n    tools: [read]\n";
    let repo = two_commits(&[("beeuni.yaml", yaml)], &[("beeuni.yaml", yaml), ("notes.md", "x\n")]);
    assert_eq!(impact(&repo)["projects"][0]["agents"], json!([]));
    for format in ["human", "markdown"] {
        let run = bin_in(&repo.dir, &["impact", "--base", "main", "--format", format]);
        assert_eq!((run.code, run.stdout.as_str()), (0, "No change to what any agent can call.\n"), "{format}");
    }
}

#[test]
fn staged_compares_the_index_with_head() {
    let repo = two_commits(
        &[("beeuni.yaml", "agents:\n  a:\n    tools: [read]\n")],
        &[("beeuni.yaml", "agents:\n  a:\n    tools: [read]\n")],
    );
    repo.write("beeuni.yaml", "agents:\n  a:\n    tools: [read, grep]\n").stage();
    repo.write("beeuni.yaml", "agents:\n  a:\n    tools: [read, bash]\n");
    let run = bin_in(&repo.dir, &["impact", "--staged", "--format", "json"]);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["head"], "index");
    assert_eq!(report["base"], format!("HEAD ({})", repo.short("HEAD")));
    let gained = &agents(&report)[0]["harnesses"][0]["gained"];
    let mut grep = change("grep", "harness", "listed (before: not in its `tools:` list)");
    grep["cause"] = json!(0);
    assert_eq!(gained, &json!([grep]));
    // The index's line: the list's second item.
    assert_eq!(
        (&agents(&report)[0]["causes"][0]["change"], &agents(&report)[0]["causes"][0]["column"]),
        (&json!("`tools:` lists `grep`"), &json!(19))
    );
}

#[test]
fn a_new_project_and_a_base_that_does_not_parse() {
    let repo = two_commits(&[("README.md", "x\n")], &[("beeuni.yaml", "agents:\n  a:\n    tools: [read]\n")]);
    let report = impact(&repo);
    assert_eq!(report["projects"][0]["base_manifest"], "missing");
    assert_eq!(report["projects"][0]["agents_added"], json!(["a"]));
    let broken =
        two_commits(&[("beeuni.yaml", "agents: [\n")], &[("beeuni.yaml", "agents:\n  a:\n    tools: [read]\n")]);
    let run = bin_in(&broken.dir, &["impact", "--base", "main"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("1 project not compared\n"), "{}", run.stdout);
    assert!(run.stdout.contains("\nnot compared: the base's manifest cannot be read\n"), "{}", run.stdout);
}

#[test]
fn errors_exit_2() {
    let repo = two_commits(&[("beeuni.yaml", "agents: {}\n")], &[("beeuni.yaml", "agents: {}\n")]);
    let none = bin_in(&repo.dir, &["impact"]);
    assert_eq!(none.code, 2);
    assert_eq!(
        none.stderr,
        "beeuni-lint: `impact` compares two versions: add `--base REV` (or `--staged` for the commit being made)\n"
    );
    let missing = bin_in(&repo.dir, &["impact", "--base", "no-such-branch", "--format", "markdown"]);
    assert_eq!((missing.code, missing.stdout.as_str()), (2, ""));
    assert!(missing.stderr.contains("no-such-branch"), "{}", missing.stderr);
}

#[test]
fn markdown_for_a_pull_request_comment() {
    let repo = two_commits(
        &[
            (
                "beeuni.yaml",
                "tools:\n  memory: beeuni:memory\n  crm: ./tools/crm.ts\nagents:\n  coder:\n    tools:\n      exclude: [bash]\n    secrets: [GH_TOKEN]\n  reader:\n    tools: [read, crm]\n",
            ),
            ("tools/crm.ts", CRM_BEFORE),
        ],
        &[
            (
                "beeuni.yaml",
                "tools:\n  crm: ./tools/crm.ts\nagents:\n  coder:\n    tools: all\n    secrets: [GH_TOKEN, STRIPE_KEY]\n  reader:\n    tools: [read, crm]\n  \"</summary></details><img src=x onerror=alert(1)>`|\":\n    tools: [grep]\n",
            ),
            ("tools/crm.ts", CRM_AFTER),
        ],
    );
    impact(&repo);
    let run = bin_in(&repo.dir, &["impact", "--base", "main", "--format", "markdown"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = run.stdout.replace(&repo.short("main"), "BASE");
    // No HTML at all: the name is a code span wherever it is (opened by two backticks, as it holds one), its `|`
    // as written (a backslash would be shown: no table here). `markdown_render` renders it.
    assert!(!text.lines().any(|line| line.starts_with('<')), "{text}");
    for line in text.lines().filter(|line| line.contains("<img")) {
        assert!(line.contains("``</summary></details><img src=x onerror=alert(1)>`|``"), "{line}");
    }
    insta::assert_snapshot!(text);
}

/// docs/impact.md shows this change's output: it must be what the binary prints (the base's id aside).
#[test]
fn the_docs_example_is_real_output() {
    let base = "tools:\n  web_search: beeuni:web_search\n  memory: beeuni:memory\n  crm: ./tools/crm.ts\nagents:\n  coder:\n    tools:\n      exclude: [bash]\n    secrets: [GH_TOKEN]\n  support:\n    tools: [read, crm]\n    secrets: [CRM_KEY]\n";
    let head = "tools:\n  web_search: beeuni:web_search\n  crm: ./tools/crm.ts\nagents:\n  coder:\n    tools:\n      exclude: []\n    secrets: [GH_TOKEN]\n  support:\n    tools: [read, crm, edit]\n    secrets: [CRM_KEY, STRIPE_KEY]\n";
    let crm_before = "export default {\n  description: 'Find a customer',\n  parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },\n  async execute({ id }, context) { return id; },\n};\n";
    let crm_after = "export default {\n  description: 'Find or update a customer',\n  parameters: {\n    type: 'object',\n    properties: { id: { type: 'string' }, note: { type: 'string' } },\n    required: ['id', 'note'],\n  },\n  async execute({ id }, context) { return id; },\n};\n";
    let repo = two_commits(
        &[("beeuni.yaml", base), ("tools/crm.ts", crm_before)],
        &[("beeuni.yaml", head), ("tools/crm.ts", crm_after)],
    );
    impact(&repo);
    let doc = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/impact.md")).unwrap();
    for (format, fence) in [("human", "```text\n"), ("markdown", "````markdown\n")] {
        let run = bin_in(&repo.dir, &["impact", "--base", "main", "--format", format]);
        let shown = run.stdout.replace(&repo.short("main"), "1a2b3c4");
        assert!(doc.contains(&format!("{fence}{shown}```")), "docs/impact.md should show:\n{shown}");
    }
}

#[test]
fn a_tools_key_that_becomes_invalid_loses_everything_it_gave() {
    let repo = two_commits(
        &[("beeuni.yaml", "agents:\n  a:\n    tools: [read]\n")],
        &[("beeuni.yaml", "agents:\n  a:\n    tools: 7\n")],
    );
    let invalid = "`tools:` is invalid (see check): what it gives is not known (before: listed)";
    let report = impact(&repo);
    for harness in 0..2 {
        assert_eq!(agents(&report)[0]["harnesses"][harness]["lost"], json!([change("read", "harness", invalid)]));
    }
}

#[test]
fn repository_names_reach_a_terminal_escaped() {
    let repo = two_commits(
        &[("beeuni.yaml", "agents:\n  a:\n    tools: [read]\n")],
        &[("beeuni.yaml", "agents:\n  a:\n    tools: [read]\n  \"evil\\e]0;owned\\a\\nline\":\n    tools: [grep]\n")],
    );
    for format in ["human", "markdown", "json"] {
        let run = bin_in(&repo.dir, &["impact", "--base", "main", "--format", format]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let raw = run.stdout.chars().find(|c| c.is_control() && *c != '\n');
        assert_eq!(raw, None, "{format}:\n{}", run.stdout);
        assert!(!run.stdout.contains("evil\nline") && !run.stdout.contains("evil\u{1b}"), "{format}");
    }
    let human = bin_in(&repo.dir, &["impact", "--base", "main"]).stdout;
    assert!(human.contains("agents added: evil\\u{1b}]0;owned\\u{7}\\nline\n"), "{human}");
}
