use super::site::{in_module, tool_modules};
use crate::diagnostic::Diagnostic;
use crate::project::Project;

crate::rules::declare_rule! {
    /// A `fetch(...)` inside `execute` passes no `signal`.
    ///
    /// ## What it checks
    /// Calls of `fetch` in a module's `execute` with no options, or an options
    /// object literal without `signal` (an options variable is trusted).
    ///
    /// ## Why
    /// `context.signal` aborts when the user stops the turn; without it the
    /// request runs on, and the tool call cannot be cancelled.
    ///
    /// ## Example
    /// ```ts
    /// export default {
    ///   description: 'The weather now in a city',
    ///   parameters: { type: 'object', properties: { city: { type: 'string' } } },
    ///   async execute(args, context) {
    ///     const response = await fetch(`https://api.example.com/now?q=${args.city}`)
    ///     return response.text()
    ///   },
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// export default {
    ///   description: 'The weather now in a city',
    ///   parameters: { type: 'object', properties: { city: { type: 'string' } } },
    ///   async execute(args, context) {
    ///     const response = await fetch(`https://api.example.com/now?q=${args.city}`, { signal: context.signal })
    ///     return response.text()
    ///   },
    /// }
    /// ```
    ///
    /// ## Fix
    /// `fetch(url, { headers, signal: context.signal })`.
    id: "module-fetch-signal",
    severity: Info,
    category: Module,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for module in tool_modules(project) {
        let Some(execute) = &module.facts.execute else { continue };
        for &span in &execute.fetch_without_signal {
            let message =
                "`fetch(...)` inside `execute` passes no `signal`: the request cannot be cancelled".to_string();
            let diagnostic = in_module(project, &RULE, module, span, message);
            out.push(diagnostic.help("pass `signal: context.signal`, which aborts when the user stops the turn"));
        }
    }
}
