use super::site::in_module;
use crate::diagnostic::Diagnostic;
use crate::modules::REEXPORT_WITHOUT_DEFAULT;
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
    /// the message at its position. Bun decides CommonJS or ES module by what a
    /// file holds, whatever its extension (`.mjs` and `.cjs` too): an `export`
    /// statement (a type's too) or a top-level `await` makes an ES module;
    /// otherwise a use of `module` or `exports` that nothing binds (`typeof
    /// module` too), or `export =`, makes CommonJS. An ES `import` that Bun keeps
    /// in CommonJS is refused ("Cannot use import statement with CommonJS-only
    /// features"; an import used only as a type is erased first and does not
    /// count), and so is JSX, which Bun compiles to an `import` of
    /// `react/jsx-dev-runtime` ("Unexpected token '{'. import call expects one or
    /// two arguments."). The other way round, a top-level assignment to
    /// `module.exports` or `exports` in an ES module parses but throws when Bun
    /// loads it ("module is not defined"): reported here too, and so is
    /// `export { default } from './x'` when `./x` has no default export ("export
    /// default cannot be used with export *", Bun's words). A module that is not UTF-8 is reported here
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
            let help = match error.message.starts_with(REEXPORT_WITHOUT_DEFAULT) {
                true => {
                    "the module is skipped at load: give the module it re-exports from a default export (`export default { … }`), or re-export the name that module exports (`export { lookupOrder as default } from './impl'`)"
                }
                false => {
                    "the module is skipped at load: write it as an ES module (`export default { … }`) or as CommonJS (`module.exports = { … }`, without `import` or `export` statements), not both"
                }
            };
            out.push(diagnostic.help(help));
        }
    }
}
