//! The xcsh stage (RULES.md §6): finds the custom tool modules in the xcsh tool folders of the project (and the
//! folders given by `--xcsh` and `xcsh-paths`), analyses each once for the loading rules of §4 (through the
//! modules stage) and for the xcsh contract (its own reading of the AST). Modules are never run.

pub mod analyse;
pub mod facts;
mod uses;

use crate::catalog::{XCSH_MODULE_EXTENSIONS, XCSH_TOOL_FOLDERS};
use crate::modules::Module;
use crate::repo::checkout::{Checkout, Resolved};
use crate::repo::fs::Refusal;
use crate::source::{FileId, SourceFile, Sources};
use facts::{Export, Name, Returned, Returns, Tool, XcshFacts};
use rayon::prelude::*;
use std::collections::HashSet;

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
    /// `.md` and `.json` files in the tool folders.
    pub metadata: Vec<FileId>,
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
                Returned::Unanalyzable { .. } => None,
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

/// Does the project have an xcsh tool folder (or were some given)? Then it is linted without a `beeuni.yaml`.
pub fn has_tool_folders(checkout: &Checkout, extra: &[String]) -> bool {
    !extra.is_empty() || XCSH_TOOL_FOLDERS.iter().any(|folder| checkout.is_dir(folder))
}

/// The xcsh tool files found, before analysis.
#[derive(Default)]
pub struct Found {
    pub folders: Vec<String>,
    /// Each tool file (project-relative) with where it leads, and the index of its folder.
    pub files: Vec<(String, Result<Resolved, Refusal>, usize)>,
    pub metadata: Vec<FileId>,
}

/// Finds the xcsh tool files. `extra`: project-relative folders from `--xcsh` and `xcsh-paths`.
pub fn discover(checkout: &Checkout, extra: &[String], sources: &mut Sources) -> Found {
    let mut found = Found::default();
    for folder in XCSH_TOOL_FOLDERS.iter().map(|f| f.to_string()).chain(extra.iter().cloned()) {
        if !found.folders.contains(&folder) {
            found.folders.push(folder);
        }
    }
    let mut seen: HashSet<Resolved> = HashSet::new();
    for (index, folder) in found.folders.iter().enumerate() {
        for name in checkout.list_dir(folder) {
            let path = if folder.is_empty() { name.clone() } else { format!("{folder}/{name}") };
            let Some((stem, ext)) = name.rsplit_once('.') else { continue };
            if ext == "md" || ext == "json" {
                if let Ok(bytes) = checkout.read(&path) {
                    let text = String::from_utf8_lossy(&bytes).into_owned();
                    found.metadata.push(sources.add(SourceFile::new(path, text)));
                }
                continue;
            }
            // A declaration file holds no code: the loader has nothing to import there.
            if !XCSH_MODULE_EXTENSIONS.contains(&ext) || stem.is_empty() || stem.ends_with(".d") {
                continue;
            }
            let resolved = checkout.resolve(&path);
            match &resolved {
                Err(Refusal::Directory) => continue,
                // "Duplicate resolved paths are deduplicated": a symlinked copy is the same tool.
                Ok(target) if !seen.insert(target.clone()) => continue,
                _ => {}
            }
            found.files.push((path, resolved, index));
        }
    }
    found
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
    Xcsh { folders: found.folders, modules, metadata: found.metadata }
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
