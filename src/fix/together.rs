//! Fixes judged together: a safe fix is planned on the files as they are, where it changes nothing an agent can
//! call ("it hides nothing"), but an unsafe fix of the same run can change what made it harmless (deleting
//! `exclude: [show]` because `show` is not loaded, then loading `show`). So when a run applies both, the planner
//! compares what each agent can call on each harness (the model `beeuni-lint agents` prints) after the whole
//! plan with what the safe fixes alone and the unsafe fixes alone would give: a tool an agent hid by name and
//! gains only when they go together is blamed on the safe fixes in that agent's declaration, which are then not
//! applied with the unsafe ones. (Other differences are what the fixes meant together; and a held-back fix leaves
//! nothing for a second run: once the tool is loaded, the exclusion hides something again.)

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
    /// The tools each agent hides by name (an `exclude:` entry, `name: false`): (agent, tool).
    hidden: HashSet<(String, String)>,
    /// Each agent's declaration: (agent, project-relative path, from its key to the end of its mapping).
    declared: Vec<(String, String, Span)>,
}

impl Access {
    pub fn of(project: &Project) -> Access {
        let mut out = Access::default();
        // What an agent reaches through `task` is what another agent can call, compared for that agent (and
        // unknown where that agent's list is invalid): only each agent's own tools are compared.
        // A project too large to work out (see `access::MAX_ROWS`) compares no agent: every one is unknown, and
        // the fixes go together unjudged.
        let Ok(access) = access::access(project) else {
            out.unknown.extend(project.agents.iter().map(|agent| agent.name.clone()));
            return out;
        };
        for AgentAccess { agent, harness, invalid, tools, .. } in access {
            if invalid {
                out.unknown.insert(agent.clone());
            }
            out.calls.extend(tools.into_iter().map(|t| (agent.clone(), harness, t.name)));
        }
        for agent in &project.agents {
            for (tool, excluded) in agent.named() {
                if excluded || agent.hides_explicitly(&tool.name) {
                    out.hidden.insert((agent.name.clone(), tool.name.to_string()));
                }
            }
            let doc = &project.graph.files[agent.graph_index].doc;
            let span = Span::new(agent.key.start(), doc.node(agent.node).span.end().max(agent.key.end()));
            out.declared.push((agent.name.clone(), project.file(agent.file).path.to_string(), span));
        }
        out
    }

    /// The agents whose declaration holds one of these spans (project-relative path, span).
    pub fn agents_at(&self, spans: &[(String, Span)]) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for (agent, path, declared) in &self.declared {
            let inside = spans.iter().any(|(p, s)| p == path && declared.contains(*s));
            if inside && !out.contains(agent) {
                out.push(agent.clone());
            }
        }
        out
    }
}

/// A call that differs, by agent: the tools it gains or loses only when the safe and unsafe fixes go together.
pub type Disagreements = BTreeMap<String, Vec<(&'static str, String, bool)>>;

/// Where the whole plan (`together`) gives an agent a tool it hid by name, which neither the safe fixes alone
/// (`original` → `safe`) nor the unsafe fixes alone (`original` → `unsafe_alone`) would.
pub fn disagreements(original: &Access, safe: &Access, unsafe_alone: &Access, together: &Access) -> Disagreements {
    let unknown = |agent: &str| [original, safe, unsafe_alone, together].iter().any(|a| a.unknown.contains(agent));
    let every: BTreeSet<&Call> =
        original.calls.iter().chain(&safe.calls).chain(&unsafe_alone.calls).chain(&together.calls).collect();
    let mut out = Disagreements::new();
    for call in every.into_iter().filter(|(agent, _, _)| !unknown(agent)) {
        let (in_original, in_safe) = (original.calls.contains(call), safe.calls.contains(call));
        let expected = if in_safe != in_original { in_safe } else { unsafe_alone.calls.contains(call) };
        let got = together.calls.contains(call);
        // The surprise is a tool the agent hid by name and gets only when both go in: the safe fix deleted its
        // exclusion as hiding nothing, and an unsafe fix made it something. Other differences are what fixes
        // meant together (a `beeuni:` value fixed and a typo in a list fixed give the agent the tool it named;
        // a safe fix can make an unsafe one unneeded).
        let (agent, _, tool) = call;
        let surprise = got && !expected && original.hidden.contains(&(agent.clone(), tool.clone()));
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
        let mut original = access(&[("lister", "read")]);
        original.hidden.insert(("support".into(), "show".into()));
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

    /// A safe fix that makes an unsafe one unneeded (a `beeuni:` typo fixed, so `no-beeuni-tools` adds nothing),
    /// or two fixes that together give an agent the tool its list names (a `beeuni:` value and a typo in the list):
    /// no disagreement; only a tool the agent hid by name is.
    #[test]
    fn only_a_tool_the_agent_hid_by_name_is_a_disagreement() {
        let original = access(&[("main", "read")]);
        let safe = access(&[("main", "read"), ("main", "web_search")]);
        let unsafe_alone = access(&[("main", "read"), ("main", "image_search")]);
        assert!(disagreements(&original, &safe, &unsafe_alone, &safe).is_empty());
        let both = access(&[("main", "read"), ("researcher", "web_search")]);
        assert!(disagreements(&original, &original, &original, &both).is_empty());
        let mut hid = original.clone();
        hid.hidden.insert(("researcher".into(), "web_search".into()));
        let found = disagreements(&hid, &hid, &hid, &both);
        assert_eq!(found, Disagreements::from([("researcher".into(), vec![("standard", "web_search".into(), true)])]));
    }

    #[test]
    fn agents_whose_tools_are_unknown_are_not_compared() {
        let original = Access { unknown: HashSet::from(["support".to_string()]), ..access(&[]) };
        let together = access(&[("support", "show")]);
        assert!(disagreements(&original, &original, &original, &together).is_empty());
    }
}
