//! `beeuni-lint impact`: what a change does to what each agent can call. Both sides of the change (the merge base
//! and the work tree, or the index) are built as full models and each is read by [`access::access`], the same
//! answer `agents` gives at that revision; the impact is the difference of the two, per agent and per harness,
//! with the reason each tool changed ([`reasons`]), the secrets each agent holds, what `task` reaches, the tools
//! of the project and what their modules declare ([`modules`]).
//!
//! Every list it holds is bounded by the models it compares (their agents and tools, capped as the loader caps
//! them); the Markdown a pull-request comment gets is bounded again by its length ([`render::markdown`]).

pub mod load;
mod modules;
mod reasons;
pub mod render;

use crate::access::{self, AgentAccess, Source};
use crate::manifest::agents::Secrets;
use crate::project::Project;
use serde::Serialize;
use std::collections::BTreeSet;

/// The version of the JSON document (`"version"`): raised when a field changes meaning or goes away.
pub const JSON_VERSION: u32 = 1;

/// A whole run: every project compared, with what it was compared with.
#[derive(Serialize, Debug)]
pub struct Impact {
    pub version: u32,
    /// "merge base 1a2b3c4 of origin/main and HEAD", "HEAD (1a2b3c4)", …
    pub base: String,
    /// `work tree` or `index`.
    pub head: &'static str,
    pub projects: Vec<ProjectImpact>,
}

/// How a side's manifest was found.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Manifest {
    Read,
    /// No `beeuni.yaml` at that side: the project is new (or gone).
    Missing,
    /// Not YAML, or a top-level value of the wrong type (what keeps `agents` from answering): nothing compared.
    Unreadable,
}

#[derive(Serialize, Debug)]
pub struct ProjectImpact {
    /// The project's folder from the repository's root (`.` for the root).
    pub project: String,
    pub base_manifest: Manifest,
    pub head_manifest: Manifest,
    pub agents_added: Vec<String>,
    pub agents_removed: Vec<String>,
    /// Tools every session of the project may now have (a declared project tool, a Beeuni tool `tools:` loads).
    pub tools_added: Vec<Tool>,
    pub tools_removed: Vec<Tool>,
    /// Project tools on both sides whose module changed its `description` or `parameters`.
    pub modules_changed: Vec<ModuleChange>,
    /// The agents whose tools, `task` reach or secrets changed, in the head's order (removed ones last).
    pub agents: Vec<AgentImpact>,
}

#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Tool {
    pub name: String,
    pub source: Source,
}

#[derive(Serialize, Debug, Default, PartialEq, Eq)]
pub struct ModuleChange {
    pub name: String,
    /// The module's path at the head (project-relative).
    pub module: String,
    pub description_changed: bool,
    pub parameters_changed: bool,
    pub properties_added: Vec<String>,
    pub properties_removed: Vec<String>,
    /// `required` changed: the names it gained and lost.
    pub required_added: Vec<String>,
    pub required_removed: Vec<String>,
}

#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum AgentChange {
    Added,
    Removed,
    Changed,
}

#[derive(Serialize, Debug)]
pub struct AgentImpact {
    pub agent: String,
    pub change: AgentChange,
    pub secrets_granted: Vec<Secret>,
    pub secrets_revoked: Vec<Secret>,
    /// Only the harnesses on which something changed.
    pub harnesses: Vec<HarnessImpact>,
}

#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct Secret {
    pub name: String,
    pub why: String,
}

#[derive(Serialize, Debug)]
pub struct HarnessImpact {
    pub harness: &'static str,
    pub gained: Vec<ToolChange>,
    pub lost: Vec<ToolChange>,
    /// Tools newly reached by starting another agent with `task` (standard harness), and through which agent.
    pub task_gained: Vec<TaskReach>,
    pub task_lost: Vec<TaskReach>,
}

#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct ToolChange {
    pub name: String,
    pub source: Source,
    pub why: String,
}

#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct TaskReach {
    pub name: String,
    pub source: Source,
    pub via: String,
}

impl ProjectImpact {
    pub fn is_empty(&self) -> bool {
        self.agents_added.is_empty()
            && self.agents_removed.is_empty()
            && self.tools_added.is_empty()
            && self.tools_removed.is_empty()
            && self.modules_changed.is_empty()
            && self.agents.is_empty()
            && self.base_manifest != Manifest::Unreadable
            && self.head_manifest != Manifest::Unreadable
    }
}

