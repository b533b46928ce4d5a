use super::site::{at_import, is_beeuni_loaded};
use crate::diagnostic::Diagnostic;
use crate::modules::resolve::Resolution;
use crate::project::Project;

crate::rules::declare_rule! {
    /// A module's package resolves only from a `node_modules` git does not track.
    ///
    /// ## What it checks
    /// The package a bare import resolves to lives in a `node_modules` folder
    /// with no tracked file under the package. Skipped outside git.
    ///
    /// xcsh custom tools and their helpers are checked too (docs/spec/rules.md §6: the
    /// loading rules of §4 apply to them).
    ///
    /// ## Why
    /// A config release holds only tracked files, and the sandbox installs no
    /// packages for a tool: where sessions run, the package is not there. An
    /// xcsh tool is imported with Bun from a checkout: a fresh clone has no
    /// untracked `node_modules`, and the tool fails to load there until someone
    /// installs the packages.
    ///
    /// ## Example
    /// ```ts
    /// import { z } from 'zod'   // node_modules/ is in .gitignore
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// // no import: the JSON Schema zod printed once, pasted as a literal
    /// parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    /// ```
    ///
    /// ## Fix
    /// For zod: print the JSON Schema once and paste it into `parameters`.
    /// Otherwise drop the dependency or track the package.
    id: "module-package-untracked",
    severity: Warning,
    category: Module,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    if !project.tracking.in_git {
        return;
    }
    for module in &project.modules {
        let beeuni = is_beeuni_loaded(project, module);
        for (import, resolution) in module.facts.imports.iter().zip(module.resolutions()) {
            let Some(Resolution::Package { name, folder, entry }) = resolution else {
                continue;
            };
            if project.tracking.tracks_package(entry.as_ref().unwrap_or(folder)) {
                continue;
            }
            let (consequence, help) = match beeuni {
                true => (
                    "the sandbox installs no packages for a tool",
                    "a config release holds only tracked files: drop the dependency (for a zod schema, print the JSON Schema once and paste it into `parameters`), or track the package",
                ),
                false => (
                    "a fresh clone does not have it, and xcsh fails to load the tool there",
                    "declare the package in a package.json and install it wherever the tool runs (`bun install`), track the package, or drop the dependency (the injected `pi.typebox` needs no package)",
                ),
            };
            let message = format!("package `{name}` resolves from `{folder}`, which git does not track: {consequence}");
            let diagnostic = at_import(project, &RULE, module, import, message);
            out.push(diagnostic.help(help));
        }
    }
}
