//! `beeuni-lint agents`: per agent and per harness, the tools it can call and why. The standard harness
//! (opencode) shares one permission among `write`, `edit` and `apply_patch` and lets the terminal's `pty_*`
//! tools follow `bash`; the experimental harness takes every name as written and has no terminal plugin.
//!
//! It agrees with `check`: an agent whose `tools:` has an invalid shape is `invalid (see check)`, never a
//! tool set; names the platform refuses (`tool-name`, `harness-tool-name`) and unknown names are never listed.
//! On the standard harness a subagent started with `task` gets its own list, so what an agent reaches that
//! way is shown too.

use crate::catalog::AGENT_KEYS;
use crate::catalog::{self, HarnessTier, PTY_TOOLS, SHARED_WRITE_GROUP};
use crate::manifest::agents::{AgentDecl, ToolList};
use crate::project::Project;
use crate::rules::tool_name::name_problem;
use crate::source::escape::escape;
use crate::suggest;
use serde::Serialize;
use std::collections::HashSet;

/// Where a tool comes from: the table's columns.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    Harness,
    Beeuni,
    Project,
}

#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct Callable {
    pub name: String,
    pub source: Source,
    pub why: String,
}

/// A tool the agent cannot call itself but reaches by starting another agent with `task`.
#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct Reached {
    pub name: String,
    pub source: Source,
    /// The first agent (in declaration order) that can call it.
    pub via: String,
}

#[derive(Serialize, Debug)]
pub struct AgentAccess {
    pub agent: String,
    pub harness: &'static str,
    /// `tools:` has a shape `check` reports: what the agent gets is not known.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub invalid: bool,
    pub tools: Vec<Callable>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub through_task: Vec<Reached>,
}

/// The most rows (an agent, a harness, a tool or a secret) `access` and `impact` work out for one project. Their
/// answers grow with the agents times the tools (or secrets) a repository declares, both of its choosing: 2,000
/// agents with `tools: all` beside 20,000 tools asked for 80 million rows (a minute and 4.7 GB before this bound).
/// Real projects hold a few thousand. At 1,000,000 rows, 1,000 agents with `tools: all` beside 300 tools (a 40 KB
/// manifest) made `agents --json` print 59 MB and `impact --format json` 228 MB in 3 to 4 s and ~500 MiB: at this
/// bound every answer stays within a few MiB of output, 2 s and 200 MiB.
pub const MAX_ROWS: usize = 100_000;

/// Why a project's access is not worked out: its agents times its tools (or secrets) pass [`MAX_ROWS`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooLarge {
    pub agents: usize,
    pub names: usize,
    /// `tools` or `secrets`.
    pub what: &'static str,
}

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} agents and {} {} make more than 100,000 rows of what each agent can call: beeuni-lint does not \
             work them out (a bound on the work a repository can ask for)",
            self.agents, self.names, self.what
        )
    }
}

/// `Err` when `agents` agents, each with up to `names` tools or secrets, may pass [`MAX_ROWS`]: a tool is a row
/// on each harness and one more reached through `task`.
pub fn within_rows(agents: usize, names: usize, what: &'static str) -> Result<(), TooLarge> {
    let rows_a_name = if what == "tools" { 3 } else { 1 };
    match agents.saturating_mul(names).saturating_mul(rows_a_name) > MAX_ROWS {
        true => Err(TooLarge { agents, names, what }),
        false => Ok(()),
    }
}

/// Every tool a session of the project can have: the harness's own (tier 1 and config), the loaded Beeuni
/// tools, and the declared project tools whose name the platform accepts.
pub fn universe(project: &Project) -> Vec<(&str, Source)> {
    let mut names: Vec<(&str, Source)> = project
        .harness
        .names()
        .filter(|n| project.harness.tier(n) == Some(HarnessTier::One))
        .map(|n| (n, Source::Harness))
        .collect();
    names.extend(project.loaded_beeuni.iter().map(|n| (*n, Source::Beeuni)));
    // Looked up by hash: the repository declares as many tools as it likes.
    let mut seen: HashSet<&str> = names.iter().map(|(n, _)| *n).collect();
    for decl in project.tools.iter().filter(|d| !catalog::is_beeuni(&d.name) && d.module_path().is_some()) {
        let refused = name_problem(&decl.name).is_some() || project.harness.tier(&decl.name).is_some();
        if !refused && seen.insert(&decl.name) {
            names.push((&decl.name, Source::Project));
        }
    }
    names
}

