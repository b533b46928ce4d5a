use super::xcsh_site::{at, first_line_from, shown};
use crate::diagnostic::{Diagnostic, Label};
use crate::project::Project;
use crate::xcsh::facts::Export;
use crate::xcsh::{XcshModule, is_valid_name};

crate::rules::declare_rule! {
    /// An xcsh custom tool module exports no factory.
    ///
    /// ## What it checks
    /// Every file the xcsh loader imports as a tool: `*.ts`, `*.js` and
    /// `<dir>/index.ts` in `.xcsh/tools/`, `*.ts` and `*.js` in `.codex/tools/`,
    /// every file in `.claude/tools/`, and the modules of the `--xcsh` and
    /// `xcsh-paths` folders. The loader takes `module.default ?? module` and
    /// requires a function, the factory: reported when the module has no default
    /// export (a named function export alone is not taken: the loader then sees
    /// the module's namespace, not a function), or its default export is an
    /// object or literal (CommonJS `exports.default = factory` without
    /// `__esModule` too: Bun's default export is then the exports object
    /// `{ default: factory }`). A plain object with `description`, `parameters` or
    /// `execute` is the Beeuni form: that module gets this finding and no other
    /// of the xcsh contract. A file in `.claude/tools/` that is no module
    /// (`NOTES.txt`) is reported too: the Claude provider hands every file of
    /// that folder to the loader. Other files of `.xcsh/tools/` and
    /// `.codex/tools/` (a `.mjs` or `.cjs` helper) are not tools and are not
    /// checked here.
    ///
    /// ## Why
    /// The loader calls the factory with its host API (`pi`) and registers the
    /// tools it returns; a module without one fails with "Tool must export a
    /// default function". The docs say a default export is preferred; the
    /// loader requires it.
    ///
    /// ## Example
    /// ```ts
    /// // .xcsh/tools/lookup_order.ts
    /// export default {
    ///   description: 'Look up an order',
    ///   parameters: { type: 'object', properties: { id: { type: 'string' } } },
    ///   async execute(args, context) { return `order ${args.id}` },
    /// }
    /// ```
    ///
    /// (the form of a Beeuni tool module, in an xcsh tools folder).
    ///
    /// ## Use instead
    /// ```ts
    /// // .xcsh/tools/lookup_order.ts
    /// export default (pi) => ({
    ///   name: 'lookup_order',
    ///   description: 'Look up an order',
    ///   parameters: pi.typebox.Type.Object({ id: pi.typebox.Type.String() }),
    ///   async execute(toolCallId, params, onUpdate, ctx, signal) {
    ///     return { content: [{ type: 'text', text: `order ${params.id}` }] }
    ///   },
    /// })
    /// ```
    ///
    /// ## Fix
    /// Wrap the object in a factory that returns it with a `name`, as the help
    /// spells out for the module's own object:
    /// `export default (pi) => ({ name: "lookup_order", description: …,
    /// parameters: …, execute: … })`, with `parameters` a TypeBox schema
    /// (`pi.typebox.Type.Object({ … })`) and `execute(toolCallId, params,
    /// onUpdate, ctx, signal)`. A named factory: `export default factory`. A
    /// Beeuni tool belongs under `tools:` in `beeuni.yaml` instead; notes belong
    /// outside `.claude/tools/`.
    id: "xcsh-export",
    severity: Error,
    category: Xcsh,
    fix: None,
    check: check,
}

const CONTRACT: &str = "an xcsh custom tool module exports a factory `(pi) => tool`";

/// The loader's own words when `module.default ?? module` is not a function.
const LOADER: &str = "the loader fails with \"Tool must export a default function\"";

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for (module, facts) in super::xcsh_site::contracts(project) {
        let path = shown(project, module);
        let name = suggested_name(module);
        let (span, message, help) = match &facts.export {
            Export::Missing => (
                project.file(module.file).line_span(0),
                format!("`{path}` exports no function: {CONTRACT}"),
                format!("export a factory that returns the tool: `{}`", factory_of(&name, None, &[])),
            ),
            Export::NamedOnly { local } => (
                project.file(module.file).line_span(0),
                format!(
                    "`{path}` has no default export: the loader takes `module.default ?? module`, not the named `{local}`, and {LOADER}"
                ),
                format!("export the factory as the default: `export default {local}`"),
            ),
            Export::CommonJsDefault { span } => (
                first_line_from(project, module, span.start()),
                format!(
                    "`{path}` sets `exports.default` without `__esModule`: Bun's default export is then the exports object `{{ default: … }}`, and {LOADER}"
                ),
                "assign the factory to `module.exports`, or mark the module with `Object.defineProperty(exports, '__esModule', { value: true })`".to_string(),
            ),
            Export::NotFunction { span, beeuni: true, binding, keys, .. } => (
                first_line_from(project, module, span.start()),
                format!("`{path}` exports a plain object: this is the Beeuni form; {CONTRACT}"),
                format!(
                    "return the object from a factory, with a `name`: `{}`; make `parameters` a TypeBox schema (`pi.typebox.Type.Object({{ … }})`) and take `execute(toolCallId, params, onUpdate, ctx, signal)`; a Beeuni tool belongs under `tools:` in beeuni.yaml",
                    factory_of(&name, binding.as_deref(), keys)
                ),
            ),
            Export::NotFunction { span, what, binding, keys, .. } => (
                first_line_from(project, module, span.start()),
                format!("`{path}` exports {what}, not a function: {CONTRACT}"),
                format!("export a factory that returns the tool: `{}`", factory_of(&name, binding.as_deref(), keys)),
            ),
            Export::Factory(_) | Export::Unanalyzable { .. } => continue,
        };
        out.push(at(&RULE, module, span, message).help(help));
    }
    for &file in &project.xcsh.not_modules {
        let source = project.file(file);
        let message = format!(
            "`{}` is no module, but xcsh loads every file in `.claude/tools` as a tool: {LOADER}",
            source.shown
        );
        let help = "move the file out of `.claude/tools` (beside it in `.claude/`, say), or make it a module that exports a factory `(pi) => tool`";
        out.push(RULE.diagnostic(Label::new(file, source.line_span(0)), message).help(help));
    }
}

/// The name the loader would list the tool under: the file's stem (the folder's for `<dir>/index.ts`), when it
/// is a valid tool name.
fn suggested_name(module: &XcshModule) -> String {
    let path = module.path.strip_suffix("/index.ts").unwrap_or(&module.path);
    let file = path.rsplit('/').next().unwrap_or(path);
    let stem = file.split_once('.').map_or(file, |(stem, _)| stem);
    if is_valid_name(stem) { stem.to_string() } else { "my_tool".to_string() }
}

/// A factory around the module's own export: its binding spread into a tool with a `name`, or its object's
/// keys; the bare shape when it exports neither.
fn factory_of(name: &str, binding: Option<&str>, keys: &[String]) -> String {
    if let Some(binding) = binding {
        return format!("export default (pi) => ({{ name: \"{name}\", ...{binding} }})");
    }
    let own: Vec<String> = keys.iter().filter(|k| k.as_str() != "name").map(|k| format!("{k}: …")).collect();
    let fields = match own.is_empty() {
        true => "description: …, parameters: pi.typebox.Type.Object({ … }), async execute(toolCallId, params, onUpdate, ctx, signal) { … }".to_string(),
        false => own.join(", "),
    };
    format!("export default (pi) => ({{ name: \"{name}\", {fields} }})")
}
