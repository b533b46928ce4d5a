use crate::catalog::PTY_TOOLS;
use crate::diagnostic::{Diagnostic, Label};
use crate::manifest::agents::ToolList;
use crate::project::Project;

crate::rules::declare_rule! {
    /// An agent's list names a terminal `pty_*` tool without `bash`.
    ///
    /// ## What it checks
    /// A list, exclude list or map (`pty_spawn: false`) names a `pty_*` tool of
    /// the terminal plugin, and does not do the same for `bash`.
    ///
    /// ## Why
    /// On the standard harness the `pty_*` tools follow `bash`: listing
    /// `pty_spawn` without `bash` does not give it, and excluding it while `bash`
    /// is allowed does not hide it.
    ///
    /// ## Example
    /// ```yaml
    /// agents:
    ///   support:
    ///     tools:
    ///       exclude: [pty_spawn]
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// agents:
    ///   support:
    ///     tools:
    ///       exclude: [bash, pty_spawn]
    /// ```
    ///
    /// ## Fix
    /// Name `bash` the same way (or drop the `pty_*` name).
    id: "pty-follows-bash",
    severity: Warning,
    category: Agent,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for agent in &project.agents {
        let (pty, bash, verb) = match &agent.tools {
            ToolList::List(items) => {
                (items.iter().find(|t| is_pty(&t.name)), items.iter().any(|t| t.name == "bash"), "gives")
            }
            ToolList::Exclude(items) => {
                (items.iter().find(|t| is_pty(&t.name)), items.iter().any(|t| t.name == "bash"), "hides")
            }
            ToolList::Map(items) => (
                items.iter().find(|(t, on)| !on && is_pty(&t.name)).map(|(t, _)| t),
                items.iter().any(|(t, on)| !on && t.name == "bash"),
                "hides",
            ),
            _ => continue,
        };
        let Some(pty) = pty else { continue };
        if bash {
            continue;
        }
        let message = format!(
            "on the standard harness `{}` follows `bash`: naming it without `bash` {} nothing for agent `{}`",
            pty.name,
            if verb == "gives" { "gives" } else { "hides" },
            agent.name
        );
        let help =
            format!("name `bash` the same way to {} the terminal tools", if verb == "gives" { "give" } else { "hide" });
        out.push(RULE.diagnostic(Label::new(agent.file, pty.item), message).help(help));
    }
}

/// A terminal tool the harness table knows: an unknown `pty_…` name gets its `unknown-tool` finding only.
fn is_pty(name: &str) -> bool {
    PTY_TOOLS.contains(&name)
}
