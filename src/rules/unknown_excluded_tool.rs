use super::unknown_tool::at;
use crate::catalog::SHARED_WRITE_GROUP;
use crate::diagnostic::Diagnostic;
use crate::manifest::agents::{AgentDecl, ToolRef};
use crate::project::Project;
use crate::suggest::one_of;

crate::rules::declare_rule! {
    /// An `exclude:` list names a tool that does not exist.
    ///
    /// ## What it checks
    /// Every name in `agents.<name>.tools.exclude` must be a harness tool, a
    /// Beeuni tool or a declared tool. When a known tool is within two edits, the
    /// message says which real tool stays enabled, and on which harness when an
    /// excluded member of the shared write group (`write`, `edit`,
    /// `apply_patch`) hides it on the standard harness anyway (as `agents`
    /// shows). A project tool the change being checked removes is
    /// `removed-tool-in-use` instead.
    ///
    /// ## Why
    /// The docs warn: a typo in an `exclude` list keeps the real tool enabled.
    /// `exclude: [bsh]` hides nothing, and the agent keeps `bash`. The platform
    /// only warns; beeuni-lint fails the lint.
    ///
    /// ## Example
    /// ```yaml
    /// agents:
    ///   support:
    ///     tools:
    ///       exclude: [bsh, write]
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// agents:
    ///   support:
    ///     tools:
    ///       exclude: [bash, write]
    /// ```
    ///
    /// ## Fix
    /// Use the tool's real name. `--fix --unsafe-fixes` replaces the name by the
    /// single near match (an unsafe fix).
    id: "unknown-excluded-tool",
    severity: Error,
    category: Agent,
    fix: Unsafe,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for agent in &project.agents {
        for (tool, excluded) in agent.named() {
            if !excluded || !project.is_unknown_in(agent, &tool.name) || project.removed_by_change(&tool.name) {
                continue;
            }
            // Its message names what stays enabled, and its help the near names, once the findings shown are known
            // ([`super::hints`]).
            out.push(RULE.diagnostic(at(agent, tool), message(agent, tool, &[])));
        }
    }
}

/// The finding's message naming `near`, the known tools nearest to the name excluded.
pub fn with_near(mut diagnostic: Diagnostic, agent: &AgentDecl, tool: &ToolRef, near: &[&str]) -> Diagnostic {
    diagnostic.message = message(agent, tool, near);
    diagnostic
}

fn message(agent: &AgentDecl, tool: &ToolRef, near: &[&str]) -> String {
    match near {
        [] => format!("agent `{}` excludes `{}`, which is not a known tool: it hides nothing", agent.name, tool.name),
        real => match shared_hider(agent, real) {
            // On the standard harness an excluded member of the shared write group hides the others (`agents`
            // shows it): what stays enabled differs by harness, so the message says which.
            Some(hider) => format!(
                "agent `{}` excludes `{}`, which is not a known tool: it hides nothing, and {} stays enabled on the experimental harness (on the standard harness, excluding `{hider}` hides it too: they share one permission)",
                agent.name,
                tool.name,
                one_of(real)
            ),
            None => format!(
                "agent `{}` excludes `{}`, which is not a known tool: it hides nothing, and {} stays enabled",
                agent.name,
                tool.name,
                one_of(real)
            ),
        },
    }
}

/// The member of the shared write group (`write`, `edit`, `apply_patch`) the agent really excludes, when every
/// tool the typo was meant to hide is in that group: on the standard harness that exclusion hides them already.
fn shared_hider(agent: &AgentDecl, meant: &[&str]) -> Option<&'static str> {
    if !meant.iter().all(|name| SHARED_WRITE_GROUP.contains(name)) {
        return None;
    }
    SHARED_WRITE_GROUP.iter().copied().find(|member| agent.hides_explicitly(member))
}
