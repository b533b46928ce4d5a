//! The did-you-mean of the findings that name an unknown tool (`unknown-tool`, `unknown-excluded-tool`,
//! `permission-unknown-tool`): a search among every known name, so made for the findings shown only. The rules
//! make these findings without help; once ignores, levels and the cap ([`crate::diagnostic::cap`]) have chosen
//! those shown, [`complete`] adds the help and what depends on the near names (a message, a fix). Searched for each
//! finding before the cap, 100,000 agents listing unknown tools took 13.7 s in a debug build.

use super::{permission_unknown_tool, unknown_excluded_tool, unknown_tool};
use crate::catalog::PERMISSION_ONLY_KEYS;
use crate::diagnostic::Diagnostic;
use crate::manifest::agents::{AgentDecl, ToolRef};
use crate::project::Project;
use crate::source::FileId;
use crate::suggest::{NearMatcher, SHORTEST_CHARGED};
use std::collections::HashMap;

/// Characters compared in all (the product of two names' lengths, each counted as at least a tool name's longest:
/// [`SHORTEST_CHARGED`]), across the findings completed (each distinct name is searched once): past it, a finding
/// gets the help of a name with no near match. Findings shown are at most some thousands, but the known names
/// (every declared tool) can be a hundred thousand of one length. 250,000 comparisons of names of tool-name
/// length: enough for a dozen searches among the 20,000 tools of the bench, each comparison some 2 µs in a debug
/// build. Counted by comparisons, names of 246 characters (a 2 MiB manifest holds 3,800 of them and as many
/// unknown ones) took 9.3 s of CPU in a debug build: their alignments are 15 times the size.
const COMPARISONS: usize = 250_000 * SHORTEST_CHARGED * SHORTEST_CHARGED;

/// What a finding waiting for its help is about.
enum Named<'p> {
    Tool(&'p AgentDecl, &'p ToolRef),
    PermissionKey(&'p str),
}

/// Is this a finding of those rules still without its help (a summary of the cap has one)?
fn is_pending(diagnostic: &Diagnostic) -> bool {
    let rules = [unknown_tool::RULE.id, unknown_excluded_tool::RULE.id, permission_unknown_tool::RULE.id];
    diagnostic.help.is_none() && rules.contains(&diagnostic.rule)
}

/// Adds the did-you-mean (and what depends on it) to each finding of those rules in `diagnostics`.
pub fn complete(project: &Project, diagnostics: &mut [Diagnostic]) {
    let mut named: HashMap<(FileId, usize), Option<Named>> = diagnostics
        .iter()
        .filter(|d| is_pending(d))
        .map(|d| ((d.primary.file, d.primary.span.start()), None))
        .collect();
    if named.is_empty() {
        return;
    }
    for agent in &project.agents {
        for (tool, _) in agent.named() {
            if let Some(slot) = named.get_mut(&(agent.file, tool.item.start())) {
                *slot = Some(Named::Tool(agent, tool));
            }
        }
        for (key, span) in &agent.permission {
            if let Some(slot) = named.get_mut(&(agent.file, span.start())) {
                *slot = Some(Named::PermissionKey(key));
            }
        }
    }
    let known = project.known_tool_names();
    let mut tools = NearMatcher::new(known.iter().copied(), COMPARISONS);
    let mut keys = None;
    for diagnostic in diagnostics.iter_mut().filter(|d| is_pending(d)) {
        let Some(Some(about)) = named.get(&(diagnostic.primary.file, diagnostic.primary.span.start())) else {
            continue;
        };
        let finding = diagnostic.clone();
        *diagnostic = match about {
            Named::Tool(agent, tool) => {
                let near = tools.near(&tool.name).unwrap_or_default();
                let finding = if finding.rule == unknown_excluded_tool::RULE.id {
                    unknown_excluded_tool::with_near(finding, agent, tool, &near)
                } else {
                    finding
                };
                unknown_tool::with_suggestion(project, finding, agent, tool, &near)
            }
            Named::PermissionKey(key) => {
                let keys = keys.get_or_insert_with(|| {
                    NearMatcher::new(known.iter().copied().chain(PERMISSION_ONLY_KEYS), COMPARISONS)
                });
                permission_unknown_tool::with_suggestion(finding, &keys.near(key).unwrap_or_default())
            }
        };
        // The fix the did-you-mean adds is held to the rule's declaration, as the rules' own are (`super::check`).
        #[cfg(debug_assertions)]
        if let Some(rule) = super::find(diagnostic.rule) {
            rule.debug_assert_declared_fix(diagnostic);
        }
    }
}