pub fn access(project: &Project) -> Result<Vec<AgentAccess>, TooLarge> {
    let universe = universe(project);
    within_rows(project.agents.len(), universe.len(), "tools")?;
    // What `check` calls invalid gives nothing to show, and nothing to reach through `task`.
    let invalid: Vec<bool> = project.agents.iter().map(|agent| is_invalid(project, agent)).collect();
    let mut out = Vec::new();
    for (harness, standard) in [("standard", true), ("experimental", false)] {
        // The terminal plugin is the standard harness's.
        let tools: Vec<&(&str, Source)> =
            universe.iter().filter(|(tool, _)| standard || !PTY_TOOLS.contains(tool)).collect();
        let direct: Vec<Vec<Callable>> = project
            .agents
            .iter()
            .zip(&invalid)
            .map(|(agent, &invalid)| {
                if invalid {
                    return Vec::new();
                }
                let named = Named::of(agent);
                tools
                    .iter()
                    .filter_map(|(tool, source)| {
                        named.why(tool, standard).map(|why| Callable { name: tool.to_string(), source: *source, why })
                    })
                    .collect()
            })
            .collect();
        let callable = if standard { callable_by_some(project, &direct) } else { Vec::new() };
        let through_task: Vec<Vec<Reached>> =
            direct
                .iter()
                .map(|own| {
                    if standard && own.iter().any(|t| t.name == "task") { reached(own, &callable) } else { Vec::new() }
                })
                .collect();
        let agents = project.agents.iter().zip(&invalid).zip(direct).zip(through_task);
        for (((agent, &invalid), tools), through_task) in agents {
            out.push(AgentAccess { agent: agent.name.clone(), harness, invalid, tools, through_task });
        }
    }
    Ok(out)
}

/// Does `check` say this agent's tools cannot be known: an invalid `tools:` shape, or no `tools:` but a
/// misspelt one (`tool:`, `Tools:`), which the platform ignores while the author meant a list?
fn is_invalid(project: &Project, agent: &AgentDecl) -> bool {
    if matches!(agent.tools, ToolList::Invalid) {
        return true;
    }
    let doc = &project.graph.files[agent.graph_index].doc;
    agent.tools_key.is_none()
        && doc.entries(agent.node).unwrap_or_default().iter().filter_map(|e| doc.scalar(e.key)).any(|key| {
            AGENT_KEYS.iter().find(|known| key != **known && suggest::is_near_miss(key, known)) == Some(&"tools")
        })
}

/// Every tool some agent can call, once, with the first agent (in declaration order) that can: found once per
/// harness, so that what each agent reaches costs its own tools, not every other agent's.
fn callable_by_some<'a>(project: &'a Project, direct: &'a [Vec<Callable>]) -> Vec<(&'a Callable, &'a str)> {
    let mut seen = HashSet::new();
    let by_agent = project.agents.iter().zip(direct);
    by_agent
        .flat_map(|(agent, tools)| tools.iter().map(|tool| (tool, agent.name.as_str())))
        .filter(|(tool, _)| seen.insert(tool.name.as_str()))
        .collect()
}

/// On the standard harness a subagent gets its own list: what an agent whose tools are `own` reaches by starting
/// another one. The first agent that can call a tool the agent cannot is never the agent itself, so it is the
/// first other agent that can.
fn reached(own: &[Callable], callable: &[(&Callable, &str)]) -> Vec<Reached> {
    let own: HashSet<&str> = own.iter().map(|t| t.name.as_str()).collect();
    callable
        .iter()
        .filter(|(tool, _)| !own.contains(tool.name.as_str()))
        .map(|(tool, via)| Reached { name: tool.name.clone(), source: tool.source, via: via.to_string() })
        .collect()
}

