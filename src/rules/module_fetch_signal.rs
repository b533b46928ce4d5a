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
    /// const response = await fetch(url, { headers })
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// const response = await fetch(url, { headers, signal: context.signal })
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
