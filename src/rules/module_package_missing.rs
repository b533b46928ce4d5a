use super::site::{at_import, is_beeuni_loaded};
use crate::diagnostic::Diagnostic;
use crate::modules::facts::ImportKind;
use crate::modules::resolve::Resolution;
use crate::project::Project;

crate::rules::declare_rule! {
    /// A module imports a package that no `node_modules` provides.
    ///
    /// ## What it checks
    /// A bare import (`zod`, `@scope/name`, `name/sub`) resolves from a
    /// `node_modules` folder beside or above the module, inside the checkout
    /// (its `package.json` `main`/`exports`, or `index.*`). Node built-ins,
    /// `node:*`, `bun` and `bun:*` are fine. A package's `exports` map is
    /// enforced with the conditions Bun matches (`bun`, `import` or `require`,
    /// `node`, `default`; the first matching key wins): a subpath it does not
    /// export is `Package subpath './x' is not defined by "exports" in …`, as the
    /// runtime says. A specifier that cannot be a package name (`@/x`) is never a
    /// missing package (see `module-import-missing`). An `import()` or `require()`
    /// inside a `try` with a `catch` is a warning: it fails when called, not at
    /// load. JSX (in `.js`, `.jsx`, `.tsx`) counts as an import of
    /// `react/jsx-dev-runtime` at the first element, which Bun's transpiler
    /// adds (`/** @jsxImportSource x */` names another package,
    /// `/** @jsxRuntime classic */` adds none). When a `package.json` declares the
    /// package, the finding is `module-package-not-installed` instead. An
    /// installed package without the imported file (a subpath it lacks, a
    /// missing `main`) is `Cannot find module 'name/sub'`, as the runtime says.
    ///
    /// xcsh custom tools and their helpers are checked too (docs/spec/rules.md §6).
    ///
    /// ## Why
    /// The sandbox installs no packages for a tool: the module fails with
    /// `Cannot find package 'zod'` and is skipped. xcsh imports its tools with
    /// Bun from the checkout, where the import fails the same way.
    ///
    /// ## Example
    /// ```ts
    /// import { z } from 'zod'
    ///
    /// export default {
    ///   description: 'Look up an order',
    ///   parameters: z.toJSONSchema(z.object({ id: z.string() })),
    ///   async execute(args, context) { return `order ${args.id}` },
    /// }
    /// ```
    ///
    /// ## Use instead
    /// The JSON Schema zod printed once, pasted as a literal:
    ///
    /// ```ts
    /// export default {
    ///   description: 'Look up an order',
    ///   parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    ///   async execute(args, context) { return `order ${args.id}` },
    /// }
    /// ```
    ///
    /// ## Fix
    /// Drop the dependency (for zod: print the JSON Schema once and paste it into
    /// `parameters`), or commit the package under `node_modules`.
    id: "module-package-missing",
    severity: Error,
    category: Module,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for module in &project.modules {
        // Only xcsh loads it: on the user's machine, where a package can be declared and installed.
        let beeuni = is_beeuni_loaded(project, module);
        for (import, resolution) in module.facts.imports.iter().zip(module.resolutions()) {
            let (message, help) = match resolution {
                Some(Resolution::MissingPackage { name, declared_in: None }) if !beeuni => (
                    format!("Cannot find package '{name}'"),
                    format!(
                        "xcsh imports the tool with Bun from the checkout: declare `{name}` in a package.json and install it, or remove what needs it (the injected `pi.typebox` needs no package)"
                    ),
                ),
                Some(Resolution::MissingPackage { name, declared_in: None }) if import.kind == ImportKind::Jsx => (
                    format!("Cannot find package '{name}'"),
                    format!(
                        "the sandbox installs no packages for a tool: build the values without JSX, or commit `{name}` under a tracked `node_modules` beside or above the module"
                    ),
                ),
                Some(Resolution::MissingPackage { name, declared_in: None }) => (
                    format!("Cannot find package '{name}'"),
                    format!(
                        "the sandbox installs no packages for a tool: remove the import of `{name}`, or commit it under a tracked `node_modules` beside or above the module"
                    ),
                ),
                Some(Resolution::NotExported { subpath, manifest }) => (
                    format!("Package subpath '{subpath}' is not defined by \"exports\" in {manifest}"),
                    format!("import a subpath that `{manifest}` lists under \"exports\""),
                ),
                Some(Resolution::MissingEntry { specifier, folder }) => (
                    format!("Cannot find module '{specifier}'"),
                    format!("`{folder}` is installed but has no file for `{specifier}`: import a path the package has"),
                ),
                _ => continue,
            };
            let diagnostic = at_import(project, &RULE, module, import, message);
            out.push(diagnostic.help(help));
        }
    }
}
