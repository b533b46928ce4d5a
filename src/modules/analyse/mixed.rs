//! ES `import` statements beside CommonJS's exports: Bun takes a module that assigns `module.exports`,
//! `exports.NAME` or `export =` at its top level, and has no `export` statement, as CommonJS, and then refuses its
//! `import` statements when it compiles it ("Cannot use import statement with CommonJS-only features", Bun 1.4):
//! the module does not load. An import Bun erases (used only as a type) does not count; `require()` and
//! `import x = require()` are CommonJS's own.

use oxc_ast::ast::*;

use super::commonjs::commonjs_statement;
use crate::modules::facts::{Import, ImportKind, SyntaxError};
use crate::source::Span;

/// The error Bun gives such a module, at its first import statement that is kept.
pub(super) fn import_in_commonjs(program: &Program, imports: &[Import]) -> Option<SyntaxError> {
    let es_export = program.body.iter().any(|statement| {
        statement.as_module_declaration().is_some_and(|declaration| {
            declaration.is_export()
                && !matches!(
                    declaration,
                    ModuleDeclaration::TSExportAssignment(_) | ModuleDeclaration::TSNamespaceExportDeclaration(_)
                )
        })
    });
    if es_export {
        return None;
    }
    program.body.iter().find(|statement| commonjs_statement(statement).is_some())?;
    let import = imports.iter().find(|import| import.kind == ImportKind::Static && !import.type_only)?;
    let message = "Cannot use import statement with CommonJS-only features: the module assigns CommonJS's exports (`module.exports`, `exports.NAME`), so Bun compiles it as CommonJS and refuses the import".to_string();
    Some(SyntaxError { span: Span::from(import.span), message })
}
