//! `beeuni-lint agents`: per agent and per harness, the tools it can call and why. The standard harness
//! (opencode) shares one permission among `write`, `edit` and `apply_patch` and lets the terminal's `pty_*`
//! tools follow `bash`; the experimental harness takes every name as written and has no terminal plugin.

use crate::catalog::{self, HarnessTier, PTY_TOOLS, SHARED_WRITE_GROUP};
use crate::manifest::agents::{AgentDecl, ToolList};
use crate::project::Project;
use serde::Serialize;

#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct Callable {
    pub name: String,
    pub why: String,
}

#[derive(Serialize, Debug)]
pub struct AgentAccess {
    pub agent: String,
    pub harness: &'static str,
    pub tools: Vec<Callable>,
}

/// Every tool a session of the project can have: the harness's own (tier 1 and config), the loaded Beeuni
/// tools, and the declared project tools.
fn universe(project: &Project) -> Vec<&str> {
    let mut names: Vec<&str> =
        project.harness.names().filter(|n| project.harness.tier(n) == Some(HarnessTier::One)).collect();
    names.extend(project.loaded_beeuni.iter().copied());
    for decl in project.tools.iter().filter(|d| !catalog::is_beeuni(&d.name) && d.module_path().is_some()) {
        if !names.contains(&decl.name.as_str()) {
            names.push(&decl.name);
        }
    }
    names
}

pub fn access(project: &Project) -> Vec<AgentAccess> {
    let universe = universe(project);
    let mut out = Vec::new();
    for agent in &project.agents {
        for (harness, standard) in [("standard", true), ("experimental", false)] {
            let tools = universe
                .iter()
                // The terminal plugin is the standard harness's.
                .filter(|tool| standard || !PTY_TOOLS.contains(tool))
                .filter_map(|tool| why(agent, tool, standard).map(|why| Callable { name: tool.to_string(), why }))
                .collect();
            out.push(AgentAccess { agent: agent.name.clone(), harness, tools });
        }
    }
    out
}

/// Why `agent` can call `tool` on that harness, or `None` when it cannot.
fn why(agent: &AgentDecl, tool: &str, standard: bool) -> Option<String> {
    if standard && PTY_TOOLS.contains(&tool) {
        return why(agent, "bash", true).map(|_| "follows `bash`".to_string());
    }
    let group = |named: &str| {
        standard && named != tool && SHARED_WRITE_GROUP.contains(&named) && SHARED_WRITE_GROUP.contains(&tool)
    };
    match &agent.tools {
        ToolList::All => Some("`all`".into()),
        ToolList::None | ToolList::Invalid => None,
        ToolList::List(items) => {
            if items.iter().any(|t| t.name == tool) {
                Some("listed".into())
            } else if items.iter().any(|t| t.name == "*") {
                Some("`*` in the list".into())
            } else {
                items.iter().find(|t| group(&t.name)).map(|t| format!("shares a permission with `{}`", t.name))
            }
        }
        ToolList::Exclude(items) => match items.iter().find(|t| t.name == tool || group(&t.name)) {
            Some(_) => None,
            None => Some("not excluded".into()),
        },
        ToolList::Map(items) => match items.iter().find(|(t, on)| !on && (t.name == tool || group(&t.name))) {
            Some(_) => None,
            None => Some("not set to `false`".into()),
        },
    }
}

pub fn render_text(access: &[AgentAccess]) -> String {
    let mut out = String::new();
    for entry in access {
        if entry.harness == "standard" {
            out.push_str(&format!("{}\n", entry.agent));
        }
        let tools: Vec<String> = entry.tools.iter().map(|t| format!("{} ({})", t.name, t.why)).collect();
        let list = if tools.is_empty() { "no tool".to_string() } else { tools.join(", ") };
        out.push_str(&format!("  {:<14}{list}\n", entry.harness));
    }
    out
}

pub fn render_json(access: &[AgentAccess]) -> String {
    let mut text = serde_json::to_string_pretty(access).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    text.push('\n');
    text
}
