use super::site::{at_import, is_beeuni_loaded};
use crate::diagnostic::Diagnostic;
use crate::modules::resolve::Resolution;
use crate::project::Project;

crate::rules::declare_rule! {
    /// A module imports a package that `package.json` declares but that is not installed.
    ///
    /// ## What it checks
    /// A bare import resolves from no `node_modules` beside or above the module,
    /// but a `package.json` beside or above declares it (`dependencies`,
    /// `devDependencies`, `peerDependencies` or `optionalDependencies`).
    ///
    /// xcsh custom tools and their helpers are checked too (docs/spec/rules.md §6: the
    /// loading rules of §4 apply to them).
    ///
    /// ## Why
    /// It works on the author's machine after `bun install`, but the sandbox
    /// installs no packages for a tool: there it fails with
    /// `Cannot find package`. xcsh imports its tools with Bun from the checkout:
    /// until someone installs the packages there, the tool fails to load.
    ///
    /// ## Example
    /// ```ts
    /// import { z } from 'zod'   // package.json lists zod; node_modules is not committed
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// // no import: the JSON Schema zod printed once, pasted as a literal
    /// parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    /// ```
    ///
    /// ## Fix
    /// Drop the dependency, or commit the installed package.
    id: "module-package-not-installed",
    severity: Warning,
    category: Module,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for module in &project.modules {
        let beeuni = is_beeuni_loaded(project, module);
        for (import, resolution) in module.facts.imports.iter().zip(module.resolutions()) {
            let Some(Resolution::MissingPackage { name, declared_in: Some(manifest) }) = resolution else {
                continue;
            };
            let (message, help) = match beeuni {
                true => (
                    format!(
                        "package `{name}` is declared in `{manifest}` but not installed in this checkout: the sandbox installs no packages for a tool"
                    ),
                    format!("Cannot find package '{name}' at run time: drop the import, or commit the package"),
                ),
                false => (
                    format!(
                        "package `{name}` is declared in `{manifest}` but not installed in this checkout: xcsh imports the tool with Bun, which fails with Cannot find package '{name}' until it is installed"
                    ),
                    format!(
                        "install the packages (`bun install` beside `{manifest}`) wherever the tool runs, or drop the import (the injected `pi.typebox` needs no package)"
                    ),
                ),
            };
            out.push(at_import(project, &RULE, module, import, message).help(help));
        }
    }
}
