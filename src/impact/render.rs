//! The impact's formats: JSON (its schema in docs/impact.md), a terminal's text, and Markdown for a pull-request
//! comment. Every name and path is the repository's: in text each is [`escape`]d; in Markdown each is also a code
//! span ([`code_span`]), and HTML-escaped inside `<summary>` (an HTML block, where a code span is not read), so
//! that nothing in it can close the section, open a link or end the comment.

use super::{AgentChange, AgentImpact, Impact, Manifest, ProjectImpact, Tool};
use crate::access::Source;
use crate::source::escape::{code_span, escape};
use std::fmt::Write;

/// GitHub refuses a comment over 65,536 characters: the agents' sections stop well before.
pub const MARKDOWN_BUDGET: usize = 60_000;

pub fn json(impact: &Impact) -> String {
    crate::source::escape::json_document(impact)
}

/// "3 agents gain tools, 1 loses; 1 agent added; 1 secret granted", or that nothing changed.
pub fn summary(impact: &Impact) -> String {
    let projects = &impact.projects;
    let count = |f: &dyn Fn(&AgentImpact) -> bool| -> usize {
        projects.iter().flat_map(|p| &p.agents).filter(|a| a.change == AgentChange::Changed && f(a)).count()
    };
    let gain = count(&|a| a.harnesses.iter().any(|h| h.gains() > 0));
    let lose = count(&|a| a.harnesses.iter().any(|h| h.losses() > 0));
    let sum = |f: &dyn Fn(&ProjectImpact) -> usize| -> usize { projects.iter().map(f).sum() };
    let mut groups: Vec<String> = Vec::new();
    let agents = |n: usize| if n == 1 { "1 agent".to_string() } else { format!("{n} agents") };
    match (gain, lose) {
        (0, 0) => {}
        (0, lose) => groups.push(format!("{} {} tools", agents(lose), if lose == 1 { "loses" } else { "lose" })),
        (gain, 0) => groups.push(format!("{} {} tools", agents(gain), if gain == 1 { "gains" } else { "gain" })),
        (gain, lose) => groups.push(format!(
            "{} {} tools, {lose} {}",
            agents(gain),
            if gain == 1 { "gains" } else { "gain" },
            if lose == 1 { "loses" } else { "lose" }
        )),
    }
    let pairs = [
        (sum(&|p| p.agents_added.len()), sum(&|p| p.agents_removed.len()), "agent", "added", "removed"),
        (sum(&|p| p.tools_added.len()), sum(&|p| p.tools_removed.len()), "tool", "added", "removed"),
        (
            sum(&|p| p.agents.iter().map(|a| a.secrets_granted.len()).sum()),
            sum(&|p| p.agents.iter().map(|a| a.secrets_revoked.len()).sum()),
            "secret",
            "granted",
            "revoked",
        ),
    ];
    for (one, other, noun, first, second) in pairs {
        let plural = |n: usize| if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") };
        match (one, other) {
            (0, 0) => {}
            (n, 0) => groups.push(format!("{} {first}", plural(n))),
            (0, n) => groups.push(format!("{} {second}", plural(n))),
            (n, m) => groups.push(format!("{} {first}, {m} {second}", plural(n))),
        }
    }
    let modules = sum(&|p| p.modules_changed.len());
    if modules > 0 {
        groups.push(format!("{modules} tool {} changed", if modules == 1 { "module" } else { "modules" }));
    }
    let unreadable = projects.iter().filter(|p| unreadable(p).is_some()).count();
    if unreadable > 0 {
        groups.push(format!("{unreadable} {} not compared", if unreadable == 1 { "project" } else { "projects" }));
    }
    if groups.is_empty() {
        return "No change to what any agent can call.".to_string();
    }
    groups.join("; ")
}

/// Why a project was not compared.
fn unreadable(project: &ProjectImpact) -> Option<&'static str> {
    match (project.base_manifest, project.head_manifest) {
        (Manifest::Unreadable, _) => Some("the base's manifest cannot be read"),
        (_, Manifest::Unreadable) => Some("the manifest cannot be read (`beeuni-lint check` says why)"),
        _ => None,
    }
}

fn source(source: Source) -> &'static str {
    match source {
        Source::Harness => "harness",
        Source::Beeuni => "beeuni",
        Source::Project => "project",
    }
}