/// One side of the change: its model, or why there is none.
pub enum SideModel<'a> {
    Read(&'a Project),
    Missing,
    Unreadable,
}

impl<'a> SideModel<'a> {
    fn project(&self) -> Option<&'a Project> {
        match self {
            SideModel::Read(project) => Some(*project),
            _ => None,
        }
    }

    fn state(&self) -> Manifest {
        match self {
            SideModel::Read(_) => Manifest::Read,
            SideModel::Missing => Manifest::Missing,
            SideModel::Unreadable => Manifest::Unreadable,
        }
    }
}

/// The impact of the change from `base` to `head` on the project `name`.
pub fn compare(name: &str, base: &SideModel, head: &SideModel) -> ProjectImpact {
    let mut out = ProjectImpact {
        project: name.to_string(),
        base_manifest: base.state(),
        head_manifest: head.state(),
        agents_added: Vec::new(),
        agents_removed: Vec::new(),
        tools_added: Vec::new(),
        tools_removed: Vec::new(),
        modules_changed: Vec::new(),
        agents: Vec::new(),
    };
    if base.state() == Manifest::Unreadable || head.state() == Manifest::Unreadable {
        return out;
    }
    let (base, head) = (base.project(), head.project());
    let empty = Vec::new();
    let base_access = base.map_or_else(Vec::new, access::access);
    let head_access = head.map_or_else(Vec::new, access::access);
    let base_agents = base.map_or(&empty, |p| &p.agents);
    let head_agents = head.map_or(&empty, |p| &p.agents);
    let has = |agents: &[crate::manifest::agents::AgentDecl], name: &str| agents.iter().any(|a| a.name == name);
    out.agents_added = names_once(head_agents.iter().filter(|a| !has(base_agents, &a.name)).map(|a| &a.name));
    out.agents_removed = names_once(base_agents.iter().filter(|a| !has(head_agents, &a.name)).map(|a| &a.name));
    let (base_tools, head_tools) = (universe_of(base), universe_of(head));
    out.tools_added = head_tools.iter().filter(|t| !base_tools.iter().any(|b| b.name == t.name)).cloned().collect();
    out.tools_removed = base_tools.iter().filter(|t| !head_tools.iter().any(|h| h.name == t.name)).cloned().collect();
    if let (Some(base), Some(head)) = (base, head) {
        out.modules_changed = modules::changed(base, head);
    }
    let sides = Sides { base, head, base_access: &base_access, head_access: &head_access };
    let order = names_once(head_agents.iter().chain(base_agents.iter()).map(|a| &a.name));
    out.agents = order.iter().filter_map(|agent| sides.agent(agent)).collect();
    out
}

/// Each name once, in the order first seen (a duplicate agent key is `check`'s to report).
fn names_once<'a>(names: impl Iterator<Item = &'a String>) -> Vec<String> {
    let mut seen = BTreeSet::new();
    names.filter(|name| seen.insert(name.as_str())).cloned().collect()
}

/// Every tool a session of the project can have, as `access` sees it: `agents` gives an agent without `tools:`
/// all of them, so the universe is read from the model the same way `access` reads it.
fn universe_of(project: Option<&Project>) -> Vec<Tool> {
    let Some(project) = project else { return Vec::new() };
    access::universe(project).into_iter().map(|(name, source)| Tool { name: name.to_string(), source }).collect()
}

struct Sides<'a> {
    base: Option<&'a Project>,
    head: Option<&'a Project>,
    base_access: &'a [AgentAccess],
    head_access: &'a [AgentAccess],
}

