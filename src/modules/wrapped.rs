//! Tool objects passed to a function imported from a relative module (`export default defineTool({...})` with
//! `import { defineTool } from '../lib/define'`): read as the object only if that module exports the function as
//! one that returns its argument. Settled once the import graph is known, each run (the facts of a module, and so
//! the cache, hold only what its own text says).

use super::analyse::export::MAX_IDENTITY_EXPORTS;
use super::facts::{DefaultExport, DefaultExportKind, ImportKind, Wrapper};
use super::{Edges, Module};

/// Makes the default export of each module whose tool object an imported function wraps unanalysable, unless the
/// module the import loads exports that function as one that returns its argument.
pub(super) fn settle_imported_wrappers(modules: &mut [Module], edges: &Edges) {
    for at in 0..modules.len() {
        let Some(DefaultExport { kind: DefaultExportKind::Object(object), .. }) = &modules[at].facts.default_export
        else {
            continue;
        };
        let Wrapper::Imported { local, imported, specifier } = &object.wrapper else { continue };
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
