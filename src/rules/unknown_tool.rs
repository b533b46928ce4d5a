use crate::diagnostic::{Diagnostic, Edit, Fix, Label, Safety};
use crate::manifest::agents::{AgentDecl, ToolRef};
use crate::project::Project;
use crate::suggest::one_of;

crate::rules::declare_rule! {
    /// An agent's list or map names a tool that does not exist.
    ///
    /// ## What it checks
    /// Every name in `agents.<name>.tools` (a list or the map form) must be a
    /// harness tool, a Beeuni tool or a tool declared under `tools:` (connector
    /// tools are `connector-in-tools`). "did you mean" names a known tool within
    /// two edits. A project tool the change being checked removes (`--base`,
    /// `--staged`) is `removed-tool-in-use` instead, which says why.
    ///
    /// ## Why
    /// The platform warns and ignores the name: the agent does not get the tool
    /// its author meant.
    ///
    /// ## Example
    /// ```yaml
    /// agents:
    ///   researcher:
    ///     tools: [read, grpe]
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// agents:
    ///   researcher:
    ///     tools: [read, grep]
    /// ```
    ///
    /// ## Fix
    /// Use the tool's real name. `--fix --unsafe-fixes` replaces the name by the
    /// single near match, when exactly one known name is within two edits (an
    /// unsafe fix: the harness table may not know every tool).
    id: "unknown-tool",
    severity: Warning,
    category: Agent,
    fix: Unsafe,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for agent in &project.agents {
        for (tool, excluded) in agent.named() {
            if excluded || !project.is_unknown_in(agent, &tool.name) || project.removed_by_change(&tool.name) {
                continue;
            }
            let message =
                format!("agent `{}` lists `{}`, which is not a known tool: it is ignored", agent.name, tool.name);
            // Its help is added once the findings shown are known ([`super::hints`]).
            out.push(RULE.diagnostic(at(agent, tool), message));
        }
    }
}

pub fn at(agent: &AgentDecl, tool: &ToolRef) -> Label {
    Label::new(agent.file, tool.item)
}

/// Adds "did you mean" help naming `near`, the nearest known names, and an unsafe fix when exactly one is nearest.
pub fn with_suggestion(
    project: &Project,
    diagnostic: Diagnostic,
    agent: &AgentDecl,
    tool: &ToolRef,
    near: &[&str],
) -> Diagnostic {
    let Some(first) = near.first() else {
        return diagnostic.help(
            "check the spelling; add a name the harness table does not know to `harness-tools` in beeuni-lint.toml",
        );
    };
    let diagnostic = diagnostic.help(format!("did you mean {}?", one_of(near)));
    // A tie at the smallest distance is named, not guessed at: no fix.
    if near.len() == 1 {
        let written = project.file(agent.file).slice(tool.span);
        let content = crate::yaml::edit::requote(written, first);
        let edit = Edit { file: agent.file, span: tool.span, content };
        return diagnostic.fix(Fix::new(Safety::Unsafe, vec![edit]));
    }
    diagnostic
}