impl Sides<'_> {
    /// What changed for `agent`, or `None` when nothing did.
    fn agent(&self, agent: &str) -> Option<AgentImpact> {
        let base_decl = self.base.and_then(|p| p.agents.iter().find(|a| a.name == agent));
        let head_decl = self.head.and_then(|p| p.agents.iter().find(|a| a.name == agent));
        let change = match (base_decl, head_decl) {
            (None, _) => AgentChange::Added,
            (_, None) => AgentChange::Removed,
            _ => AgentChange::Changed,
        };
        let mut harnesses = Vec::new();
        for harness in ["standard", "experimental"] {
            let (before, after) = (find(self.base_access, agent, harness), find(self.head_access, agent, harness));
            let context = reasons::Context { base: self.base, head: self.head, base_decl, head_decl, harness };
            let gained = tools_only_in(after, before).map(|t| context.gained(t)).collect();
            let lost = tools_only_in(before, after).map(|t| context.lost(t)).collect();
            let task_gained = reach_only_in(after, before);
            let task_lost = reach_only_in(before, after);
            let impact = HarnessImpact { harness, gained, lost, task_gained, task_lost };
            if !(impact.gained.is_empty()
                && impact.lost.is_empty()
                && impact.task_gained.is_empty()
                && impact.task_lost.is_empty())
            {
                harnesses.push(impact);
            }
        }
        let (granted, revoked) = secrets_diff(self.base, base_decl, self.head, head_decl);
        if harnesses.is_empty() && granted.is_empty() && revoked.is_empty() && change == AgentChange::Changed {
            return None;
        }
        let agent = agent.to_string();
        Some(AgentImpact { agent, change, secrets_granted: granted, secrets_revoked: revoked, harnesses })
    }
}

fn find<'a>(list: &'a [AgentAccess], agent: &str, harness: &str) -> Option<&'a AgentAccess> {
    list.iter().find(|a| a.agent == agent && a.harness == harness)
}

fn tools_only_in<'a>(
    side: Option<&'a AgentAccess>,
    other: Option<&'a AgentAccess>,
) -> impl Iterator<Item = &'a access::Callable> {
    let tools = side.map_or(&[][..], |a| a.tools.as_slice());
    let others = other.map_or(&[][..], |a| a.tools.as_slice());
    tools.iter().filter(move |t| !others.iter().any(|o| o.name == t.name))
}

fn reach_only_in(side: Option<&AgentAccess>, other: Option<&AgentAccess>) -> Vec<TaskReach> {
    let reached = side.map_or(&[][..], |a| a.through_task.as_slice());
    let others = other.map_or(&[][..], |a| a.through_task.as_slice());
    reached
        .iter()
        .filter(|r| !others.iter().any(|o| o.name == r.name))
        .map(|r| TaskReach { name: r.name.clone(), source: r.source, via: r.via.clone() })
        .collect()
}

/// The secrets an agent holds: its `secrets:` list, or without one every secret of the project (every name some
/// agent lists, as `secret-not-granted` counts them).
fn secrets_of<'a>(
    project: Option<&'a Project>,
    agent: Option<&'a crate::manifest::agents::AgentDecl>,
) -> (BTreeSet<&'a str>, bool) {
    match (project, agent) {
        (_, Some(agent)) if matches!(agent.secrets, Secrets::List(_)) => match &agent.secrets {
            Secrets::List(names) => (names.iter().map(String::as_str).collect(), true),
            Secrets::NotListed => (BTreeSet::new(), false),
        },
        (Some(project), Some(_)) => (project.secrets().into_iter().collect(), false),
        _ => (BTreeSet::new(), false),
    }
}

fn secrets_diff(
    base: Option<&Project>,
    base_decl: Option<&crate::manifest::agents::AgentDecl>,
    head: Option<&Project>,
    head_decl: Option<&crate::manifest::agents::AgentDecl>,
) -> (Vec<Secret>, Vec<Secret>) {
    let (before, _) = secrets_of(base, base_decl);
    let (after, listed_after) = secrets_of(head, head_decl);
    let why = |listed: bool| {
        if listed { "in its `secrets:` list" } else { "no `secrets:` list: every secret of the project" }.to_string()
    };
    let granted = after.difference(&before).map(|name| Secret { name: name.to_string(), why: why(listed_after) });
    let revoked = before.difference(&after).map(|name| {
        let still_a_secret = head.is_some_and(|p| p.secrets().contains(name));
        let why = match (head_decl, listed_after, still_a_secret) {
            (None, ..) => "agent removed".to_string(),
            (_, true, _) => "not in its `secrets:` list".to_string(),
            (_, false, false) => "no agent lists it any more".to_string(),
            (_, false, true) => why(false),
        };
        Secret { name: name.to_string(), why }
    });
    (granted.collect(), revoked.collect())
}

#[cfg(test)]
mod tests;
