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
    /// the message at its position. A module that is not UTF-8 is reported here
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
            let diagnostic = in_module(project, RULE.id, RULE.severity, module, error.span, message);
            out.push(diagnostic.help("the module is skipped at load until it parses"));
        }
    }
}