/// Lines about the project's tools and agents as a whole, each a list of repository names run through `name`, at
/// most `most` of them (then how many more).
fn project_lines(project: &ProjectImpact, name: &dyn Fn(&str) -> String, most: usize) -> Vec<String> {
    let listed = |shown: Vec<String>, all: usize| {
        let more = all.saturating_sub(most);
        let shown = shown.join(", ");
        if more > 0 { format!("{shown} and {more} more") } else { shown }
    };
    let names = |list: &[String]| listed(list.iter().take(most).map(|n| name(n)).collect(), list.len());
    let tools = |list: &[Tool]| {
        let shown = list.iter().take(most).map(|t| format!("{} ({})", name(&t.name), source(t.source))).collect();
        listed(shown, list.len())
    };
    let mut out = Vec::new();
    if let Some(why) = unreadable(project) {
        out.push(format!("not compared: {why}"));
    }
    if project.base_manifest == Manifest::Missing {
        out.push("new project: no manifest at the base".to_string());
    }
    for (label, list) in [("agents added", &project.agents_added), ("agents removed", &project.agents_removed)] {
        if !list.is_empty() {
            out.push(format!("{label}: {}", names(list)));
        }
    }
    for (label, list) in [("tools added", &project.tools_added), ("tools removed", &project.tools_removed)] {
        if !list.is_empty() {
            out.push(format!("{label}: {}", tools(list)));
        }
    }
    for module in &project.modules_changed {
        let mut parts = Vec::new();
        if module.description_changed {
            parts.push("description changed".to_string());
        }
        if module.parameters_changed {
            parts.push("parameters changed".to_string());
        }
        for (label, list) in [
            ("properties added", &module.properties_added),
            ("properties removed", &module.properties_removed),
            ("required added", &module.required_added),
            ("required removed", &module.required_removed),
        ] {
            if !list.is_empty() {
                parts.push(format!("{label} {}", names(list)));
            }
        }
        out.push(format!("tool {} ({}): {}", name(&module.name), name(&module.module), parts.join("; ")));
    }
    out
}

/// What changed for an agent, one line each: `+ bash (harness): why`, `- memory (beeuni): why`.
fn agent_lines(agent: &AgentImpact, name: &dyn Fn(&str) -> String) -> Vec<(Option<&'static str>, String)> {
    let mut out = Vec::new();
    for harness in &agent.harnesses {
        let at = Some(harness.harness);
        for (sign, list) in [('+', &harness.gained), ('-', &harness.lost)] {
            for t in list {
                out.push((at, format!("{sign} {} ({}): {}", name(&t.name), source(t.source), t.why)));
            }
        }
        for (sign, list) in [('+', &harness.task_gained), ('-', &harness.task_lost)] {
            for t in list {
                let via = name(&t.via);
                out.push((at, format!("{sign} {} ({}): through `task` via {via}", name(&t.name), source(t.source))));
            }
        }
    }
    for (sign, what, list) in [('+', "granted", &agent.secrets_granted), ('-', "revoked", &agent.secrets_revoked)] {
        for secret in list {
            out.push((None, format!("{sign} secret {} {what}: {}", name(&secret.name), secret.why)));
        }
    }
    out
}

fn agent_summary(agent: &AgentImpact) -> String {
    let count = |f: &dyn Fn(&super::HarnessImpact) -> usize| agent.harnesses.iter().map(f).max().unwrap_or(0);
    let gained = count(&|h| h.gains());
    let lost = count(&|h| h.losses());
    let mut parts: Vec<String> = match agent.change {
        AgentChange::Added => vec!["new agent".into()],
        AgentChange::Removed => vec!["removed".into()],
        AgentChange::Changed => Vec::new(),
    };
    if gained > 0 && agent.change != AgentChange::Removed {
        parts.push(format!("gains {gained} {}", if gained == 1 { "tool" } else { "tools" }));
    }
    if lost > 0 && agent.change != AgentChange::Removed {
        parts.push(format!("loses {lost} {}", if lost == 1 { "tool" } else { "tools" }));
    }
    let (granted, revoked) = (agent.secrets_granted.len(), agent.secrets_revoked.len());
    if granted > 0 {
        parts.push(format!("{granted} {} granted", if granted == 1 { "secret" } else { "secrets" }));
    }
    if revoked > 0 {
        parts.push(format!("{revoked} {} revoked", if revoked == 1 { "secret" } else { "secrets" }));
    }
    if parts.is_empty() {
        // Only tools it called itself and now reaches through `task` (see `HarnessImpact::losses`).
        return "what it lost it still reaches through `task`".to_string();
    }
    parts.join(", ")
}

