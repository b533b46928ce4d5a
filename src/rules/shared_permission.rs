//! An agent's list names some but not all of `write`, `edit` and `apply_patch`.
//!
//! ## What it checks
//! On the standard harness `write`, `edit` and `apply_patch` share one
//! permission: listing one shows all three, excluding one hides all three.
//! Warning for a list that names some of them (the agent gets more than the
//! list says); info for an exclude list or map (the others are hidden too on
//! the standard harness; the experimental harness has separate `write` and
//! `edit`).
//!
//! ## Why
//! The list reads as if the agent could only write new files, when on the
//! standard harness it can also edit and patch them.
//!
//! ## Example
//! ```yaml
//! agents:
//!   scribe:
//!     tools: [read, write]
//! ```
//!
//! ## Fix
//! Name all three, or none.

use crate::catalog::SHARED_WRITE_GROUP;
use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::manifest::agents::ToolList;
use crate::project::Project;
use crate::rules::Rule;

pub static RULE: Rule =
    Rule::new("shared-permission", Severity::Warning, include_str!("shared_permission.rs"), Some(check));

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for agent in &project.agents {
        let named = agent.named();
        let group: Vec<_> = named.iter().filter(|(t, _)| SHARED_WRITE_GROUP.contains(&t.name.as_str())).collect();
        let missing: Vec<&str> =
            SHARED_WRITE_GROUP.iter().copied().filter(|g| !group.iter().any(|(t, _)| t.name == *g)).collect();
        let Some((first, _)) = group.first() else { continue };
        if missing.is_empty() {
            continue;
        }
        let listed: Vec<String> = group.iter().map(|(t, _)| format!("`{}`", t.name)).collect();
        let others = missing.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(" and ");
        let (severity, message, help) = match agent.tools {
            ToolList::List(_) => (
                Severity::Warning,
                format!(
                    "agent `{}` lists {} but not {others}: on the standard harness they share one permission, so it gets {others} too",
                    agent.name,
                    listed.join(", ")
                ),
                "list all three of `write`, `edit` and `apply_patch`, or none of them",
            ),
            _ => (
                Severity::Info,
                format!(
                    "agent `{}` hides {}: on the standard harness this hides {others} too (they share one permission); on the experimental harness `write` and `edit` are separate",
                    agent.name,
                    listed.join(", ")
                ),
                "name all three of `write`, `edit` and `apply_patch` to say what the standard harness does",
            ),
        };
        out.push(Diagnostic::new(RULE.id, severity, Label::new(agent.file, first.item), message).help(help));
    }
}
