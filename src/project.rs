//! The model every rule reads: the manifest graph, its declarations, the
//! selection rule, and who can call what. Built once per run.

use crate::catalog::{self, HarnessTable, PTY_TOOLS, SHARED_WRITE_GROUP};
use crate::manifest::agents::{self, AgentDecl, Secrets, ToolList};
use crate::manifest::load::{self, Graph};
use crate::manifest::tools::{self, ToolDecl, ToolsKey};
use crate::modules::{self, Module};
use crate::repo::checkout::Checkout;
use crate::source::{FileId, SourceFile, Sources};
use crate::xcsh::{self, Xcsh};
use std::collections::HashSet;
use std::path::PathBuf;
use tracking::Tracking;

pub mod tracking;

/// The comment `eject --template` puts in a starter module; `ejected-template` reports it until it is removed.
pub const TEMPLATE_MARKER: &str = "beeuni-lint: ejected-template";

/// The standard harness's own tool folder, from before the hosted tools.
pub const LEGACY_TOOLS: &str = "harnesses/opencode/tools";

pub struct Project {
    /// The folder the project's paths are relative to (the checkout's root): where views point and fixes write.
    /// Rules read files only through the model.
    pub root: PathBuf,
    /// What git tracks of the files the project names.
    pub tracking: Tracking,
    pub sources: Sources,
    pub graph: Graph,
    /// A misnamed manifest (`beeuni.yml`, `Beeuni.yaml`) when there is no `beeuni.yaml`.
    pub misnamed_manifest: Option<FileId>,
    pub harness: HarnessTable,
    pub tools_keys: Vec<ToolsKey>,
    pub tools: Vec<ToolDecl>,
    /// Positions in `tools` by name: what [`Project::is_declared`] looks up (a set of the names would copy every one
    /// of them; a list sorted by name cost a sort and a binary search per lookup).
    declared: crate::lookup::PositionTable,
    pub agents: Vec<AgentDecl>,
    /// The Beeuni tools sessions get, in canonical order.
    pub loaded_beeuni: Vec<&'static str>,
    /// Every declared module, analysed once.
    pub modules: Vec<Module>,
    /// (declaration index, what exists instead) of each declared module that does not exist, by index: only those
    /// (a list of every declaration would hold an empty entry for each of thousands of modules).
    missing_modules: Vec<(usize, modules::MissingModule)>,
    /// Files of the legacy `harnesses/opencode/tools/` folder: (file, stem).
    pub legacy_tools: Vec<(FileId, String)>,
    /// In a change-aware run: what the base version of the project loaded.
    pub base: Option<BaseFacts>,
    /// `tools/<name>.<ext>` files beside a `<name>: beeuni:<name>` declaration: (declaration index, path).
    pub ejected_copies: Vec<(usize, String)>,
    /// Of those copies and the legacy folder's Beeuni copies, the ones git reports unmodified (a fix may delete).
    unmodified: HashSet<String>,
    /// Beeuni tools the project leaves out on purpose (`removed-beeuni-tools` of the config).
    pub removed_on_purpose: Vec<String>,
    /// The xcsh custom tools (docs/spec/rules.md §6).
    pub xcsh: Xcsh,
}

/// What the base version of the project declared and loaded: all §7 rules need (`change::base_facts` builds
/// it from the base's manifest graph; the model only holds it).
#[derive(Debug, Default)]
pub struct BaseFacts {
    /// "merge base 1a2b3c4 of origin/main and HEAD", "HEAD (1a2b3c4)", …
    pub description: String,
    pub loaded_beeuni: Vec<&'static str>,
    /// Where each loaded Beeuni tool was declared at the base: (name, project-relative file).
    pub beeuni_declared_in: Vec<(String, String)>,
    /// Names declared under `tools:` that are not Beeuni tools (looked up for every name of every agent's list).
    pub project_tools: std::collections::HashSet<String>,
}

pub struct ProjectInput<'a> {
    /// Where the files come from, and what git knows of them (read while the model is built, not kept).
    pub checkout: &'a Checkout,
    /// `beeuni.yaml`, or `Err` with the misnamed manifest's repo-relative path; `None` when there is neither (a
    /// project of xcsh tools only).
    pub manifest: Option<Result<String, String>>,
    /// More xcsh tool folders (`--xcsh`, `xcsh-paths`), project-relative.
    pub xcsh_paths: Vec<String>,
    pub harness_tools: Vec<String>,
    /// Files parsed for another version of the project, reused where git holds the same bytes (the language
    /// server's earlier run: also modules whose text is the same).
    pub parsed: &'a modules::Reused<'a>,
    /// The warm cache of module facts (`None`: `--no-cache`).
    pub cache: Option<&'a crate::cache::ModuleCache>,
    /// Keep every module's text in memory (the language server), rather than read it again when needed.
    pub keep_texts: bool,
    /// The largest tool module or helper analysed (`[limits] module-bytes` of the config).
    pub module_bytes: u64,
}

