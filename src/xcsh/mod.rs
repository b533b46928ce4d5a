//! The xcsh stage (docs/spec/rules.md §6): finds the custom tool modules in the xcsh tool folders of the project (and the
//! folders given by `--xcsh` and `xcsh-paths`) with the globs of xcsh's providers (see [`discover`]), analyses
//! each once for the loading rules of §4 (through the modules stage) and for the xcsh contract as the loader
//! reads it (`module.default ?? module` must be a function; its own reading of the AST). Modules are never run.

pub mod analyse;
mod discover;
pub mod facts;
mod uses;

pub use discover::{Found, discover, has_tool_folders};

use crate::modules::Module;
use crate::source::{FileId, Sources};
use facts::{Export, Name, Returned, Returns, Tool, XcshFacts};
use rayon::prelude::*;

pub struct XcshModule {
    /// Index into `Project::modules`: the facts and resolutions the loading rules read.
    pub index: usize,
    /// Project-relative path.
    pub path: String,
    pub file: FileId,
    /// Index into [`Xcsh::folders`].
    pub folder: usize,
    /// The contract, when the module parses.
    pub facts: Option<XcshFacts>,
    /// Also declared under `tools:` (a Beeuni module too).
    pub declared: bool,
}

#[derive(Default)]
pub struct Xcsh {
    /// The tool folders looked in, project-relative, in xcsh's order then the configured ones.
    pub folders: Vec<String>,
    /// The tool modules, by folder then file name; a file reached twice (a symlink) once, at its first path.
    pub modules: Vec<XcshModule>,
    /// Metadata files in the tool folders (`.md`, `.json`; in `.xcsh/tools` also `.sh`, `.bash`, `.py`).
    pub metadata: Vec<FileId>,
    /// Files the loader imports as tools that are no module (every file of `.claude/tools` is imported).
    pub not_modules: Vec<FileId>,
}

impl Xcsh {
    /// Every tool literal the factories return, in discovery order.
    pub fn tools(&self) -> impl Iterator<Item = (&XcshModule, &Tool)> {
        self.modules.iter().flat_map(|module| {
            let values = match module.facts.as_ref().map(|f| &f.export) {
                Some(Export::Factory(factory)) => match &factory.returns {
                    Returns::Values(values) => values.as_slice(),
                    _ => &[],
                },
                _ => &[],
            };
            values.iter().filter_map(move |value| match value {
                Returned::Tool(tool) => Some((module, tool)),
                Returned::NotTool { .. } | Returned::Unanalyzable { .. } => None,
            })
        })
    }

    /// The tools with a valid literal name, in discovery order: (name, module, tool).
    pub fn named_tools(&self) -> impl Iterator<Item = (&str, &XcshModule, &Tool)> {
        self.tools().filter_map(|(module, tool)| match &tool.name {
            Some((_, Name::Text(name))) if is_valid_name(name) => Some((name.as_str(), module, tool)),
            _ => None,
        })
    }
}

/// xcsh tool names: letters, digits, `_` and `-`, at least one.
pub fn is_valid_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// Reads the contract of each xcsh tool, once the modules stage has analysed them (with their helpers).
pub fn collect(found: Found, modules: &[Module], sources: &Sources) -> Xcsh {
    // Most projects have no xcsh tool: the modules are not indexed for none (20,000 hashed and put in a map).
    let index_of: rustc_hash::FxHashMap<&str, usize> = match found.files.is_empty() {
        true => Default::default(),
        false => modules.iter().enumerate().map(|(i, m)| (sources.get(m.file).path.as_str(), i)).collect(),
    };
    let mut tools = Vec::new();
    for (path, _, folder) in &found.files {
        if let Some(&index) = index_of.get(path.as_str()) {
            tools.push((index, *folder));
        }
    }
    // Only a module that parsed (within the depth limits) is parsed again: the parser recurses.
    let texts: Vec<Option<(&str, &str)>> = tools
        .iter()
        .map(|&(index, _)| {
            let module = &modules[index];
            let file = sources.get(module.file);
            module.facts.is_whole().then(|| (file.path.as_str(), file.text.as_str()))
        })
        .collect();
    let contracts = read_contracts(&texts);
    let modules = tools
        .into_iter()
        .zip(contracts)
        .map(|((index, folder), facts)| {
            let module = &modules[index];
            XcshModule {
                index,
                path: sources.get(module.file).path.to_string(),
                file: module.file,
                folder,
                facts,
                declared: module.is_declared(),
            }
        })
        .collect();
    Xcsh { folders: found.folders, modules, metadata: found.metadata, not_modules: found.not_modules }
}

/// The contract of each module, read in parallel on threads with a deep stack (one big-stack thread when no
/// pool can be built).
fn read_contracts(texts: &[Option<(&str, &str)>]) -> Vec<Option<XcshFacts>> {
    if texts.iter().all(Option::is_none) {
        return vec![None; texts.len()];
    }
    let one = |file: &Option<(&str, &str)>| file.and_then(|(path, text)| analyse::analyse(path, text));
    // Parsing is recursive in oxc: the contracts are read on the modules stage's deep-stack threads.
    if let Some(pool) = crate::pool::threads() {
        return pool.install(|| texts.par_iter().map(one).collect());
    }
    crate::pool::on_one_big_stack(|| texts.iter().map(one).collect()).unwrap_or_else(|| vec![None; texts.len()])
}
