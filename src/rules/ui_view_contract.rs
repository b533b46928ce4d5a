use super::site::{in_module, tool_modules};
use crate::catalog::ui_arguments;
use crate::diagnostic::Diagnostic;
use crate::modules::facts::{DefaultExportKind, Field};
use crate::project::Project;

crate::rules::declare_rule! {
    /// A module replacing `show` or `memory` lacks an argument the web UI reads.
    ///
    /// ## What it checks
    /// A module declared for the Beeuni tool `show` must keep the arguments
    /// `type`, `path`, `url`, `content` and `items` in `parameters.properties`;
    /// one declared for `memory` must keep `command` and `path`.
    ///
    /// ## Why
    /// The web UI picks its view by the tool's name and reads these arguments of
    /// the call; without them it shows the raw output.
    ///
    /// ## Example
    /// ```yaml
    /// tools:
    ///   show: tools/show.ts
    /// ```
    ///
    /// ```ts
    /// // tools/show.ts
    /// export default {
    ///   description: 'Show a file, a page or a list to the user',
    ///   parameters: {
    ///     type: 'object',
    ///     properties: {
    ///       text: { type: 'string' },
    ///     },
    ///   },
    ///   async execute(args, context) { return 'shown' },
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// tools:
    ///   show: tools/show.ts
    /// ```
    ///
    /// ```ts
    /// // tools/show.ts
    /// export default {
    ///   description: 'Show a file, a page or a list to the user',
    ///   parameters: {
    ///     type: 'object',
    ///     properties: {
    ///       type: { type: 'string' },
    ///       path: { type: 'string' },
    ///       url: { type: 'string' },
    ///       content: { type: 'string' },
    ///       items: { type: 'array' },
    ///     },
    ///   },
    ///   async execute(args, context) { return 'shown' },
    /// }
    /// ```
    ///
    /// ## Fix
    /// Keep the names, the arguments and the output shape of the tool you
    /// replace.
    id: "ui-view-contract",
    severity: Warning,
    category: Module,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for module in tool_modules(project) {
        let Some(export) = &module.facts.default_export else {
            continue;
        };
        let DefaultExportKind::Object(object) = &export.kind else {
            continue;
        };
        let Field::Found { span, value } = &object.parameters else {
            continue;
        };
        let Some(properties) = &value.properties else { continue };
        for &index in &module.declared_by {
            let tool = project.tools[index].name.as_str();
            let missing: Vec<&str> =
                ui_arguments(tool).iter().copied().filter(|a| !properties.iter().any(|p| p == *a)).collect();
            if missing.is_empty() {
                continue;
            }
            let names = missing.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", ");
            let message = format!(
                "`{}` replaces `{tool}`, but its `parameters.properties` lack {names}: the web UI's `{tool}` view reads them",
                project.module_path(module)
            );
            let at = value.properties_span.unwrap_or(*span);
            let diagnostic = in_module(project, &RULE, module, at, message);
            out.push(diagnostic.help("keep the arguments of the tool you replace, or the UI shows the raw output"));
        }
    }
}
