use super::site::{at_import, export_site, in_module, tool_modules};
use crate::diagnostic::Diagnostic;
use crate::modules::facts::{DefaultExportKind, Field};
use crate::modules::resolve::{MAX_EXAMINED, Resolution};
use crate::project::Project;

crate::rules::declare_rule! {
    /// A module's default export or `parameters` is built at run time, or the module is beyond the limits.
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
    /// here. A module (or helper) nested deeper, or larger,
    /// than the limits in docs/limits.md is not analysed at all: the
    /// finding points at where it went too deep, and none of its checks were made.
    /// An import whose package map (`exports` or `imports` of a `package.json`,
    /// `compilerOptions.paths` of a `tsconfig.json`) is larger than beeuni-lint
    /// looks through is not checked either: the finding is on the import.
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
    for module in &project.modules {
        let Some(not) = module.facts.not_analysed() else { continue };
        let message = format!("`{}` {}: none of its checks were made", project.module_path(module), not.why);
        let diagnostic = in_module(project, &RULE, module, not.span, message);
        out.push(diagnostic.help("the runtime may still load it; beeuni-lint stops here to stay within its limits"));
    }
    for module in &project.modules {
        for (import, resolution) in module.facts.imports.iter().zip(module.resolutions()) {
            let Some(Resolution::Unchecked { map, file }) = resolution else { continue };
            let message = format!(
                "'{}' cannot be checked statically: {map} of `{file}` is larger than beeuni-lint looks through ({MAX_EXAMINED} entries, a target of 4 KiB)",
                import.specifier
            );
            let diagnostic = at_import(project, &RULE, module, import, message);
            out.push(diagnostic.help("the runtime may still load it; a package map of that size is not checked"));
        }
    }
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
