use super::xcsh_site::{at, contracts, first_line_from, shown};
use crate::diagnostic::Diagnostic;
use crate::project::Project;
use crate::xcsh::facts::{Export, Returns};

crate::rules::declare_rule! {
    /// An xcsh tool factory returns nothing the loader can use.
    ///
    /// ## What it checks
    /// The factory an xcsh custom tool module exports must return a tool, an
    /// array of tools, or a Promise of either. Reported when it has no `return`
    /// with a value and no expression body, and (told apart) when it only calls
    /// `pi.registerTool(...)`: that is an xcsh *extension*, not a custom tool.
    ///
    /// ## Why
    /// The loader registers what the factory returns; `undefined` registers
    /// nothing, and the module fails to load. Extensions are loaded by another
    /// path (the extension loader), never from a tool folder.
    ///
    /// ## Example
    /// ```ts
    /// export default function (pi) {
    ///   pi.registerTool({ name: 'repo_stats', … })
    /// }
    /// ```
    ///
    /// ## Fix
    /// Return the tool: `export default (pi) => ({ name, description, parameters,
    /// execute })`; or move an extension to where xcsh loads extensions.
    id: "xcsh-factory-return",
    severity: Error,
    category: Xcsh,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for (module, facts) in contracts(project) {
        let Export::Factory(factory) = &facts.export else { continue };
        let path = shown(project, module);
        let (message, help) = match factory.returns {
            Returns::Nothing => (
                format!(
                    "the factory of `{path}` returns nothing: it must return a tool, an array of tools, or a Promise of either"
                ),
                "return the tool object: `(pi) => ({ name, description, parameters, execute })`",
            ),
            Returns::RegistersTools => (
                format!(
                    "the factory of `{path}` only calls `pi.registerTool(...)`: that is an xcsh extension, not a custom tool"
                ),
                "extensions are loaded by another path: move it where xcsh loads extensions, or return the tool from the factory instead of registering it",
            ),
            Returns::Values(_) => continue,
        };
        let span = first_line_from(project, module, factory.span.start);
        out.push(at(&RULE, module, span, message).help(help));
    }
}