impl Project {
    pub fn build(input: ProjectInput) -> Project {
        // The modules are analysed on the analysis threads as the manifest graph names them.
        let (parsed, cache, keep_texts, module_bytes) =
            (input.parsed, input.cache, input.keep_texts, input.module_bytes);
        modules::with_feed(parsed, cache, keep_texts, module_bytes, |feed| Project::build_fed(input, feed))
    }

    fn build_fed<'a>(input: ProjectInput<'a>, feed: &mut modules::Feed<'_, 'a>) -> Project {
        let mut sources = Sources::with_prefix(&input.checkout.git_prefix);
        let (mut tools_keys, mut tools) = (Vec::new(), Vec::new());
        // What the index holds at the paths of the file's declared modules, as their resolution found it.
        let mut indexed = Vec::new();
        let spawner = feed.spawner();
        let spawn = |job: load::Job<'a>| spawner(job);
        let collect = |graph: &Graph, index: usize| {
            let first = tools.len();
            tools::collect_file(graph, index, Some(input.checkout), &mut tools_keys, &mut tools, &mut indexed);
            let found = indexed.drain(..);
            tools.iter().enumerate().skip(first).zip(found).for_each(|((at, decl), found)| {
                feed.declare(input.checkout, at, decl, found);
            });
        };
        let (graph, misnamed_manifest) = match &input.manifest {
            Some(Ok(manifest)) => {
                let graph = load::load_each(
                    input.checkout,
                    manifest,
                    &mut sources,
                    &input.parsed.files,
                    input.cache,
                    collect,
                    &spawn,
                );
                (graph, None)
            }
            None => (Graph::default(), None),
            Some(Err(misnamed)) => {
                let text = input.checkout.read(misnamed).unwrap_or_default();
                let file = SourceFile::new(misnamed.clone(), String::from_utf8_lossy(&text).into_owned());
                (Graph::default(), Some(sources.add(file)))
            }
        };
        let (tools_keys, tools) = tools::collected(tools_keys, tools);
        let agents = agents::collect(&graph, &sources);
        let loaded_beeuni = tools::loaded_beeuni(&tools_keys, &tools);
        let missing_modules = modules::missing_modules(input.checkout, &tools);
        let found = xcsh::discover(input.checkout, &input.xcsh_paths, &mut sources);
        for (path, resolved, _) in &found.files {
            feed.xcsh(input.checkout, path.clone(), resolved.clone());
        }
        let modules = feed.finish(input.checkout, &mut sources);
        let legacy_tools = legacy_tools(input.checkout, &mut sources);
        let ejected_copies = ejected_copies(input.checkout, &tools);
        let copies = ejected_copies.iter().map(|(_, path)| path.as_str()).chain(
            legacy_tools
                .iter()
                .filter(|(_, stem)| catalog::is_beeuni(stem))
                .map(|(file, _)| sources.get(*file).path.as_str()),
        );
        let unmodified = copies.filter(|path| input.checkout.is_unmodified(path)).map(String::from).collect();
        let xcsh = xcsh::collect(found, &modules, &sources);
        let mut project = Project {
            root: input.checkout.root.clone(),
            tracking: Tracking::default(),
            sources,
            graph,
            misnamed_manifest,
            harness: HarnessTable::new(input.harness_tools),
            tools_keys,
            declared: crate::lookup::PositionTable::new(tools.len(), |at| tools[at].name.as_bytes()),
            tools,
            agents,
            loaded_beeuni,
            modules,
            missing_modules,
            legacy_tools,
            base: None,
            removed_on_purpose: Vec::new(),
            ejected_copies,
            unmodified,
            xcsh,
        };
        project.tracking = Tracking::of(input.checkout, &project);
        project
    }

    pub fn root_file(&self) -> Option<FileId> {
        self.graph.files.first().map(|f| f.file)
    }

    pub fn is_loaded_beeuni(&self, name: &str) -> bool {
        self.loaded_beeuni.contains(&name)
    }

    /// Is a `tools:` value of the graph neither a mapping nor null (`tools: 7`, `tools: [web_search]`)? Then the
    /// manifest fails to load and which Beeuni tools sessions get is unknown: `manifest-shape` is the one finding,
    /// and the rules about the selection stay silent.
    pub fn selection_unknown(&self) -> bool {
        self.tools_keys.iter().any(|key| {
            let doc = &self.graph.files[key.graph_index].doc;
            // The node's kind only: listing a mapping's entries (a copy of each, merge keys expanded) cost 8,000
            // instructions per `tools:` key, asked by three rules.
            let map = matches!(doc.node(doc.resolve(key.value)).value, crate::yaml::tree::Value::Map(_));
            !doc.is_null(key.value) && !map
        })
    }

    pub fn is_declared(&self, name: &str) -> bool {
        self.first_declared(name).is_some()
    }

    /// Did the change being checked remove the project tool `name` (declared at the base, no longer declared)?
    /// An agent list naming it gets `removed-tool-in-use`, which says why, and not also `unknown-tool`.
    pub fn removed_by_change(&self, name: &str) -> bool {
        self.base.as_ref().is_some_and(|base| base.project_tools.contains(name)) && !self.is_declared(name)
    }

    /// The position in `tools` of the first declaration of `name`.
    pub fn first_declared(&self, name: &str) -> Option<usize> {
        let name_of = |at: usize| self.tools.get(at).map_or(&[][..], |decl| decl.name.as_bytes());
        self.declared.find(name.as_bytes(), name_of)
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
        // The terminal tools follow `bash`, whatever the list says of them.
        if PTY_TOOLS.contains(&tool) {
            return self.can_call(agent, "bash");
        }
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
        // The agent's few connectors first: most names belong to none, and then the declarations need no search.
        let connector = agent
            .connectors
            .iter()
            .find(|c| name == c.as_str() || name.strip_prefix(c.as_str()).is_some_and(|rest| rest.starts_with('_')))?;
        (!self.is_declared(name)).then_some(connector.as_str())
    }

    /// Is `name`, in the list of `agent`, a name no table knows?
    pub fn is_unknown_in(&self, agent: &AgentDecl, name: &str) -> bool {
        name != "*" && !self.is_known_tool(name) && self.connector_of(agent, name).is_none()
    }

    /// The project's secrets: every name some agent's `secrets:` list holds.
    pub fn secrets(&self) -> HashSet<&str> {
        self.agents
            .iter()
            .flat_map(|a| match &a.secrets {
                Secrets::List(names) => names.iter().map(String::as_str).collect(),
                Secrets::NotListed => Vec::new(),
            })
            .collect()
    }

    /// Does git report this project-relative file unmodified (only asked of the copies a fix may delete)?
    pub fn is_unmodified(&self, path: &str) -> bool {
        self.unmodified.contains(path)
    }

    /// What exists instead of the module declaration `index` names, when that module does not exist.
    pub fn missing_module(&self, index: usize) -> Option<&modules::MissingModule> {
        let at = self.missing_modules.binary_search_by_key(&index, |(at, _)| *at).ok()?;
        Some(&self.missing_modules[at].1)
    }

    /// Each declaration (by index, in order) whose module does not exist, with what exists instead.
    pub fn missing_modules(&self) -> impl Iterator<Item = (usize, &modules::MissingModule)> {
        self.missing_modules.iter().map(|(index, missing)| (*index, missing))
    }

    pub fn file(&self, id: FileId) -> &SourceFile {
        self.sources.get(id)
    }

    /// A module's path (project-relative): its file's, held once for both (every module is kept to the end of the
    /// run).
    pub fn module_path(&self, module: &Module) -> &str {
        &self.sources.get(module.file).path
    }
}

