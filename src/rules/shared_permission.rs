use crate::catalog::SHARED_WRITE_GROUP;
use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::manifest::agents::{ToolList, ToolRef};
use crate::project::Project;
use crate::suggest;

crate::rules::declare_rule! {
    /// An agent's list names some but not all of `write`, `edit` and `apply_patch`.
    ///
    /// ## What it checks
    /// On the standard harness `write`, `edit` and `apply_patch` share one
    /// permission: listing one shows all three, excluding one hides all three.
    /// Warning for a list that names some of them (the agent gets more than the
    /// list says); info for an exclude list or map (the others are hidden too on
    /// the standard harness; the experimental harness has separate `write` and
    /// `edit`).
    ///
    /// ## Why
    /// The list reads as if the agent could only write new files, when on the
    /// standard harness it can also edit and patch them.
    ///
    /// ## Example
    /// ```yaml
    /// agents:
    ///   scribe:
    ///     tools: [read, write]
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// agents:
    ///   scribe:
    ///     tools: [read, write, edit, apply_patch]
    /// ```
    ///
    /// ## Fix
    /// Name all three, or none.
    id: "shared-permission",
    severity: Warning,
    category: Agent,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for agent in &project.agents {
        // The group's names the list gives (a list) or hides (an exclude list, `name: false`), each once.
        let mut named: Vec<&ToolRef> = Vec::new();
        let hiding = match &agent.tools {
            ToolList::List(items) => {
                named.extend(items.iter());
                false
            }
            ToolList::Exclude(items) => {
                named.extend(items.iter());
                true
            }
            ToolList::Map(items) => {
                named.extend(items.iter().filter(|(_, on)| !on).map(|(t, _)| t));
                true
            }
            _ => continue,
        };
        let mut group: Vec<&ToolRef> = Vec::new();
        for tool in named.into_iter().filter(|t| SHARED_WRITE_GROUP.contains(&t.name.as_str())) {
            if !group.iter().any(|g| g.name == tool.name) {
                group.push(tool);
            }
        }
        let Some(first) = group.first() else { continue };
        let missing: Vec<&str> =
            SHARED_WRITE_GROUP.iter().copied().filter(|g| !group.iter().any(|t| t.name == *g)).collect();
        if missing.is_empty() {
            continue;
        }
        let others = suggest::listed(&missing, "and");
        let listed = suggest::listed(&group.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), "and");
        let (severity, message, help) = if hiding {
            (
                Severity::Info,
                format!(
                    "agent `{}` hides {listed}: on the standard harness this hides {others} too (they share one permission); on the experimental harness it hides only {listed}",
                    agent.name
                ),
                "name all three of `write`, `edit` and `apply_patch` to say what the standard harness does",
            )
        } else {
            (
                Severity::Warning,
                format!(
                    "agent `{}` lists {listed} but not {others}: on the standard harness they share one permission, so it gets {others} too",
                    agent.name
                ),
                "list all three of `write`, `edit` and `apply_patch`, or none of them",
            )
        };
        out.push(RULE.diagnostic_with(severity, Label::new(agent.file, first.item), message).help(help));
    }
}
