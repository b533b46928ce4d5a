use crate::diagnostic::{Diagnostic, Label};
use crate::manifest::agents::ToolList;
use crate::project::Project;

crate::rules::declare_rule! {
    /// An agent's tool list is empty (`tools: []`).
    ///
    /// ## What it checks
    /// `agents.<name>.tools` is an empty list.
    ///
    /// ## Why
    /// The agent gets no tool. That may be meant, but `none` says it plainly; an
    /// empty list often is a list whose lines were deleted.
    ///
    /// ## Example
    /// ```yaml
    /// agents:
    ///   greeter:
    ///     tools: []
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// agents:
    ///   greeter:
    ///     tools: none
    /// ```
    ///
    /// ## Fix
    /// Write `tools: none`, or list the tools the agent needs.
    id: "empty-tool-list",
    severity: Info,
    category: Agent,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for agent in &project.agents {
        let (ToolList::List(items), Some((key, _))) = (&agent.tools, agent.tools_key) else {
            continue;
        };
        if items.is_empty() {
            let message = format!("agent `{}` has an empty tool list: it gets no tool", agent.name);
            let help = "write `tools: none` to say so, or list the tools it needs";
            out.push(RULE.diagnostic(Label::new(agent.file, key), message).help(help));
        }
    }
}