/// On the standard harness `write`, `edit` and `apply_patch` share one permission: does what `tools:` says of
/// `named` (another of them) decide `tool` too?
pub fn shares_permission(named: &str, tool: &str, standard: bool) -> bool {
    standard && named != tool && SHARED_WRITE_GROUP.contains(&named) && SHARED_WRITE_GROUP.contains(&tool)
}

/// An agent's `tools:` made ready to be asked of every tool: the names it lists, excludes or sets to `false` in a
/// set (asked of each tool of the project, a search of a list as long as the project's tools was quadratic:
/// 6 G instructions for `agents` at 4,000 tools), and those of them that share a permission, in their order.
struct Named<'a> {
    tools: &'a ToolList,
    names: HashSet<&'a str>,
    /// `*` is in the list.
    star: bool,
    /// The names of `names` in [`SHARED_WRITE_GROUP`], in the order written.
    shared: Vec<&'a str>,
}

impl<'a> Named<'a> {
    fn of(agent: &'a AgentDecl) -> Self {
        let named: Vec<&str> = match &agent.tools {
            ToolList::List(items) | ToolList::Exclude(items) => items.iter().map(|t| t.name.as_str()).collect(),
            ToolList::Map(items) => items.iter().filter(|(_, on)| !on).map(|(t, _)| t.name.as_str()).collect(),
            ToolList::All | ToolList::None | ToolList::Invalid => Vec::new(),
        };
        let shared = named.iter().copied().filter(|name| SHARED_WRITE_GROUP.contains(name)).collect();
        let star = matches!(agent.tools, ToolList::List(_)) && named.contains(&"*");
        Named { tools: &agent.tools, names: named.into_iter().collect(), star, shared }
    }

    /// Why the agent can call `tool` on that harness, or `None` when it cannot.
    fn why(&self, tool: &str, standard: bool) -> Option<String> {
        if standard && PTY_TOOLS.contains(&tool) {
            return self.why("bash", true).map(|_| "follows `bash`".to_string());
        }
        let mut sharing = self.shared.iter().filter(|named| shares_permission(named, tool, standard));
        match self.tools {
            ToolList::All => Some("`all`".into()),
            ToolList::None | ToolList::Invalid => None,
            ToolList::List(_) if self.names.contains(tool) => Some("listed".into()),
            ToolList::List(_) if self.star => Some("`*` in the list".into()),
            ToolList::List(_) => sharing.next().map(|named| format!("shares a permission with `{named}`")),
            ToolList::Exclude(_) | ToolList::Map(_) if self.names.contains(tool) || sharing.next().is_some() => None,
            ToolList::Exclude(_) => Some("not excluded".into()),
            ToolList::Map(_) => Some("not set to `false`".into()),
        }
    }
}

/// One row of a harness's table: an agent (on its first row only), a reason, and the tools it covers by source.
struct Row {
    agent: String,
    why: String,
    cells: [Vec<String>; 3],
}

const HEADINGS: [&str; 5] = ["AGENT", "WHY", "HARNESS", "BEEUNI", "PROJECT"];

/// One table per harness; each agent's tools are grouped by the reason it gets them, each reason said once.
/// Cells name every tool of a source as `all`, most of them as `all but …`, and the five `pty_*` as `pty_*`.
pub fn render_text(project: &Project, access: &[AgentAccess]) -> String {
    let universe = universe(project);
    let mut out = String::new();
    for (harness, title) in [
        (
            "standard",
            "Standard harness (opencode): `write`, `edit`, `apply_patch` share one permission; `pty_*` follow `bash`",
        ),
        ("experimental", "Experimental harness: every name as written; no terminal plugin"),
    ] {
        let entries: Vec<&AgentAccess> = access.iter().filter(|a| a.harness == harness).collect();
        if entries.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(title);
        out.push('\n');
        let mut full: [Vec<&str>; 3] = Default::default();
        // The terminal tools are always their own group (`follows \`bash\``): "all" means the others.
        for (name, source) in universe.iter().filter(|(name, _)| !PTY_TOOLS.contains(name)) {
            full[*source as usize].push(name);
        }
        let rows: Vec<Row> = entries.iter().flat_map(|entry| rows(entry)).collect();
        out.push_str(&table(&rows, &full));
    }
    if out.is_empty() {
        out.push_str("no agents: every session gets every tool\n");
    }
    out
}

