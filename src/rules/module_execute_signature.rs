use super::site::{in_module, object_modules};
use crate::diagnostic::Diagnostic;
use crate::modules::facts::{Execute, Field};
use crate::project::Project;

crate::rules::declare_rule! {
    /// A tool module's `execute` takes the xcsh/pi argument order.
    ///
    /// ## What it checks
    /// `execute` has three or more parameters and the first is named like a call
    /// id (`toolCallId`, `callId`, `_id`, …): the xcsh/pi order
    /// `(toolCallId, params, signal, onUpdate, ctx)`.
    ///
    /// ## Why
    /// Beeuni calls `execute(args, context)`: the arguments land in the
    /// parameter named for the call id, and `params` receives the context.
    ///
    /// ## Example
    /// ```ts
    /// export default {
    ///   description: 'Look up an order',
    ///   parameters: { type: 'object', properties: { id: { type: 'string' } } },
    ///   async execute(toolCallId, params, signal) { return `order ${params.id}` },
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// export default {
    ///   description: 'Look up an order',
    ///   parameters: { type: 'object', properties: { id: { type: 'string' } } },
    ///   async execute(args, context) { return `order ${args.id}` },
    /// }
    /// ```
    ///
    /// ## Fix
    /// `async execute(args, context)`, with `context.signal` for the signal.
    id: "module-execute-signature",
    severity: Warning,
    category: Module,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for (module, object) in object_modules(project) {
        let Field::Found { span, value: Execute::Function { params } } = &object.execute else {
            continue;
        };
        let Some(first) = params.first() else { continue };
        if params.len() < 3 || !names_a_call_id(first) {
            continue;
        }
        let message = format!(
            "`execute({})` takes the xcsh/pi order `(toolCallId, params, …)`: Beeuni calls `execute(args, context)`",
            params.joined()
        );
        let diagnostic = in_module(project, &RULE, module, *span, message);
        out.push(diagnostic.help("write `execute(args, context)` and read the signal from `context.signal`"));
    }
}

fn names_a_call_id(name: &str) -> bool {
    let lower = name.trim_start_matches('_').to_ascii_lowercase();
    lower == "id" || lower.contains("callid") || lower.contains("call_id") || lower == "toolid"
}
