use crate::diagnostic::{Diagnostic, Label};
use crate::project::{Project, TEMPLATE_MARKER};

crate::rules::declare_rule! {
    /// A declared module is still the unfilled starter of `eject --template`.
    ///
    /// ## What it checks
    /// `beeuni-lint eject NAME --template` writes a starter module that carries a
    /// marker comment (`beeuni-lint: ejected-template`). While a declared module
    /// still has it, the finding points at the marker.
    ///
    /// ## Why
    /// The starter throws in `execute` until it is filled in, and every agent
    /// would call it in place of the hosted tool.
    ///
    /// ## Example
    /// ```yaml
    /// tools:
    ///   web_search: tools/web_search.ts
    /// ```
    ///
    /// ```ts
    /// // tools/web_search.ts
    /// // beeuni-lint: ejected-template: fill in this module, then delete this line
    /// export default {
    ///   description: 'Search the web and return the first results as text',
    ///   parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
    ///   async execute(args, context) {
    ///     return `no results for ${args.query}`
    ///   },
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// tools:
    ///   web_search: tools/web_search.ts
    /// ```
    ///
    /// ```ts
    /// // tools/web_search.ts
    /// export default {
    ///   description: 'Search the web and return the first results as text',
    ///   parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
    ///   async execute(args, context) {
    ///     return `no results for ${args.query}`
    ///   },
    /// }
    /// ```
    ///
    /// ## Fix
    /// Fill in the module, then delete the marker comment.
    id: "ejected-template",
    severity: Warning,
    category: Tool,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for module in &project.modules {
        let Some((span, _)) = module.facts.comments().iter().find(|(_, text)| text.contains(TEMPLATE_MARKER)) else {
            continue;
        };
        let Some(decl) = module.declared_by.first().map(|&i| &project.tools[i]) else {
            continue;
        };
        let message = format!(
            "`{}` is still the starter `eject --template` wrote: every agent calling `{}` would run it",
            project.module_path(module),
            decl.name
        );
        out.push(
            RULE.diagnostic(Label::new(module.file, *span), message)
                .related(Label::with_message(decl.file, decl.entry(), "declared here"))
                .help("fill in the module, then delete the marker comment"),
        );
    }
}