fn rows(entry: &AgentAccess) -> Vec<Row> {
    let mut groups: Vec<(String, [Vec<String>; 3])> = Vec::new();
    let mut add = |why: String, name: &str, source: Source| {
        let at = match groups.iter().position(|(w, _)| *w == why) {
            Some(at) => at,
            None => {
                groups.push((why, Default::default()));
                groups.len() - 1
            }
        };
        groups[at].1[source as usize].push(name.to_string());
    };
    for tool in &entry.tools {
        add(tool.why.clone(), &tool.name, tool.source);
    }
    for tool in &entry.through_task {
        add(format!("through `task`: `{}`", tool.via), &tool.name, tool.source);
    }
    let mut rows: Vec<Row> = groups.into_iter().map(|(why, cells)| Row { agent: String::new(), why, cells }).collect();
    if rows.is_empty() {
        let why = if entry.invalid { "invalid (see check)" } else { "no tool" };
        rows.push(Row { agent: String::new(), why: why.to_string(), cells: Default::default() });
    }
    rows[0].agent = entry.agent.clone();
    rows
}

/// A cell's tools, shortened against `full` (every tool of that source on that harness).
fn cell(names: &[String], full: &[&str]) -> String {
    if names.is_empty() {
        return "-".to_string();
    }
    // By hash: a row holds up to every tool of its source, and each of those is looked for in it.
    let held: HashSet<&str> = names.iter().map(String::as_str).collect();
    let missing: Vec<&str> = full.iter().copied().filter(|f| !held.contains(f)).collect();
    if missing.is_empty() && names.len() > 1 {
        return "all".to_string();
    }
    if !missing.is_empty() && missing.len() < names.len() && missing.len() <= 4 {
        return format!("all but {}", shorten(&missing.iter().map(|m| m.to_string()).collect::<Vec<_>>()).join(", "));
    }
    shorten(names).join(", ")
}

/// The five terminal tools, when all are there, as `pty_*`.
fn shorten(names: &[String]) -> Vec<String> {
    if !PTY_TOOLS.iter().all(|p| names.iter().any(|n| n == p)) {
        return names.to_vec();
    }
    let mut out: Vec<String> = names.iter().filter(|n| !PTY_TOOLS.contains(&n.as_str())).cloned().collect();
    out.push("pty_*".to_string());
    out
}

fn table(rows: &[Row], full: &[Vec<&str>; 3]) -> String {
    // Agent and tool names are the repository's: each cell is escaped before it is measured.
    let cells = |row: &Row| -> [String; 5] {
        let [harness, beeuni, project] = &row.cells;
        [row.agent.clone(), row.why.clone(), cell(harness, &full[0]), cell(beeuni, &full[1]), cell(project, &full[2])]
            .map(|cell| escape(&cell).into_owned())
    };
    let all: Vec<[String; 5]> = std::iter::once(HEADINGS.map(String::from)).chain(rows.iter().map(cells)).collect();
    let widths: Vec<usize> = (0..5).map(|c| all.iter().map(|r| r[c].chars().count()).max().unwrap_or(0) + 2).collect();
    let mut out = String::new();
    for row in &all {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            line.push_str(cell);
            if c < 4 {
                line.push_str(&" ".repeat(widths[c] - cell.chars().count()));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

pub fn render_json(access: &[AgentAccess]) -> String {
    crate::source::escape::json_document(access)
}
