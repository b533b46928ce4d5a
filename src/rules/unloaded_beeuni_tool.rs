//! An agent's list names a Beeuni tool the project does not load.
//!
//! ## What it checks
//! A list, exclude list or map of `agents.<name>.tools` names one of the five
//! Beeuni tools while the graph's `tools:` key does not load it.
//!
//! ## Why
//! An agent list cannot add a Beeuni tool the project does not load: the
//! agent never gets it, and excluding it hides nothing.
//!
//! ## Example
//! ```yaml
//! tools:
//!   web_search: beeuni:web_search
//! agents:
//!   writer:
//!     tools: [read, show]
//! ```
//!
//! ## Fix
//! Load it under the top-level `tools` (`show: beeuni:show`), or remove it
//! from the agent's list.

use crate::catalog::is_beeuni;
use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::project::Project;
use crate::rules::Rule;

pub static RULE: Rule =
    Rule::new("unloaded-beeuni-tool", Severity::Warning, include_str!("unloaded_beeuni_tool.rs"), Some(check));

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for agent in &project.agents {
        for (tool, _) in agent.named() {
            let name = &tool.name;
            if !is_beeuni(name) || project.is_loaded_beeuni(name) {
                continue;
            }
            let message = format!(
                "\"{name}\" is a Beeuni tool this project does not load: add `{name}: beeuni:{name}` under the top-level `tools`, or remove it here."
            );
            out.push(Diagnostic::new(RULE.id, RULE.severity, Label::new(agent.file, tool.item), message));
        }
    }
}
