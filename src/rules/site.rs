//! Where module findings point: into the module, with the `tools:` entry that declares it as a related place,
//! or, in a helper, the imports of the declared modules that load it.

use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::modules::Module;
use crate::modules::facts::{Import, ImportKind};
use crate::project::Project;
use crate::rules::Rule;
use crate::source::Span;

/// A helper's finding lists this many declared modules that load it, at most.
const MAX_LOADERS: usize = 5;

/// A finding of `rule` in `module` at `span`, related to where the module comes from (see [`origins`]).
pub fn in_module(
    project: &Project,
    rule: &Rule,
    module: &Module,
    span: impl Into<Span>,
    message: String,
) -> Diagnostic {
    related_to_origins(project, module, rule.diagnostic(Label::new(module.file, span), message))
}

fn related_to_origins(project: &Project, module: &Module, diagnostic: Diagnostic) -> Diagnostic {
    origins(project, module).into_iter().fold(diagnostic, Diagnostic::related)
}

/// How the finding of an import that fails only when the function holding it runs ends: the module loads.
pub const AT_CALL: &str = "it fails when the function that holds it is called, not at load";

/// A finding of `rule` about `import`, whose resolution failed. An `import()` or `require()` in a `try` with a
/// `catch` does not stop the load: its finding is a warning at most, and says it fails when called. One inside a
/// function without a `catch` (in `execute`, say) does not stop the load either, but fails every call: the rule's
/// severity, and a message that says so. The import Bun adds for JSX says so: the author wrote no import there.
pub fn at_import(project: &Project, rule: &Rule, module: &Module, import: &Import, message: String) -> Diagnostic {
    let message = match import.kind {
        ImportKind::Jsx => format!("{message}: Bun compiles the module's JSX to an import of `{}`", import.specifier),
        _ => message,
    };
    if !import.guarded {
        let message = match import.deferred {
            true => format!("{message}: {AT_CALL}"),
            false => message,
        };
        return in_module(project, rule, module, import.span, message);
    }
    let message = format!("{message}: it fails when called, not at load (a `catch` handles it)");
    let guarded =
        rule.diagnostic_with(rule.severity.min(Severity::Warning), Label::new(module.file, import.span), message);
    related_to_origins(project, module, guarded)
}

/// Where a module comes from: the first `tools:` entry that declares it; for a helper, the import statement of
/// each declared module that loads it (the last one says how many more there are).
pub fn origins(project: &Project, module: &Module) -> Vec<Label> {
    if let Some(decl) = module.declared_by.first().map(|&i| &project.tools[i]) {
        return vec![Label::with_message(decl.file, decl.entry(), "declared here")];
    }
    let shown = module.loaded_by().len().min(MAX_LOADERS);
    let more = module.loaded_by().len() - shown;
    module.loaded_by()[..shown]
        .iter()
        .enumerate()
        .map(|(index, &(root, via))| {
            let root = &project.modules[root as usize];
            let message = match more {
                0 => format!("imported by `{}`", project.module_path(root)),
                _ if index + 1 < shown => format!("imported by `{}`", project.module_path(root)),
                1 => format!("imported by `{}` and 1 other tool module", project.module_path(root)),
                _ => format!("imported by `{}` and {more} other tool modules", project.module_path(root)),
            };
            Label::with_message(root.file, via, message)
        })
        .collect()
}

/// The modules declared under `tools:`, which the rules about the tool object read (helpers are not tools).
pub fn tool_modules(project: &Project) -> impl Iterator<Item = &Module> {
    project.modules.iter().filter(|module| module.is_declared())
}

/// The modules Beeuni loads: the declared ones and the helpers one of them loads. Not the xcsh tools, nor the
/// helpers only they load (docs/spec/rules.md §6): `module-harness-*` and `module-process-env` are not for those.
pub fn beeuni_loaded(project: &Project) -> impl Iterator<Item = &Module> {
    project.modules.iter().filter(|module| is_beeuni_loaded(project, module))
}

/// Does Beeuni load `module` (declared, or a helper of a declared module)? Otherwise only xcsh does: it
/// imports the tool with Bun on the user's machine, not in the sandbox, and the package rules say so.
pub fn is_beeuni_loaded(project: &Project, module: &Module) -> bool {
    module.is_declared() || module.loaded_by().iter().any(|&(root, _)| project.modules[root as usize].is_declared())
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
            let statement = export.statement;
            let line = file.line_span(file.line_index(statement.start()));
            Span::new(statement.start(), line.end().max(statement.start()))
        }
        None => first_line(project, module),
    }
}

/// Modules whose default export is a plain object (the ones the field rules check), with that object.
pub fn object_modules(project: &Project) -> impl Iterator<Item = (&Module, &crate::modules::facts::ObjectExport)> {
    tool_modules(project).filter_map(|module| match &module.facts.default_export {
        Some(crate::modules::facts::DefaultExport {
            kind: crate::modules::facts::DefaultExportKind::Object(object),
            ..
        }) if module.facts.is_whole() => Some((module, &**object)),
        _ => None,
    })
}
