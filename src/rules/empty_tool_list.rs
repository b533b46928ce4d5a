//! An agent's tool list is empty (`tools: []`).
//!
//! ## What it checks
//! `agents.<name>.tools` is an empty list.
//!
//! ## Why
//! The agent gets no tool. That may be meant, but `none` says it plainly; an
//! empty list often is a list whose lines were deleted.
//!
//! ## Example
//! ```yaml
//! agents:
//!   greeter:
//!     tools: []
//! ```
//!
//! ## Fix
//! Write `tools: none`, or list the tools the agent needs.

use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::manifest::agents::ToolList;
use crate::project::Project;
use crate::rules::Rule;

pub static RULE: Rule = Rule::new("empty-tool-list", Severity::Info, include_str!("empty_tool_list.rs"), Some(check));

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for agent in &project.agents {
        let (ToolList::List(items), Some((key, _))) = (&agent.tools, agent.tools_key) else {
            continue;
        };
        if items.is_empty() {
            let message = format!("agent `{}` has an empty tool list: it gets no tool", agent.name);
            let help = "write `tools: none` to say so, or list the tools it needs";
            out.push(Diagnostic::new(RULE.id, RULE.severity, Label::new(agent.file, key), message).help(help));
        }
    }
}
