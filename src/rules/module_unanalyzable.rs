use super::site::{export_site, in_module, tool_modules};
use crate::diagnostic::Diagnostic;
use crate::modules::facts::{DefaultExportKind, Field};
use crate::project::Project;

crate::rules::declare_rule! {
    /// A module's default export or `parameters` is built at run time.
    ///
    /// ## What it checks
    /// The default export, or its `description`, `parameters` or `execute`, is a
    /// value static analysis cannot read: a call (`z.toJSONSchema(...)`), a
    /// spread, an imported binding. The finding says which, and that the checks
    /// above were not made for it. Calls known to return their argument are read
    /// through, not reported here: the AI SDK's `tool({...})` (of `ai`), a
    /// function of the module whose body returns its parameter, and one imported
    /// from a relative module that exports it so; LangChain's `tool(fn, {...})`
    /// is read as the StructuredTool it makes. Any other wrapper
    /// (`createTool({...})` of a package, a helper that logs first) is reported
    /// here. What a limit of beeuni-lint leaves unchecked (a module too large or
    /// nested too deep, a package map too large) is `analysis-limit` (warning).
    ///
    /// ## Why
    /// beeuni-lint never runs a module and never guesses: what it cannot read,
    /// it says it did not check.
    ///
    /// ## Example
    /// ```ts
    /// const schemaOf = (names) => ({ type: 'object', properties: Object.fromEntries(names.map((n) => [n, { type: 'string' }])) })
    ///
    /// export default {
    ///   description: 'Look up an order',
    ///   parameters: schemaOf(['id']),
    ///   async execute(args, context) { return `order ${args.id}` },
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// export default {
    ///   description: 'Look up an order',
    ///   parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    ///   async execute(args, context) { return `order ${args.id}` },
    /// }
    /// ```
    ///
    /// ## Fix
    /// Write the value as a literal (print the JSON Schema once and paste it),
    /// or accept the finding (`# beeuni-lint: ignore[module-unanalyzable]`).
    id: "module-unanalyzable",
    severity: Info,
    category: Module,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for module in tool_modules(project).filter(|m| m.facts.is_whole()) {
        let Some(export) = &module.facts.default_export else {
            continue;
        };
        let mut report = |span, what: &str, why: &str| {
            let message = format!(
                "{what} of `{}` cannot be read without running it ({why}): it was not checked",
                project.module_path(module)
            );
            let diagnostic = in_module(project, &RULE, module, span, message);
            out.push(
                diagnostic.help("beeuni-lint never runs a module; write the value as a literal to have it checked"),
            );
        };
        match &export.kind {
            // A limit left it unread: `analysis-limit` says so.
            DefaultExportKind::Unanalyzable { .. } if module.wrapper_past_limit => {}
            DefaultExportKind::Unanalyzable { why } => report(export_site(project, module), "the default export", why),
            DefaultExportKind::Object(object) => {
                for (name, span, why) in [
                    ("`description`", unanalyzable(&object.description)),
                    ("`parameters`", unanalyzable(&object.parameters)),
                    ("`execute`", unanalyzable(&object.execute)),
                ]
                .into_iter()
                .filter_map(|(name, found)| found.map(|(span, why)| (name, span, why)))
                {
                    report(span, name, why);
                }
            }
            _ => {}
        }
    }
}

fn unanalyzable<T>(field: &Field<T>) -> Option<(crate::source::Span, &str)> {
    match field {
        Field::Unanalyzable { span, why } => Some((*span, &**why)),
        _ => None,
    }
}