/// For a terminal: the summary, what was compared, then each project's lines and each agent's changes.
pub fn human(impact: &Impact) -> String {
    let name = |text: &str| escape(text).into_owned();
    let mut out = format!("{}\n", summary(impact));
    let _ = writeln!(out, "compared: {} -> {}", escape(&impact.base), impact.head);
    let several = impact.projects.len() > 1 || impact.projects.iter().any(|p| p.project != ".");
    for project in impact.projects.iter().filter(|p| !p.is_empty()) {
        out.push('\n');
        if several {
            let _ = writeln!(out, "==> {} <==", escape(&project.project));
        }
        for line in project_lines(project, &name, usize::MAX) {
            let _ = writeln!(out, "{line}");
        }
        for agent in &project.agents {
            let _ = writeln!(out, "agent {}: {}", escape(&agent.agent), agent_summary(agent));
            for (harness, line) in agent_lines(agent, &name) {
                let _ = writeln!(out, "  {:<13}{line}", harness.unwrap_or(""));
            }
        }
    }
    out
}

/// The names a line of the comment shows of a list (tools added, properties removed, …): a longer list is for
/// `--format human` or `json`.
const MARKDOWN_NAMES: usize = 50;

/// For a pull-request comment: a heading, the summary, then the projects' lines and one collapsed section per
/// agent until [`MARKDOWN_BUDGET`] is spent (a line or a section that does not fit is left out and counted).
pub fn markdown(impact: &Impact) -> String {
    let name = |text: &str| code_span(&escape(text));
    let mut out = format!("### beeuni-lint impact\n\n{}\n\n", summary(impact));
    let _ = writeln!(out, "Compared {} with {}.", impact.head, code_span(&escape(&impact.base)));
    let several = impact.projects.len() > 1 || impact.projects.iter().any(|p| p.project != ".");
    let (mut lines_left_out, mut agents_left_out) = (0, 0);
    for project in impact.projects.iter().filter(|p| !p.is_empty()) {
        if several {
            fits(&mut out, &format!("\n#### Project {}\n", name(&project.project)));
        }
        let lines = project_lines(project, &name, MARKDOWN_NAMES);
        if !lines.is_empty() {
            out.push('\n');
        }
        lines_left_out += lines.iter().filter(|line| !fits(&mut out, &format!("- {line}\n"))).count();
        agents_left_out += project.agents.iter().filter(|agent| !fits(&mut out, &agent_section(agent))).count();
    }
    let plural = |n: usize, noun: &str| if n == 1 { format!("1 more {noun}") } else { format!("{n} more {noun}s") };
    let left_out = match (lines_left_out, agents_left_out) {
        (0, 0) => None,
        (0, agents) => Some(plural(agents, "agent")),
        (lines, 0) => Some(plural(lines, "line")),
        (lines, agents) => Some(format!("{} and {}", plural(lines, "line"), plural(agents, "agent"))),
    };
    if let Some(left_out) = left_out {
        let _ = write!(out, "\n… and {left_out}: run `beeuni-lint impact --format human` to see them.\n");
    }
    out
}

/// Appends `text` to the comment if it leaves it within [`MARKDOWN_BUDGET`]; `false` when it would not.
fn fits(out: &mut String, text: &str) -> bool {
    if out.len() + text.len() > MARKDOWN_BUDGET {
        return false;
    }
    out.push_str(text);
    true
}

fn agent_section(agent: &AgentImpact) -> String {
    let name = |text: &str| code_span(&escape(text));
    let mut out = format!(
        "\n<details><summary><code>{}</code>: {}</summary>\n\n| Harness | Change |\n| --- | --- |\n",
        html(&escape(&agent.agent)),
        agent_summary(agent)
    );
    for (harness, line) in agent_lines(agent, &name) {
        // Names are code spans (a `|` in one is `\|`), and the reasons are this module's words.
        let _ = writeln!(out, "| {} | {line} |", harness.unwrap_or("both"));
    }
    out.push_str("\n</details>\n");
    out
}

/// Text for an HTML element's content: no tag, no entity, no end of the element.
fn html(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}
