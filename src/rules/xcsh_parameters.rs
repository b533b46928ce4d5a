use super::xcsh_site::{at, shown, tool_label};
use crate::diagnostic::Diagnostic;
use crate::project::Project;
use crate::xcsh::facts::Parameters;

crate::rules::declare_rule! {
    /// An xcsh tool's `parameters` is a plain object or a zod schema, not TypeBox.
    ///
    /// ## What it checks
    /// The `parameters` of each tool an xcsh factory returns: an object literal
    /// (JSON Schema written by hand) or a zod schema (a call on a binding
    /// imported from `zod`) is reported. A TypeBox call (`pi.typebox.Type.*`, or
    /// `Type.*` from `@sinclair/typebox`) passes; other values (a helper's
    /// result) are not guessed at.
    ///
    /// ## Why
    /// xcsh validates and types a tool's arguments through TypeBox
    /// (`Static<TParams>`); a schema built another way skips that.
    ///
    /// ## Example
    /// ```ts
    /// export default (pi) => ({
    ///   name: 'repo_stats',
    ///   description: 'Count the files git tracks',
    ///   parameters: { type: 'object', properties: { glob: { type: 'string' } } },
    ///   async execute(toolCallId, params, onUpdate, ctx, signal) {
    ///     const result = await pi.exec('git', ['ls-files', params.glob], { signal, cwd: pi.cwd })
    ///     return { content: [{ type: 'text', text: result.stdout }] }
    ///   },
    /// })
    /// ```
    ///
    /// ## Use instead
    /// ```ts
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
    /// ## Fix
    /// Build it with the injected TypeBox:
    /// `parameters: pi.typebox.Type.Object({ glob: pi.typebox.Type.String() })`.
    id: "xcsh-parameters",
    severity: Warning,
    category: Xcsh,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for (module, tool) in project.xcsh.tools() {
        let what = match &tool.parameters {
            Some((_, Parameters::ObjectLiteral)) => "a plain object (JSON Schema by hand)",
            Some((_, Parameters::Zod)) => "a zod schema",
            _ => continue,
        };
        let Some((span, _)) = tool.parameters else { continue };
        let message = format!(
            "`parameters` of {} in `{}` is {what}, not a TypeBox schema: params are validated and typed through TypeBox",
            tool_label(tool),
            shown(project, module)
        );
        out.push(
            at(&RULE, module, span, message)
                .help("build it with the injected TypeBox: `pi.typebox.Type.Object({ … })` (no package needed)"),
        );
    }
}
