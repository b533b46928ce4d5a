use super::site::at_import;
use crate::diagnostic::Diagnostic;
use crate::modules::resolve::Resolution;
use crate::project::Project;

crate::rules::declare_rule! {
    /// A module's relative import does not resolve.
    ///
    /// ## What it checks
    /// Every runtime import of a declared module or of a helper it loads (`import … from`, `export … from`,
    /// `import('…')`, `require('…')`) with a relative specifier resolves to a
    /// file inside the repository: as written, with a module extension added,
    /// `.js` → `.ts` (TypeScript's convention), or `index.*` of a folder. The
    /// same for aliases: `compilerOptions.paths` of the nearest `tsconfig.json` or
    /// `jsconfig.json` (the finding names the alias and the targets tried), `#name`
    /// through `package.json` `imports`, and a specifier that cannot be a package
    /// name (`@/x`) that no alias maps. An `import()` or `require()` inside a
    /// `try` with a `catch` is a warning: it fails when called, not at load.
    /// One inside a function without a `catch` (`await import('./x')` in
    /// `execute`) loads with the module too, but fails every call of the
    /// function: it stays an error, and the finding says when it fails.
    ///
    /// ## Why
    /// An import that fails at load is a load failure: the module is skipped.
    /// One that fails when `execute` runs leaves a tool the model can call and
    /// that fails each time.
    ///
    /// ## Example
    /// ```ts
    /// import { format } from '../lib/fromat'
    ///
    /// export default {
    ///   description: 'Look up an order',
    ///   parameters: { type: 'object', properties: { id: { type: 'string' } } },
    ///   async execute(args) { return format(args.id) },
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// import { format } from '../lib/format'
    ///
    /// export default {
    ///   description: 'Look up an order',
    ///   parameters: { type: 'object', properties: { id: { type: 'string' } } },
    ///   async execute(args) { return format(args.id) },
    /// }
    /// ```
    ///
    /// ```ts
    /// // lib/format.ts
    /// export const format = (id) => `order ${id}`
    /// ```
    ///
    /// ## Fix
    /// Correct the path, or add the file (and `git add` it).
    id: "module-import-missing",
    severity: Error,
    category: Module,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for module in &project.modules {
        for (import, resolution) in module.facts.imports.iter().zip(module.resolutions()) {
            let Some(Resolution::MissingFile(reason)) = resolution else {
                continue;
            };
            let message = format!("`{}` imports `{}`: {reason}", project.module_path(module), import.specifier);
            let diagnostic = at_import(project, &RULE, module, import, message);
            let help = match (import.guarded, import.deferred) {
                (true, _) => "the `catch` handles the failure where it is called: correct the path or add the file",
                (false, true) => {
                    "the import runs when the function that holds it is called, and fails each time: correct the path or add the file"
                }
                (false, false) => "a failed import skips the module at load: correct the path or add the file",
            };
            out.push(diagnostic.help(help));
        }
    }
}
