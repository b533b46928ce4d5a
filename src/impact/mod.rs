//! `beeuni-lint impact`: what a change does to what each agent can call. Both sides of the change (the merge base
//! and the work tree, or the index) are built as full models and each is read by [`access::access`], the same
//! answer `agents` gives at that revision; the impact is the difference of the two, per agent and per harness,
//! with the reason each tool changed ([`reasons`]), the secrets each agent holds, what `task` reaches, the tools
//! of the project and what their modules declare ([`modules`]).
//!
//! Each change is filed under its cause ([`causes`]): the line of the manifest that made it (an emptied
//! `exclude:`, a listed tool, `tools: all`, a Beeuni tool no longer loaded, …), which every format shows once per
//! agent with the tools it gains or loses, rather than a reason repeated on every row.
//!
//! What it holds grows with the models it compares as `agents`' answer does: per agent, the tools (and secrets)
//! that changed, so up to the agents times the tools or secrets the repository declares (both bounded by
//! `access::MAX_ROWS` in [`load`]); the Markdown a pull-request comment gets is bounded by its length
//! ([`render::markdown`]).

mod agent;
mod causes;
pub mod link;
pub mod load;
mod modules;
pub mod policy;
mod reasons;
pub mod render;

pub use causes::{Cause, Side};

use crate::access::{self, AgentAccess, Source};
use crate::manifest::agents::AgentDecl;
use crate::manifest::agents::Secrets;
use crate::project::Project;
use agent::agent_impact;
use serde::Serialize;
use std::collections::{BTreeSet, HashMap, HashSet};

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
    /// `--policy`: the guarded gains ([`policy`]); absent without the flag.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy: Option<policy::Verdict>,
}

#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Tool {
    pub name: String,
    pub source: Source,
}

#[derive(Serialize, Debug, Default, PartialEq, Eq)]
pub struct ModuleChange {
    pub name: String,
    /// The module's path at the head, from the repository's root (as `check` shows it).
    pub module: String,
    /// The line of the first field that changed (`description`, else `parameters`) at the head; 1 when neither
    /// was read (a module that is gone).
    pub line: usize,
    /// `--link-base`'s link to that line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
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
    /// What made each change, in the order first met; every row names its own by index (`cause`).
    pub causes: Vec<Cause>,
}

#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct Secret {
    pub name: String,
    pub why: String,
    /// Its index in the agent's `causes`.
    pub cause: usize,
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
    pub cause: usize,
}

#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct TaskReach {
    pub name: String,
    pub source: Source,
    pub via: String,
    pub cause: usize,
}

impl HarnessImpact {
    /// How many tools the agent can newly call: each gained, and each newly reached through `task` that it could
    /// not call itself before (one it could is in `lost`: moved, not gained).
    pub fn gains(&self) -> usize {
        let lost: HashSet<&str> = self.lost.iter().map(|t| t.name.as_str()).collect();
        self.gained.len() + self.task_gained.iter().filter(|t| !lost.contains(t.name.as_str())).count()
    }

    /// How many tools the agent can no longer reach at all: one lost but now reached through `task`, or no
    /// longer reached through `task` because it now calls it itself, is still in reach.
    pub fn losses(&self) -> usize {
        let gained: HashSet<&str> = self.gained.iter().map(|t| t.name.as_str()).collect();
        let task_gained: HashSet<&str> = self.task_gained.iter().map(|t| t.name.as_str()).collect();
        self.lost.iter().filter(|t| !task_gained.contains(t.name.as_str())).count()
            + self.task_lost.iter().filter(|t| !gained.contains(t.name.as_str())).count()
    }
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
/// `Err` when the change is too large to report ([`TooLarge`]).
pub fn compare(name: &str, base: &SideModel, head: &SideModel) -> Result<ProjectImpact, TooLarge> {
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
        policy: None,
    };
    if base.state() == Manifest::Unreadable || head.state() == Manifest::Unreadable {
        return Ok(out);
    }
    let (base_access, head_access) = (access_of(base.project()), access_of(head.project()));
    let (base, head) = (Indexed::of(base.project(), &base_access), Indexed::of(head.project(), &head_access));
    out.agents_added = names_once(head.agents().filter(|a| !base.decls.contains_key(a.as_str())));
    out.agents_removed = names_once(base.agents().filter(|a| !head.decls.contains_key(a.as_str())));
    out.tools_added = head.tools.iter().filter(|t| !base.universe.contains(t.name.as_str())).cloned().collect();
    out.tools_removed = base.tools.iter().filter(|t| !head.universe.contains(t.name.as_str())).cloned().collect();
    if let (Some(base), Some(head)) = (base.project, head.project) {
        out.modules_changed = modules::changed(base, head);
    }
    let order = names_once(head.agents().chain(base.agents()));
    let (mut rows, mut bytes) = (0, 0);
    for agent in &order {
        let (agent_rows, agent_bytes) = agent::weigh(&base, &head, agent);
        (rows, bytes) = (rows + agent_rows, bytes + agent_bytes);
    }
    if bytes > MAX_REPORT_BYTES {
        return Err(TooLarge { rows, bytes });
    }
    out.agents = order.iter().filter_map(|agent| agent_impact(&base, &head, agent)).collect();
    Ok(out)
}

