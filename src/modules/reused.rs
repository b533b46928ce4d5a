//! What an earlier run of the same project parsed: the language server's next run reuses each YAML file and
//! module whose text is the same.

use super::Module;
use super::facts::ModuleFacts;
use crate::manifest::load::Parsed;
use crate::source::Sources;
use std::collections::HashMap;

#[derive(Default)]
pub struct Reused<'a> {
    /// The manifest files, for the graph's load.
    pub files: Parsed<'a>,
    /// Module texts and their facts, by path.
    modules: HashMap<&'a str, (&'a str, &'a ModuleFacts)>,
}

impl<'a> Reused<'a> {
    /// The manifest `files` parsed, and the facts of these analysed `modules` (their text is in `sources`).
    pub fn new(files: Parsed<'a>, modules: &'a [Module], sources: &'a Sources) -> Self {
        let modules = modules
            .iter()
            .map(|m| (sources.get(m.file).path.as_str(), (sources.get(m.file).text.as_str(), &*m.facts)))
            .collect();
        Reused { files, modules }
    }

    /// The text a module had and the facts learnt from it.
    pub fn module(&self, path: &str) -> Option<(&'a str, &'a ModuleFacts)> {
        self.modules.get(path).copied()
    }
}
