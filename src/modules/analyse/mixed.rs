//! ES `import` statements beside CommonJS's exports: Bun takes a module that assigns `module.exports`,
//! `exports.NAME` or `export =` at its top level, and has no `export` statement, as CommonJS, and then refuses its
//! `import` statements when it compiles it ("Cannot use import statement with CommonJS-only features", Bun 1.4):
//! the module does not load. An import Bun erases (used only as a type) does not count; `require()` and
//! `import x = require()` are CommonJS's own. The other way round, a module with an `export` statement (a type's
//! too) is an ES module, where `module` and `exports` are not defined: a top-level assignment to them throws when
//! Bun loads it ("module is not defined").

use oxc_ast::ast::*;
use oxc_span::GetSpan;

use super::commonjs::commonjs_statement;
use crate::modules::facts::{Import, ImportKind, SyntaxError};
use crate::source::Span;

/// The error Bun gives such a module, at its first import statement that is kept.
pub(super) fn import_in_commonjs(program: &Program, imports: &[Import]) -> Option<SyntaxError> {
    if has_es_export(program) {
        return None;
    }
    program.body.iter().find(|statement| commonjs_statement(statement).is_some())?;
    let import = imports.iter().find(|import| import.kind == ImportKind::Static && !import.type_only)?;
    let message = "Cannot use import statement with CommonJS-only features: the module assigns CommonJS's exports (`module.exports`, `exports.NAME`), so Bun compiles it as CommonJS and refuses the import".to_string();
    Some(SyntaxError { span: import.span, message })
}

/// The first top-level assignment to CommonJS's exports in a module with an `export` statement, which throws when
/// Bun loads it. (In an `.mjs` or `.mts` file without one, CommonJS's exports are read as no default export at
/// all: `module-no-default-export` says so, and once is enough.)
pub(super) fn commonjs_in_es_module(text: &str, program: &Program) -> Option<SyntaxError> {
    if !has_es_export(program) {
        return None;
    }
    let statement = program
        .body
        .iter()
        .filter(|statement| matches!(statement, Statement::ExpressionStatement(_)))
        .find(|statement| commonjs_statement(statement).is_some())?;
    let span = Span::from(statement.span());
    let written = text.get(span.range()).unwrap_or("");
    let name = if written.contains("module") { "module" } else { "exports" };
    let message = format!(
        "{name} is not defined (the module is an ES module, as it has an `export` statement: CommonJS's `module` and `exports` do not exist there)"
    );
    Some(SyntaxError { span, message })
}

/// An `export` statement other than TypeScript's CommonJS `export =` (a type's makes an ES module too).
fn has_es_export(program: &Program) -> bool {
    program.body.iter().any(|statement| {
        statement.as_module_declaration().is_some_and(|declaration| {
            declaration.is_export()
                && !matches!(
                    declaration,
                    ModuleDeclaration::TSExportAssignment(_) | ModuleDeclaration::TSNamespaceExportDeclaration(_)
                )
        })
    })
}
