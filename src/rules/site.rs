//! Where module findings point: into the module, with the `tools:` entry that declares it as a related place.

use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::modules::Module;
use crate::project::Project;
use crate::source::Span;

/// A finding in `module` at `span`, related to the first entry that declares it.
pub fn in_module(
    project: &Project,
    rule: &'static str,
    severity: Severity,
    module: &Module,
    span: Span,
    message: String,
) -> Diagnostic {
    let diagnostic = Diagnostic::new(rule, severity, Label::new(module.file, span), message);
    match module.declared_by.first().map(|&i| &project.tools[i]) {
        Some(decl) => diagnostic.related(Label::with_message(decl.file, decl.entry, "declared here")),
        None => diagnostic,
    }
}

/// Line 1 of the module (for findings about the whole file).
pub fn first_line(project: &Project, module: &Module) -> Span {
    project.file(module.file).line_span(0)
}

/// The default export statement, or line 1 when there is none.
pub fn export_site(project: &Project, module: &Module) -> Span {
    match &module.facts.default_export {
        Some(export) => {
            let file = project.file(module.file);
            // The `export default` line, not the whole (multi-line) object.
            let line = file.line_span(file.line_index(export.statement.start));
            Span::new(export.statement.start, line.end.max(export.statement.start))
        }
        None => first_line(project, module),
    }
}

/// Modules whose default export is a plain object (the ones the field rules check), with that object.
pub fn object_modules(project: &Project) -> impl Iterator<Item = (&Module, &crate::modules::facts::ObjectExport)> {
    project.modules.iter().filter_map(|module| match &module.facts.default_export {
        Some(crate::modules::facts::DefaultExport {
            kind: crate::modules::facts::DefaultExportKind::Object(object),
            ..
        }) if module.facts.syntax_errors.is_empty() => Some((module, object)),
        _ => None,
    })
}
