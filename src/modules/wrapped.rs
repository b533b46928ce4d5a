//! Default exports that depend on a module they import, settled once the import graph is known, each run (the facts
//! of a module, and so the cache, hold only what its own text says): tool objects passed to a function imported
//! from a relative module (`export default defineTool({...})` with `import { defineTool } from '../lib/define'`),
//! read as the object only if that module exports the function as one that returns its argument; and
//! `export { default } from './impl'`, which fails to load when `./impl` has no default export.

use super::analyse::export::{MAX_IDENTITY_EXPORTS, reexported_default};
use super::facts::{DefaultExport, DefaultExportKind, Field, ImportKind, ImportedWrapper, SyntaxError, Wrapper};
use super::{Edges, Module};
use crate::source::Span;

/// Makes the default export of each module whose tool object an imported function wraps unanalysable, unless the
/// module the import loads exports that function as one that returns its argument.
pub(super) fn settle_imported_wrappers(modules: &mut [Module], edges: &Edges) {
    for at in 0..modules.len() {
        let Some(DefaultExport { kind: DefaultExportKind::Object(object), .. }) = &modules[at].facts.default_export
        else {
            continue;
        };
        let Wrapper::Imported(by) = &object.wrapper else { continue };
        let ImportedWrapper { local, imported, specifier } = &**by;
        let facts = &modules[at].facts;
        let import = facts
            .imports
            .iter()
            .find(|i| matches!(i.kind, ImportKind::Static | ImportKind::Require) && i.specifier == *specifier);
        let helper = import.and_then(|import| edges.of(at).find(|(_, span)| *span == import.span));
        let exports = helper.map_or(&[][..], |(helper, _)| modules[helper].facts.identity_exports());
        if exports.binary_search(imported).is_ok() {
            continue;
        }
        // The helper's identity functions past the first it keeps are not known: the call may be one of them.
        let past_limit = exports.len() >= MAX_IDENTITY_EXPORTS;
        let why = match past_limit {
            true => format!(
                "a call to `{local}(...)`, imported from a helper that exports more than the {MAX_IDENTITY_EXPORTS} identity functions beeuni-lint reads"
            ),
            false => format!("a call to `{local}(...)`"),
        }
        .into();
        modules[at].wrapper_past_limit = past_limit;
        let facts = &mut modules[at].facts;
        if let Some(export) = &mut facts.default_export {
            export.kind = DefaultExportKind::Unanalyzable { why };
        }
        facts.execute = None;
    }
}

/// Bun's error for `export { default } from './impl'` when `./impl` has no default export (Bun 1.4.5).
pub const REEXPORT_WITHOUT_DEFAULT: &str = "export default cannot be used with export *";

/// Reads `export { default } from './impl'` (`./impl` a relative module read whole) as `./impl`'s default export,
/// each of its places moved to the re-export (the finding shows there, in the module declared as the tool); without
/// one, the module gets the error Bun fails to link it with.
pub(super) fn settle_reexported_defaults(modules: &mut [Module], edges: &Edges) {
    for at in 0..modules.len() {
        let facts = &modules[at].facts;
        let Some(DefaultExport { statement, kind: DefaultExportKind::Unanalyzable { why } }) = &facts.default_export
        else {
            continue;
        };
        let Some(import) = facts.imports.iter().find(|i| i.kind == ImportKind::ReExport && i.span == *statement) else {
            continue;
        };
        if **why != reexported_default(&import.specifier) {
            continue;
        }
        let Some((target, _)) = edges.of(at).find(|(_, span)| *span == import.span) else { continue };
        let target = &modules[target].facts;
        if !target.is_whole() {
            continue;
        }
        if let Some(export) = &target.default_export {
            let kind = relocated(&export.kind, import.span);
            modules[at].facts.default_export = Some(DefaultExport { statement: *statement, kind });
            continue;
        }
        let message = format!(
            "{REEXPORT_WITHOUT_DEFAULT} (Bun's words: `{}` has no default export, so there is none to re-export)",
            import.specifier
        );
        let error = SyntaxError { span: import.span, message };
        modules[at].facts.set_load_error(error);
    }
}

/// `kind` with every place it names moved to `at`.
fn relocated(kind: &DefaultExportKind, at: Span) -> DefaultExportKind {
    let DefaultExportKind::Object(object) = kind else { return kind.clone() };
    let mut object = object.clone();
    moved(&mut object.description, at);
    moved(&mut object.execute, at);
    moved(&mut object.parameters, at);
    if let Field::Found { value, .. } = &mut object.parameters {
        value.properties_span = value.properties_span.map(|_| at);
        value.required_undefined.iter_mut().for_each(|(_, span)| *span = at);
    }
    DefaultExportKind::Object(object)
}

fn moved<T>(field: &mut Field<T>, at: Span) {
    match field {
        Field::Found { span, .. } | Field::Unanalyzable { span, .. } => *span = at,
        Field::Missing => {}
    }
}
