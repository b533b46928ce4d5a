//! Fixes several rules share: adding `<name>: beeuni:<name>` lines under a `tools:` key.

use crate::diagnostic::{Fix, Safety};
use crate::manifest::tools::ToolsKey;
use crate::project::Project;
use crate::yaml::edit::add_entries;

/// Adds `<name>: beeuni:<name>` under `key` for each name no file of the graph declares (a declared one with
/// a wrong value is `beeuni-ref`'s to fix, and a second line would repeat the key). Unsafe: every agent whose
/// list is `all`, omitted or an exclude form gains the tools.
pub fn add_beeuni_lines(project: &Project, key: &ToolsKey, names: &[&str]) -> Option<Fix> {
    let lines: Vec<String> =
        names.iter().filter(|name| !project.is_declared(name)).map(|name| format!("{name}: beeuni:{name}")).collect();
    if lines.is_empty() {
        return None;
    }
    let doc = &project.graph.files[key.graph_index].doc;
    let text = &project.file(key.file).text;
    let edit = add_entries(doc, text, key.file, key.key, key.value, &lines)?;
    Some(Fix::new(Safety::Unsafe, vec![edit]))
}
