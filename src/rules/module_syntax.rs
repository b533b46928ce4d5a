use super::site::in_module;
use crate::diagnostic::Diagnostic;
use crate::project::Project;

crate::rules::declare_rule! {
    /// A tool module does not parse as TypeScript or JavaScript.
    ///
    /// ## What it checks
    /// Every declared module, and every file it imports relatively (its helpers,
    /// transitively), is parsed (never run) as TS or JS for its extension:
    /// `.ts`/`.mts`/`.cts` as TypeScript, `.js`/`.mjs`/`.cjs` as JavaScript, JSX
    /// only in `.js`, `.jsx` and `.tsx` (Bun's loaders). The early errors a runtime
    /// raises at load count too: a redeclared `let`, an invalid regular expression,
    /// `import`/`export` below the top level, two default exports, `await` outside
    /// an async function, duplicate parameters in strict code. The finding gives
    /// the message at its position. So does an ES `import` that Bun keeps in a
    /// module that assigns CommonJS's exports (`module.exports =`, `exports.NAME
    /// =`, `export =`) at its top level and has no `export` statement: Bun
    /// compiles such a module as CommonJS and refuses the import ("Cannot use
    /// import statement with CommonJS-only features"); an import used only as a
    /// type is erased first and does not count. The other way round, a top-level
    /// assignment to `module.exports` or `exports` in a module with an `export`
    /// statement (a type's too: an ES module) parses but throws when Bun loads
    /// it ("module is not defined"): reported here too. A module that is not UTF-8 is reported here
    /// too (one nested deeper than beeuni-lint analyses is `module-unanalyzable`).
    ///
    /// ## Why
    /// A module that cannot be loaded is skipped: the tool is not offered to the
    /// model, and only the daemon's log says why.
    ///
    /// ## Example
    /// ```ts
    /// export default {
    ///   description: 'Look up an order',
    ///   parameters: { type: 'object', properties: {} ,
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// export default {
    ///   description: 'Look up an order',
    ///   parameters: { type: 'object', properties: {} },
    ///   async execute(args, context) { return 'ok' },
    /// }
    /// ```
    ///
    /// ## Fix
    /// Correct the code at the position shown.
    id: "module-syntax",
    severity: Error,
    category: Module,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for module in &project.modules {
        if let Some(error) = module.facts.syntax_errors().first() {
            let message = format!("`{}` does not parse: {}", project.module_path(module), error.message);
            let diagnostic = in_module(project, &RULE, module, error.span, message);
            out.push(diagnostic.help("the module is skipped at load until it parses"));
        } else if let Some(error) = module.facts.load_error() {
            let message = format!("`{}` fails when Bun loads it: {}", project.module_path(module), error.message);
            let diagnostic = in_module(project, &RULE, module, error.span, message);
            out.push(diagnostic.help(
                "the module is skipped at load: write it as an ES module (`export default { … }`) or as CommonJS (`module.exports = { … }`, without `import` or `export` statements), not both",
            ));
        }
    }
}
