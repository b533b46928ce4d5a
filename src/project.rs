//! The model every rule reads: the manifest graph, its declarations, the
//! selection rule, and who can call what. Built once per run.

use crate::catalog::{self, HarnessTable, PTY_TOOLS, SHARED_WRITE_GROUP};
use crate::manifest::agents::{self, AgentDecl, ToolList};
use crate::manifest::load::{self, Graph};
use crate::manifest::tools::{self, ToolDecl, ToolsKey};
use crate::repo::git::GitRepo;
use crate::source::{FileId, SourceFile, Sources, Span};
use std::collections::HashSet;
use std::path::PathBuf;

/// The comment `eject --template` puts in a starter module; `ejected-template` reports it until it is removed.
pub const TEMPLATE_MARKER: &str = "beeuni-lint: ejected-template";

pub struct Project {
    pub root: PathBuf,
    pub sources: Sources,
    pub git: Option<GitRepo>,
    /// The project root relative to the git work tree root (`""` when the same).
    pub git_prefix: String,
    /// Linting the index (`--staged`): an untracked file is not in the commit.
    pub staged: bool,
    pub graph: Graph,
    /// A misnamed manifest (`beeuni.yml`, `Beeuni.yaml`) when there is no `beeuni.yaml`.
    pub misnamed_manifest: Option<FileId>,
    pub harness: HarnessTable,
    pub tools_keys: Vec<ToolsKey>,
    pub tools: Vec<ToolDecl>,
    declared: HashSet<String>,
    pub agents: Vec<AgentDecl>,
    /// The Beeuni tools sessions get, in canonical order.
    pub loaded_beeuni: Vec<&'static str>,
    /// Declared modules that still carry [`TEMPLATE_MARKER`]: (tool index, module file, marker span).
    pub template_markers: Vec<(usize, FileId, Span)>,
}

pub struct ProjectInput {
    pub root: PathBuf,
    /// `beeuni.yaml`, or `Err` with the misnamed manifest's repo-relative path.
    pub manifest: Result<String, String>,
    pub git: Option<GitRepo>,
    pub git_prefix: String,
    pub staged: bool,
    pub harness_tools: Vec<String>,
}

impl Project {
    pub fn build(input: ProjectInput) -> Project {
        let mut sources = Sources::default();
        let (graph, misnamed_manifest) = match &input.manifest {
            Ok(manifest) => (load::load(&input.root, manifest, &mut sources), None),
            Err(misnamed) => {
                let text = crate::repo::fs::read(&input.root, misnamed).unwrap_or_default();
                let file = SourceFile::new(misnamed.clone(), String::from_utf8_lossy(&text).into_owned());
                (Graph::default(), Some(sources.add(file)))
            }
        };
        let (tools_keys, tools) = tools::collect(&graph, &input.root);
        let agents = agents::collect(&graph, &sources);
        let loaded_beeuni = tools::loaded_beeuni(&tools_keys, &tools);
        let template_markers = find_template_markers(&tools, &mut sources);
        Project {
            root: input.root,
            sources,
            git: input.git,
            git_prefix: input.git_prefix,
            staged: input.staged,
            graph,
            misnamed_manifest,
            harness: HarnessTable::new(input.harness_tools),
            tools_keys,
            declared: tools.iter().map(|t| t.name.clone()).collect(),
            tools,
            agents,
            loaded_beeuni,
            template_markers,
        }
    }

    pub fn root_file(&self) -> Option<FileId> {
        self.graph.files.first().map(|f| f.file)
    }

    pub fn is_loaded_beeuni(&self, name: &str) -> bool {
        self.loaded_beeuni.contains(&name)
    }

    pub fn is_declared(&self, name: &str) -> bool {
        self.declared.contains(name)
    }

    /// A harness tool (either tier, or from config), a Beeuni tool, or a declared tool.
    pub fn is_known_tool(&self, name: &str) -> bool {
        self.harness.tier(name).is_some() || catalog::is_beeuni(name) || self.is_declared(name)
    }

    /// Every name an agent list may hold, for "did you mean".
    pub fn known_tool_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.harness.names().collect();
        names.extend(catalog::BEEUNI_TOOLS);
        names.extend(self.tools.iter().map(|t| t.name.as_str()));
        names
    }

    /// Can `agent` call `tool` on the standard harness (groups: `write`/`edit`/`apply_patch`, `bash` → `pty_*`)?
    pub fn can_call(&self, agent: &AgentDecl, tool: &str) -> bool {
        let covers = |named: &str| named == tool || same_permission(named, tool);
        match &agent.tools {
            ToolList::All => true,
            ToolList::None | ToolList::Invalid => false,
            ToolList::List(items) => items.iter().any(|t| t.name == "*" || covers(&t.name)),
            ToolList::Exclude(items) => !items.iter().any(|t| covers(&t.name)),
            ToolList::Map(items) => !items.iter().any(|(t, on)| !on && covers(&t.name)),
        }
    }

    /// The connector of `agent` that `name` belongs to (`github` for `github_search`), unless it is a declared tool.
    pub fn connector_of<'a>(&self, agent: &'a AgentDecl, name: &str) -> Option<&'a str> {
        if self.is_declared(name) {
            return None;
        }
        agent
            .connectors
            .iter()
            .find(|c| name == c.as_str() || name.strip_prefix(c.as_str()).is_some_and(|rest| rest.starts_with('_')))
            .map(String::as_str)
    }

    /// Is `name`, in the list of `agent`, a name no table knows?
    pub fn is_unknown_in(&self, agent: &AgentDecl, name: &str) -> bool {
        name != "*" && !self.is_known_tool(name) && self.connector_of(agent, name).is_none()
    }

    pub fn file(&self, id: FileId) -> &SourceFile {
        self.sources.get(id)
    }

    /// A project-relative path as git names it (relative to the work tree root).
    pub fn git_path(&self, rel: &str) -> String {
        if self.git_prefix.is_empty() {
            rel.to_string()
        } else {
            format!("{}/{rel}", self.git_prefix)
        }
    }
}

/// Does naming `named` also grant or hide `tool` on the standard harness?
fn same_permission(named: &str, tool: &str) -> bool {
    (SHARED_WRITE_GROUP.contains(&named) && (SHARED_WRITE_GROUP.contains(&tool) || tool == "multiedit"))
        || (named == "bash" && PTY_TOOLS.contains(&tool))
}

fn find_template_markers(tools: &[ToolDecl], sources: &mut Sources) -> Vec<(usize, FileId, Span)> {
    let mut found = Vec::new();
    for (index, decl) in tools.iter().enumerate() {
        let (Some(path), Some(Ok(real))) = (decl.module_path(), &decl.module) else {
            continue;
        };
        let Ok(bytes) = crate::repo::fs::read_resolved(real) else {
            continue;
        };
        let Ok(text) = String::from_utf8(bytes) else { continue };
        let Some(at) = text.find(TEMPLATE_MARKER) else { continue };
        let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
        let file = sources
            .find(path)
            .unwrap_or_else(|| sources.add(SourceFile::new(path.to_string(), text)));
        found.push((index, file, Span::new(line_start, line_end)));
    }
    found
}
