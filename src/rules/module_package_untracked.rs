//! A module's package resolves only from a `node_modules` git does not track.
//!
//! ## What it checks
//! The package a bare import resolves to lives in a `node_modules` folder
//! with no tracked file under the package. Skipped outside git.
//!
//! ## Why
//! A config release holds only tracked files, and the sandbox installs no
//! packages for a tool: where sessions run, the package is not there.
//!
//! ## Example
//! ```ts
//! import { z } from 'zod'   // node_modules/ is in .gitignore
//! ```
//!
//! ## Fix
//! For zod: print the JSON Schema once and paste it into `parameters`.
//! Otherwise drop the dependency or track the package.

use super::site::{at_import, beeuni_loaded};
use crate::diagnostic::{Diagnostic, Severity};
use crate::modules::resolve::Resolution;
use crate::project::Project;
use crate::rules::Rule;

pub static RULE: Rule =
    Rule::new("module-package-untracked", Severity::Warning, include_str!("module_package_untracked.rs"), Some(check));

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    if !project.tracking.in_git {
        return;
    }
    for module in beeuni_loaded(project) {
        for (import, resolution) in module.facts.imports.iter().zip(module.resolutions()) {
            let Some(Resolution::Package { name, folder, entry }) = resolution else {
                continue;
            };
            if project.tracking.tracks_package(entry.as_ref().unwrap_or(folder)) {
                continue;
            }
            let message = format!(
                "package `{name}` resolves from `{folder}`, which git does not track: the sandbox installs no packages for a tool"
            );
            let diagnostic = at_import(project, RULE.id, RULE.severity, module, import, message);
            out.push(diagnostic.help(
                "a config release holds only tracked files: drop the dependency (for a zod schema, print the JSON Schema once and paste it into `parameters`), or track the package",
            ));
        }
    }
}
