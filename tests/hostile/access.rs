//! Hostile inputs to what each agent can call (`agents`, `impact`, the language server's hover, the fix planner):
//! its answer grows with the agents times the tools (or secrets) a repository declares, both of its choosing. A
//! project past `access::MAX_ROWS` rows is refused with one line saying why; below it, the answer is whole.

use crate::support::*;

const AGENTS: usize = 2_000;
const TOOLS: usize = 20_000;

/// 2,000 agents with `tools: all` beside 20,000 declared tools: 120 million rows asked for (a minute and 4.7 GB
/// before the bound), in 460 KB of YAML.
fn every_agent_calls_every_tool() -> String {
    let tools: String = (0..TOOLS).map(|i| format!("  t{i}: t.ts\n")).collect();
    let agents: String = (0..AGENTS).map(|i| format!("  a{i}:\n    tools: all\n")).collect();
    format!("tools:\n{tools}agents:\n{agents}")
}

#[test]
fn agents_of_a_project_too_large_to_work_out_is_refused_in_time() {
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", every_agent_calls_every_tool()).file("t.ts", MODULE).commit("agents");
    let outcome = sandbox.run(&["agents", "--json", "."]);
    outcome.assert_bounded("agents of 2,000 agents times 20,000 tools");
    assert_eq!(outcome.code, Some(2), "{}", outcome.stderr());
    // The tools: the 20,000 declared and the harness's 18.
    assert_eq!(
        outcome.stderr(),
        "beeuni-lint: 2000 agents and 20018 tools make more than 100,000 rows of what each agent can call: \
         beeuni-lint does not work them out (a bound on the work a repository can ask for)\n"
    );
    // `check` does not work access out: it lints the same project as ever.
    sandbox.run(&["--format", "json", "."]).assert_bounded("check of the same project");
}

#[test]
fn impact_of_a_change_too_large_to_compare_is_refused_in_time() {
    // A thousand agents without a `secrets:` list hold every secret some agent lists: the head grants each of
    // them 2,000 new ones.
    let agents: String = (0..1_000).map(|i| format!("  a{i}:\n    tools: [read]\n")).collect();
    let base = format!("{MANIFEST}{agents}");
    let secrets: String = (0..2_000).map(|i| format!("      - S{i}\n")).collect();
    let head = format!("{base}  keeper:\n    tools: [read]\n    secrets:\n{secrets}");
    let sandbox = Sandbox::new();
    sandbox.file("beeuni.yaml", &base).commit("base");
    sandbox.file("beeuni.yaml", &head);
    let outcome = sandbox.run(&["impact", "--base", "HEAD", "--format", "json", "."]);
    outcome.assert_bounded("impact of 1,000 agents granted 2,000 secrets each");
    assert_eq!(outcome.code, Some(2), "{}", outcome.stderr());
    assert!(
        outcome.stderr().contains("1002 agents and 2000 secrets make more than 100,000 rows"),
        "{}",
        outcome.stderr()
    );
    assert!(outcome.stdout.is_empty());
    // Below the bound the answer is whole: ten such agents get their 2,000 secrets each. (Kept small: a run too
    // short to be polled is measured by `ru_maxrss`, which holds this test process's own peak, so a large report
    // parsed here would count against the runs of other tests.)
    let small = Sandbox::new();
    let agents: String = (0..10).map(|i| format!("  a{i}:\n    tools: [read]\n")).collect();
    let base = format!("{MANIFEST}{agents}");
    small.file("beeuni.yaml", &base).commit("base");
    small.file("beeuni.yaml", format!("{base}  keeper:\n    tools: [read]\n    secrets:\n{secrets}"));
    let outcome = small.run(&["impact", "--base", "HEAD", "--format", "json", "."]);
    outcome.assert_bounded("impact of 10 agents granted 2,000 secrets each");
    assert_eq!(outcome.code, Some(0), "{}", outcome.stderr());
    let report = outcome.json();
    let agents = report["projects"][0]["agents"].as_array().unwrap();
    let a0 = agents.iter().find(|a| a["agent"] == "a0").unwrap();
    assert_eq!(a0["secrets_granted"].as_array().unwrap().len(), 2_000);
}