/// Does naming `named` also grant or hide `tool` on the standard harness?
fn same_permission(named: &str, tool: &str) -> bool {
    (SHARED_WRITE_GROUP.contains(&named) && (SHARED_WRITE_GROUP.contains(&tool) || tool == "multiedit"))
        || (named == "bash" && PTY_TOOLS.contains(&tool))
}

/// `tools/<name>.<ext>` files that exist beside a `<name>: beeuni:<name>` declaration.
fn ejected_copies(checkout: &Checkout, tools: &[ToolDecl]) -> Vec<(usize, String)> {
    let mut copies = Vec::new();
    for (index, decl) in tools.iter().enumerate() {
        if !decl.is_beeuni_name() || decl.value != tools::ToolValue::Beeuni(decl.name.clone()) {
            continue;
        }
        for ext in catalog::MODULE_EXTENSIONS {
            let path = format!("tools/{}.{ext}", decl.name);
            if checkout.is_file(&path) {
                copies.push((index, path));
            }
        }
    }
    copies
}

/// The legacy folder's tool files, sorted by name (each read only if it stays inside the repository).
fn legacy_tools(checkout: &Checkout, sources: &mut Sources) -> Vec<(FileId, String)> {
    checkout
        .list_dir(LEGACY_TOOLS)
        .into_iter()
        .filter_map(|name| {
            let (stem, ext) = name.rsplit_once('.')?;
            if !catalog::MODULE_EXTENSIONS.contains(&ext) || stem.ends_with(".d") {
                return None;
            }
            let path = format!("{LEGACY_TOOLS}/{name}");
            let text = checkout.read(&path).ok().map(|b| String::from_utf8_lossy(&b).into_owned());
            let file = sources.add(SourceFile::new(path, text.unwrap_or_default()));
            Some((file, stem.to_string()))
        })
        .collect()
}