/// The most a project's impact may weigh, as the JSON report would hold it (estimated before any row is built, by
/// [`agent::weigh`]): 24 MiB, so that a report stays under 32 MiB in every format. The rows of a change grow with
/// the agents times the tools and secrets it touches: 1,000 agents given 300 tools and 1,000 secrets (a 40 KB
/// manifest, just under `access::MAX_ROWS`) made 1.6 million rows, 320 MB of JSON and 460 MB of memory. A real
/// change (tens of agents, hundreds of tools) weighs a few MiB at most.
pub const MAX_REPORT_BYTES: usize = 24 << 20;

/// Why a change is not reported: its rows would weigh more than [`MAX_REPORT_BYTES`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooLarge {
    pub rows: usize,
    pub bytes: usize,
}

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the change gives or takes {} rows of tools and secrets (about {} MiB of report), more than `impact` \
             reports (24 MiB): compare a smaller change, or run `beeuni-lint agents` at each revision",
            self.rows,
            self.bytes >> 20
        )
    }
}

/// Each side's access; [`load::project`] refused a side too large to work out (`access::MAX_ROWS`) before.
fn access_of(project: Option<&Project>) -> Vec<AgentAccess> {
    project.and_then(|project| access::access(project).ok()).unwrap_or_default()
}

/// Each name once, in the order first seen (a duplicate agent key is `check`'s to report).
fn names_once<'a>(names: impl Iterator<Item = &'a String>) -> Vec<String> {
    let mut seen = HashSet::new();
    names.filter(|name| seen.insert(name.as_str())).cloned().collect()
}

/// One side, looked up by name: every lookup of the comparison is one hash away, so that its cost grows with
/// the agents and tools the repository declares, not with their product.
struct Indexed<'a> {
    project: Option<&'a Project>,
    /// The first declaration of each agent (a second one is `check`'s to report, and `access` lists both).
    decls: HashMap<&'a str, &'a AgentDecl>,
    access: HashMap<(&'a str, &'static str), &'a AgentAccess>,
    /// Every tool a session of the project can have, as `access` reads it.
    tools: Vec<Tool>,
    universe: HashSet<&'a str>,
    /// Every name some agent's `secrets:` lists: what an agent without the key holds.
    secrets: BTreeSet<&'a str>,
}

impl<'a> Indexed<'a> {
    fn of(project: Option<&'a Project>, access: &'a [AgentAccess]) -> Indexed<'a> {
        let mut decls = HashMap::new();
        let mut universe = HashSet::new();
        let (mut tools, mut secrets) = (Vec::new(), BTreeSet::new());
        if let Some(project) = project {
            for agent in &project.agents {
                decls.entry(agent.name.as_str()).or_insert(agent);
            }
            for (name, source) in access::universe(project) {
                universe.insert(name);
                tools.push(Tool { name: name.to_string(), source });
            }
            secrets = project.secrets().into_iter().collect();
        }
        let mut by_name = HashMap::new();
        for entry in access {
            by_name.entry((entry.agent.as_str(), entry.harness)).or_insert(entry);
        }
        Indexed { project, decls, access: by_name, tools, universe, secrets }
    }

    fn agents(&self) -> impl Iterator<Item = &'a String> {
        self.project.into_iter().flat_map(|p| p.agents.iter().map(|a| &a.name))
    }

    /// The secrets `agent` holds, and whether its own `secrets:` list says so.
    fn secrets_of(&self, agent: Option<&'a AgentDecl>) -> (BTreeSet<&'a str>, bool) {
        match agent.map(|a| &a.secrets) {
            Some(Secrets::List(names)) => (names.iter().map(String::as_str).collect(), true),
            Some(Secrets::NotListed) => (self.secrets.clone(), false),
            None => (BTreeSet::new(), false),
        }
    }
}

#[cfg(test)]
mod tests;
