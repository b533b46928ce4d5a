use crate::catalog::PERMISSION_ONLY_KEYS;
use crate::diagnostic::{Diagnostic, Label};
use crate::project::Project;
use crate::suggest::one_of;

crate::rules::declare_rule! {
    /// An agent's `permission:` names a tool that does not exist.
    ///
    /// ## What it checks
    /// When `agents.<name>.permission` is a mapping, each key is a known tool, a
    /// pattern with `*`, or a permission-only key (`external_directory`,
    /// `doom_loop`).
    ///
    /// ## Why
    /// The permission rules still decide whether a call is allowed, asked or
    /// denied: a typo there leaves the default in force.
    ///
    /// ## Example
    /// ```yaml
    /// agents:
    ///   support:
    ///     permission:
    ///       bsh: deny
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// agents:
    ///   support:
    ///     permission:
    ///       bash: deny
    /// ```
    ///
    /// ## Fix
    /// Use the tool's real name.
    id: "permission-unknown-tool",
    severity: Warning,
    category: Agent,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for agent in &project.agents {
        for (key, span) in &agent.permission {
            if key.contains('*') || project.is_known_tool(key) || PERMISSION_ONLY_KEYS.contains(&key.as_str()) {
                continue;
            }
            let message = format!(
                "`permission` of agent `{}` names `{key}`, which is not a known tool: the default permission stays in force",
                agent.name
            );
            // Its help is added once the findings shown are known ([`super::hints`]).
            out.push(RULE.diagnostic(Label::new(agent.file, *span), message));
        }
    }
}

/// Adds the help naming `near`, the known names nearest to the key.
pub fn with_suggestion(diagnostic: Diagnostic, near: &[&str]) -> Diagnostic {
    match near {
        [] => diagnostic.help("check the tool's name"),
        near => diagnostic.help(format!("did you mean {}?", one_of(near))),
    }
}
