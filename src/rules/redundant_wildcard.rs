use crate::diagnostic::{Diagnostic, Label};
use crate::manifest::agents::ToolList;
use crate::project::Project;

crate::rules::declare_rule! {
    /// An agent's list holds `*` and other names.
    ///
    /// ## What it checks
    /// A list of `agents.<name>.tools` that contains `*` next to other names.
    ///
    /// ## Why
    /// `*` makes the list `all`: the other names add nothing, and suggest the
    /// agent is limited when it is not.
    ///
    /// ## Example
    /// ```yaml
    /// agents:
    ///   beeuni:
    ///     tools: ["*", read]
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// agents:
    ///   beeuni:
    ///     tools: all
    /// ```
    ///
    /// ## Fix
    /// Write `tools: all`, or drop the `*`.
    id: "redundant-wildcard",
    severity: Info,
    category: Agent,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for agent in &project.agents {
        let ToolList::List(items) = &agent.tools else { continue };
        if items.len() < 2 {
            continue;
        }
        let Some(star) = items.iter().find(|t| t.name == "*") else {
            continue;
        };
        let message = format!("`*` makes the list of agent `{}` `all`: the other names add nothing", agent.name);
        let help = "write `tools: all`, or remove the `*` to give only the listed tools";
        out.push(RULE.diagnostic(Label::new(agent.file, star.item), message).help(help));
    }
}
