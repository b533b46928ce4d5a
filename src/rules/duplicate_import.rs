//! An `imports:` list names the same file twice.
//!
//! ## What it checks
//! Within one `imports:` list, two items that name the same repo-relative
//! file, however spelt (`a.yaml`, `./a.yaml`, `config/../a.yaml`). The
//! finding points at the repeat and labels the first item. A file imported
//! from two different files (a shared import) is not a repeat.
//!
//! ## Why
//! Each file of the graph is read once: the repeat does nothing, and a
//! reader of the list may think the two entries are two files.
//!
//! ## Example
//! ```yaml
//! imports:
//!   - config/agents.yaml
//!   - ./config/agents.yaml
//! ```
//!
//! ## Fix
//! Remove the repeated entry (safe fix).

use crate::diagnostic::{Diagnostic, Fix, Label, Safety, Severity};
use crate::manifest::load::non_relative_reason;
use crate::project::Project;
use crate::repo::fs::normalize;
use crate::rules::Rule;
use crate::source::Span;
use crate::yaml::block_item_start;
use std::collections::HashMap;

pub static RULE: Rule = Rule::new("duplicate-import", Severity::Info, include_str!("duplicate_import.rs"), Some(check));

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for manifest in &project.graph.files {
        let doc = &manifest.doc;
        let Some(imports) = doc.root.and_then(|root| doc.get(root, "imports")) else { continue };
        let Some(items) = doc.items(imports.value) else { continue };
        let text = &project.file(manifest.file).text;
        let item_label = |item, message: &str| {
            let span = doc.node(item).span;
            Label::with_message(manifest.file, Span::new(block_item_start(text, span.start), span.end), message)
        };
        let mut first_of: HashMap<String, (usize, &str)> = HashMap::new();
        for (index, &item) in items.iter().enumerate() {
            // Only paths the loader follows: the others are `import-path` / `import-missing` (a trailing `/`).
            let Some(raw) = doc.str(item) else { continue };
            if non_relative_reason(raw).is_some() || raw.ends_with('/') {
                continue;
            }
            let Some(path) = normalize(raw) else { continue };
            let Some(&(first, first_raw)) = first_of.get(&path) else {
                first_of.insert(path, (index, raw));
                continue;
            };
            let message = match raw == first_raw {
                true => format!("`{raw}` is already imported above in this list: the file is read once"),
                false => format!("`{raw}` names `{first_raw}` again, imported above: the file is read once"),
            };
            let mut diagnostic = Diagnostic::new(RULE.id, RULE.severity, item_label(item, "repeated here"), message)
                .related(item_label(items[first], "first imported here"))
                .help("remove the repeated entry");
            let edits = crate::fix::edit::remove_item(
                doc,
                text,
                manifest.file,
                doc.node(imports.key).span,
                imports.value,
                item,
            );
            diagnostic.fix = edits.map(|edits| Fix::new(Safety::Safe, edits));
            out.push(diagnostic);
        }
    }
}
