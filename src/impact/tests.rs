use super::render::{MARKDOWN_BUDGET, human, markdown, summary};
use super::*;

fn cause(words: &'static str, line: usize) -> Cause {
    Cause {
        change: words.into(),
        words,
        subject: None,
        path: Some("config/agents.yaml".into()),
        line: Some(line),
        column: Some(7),
        side: Side::Head,
        url: None,
        gains: Vec::new(),
        loses: Vec::new(),
        secrets_granted: Vec::new(),
        secrets_revoked: Vec::new(),
    }
}

fn impact(agents: Vec<AgentImpact>) -> Impact {
    let project = ProjectImpact {
        project: ".".into(),
        base_manifest: Manifest::Read,
        head_manifest: Manifest::Read,
        agents_added: Vec::new(),
        agents_removed: Vec::new(),
        tools_added: Vec::new(),
        tools_removed: Vec::new(),
        modules_changed: Vec::new(),
        agents,
        policy: None,
    };
    Impact { version: JSON_VERSION, base: "HEAD (1234567)".into(), head: "index", projects: vec![project] }
}

fn gaining(agent: String, tools: usize) -> AgentImpact {
    let gained = (0..tools).map(|t| ToolChange {
        name: format!("tool_{t}"),
        source: Source::Project,
        why: "listed".into(),
        cause: 0,
    });
    let harness = HarnessImpact {
        harness: "standard",
        gained: gained.collect(),
        lost: Vec::new(),
        task_gained: Vec::new(),
        task_lost: Vec::new(),
    };
    AgentImpact {
        agent,
        change: AgentChange::Changed,
        secrets_granted: Vec::new(),
        secrets_revoked: Vec::new(),
        harnesses: vec![harness],
        causes: vec![cause("`tools:` list changed", 3)],
    }
}

#[test]
fn markdown_stays_within_a_comment_and_says_what_it_left_out() {
    let many = impact((0..500).map(|a| gaining(format!("agent_{a}"), 40)).collect());
    let text = markdown(&many);
    assert!(text.len() <= MARKDOWN_BUDGET + 200, "{}", text.len());
    let shown = text.matches("\n- **`agent_").count();
    assert!(shown > 0 && shown < 500, "{shown}");
    assert!(text.ends_with(&format!(
        "\n… and {} more agents: run `beeuni-lint impact --format human` to see them.\n",
        500 - shown
    )));
    assert!(text.starts_with("### beeuni-lint impact\n\n500 agents gain tools\n"));
}

#[test]
fn the_summary_counts_agents_once_and_secrets_by_grant() {
    let mut both = gaining("a".into(), 2);
    both.harnesses[0].lost.push(ToolChange { name: "bash".into(), source: Source::Harness, why: "x".into(), cause: 0 });
    both.secrets_granted.push(Secret { name: "K".into(), why: "listed".into(), cause: 0 });
    let one = impact(vec![both, gaining("b".into(), 1)]);
    assert_eq!(summary(&one), "2 agents gain tools, 1 loses; 1 secret granted");
    assert_eq!(summary(&impact(Vec::new())), "No change to what any agent can call.");
}

#[test]
fn markdown_bounds_the_projects_lines_too() {
    // A change that declares 20,000 tools (and adds as many agents, none of which changed otherwise).
    let mut many = impact(Vec::new());
    let project = &mut many.projects[0];
    project.tools_added =
        (0..20_000).map(|t| Tool { name: format!("tool_{t}_{}", "x".repeat(40)), source: Source::Project }).collect();
    project.agents_added = (0..20_000).map(|a| format!("agent_{a}_{}", "y".repeat(3_000))).collect();
    let text = markdown(&many);
    assert!(text.len() <= MARKDOWN_BUDGET + 200, "{}", text.len());
    assert!(text.contains("\n- tools added: `tool_0_"), "{text}");
    assert!(text.contains("(project) and 19950 more\n"), "{text}");
    assert!(!text.contains("- agents added"), "50 names of 3,000 characters do not fit: the line is left out");
    assert!(text.ends_with("\n… and 1 more line: run `beeuni-lint impact --format human` to see them.\n"), "{text}");
}

#[test]
fn a_tool_moved_between_task_and_the_agents_own_list_is_not_lost() {
    let change = |name: &str| ToolChange { name: name.into(), source: Source::Harness, why: "x".into(), cause: 0 };
    let via = |name: &str| TaskReach { name: name.into(), source: Source::Harness, via: "helper".into(), cause: 0 };
    // `write` was reached through `task` and is now the agent's own; `bash` is new; `memory` is gone.
    let mut moved_in = gaining("coder".into(), 0);
    let standard = &mut moved_in.harnesses[0];
    standard.gained = vec![change("bash"), change("write")];
    standard.task_lost = vec![via("write")];
    standard.lost = vec![change("memory")];
    // `edit` was the agent's own and is now reached through `task` only.
    let mut moved_out = gaining("reviewer".into(), 0);
    moved_out.harnesses[0].lost = vec![change("edit")];
    moved_out.harnesses[0].task_gained = vec![via("edit")];
    let text = markdown(&impact(vec![moved_in, moved_out]));
    assert!(text.starts_with("### beeuni-lint impact\n\n1 agent gains tools, 1 loses\n"), "{text}");
    // Both moves are on the standard harness only (the only one this impact has).
    assert!(text.contains("\n- **`coder`**: +`bash` [standard]; −`memory` [standard]\n"), "{text}");
    assert!(text.contains("\n- **`reviewer`**: what it lost it still reaches through `task`\n"), "{text}");
}

/// An emptied `exclude:`: the net line first, then the cause with its place, `pty_*` folded under `bash`, and a
/// tool gained on one harness only marked with it.
#[test]
fn each_agent_is_its_net_change_then_one_line_per_cause() {
    let mut coder = gaining("coder".into(), 0);
    let change = |name: &str, cause| ToolChange { name: name.into(), source: Source::Harness, why: "x".into(), cause };
    let standard = &mut coder.harnesses[0];
    standard.gained = vec![change("bash", 0)];
    standard.gained.extend(crate::catalog::PTY_TOOLS.iter().map(|p| change(p, 0)));
    standard.gained.push(change("write", 1));
    standard.lost = vec![change("show", 2)];
    let mut experimental = HarnessImpact {
        harness: "experimental",
        gained: vec![change("bash", 0)],
        lost: vec![change("show", 2)],
        task_gained: Vec::new(),
        task_lost: Vec::new(),
    };
    experimental.task_gained.push(TaskReach {
        name: "grep".into(),
        source: Source::Harness,
        via: "h".into(),
        cause: 1,
    });
    coder.harnesses.push(experimental);
    coder.causes = vec![cause("`exclude:` emptied", 6), cause("`tools:` lists", 4), cause("`tools:` list changed", 3)];
    coder.causes[1].subject = Some("edit|x".into());
    let text = human(&impact(vec![coder]));
    assert_eq!(
        text,
        "1 agent gains tools, 1 loses\ncompared: HEAD (1234567) -> index\n\n\
         agent coder: +bash (+pty_*), +write [standard], +grep through `task` [experimental]; −show\n\
         \x20 config/agents.yaml:6  `exclude:` emptied: +bash (+pty_*)\n\
         \x20 config/agents.yaml:4  `tools:` lists edit|x: +write [standard], +grep through `task` [experimental]\n\
         \x20 config/agents.yaml:3  `tools:` list changed: −show\n"
    );
}
