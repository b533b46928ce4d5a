use crate::diagnostic::{Diagnostic, Label};
use crate::project::Project;

crate::rules::declare_rule! {
    /// A change removes a project tool that an agent's list still names.
    ///
    /// ## What it checks
    /// Needs a base (`--base REV`, or `--staged`: HEAD). A tool declared under
    /// `tools:` at the base is no longer declared, and an agent's list, exclude
    /// list or map in the head still names it. The finding points at that name.
    ///
    /// ## Why
    /// The agent list now names a tool that does not exist: a list meant to give
    /// it gives nothing, and the platform only warns.
    ///
    /// ## Example
    /// ```yaml
    /// tools:
    ///   web_search: beeuni:web_search   # lookup_order: tools/lookup_order.ts was deleted
    /// agents:
    ///   researcher:
    ///     tools: [read, lookup_order]
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// tools:
    ///   web_search: beeuni:web_search
    /// agents:
    ///   researcher:
    ///     tools: [read]
    /// ```
    ///
    /// ## Fix
    /// Remove the name from the agent's list too, or keep the tool.
    id: "removed-tool-in-use",
    severity: Error,
    category: ChangeAware,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    let Some(base) = &project.base else { return };
    for agent in &project.agents {
        for (tool, _) in agent.named() {
            if !project.removed_by_change(&tool.name) {
                continue;
            }
            let message =
                format!("this change removes the tool `{}`, but agent `{}` still names it", tool.name, agent.name);
            let help = format!(
                "remove `{}` from the list of `{}` too, or keep the tool (compared with {})",
                tool.name, agent.name, base.description
            );
            out.push(RULE.diagnostic(Label::new(agent.file, tool.item), message).help(help));
        }
    }
}
