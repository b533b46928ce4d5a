use crate::catalog::{HARNESS_TIER1, HARNESS_TIER2, XCSH_BUILTIN_TOOLS};
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
    /// `--staged`) is `removed-tool-in-use` instead, which says why. A name near
    /// no known tool gets the help to declare it under `tools:` or drop it from
    /// the list; `harness-tools` in beeuni-lint.toml is suggested only for a name
    /// that looks like a harness tool (an xcsh built-in, or the family of one
    /// such as `pty_*`, `lsp_*`, `plan_*`).
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

/// The help of a name near no known tool. Most often a project tool the manifest no longer declares (or never
/// did): declaring or dropping it is the remedy, not the config. `harness-tools` is named only for a name that
/// looks like a harness tool ([`looks_like_harness_tool`]), where the table may be behind the harness.
fn unmatched_help(project: &Project, name: &str) -> String {
    let base = match project.base {
        // A change-aware run reports a tool the change removed as `removed-tool-in-use`: this one was not.
        Some(_) => String::new(),
        None => " (`--base REV` tells whether a change removed it from `tools:`)".to_string(),
    };
    // The name is in the message already (it may be long): the help does not repeat it.
    let mut help = format!("declare it under `tools:`, or drop it from the list{base}");
    if looks_like_harness_tool(name) {
        help.push_str(
            "; if it is a harness tool beeuni-lint does not know, add it to `harness-tools` in beeuni-lint.toml",
        );
    }
    help
}

/// Does `name` look like a harness tool (docs/readings.md)? A built-in of the xcsh harness (a sibling harness,
/// whose names reach this one's table in versions beeuni-lint may not know yet), or a name in the family of a
/// harness tool written `family_member` (`pty_resize`, `lsp_references`, `plan_review`).
pub fn looks_like_harness_tool(name: &str) -> bool {
    if XCSH_BUILTIN_TOOLS.contains(&name) {
        return true;
    }
    let Some((family, rest)) = name.split_once('_') else { return false };
    !rest.is_empty()
        && HARNESS_TIER1
            .iter()
            .chain(HARNESS_TIER2)
            .any(|known| known.split_once('_').is_some_and(|(known_family, _)| known_family == family))
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
        return diagnostic.help(unmatched_help(project, &tool.name));
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

#[cfg(test)]
mod tests {
    use super::looks_like_harness_tool;

    #[test]
    fn a_harness_tool_is_an_xcsh_built_in_or_of_a_harness_family() {
        for name in ["ast_grep", "notebook", "todo_write", "pty_resize", "lsp_references", "plan_review", "apply_diff"]
        {
            assert!(looks_like_harness_tool(name), "{name}");
        }
        for name in ["lookup_order", "grpx", "pty_", "pty", "deploy", "order_lookup"] {
            assert!(!looks_like_harness_tool(name), "{name}");
        }
    }
}
