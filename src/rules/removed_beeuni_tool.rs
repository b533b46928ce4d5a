//! A change removes a Beeuni tool that sessions got at the base.
//!
//! ## What it checks
//! Needs a base (`--base REV`, or `--staged`: HEAD). A Beeuni tool the base
//! version loaded is not loaded after the change: its line under `tools:` was
//! deleted, or the change adds the graph's first `tools:` key (anywhere,
//! also in an imported file) and that key does not list it, or an import
//! that held the only `tools:` key was removed. The finding points at the
//! head's `tools:` key (the one of the file that declared the tool, when it
//! still has one); with no `tools:` key left, at line 1 of `beeuni.yaml`.
//!
//! ## Why
//! Removing a Beeuni tool is one deleted line, and every agent of the
//! project loses it, on both harnesses, in every session that starts after
//! the change merges. Nothing at run time says so: the model just stops
//! being offered the tool.
//!
//! ## Example
//! ```yaml
//! tools:
//!   web_search: beeuni:web_search
//!   lookup_order: tools/lookup_order.ts   # added: image_search, … are gone
//! ```
//!
//! ## Fix
//! Add `<name>: beeuni:<name>` under `tools:` for each tool to keep (when the
//! removal is not wanted). Unsafe fix: add those lines.

use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::project::Project;
use crate::rules::Rule;

pub static RULE: Rule =
    Rule::new("removed-beeuni-tool", Severity::Warning, include_str!("removed_beeuni_tool.rs"), Some(check));

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    let Some(base) = &project.base else { return };
    for name in base.loaded_beeuni.iter().filter(|name| !project.is_loaded_beeuni(name)) {
        let declared_in = base.beeuni_declared_in.iter().find(|(n, _)| n == name).map(|(_, path)| path.as_str());
        let key = declared_in
            .and_then(|path| project.tools_keys.iter().find(|k| project.file(k.file).path == path))
            .or(project.tools_keys.first());
        let fix = key.and_then(|key| super::fixes::add_beeuni_lines(project, key, &[name]));
        let at = match (key, project.root_file()) {
            (Some(key), _) => Label::new(key.file, key.key),
            (None, Some(root)) => Label::new(root, project.file(root).line_span(0)),
            (None, None) => continue,
        };
        let message = format!(
            "this change removes the Beeuni tool `{name}`: every agent of the project loses it, on both harnesses, in every session that starts after the change merges. Add `{name}: beeuni:{name}` under `tools:` to keep it."
        );
        let help = format!("compared with {}", base.description);
        let mut diagnostic = Diagnostic::new(RULE.id, RULE.severity, at, message).help(help);
        diagnostic.fix = fix;
        out.push(diagnostic);
    }
}
