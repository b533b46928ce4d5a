//! Fixes judged together: a safe fix is planned on the files as they are, where it changes nothing an agent can
//! call ("it hides nothing"), but an unsafe fix of the same run can change what made it harmless (deleting
//! `exclude: [show]` because `show` is not loaded, then loading `show`). So when a run applies both, the planner
//! compares what each agent can call on each harness (the model `beeuni-lint agents` prints) after the whole
//! plan with what the safe fixes alone and the unsafe fixes alone would give: a tool an agent gains, or one it
//! has and loses, only when they go together is blamed on the safe fixes in that agent's declaration, which are
//! then not applied with the unsafe ones. (Missing a tool the unsafe fixes alone would add is no surprise: a
//! safe fix can make an unsafe one unneeded.)

use crate::access::{self, AgentAccess};
use crate::project::Project;
use crate::source::Span;
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// One agent's access to one tool on one harness: (agent, harness, tool).
type Call = (String, &'static str, String);

/// What every agent can call in one state of the files, and where each agent is declared.
#[derive(Clone, Default)]
pub struct Access {
    calls: BTreeSet<Call>,
    /// Agents whose tools cannot be known (an invalid `tools:`): they are not compared.
    unknown: HashSet<String>,
    /// Each agent's declaration: (agent, project-relative path, from its key to the end of its mapping).
    declared: Vec<(String, String, Span)>,
}

impl Access {
    pub fn of(project: &Project) -> Access {
        let mut out = Access::default();
        // What an agent reaches through `task` is what another agent can call, compared for that agent (and
        // unknown where that agent's list is invalid): only each agent's own tools are compared.
        for AgentAccess { agent, harness, invalid, tools, .. } in access::access(project) {
            if invalid {
                out.unknown.insert(agent.clone());
            }
            out.calls.extend(tools.into_iter().map(|t| (agent.clone(), harness, t.name)));
        }
        for agent in &project.agents {
            let doc = &project.graph.files[agent.graph_index].doc;
            let span = Span::new(agent.key.start, doc.node(agent.node).span.end.max(agent.key.end));
            out.declared.push((agent.name.clone(), project.file(agent.file).path.to_string(), span));
        }
        out
    }

    /// The agents whose declaration holds one of these spans (project-relative path, span).
    pub fn agents_at(&self, spans: &[(String, Span)]) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for (agent, path, declared) in &self.declared {
            let inside = spans.iter().any(|(p, s)| p == path && declared.start <= s.start && s.end <= declared.end);
            if inside && !out.contains(agent) {
                out.push(agent.clone());
            }
        }
        out
    }
}

/// A call that differs, by agent: the tools it gains or loses only when the safe and unsafe fixes go together.
pub type Disagreements = BTreeMap<String, Vec<(&'static str, String, bool)>>;

/// Where the whole plan (`together`) gives an agent a tool, or takes away one it has, that neither the safe fixes
/// alone (`original` → `safe`) nor the unsafe fixes alone (`original` → `unsafe_alone`) would: a change the
/// safe fixes made is theirs; any other must be the one the unsafe fixes make on their own, or less of it.
pub fn disagreements(original: &Access, safe: &Access, unsafe_alone: &Access, together: &Access) -> Disagreements {
    let unknown = |agent: &str| [original, safe, unsafe_alone, together].iter().any(|a| a.unknown.contains(agent));
    let every: BTreeSet<&Call> =
        original.calls.iter().chain(&safe.calls).chain(&unsafe_alone.calls).chain(&together.calls).collect();
    let mut out = Disagreements::new();
    for call in every.into_iter().filter(|(agent, _, _)| !unknown(agent)) {
        let (in_original, in_safe) = (original.calls.contains(call), safe.calls.contains(call));
        let expected = if in_safe != in_original { in_safe } else { unsafe_alone.calls.contains(call) };
        let got = together.calls.contains(call);
        // Not getting a tool the unsafe fixes alone would add is no surprise: a safe fix can make an unsafe one
        // unneeded (a `beeuni:` value fixed leaves nothing for `no-beeuni-tools` to add). A tool gained, or one
        // the agent had and loses, only together is.
        let surprise = if got { !expected } else { expected && in_original };
        if surprise {
            let (agent, harness, tool) = call;
            out.entry(agent.clone()).or_default().push((harness, tool.clone(), got));
        }
    }
    out
}

/// Why a safe fix of `agent` is not applied with the unsafe ones: what the agent would gain or lose.
pub fn reason(agent: &str, changes: &[(&'static str, String, bool)]) -> String {
    let said: Vec<String> = changes
        .iter()
        .take(4)
        .map(|(harness, tool, gained)| {
            format!("{} `{tool}` on the {harness} harness", if *gained { "gain" } else { "lose" })
        })
        .collect();
    let more = if changes.len() > 4 { format!(" and {} more", changes.len() - 4) } else { String::new() };
    format!("with the unsafe fixes of this run it would let agent `{agent}` {}{more}", said.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn access(calls: &[(&str, &str)]) -> Access {
        Access {
            calls: calls.iter().map(|(a, t)| (a.to_string(), "standard", t.to_string())).collect(),
            ..Access::default()
        }
    }

    #[test]
    fn a_tool_gained_only_together_is_a_disagreement() {
        let original = access(&[("lister", "read")]);
        let safe = original.clone();
        let unsafe_alone = access(&[("lister", "read"), ("lister", "show")]);
        let together = access(&[("lister", "read"), ("lister", "show"), ("support", "show")]);
        let found = disagreements(&original, &safe, &unsafe_alone, &together);
        assert_eq!(found, Disagreements::from([("support".into(), vec![("standard", "show".into(), true)])]));
        assert_eq!(
            reason("support", &found["support"]),
            "with the unsafe fixes of this run it would let agent `support` gain `show` on the standard harness"
        );
        // What the safe fixes change on their own, and what the unsafe ones do alone, is no disagreement.
        let safe = access(&[("lister", "read"), ("support", "show")]);
        assert!(disagreements(&original, &safe, &unsafe_alone, &together).is_empty());
        assert!(disagreements(&original, &original, &together, &together).is_empty());
    }

    /// A safe fix that makes an unsafe one unneeded (a `beeuni:` typo fixed, so `no-beeuni-tools` adds nothing):
    /// the tools the unsafe fix alone would add are missing, which is no disagreement; a tool the agent had and
    /// loses only together is.
    #[test]
    fn missing_what_the_unsafe_fixes_alone_would_add_is_no_disagreement() {
        let original = access(&[("main", "read")]);
        let safe = access(&[("main", "read"), ("main", "web_search")]);
        let unsafe_alone = access(&[("main", "read"), ("main", "image_search")]);
        let together = safe.clone();
        assert!(disagreements(&original, &safe, &unsafe_alone, &together).is_empty());
        let lost = access(&[("main", "web_search")]);
        let found = disagreements(&original, &safe, &unsafe_alone, &lost);
        assert_eq!(found, Disagreements::from([("main".into(), vec![("standard", "read".into(), false)])]));
    }

    #[test]
    fn agents_whose_tools_are_unknown_are_not_compared() {
        let original = Access { unknown: HashSet::from(["support".to_string()]), ..access(&[]) };
        let together = access(&[("support", "show")]);
        assert!(disagreements(&original, &original, &original, &together).is_empty());
    }
}
