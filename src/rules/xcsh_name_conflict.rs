use super::xcsh_site::{at, shown};
use crate::catalog::XCSH_BUILTIN_TOOLS;
use crate::diagnostic::{Diagnostic, Label};
use crate::project::Project;
use std::collections::HashMap;

crate::rules::declare_rule! {
    /// An xcsh tool name equals a built-in tool or another custom tool.
    ///
    /// ## What it checks
    /// Across every xcsh tool folder, in xcsh's order (`.xcsh/tools`,
    /// `.claude/tools`, `.codex/tools`, then the `--xcsh` and `xcsh-paths`
    /// folders; files by name), each tool name is unique and is not the name of
    /// an xcsh built-in tool (`bash`, `read`, `edit`, `web_search`, … and the
    /// hidden `submit_result`, `resolve`, …). The later tool is reported, with
    /// the earlier one as a related location. A file reached twice through a
    /// symlink is one tool.
    ///
    /// ## Why
    /// Tool names must be unique in the active registry: the loader rejects a
    /// custom tool whose name is taken, so the later one never loads.
    ///
    /// ## Example
    /// ```ts
    /// // .xcsh/tools/grep.ts
    /// export default (pi) => ({
    ///   name: 'grep',
    ///   description: 'Count the files git tracks',
    ///   parameters: pi.typebox.Type.Object({ glob: pi.typebox.Type.String() }),
    ///   async execute(toolCallId, params, onUpdate, ctx, signal) {
    ///     const result = await pi.exec('git', ['ls-files', params.glob], { signal, cwd: pi.cwd })
    ///     return { content: [{ type: 'text', text: result.stdout }] }
    ///   },
    /// })
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// // .xcsh/tools/grep_todos.ts
    /// export default (pi) => ({
    ///   name: 'grep_todos',
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
    /// Rename one of the tools.
    id: "xcsh-name-conflict",
    severity: Error,
    category: Xcsh,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    let mut first = HashMap::new();
    for (name, module, tool) in project.xcsh.named_tools() {
        let Some((span, _)) = tool.name else { continue };
        let path = shown(project, module);
        if XCSH_BUILTIN_TOOLS.contains(&name) {
            let message = format!(
                "the tool name `{name}` in `{path}` is an xcsh built-in tool: tool names must be unique in the active registry"
            );
            out.push(
                at(&RULE, module, span, message)
                    .help("rename the tool: xcsh rejects a custom tool named like a built-in"),
            );
            continue;
        }
        match first.get(name) {
            None => {
                first.insert(name, (module, span));
            }
            Some(&(earlier, earlier_span)) => {
                let message = format!(
                    "the tool name `{name}` in `{path}` is taken by `{}`: tool names must be unique in the active registry",
                    shown(project, earlier)
                );
                let related = Label::with_message(earlier.file, earlier_span, "the tool xcsh loads first");
                out.push(
                    at(&RULE, module, span, message)
                        .related(related)
                        .help("rename one of them: xcsh loads the first and rejects this one"),
                );
            }
        }
    }
}
