use crate::diagnostic::{Diagnostic, Label};
use crate::manifest::agents::ToolList;
use crate::project::Project;

crate::rules::declare_rule! {
    /// An agent's list names a connector, or a tool of one.
    ///
    /// ## What it checks
    /// A list or exclude list names one of the agent's `connectors:` or a tool
    /// prefixed with one (`github_search` for `github`). A declared project tool
    /// of that name is a project tool, not a connector's.
    ///
    /// ## Why
    /// Connector tools follow `agents.<name>.connectors`, not the tools list:
    /// listing or excluding them here changes nothing.
    ///
    /// ## Example
    /// ```yaml
    /// agents:
    ///   support:
    ///     connectors: [github]
    ///     tools: [read, github_search]
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// agents:
    ///   support:
    ///     connectors: [github]
    ///     tools: [read]
    /// ```
    ///
    /// ## Fix
    /// Remove the name; give or take the connector with `connectors:`.
    id: "connector-in-tools",
    severity: Warning,
    category: Agent,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for agent in &project.agents {
        if !matches!(agent.tools, ToolList::List(_) | ToolList::Exclude(_)) {
            continue;
        }
        for (tool, _) in agent.named() {
            let Some(connector) = project.connector_of(agent, &tool.name) else {
                continue;
            };
            let message = format!(
                "`{}` is a tool of the connector `{connector}`: connector tools follow `agents.{}.connectors`, not this list",
                tool.name, agent.name
            );
            let help = "remove it here; add or remove the connector under `connectors:` instead";
            out.push(RULE.diagnostic(Label::new(agent.file, tool.item), message).help(help));
        }
    }
}
