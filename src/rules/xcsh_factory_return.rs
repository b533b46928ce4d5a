use super::xcsh_site::{at, contracts, first_line_from, shown};
use crate::diagnostic::{Diagnostic, Label};
use crate::project::Project;
use crate::xcsh::facts::{Export, Returned, Returns};

crate::rules::declare_rule! {
    /// An xcsh tool factory returns nothing the loader can use.
    ///
    /// ## What it checks
    /// The factory an xcsh custom tool module exports must return a tool, an
    /// array of tools, or a Promise of either. Reported when it has no `return`
    /// with a value and no expression body, and (told apart) when it only calls
    /// `pi.registerTool(...)`: that is an xcsh *extension*, not a custom tool.
    /// Reported too for each value it returns (directly, in an array, through
    /// `await` or `Promise.resolve`) that is no tool: `null`, `undefined`,
    /// `void 0`, a number or another literal, and a bare `return;` beside
    /// returns of a value; the finding points at the factory, with the value as
    /// a related place.
    ///
    /// ## Why
    /// The loader registers what the factory returns: it wraps a single value in
    /// an array and reads each element's `name`. `undefined` or `null` there
    /// makes the load throw; a number registers a tool with no name that the
    /// model can never call. Extensions are loaded by another path (the
    /// extension loader), never from a tool folder.
    ///
    /// ## Example
    /// ```ts
    /// // .xcsh/tools/repo_stats.ts
    /// export default function (pi) {
    ///   pi.registerTool({ name: 'repo_stats', description: 'Count the files git tracks' })
    /// }
    /// ```
    ///
    /// ```ts
    /// // .xcsh/tools/ui_stats.ts
    /// export default (pi) => (pi.hasUI ? tool : null)
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// // .xcsh/tools/repo_stats.ts
    /// export default (pi) => ({
    ///   name: 'repo_stats',
    ///   description: 'Count the files git tracks',
    ///   parameters: pi.typebox.Type.Object({ glob: pi.typebox.Type.String() }),
    ///   async execute(toolCallId, params, onUpdate, ctx, signal) {
    ///     const result = await pi.exec('git', ['ls-files', params.glob], { signal, cwd: pi.cwd })
    ///     return { content: [{ type: 'text', text: result.stdout }] }
    ///   },
    /// })
    /// ```
    ///
    /// ```ts
    /// // .xcsh/tools/ui_stats.ts
    /// export default (pi) => (pi.hasUI ? tool : [])
    /// ```
    ///
    /// ## Fix
    /// Return the tool: `export default (pi) => ({ name, description, parameters,
    /// execute })`; to offer no tool in some case, return an empty array `[]`;
    /// move an extension to where xcsh loads extensions.
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
            Returns::Values(ref values) => {
                for value in values {
                    let Returned::NotTool { span, what } = value else { continue };
                    let message = format!(
                        "the factory of `{path}` returns {what}, not a tool: it must return a tool, an array of tools, or a Promise of either"
                    );
                    let related = Label::with_message(module.file, *span, format!("{what} returned here"));
                    let diagnostic = at(&RULE, module, first_line_from(project, module, factory.span.start()), message);
                    out.push(diagnostic.related(related).help(
                        "the loader reads `name` of each value the factory returns: return the tool object, or `[]` for no tool",
                    ));
                }
                continue;
            }
        };
        let span = first_line_from(project, module, factory.span.start());
        out.push(at(&RULE, module, span, message).help(help));
    }
}
