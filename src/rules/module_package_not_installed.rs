use super::site::{at_import, beeuni_loaded};
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
    /// ## Why
    /// It works on the author's machine after `bun install`, but the sandbox
    /// installs no packages for a tool: there it fails with
    /// `Cannot find package`.
    ///
    /// ## Example
    /// ```ts
    /// import { z } from 'zod'   // package.json lists zod; node_modules is not committed
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
    for module in beeuni_loaded(project) {
        for (import, resolution) in module.facts.imports.iter().zip(module.resolutions()) {
            let Some(Resolution::MissingPackage { name, declared_in: Some(manifest) }) = resolution else {
                continue;
            };
            let message = format!(
                "package `{name}` is declared in `{manifest}` but not installed in this checkout: the sandbox installs no packages for a tool"
            );
            let diagnostic = at_import(project, RULE.id, RULE.severity, module, import, message);
            out.push(
                diagnostic
                    .help(format!("Cannot find package '{name}' at run time: drop the import, or commit the package")),
            );
        }
    }
}
