//! CommonJS or ES module: how Bun decides, for every extension alike. Bun 1.4.5 reads `.js`, `.ts`, `.mjs`, `.mts`,
//! `.cjs` and `.cts` the same way, by what the file holds (measured: `bun --no-install tests/bun/check.ts
//! beeuni=<path>` on each extension, see docs/readings.md):
//!
//! 1. an `export` statement (a type's too, but not TypeScript's `export =`) or a top-level `await` makes an ES
//!    module, where `module` and `exports` are not defined (a top-level assignment to them throws at load);
//! 2. otherwise a use of `module` or `exports` that no declaration binds (anywhere, `typeof module` in a function
//!    too) makes it CommonJS: the default export is `module.exports`, and an `import` statement that is kept
//!    (not erased as a type) fails the load ("Cannot use import statement with CommonJS-only features");
//! 3. otherwise an `import` statement makes an ES module; a use of `require`, `__dirname` or `__filename`, or a
//!    `'use strict'` directive, CommonJS (whose exports are then empty); anything else an ES module.
//!
//! JSX is compiled to an `import` of `<source>/jsx-dev-runtime` that Bun adds after deciding, so in CommonJS it
//! lands inside the function wrapper, where JavaScriptCore refuses it ("Unexpected token '{'. import call expects
//! one or two arguments."), whether the package is installed or not.

use oxc_ast::ast::*;
use oxc_semantic::Semantic;

use crate::modules::facts::{Import, ImportKind, SyntaxError};
use crate::source::Span;

/// How Bun runs a module, and the first reason it has for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Format {
    EsModule(EsBecause),
    CommonJs(CommonJsBecause),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum EsBecause {
    /// An `export` statement.
    Export,
    /// An `await` outside any function, at its place.
    TopLevelAwait(Span),
    /// An `import` statement Bun keeps, and no CommonJS name.
    Import,
    /// Nothing says either way: Bun's default.
    Default,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CommonJsBecause {
    /// `module` or `exports`, unbound: the name.
    Exports(&'static str),
    /// `require`, `__dirname`, `__filename` or `'use strict'` with no `import` statement.
    Other,
}

/// What the walk found that bears on the decision.
pub(super) struct Evidence<'p> {
    pub top_level_await: Option<Span>,
    /// The module's imports with `type_only` settled (an import Bun erases does not count).
    pub imports: &'p [Import],
}

/// How Bun runs `program`: the one decision every extension shares (see the module's documentation).
pub(super) fn decide(program: &Program, semantic: &Semantic, evidence: &Evidence) -> Format {
    if has_es_export(program) {
        return Format::EsModule(EsBecause::Export);
    }
    if let Some(at) = evidence.top_level_await {
        return Format::EsModule(EsBecause::TopLevelAwait(at));
    }
    let unbound = semantic.scoping().root_unresolved_references();
    // TypeScript's `export = x` compiles to `module.exports = x`.
    let export_assignment = program.body.iter().any(|s| matches!(s, Statement::TSExportAssignment(_)));
    if export_assignment || unbound.contains_key("module") {
        return Format::CommonJs(CommonJsBecause::Exports("module"));
    }
    if unbound.contains_key("exports") {
        return Format::CommonJs(CommonJsBecause::Exports("exports"));
    }
    if kept_import(evidence.imports).is_some() {
        return Format::EsModule(EsBecause::Import);
    }
    let strict = program.directives.iter().any(|d| d.directive == "use strict");
    if strict || ["require", "__dirname", "__filename"].into_iter().any(|name| unbound.contains_key(name)) {
        return Format::CommonJs(CommonJsBecause::Other);
    }
    Format::EsModule(EsBecause::Default)
}

/// Whether CommonJS's exports may be the module's, as far as the top-level statements tell (an `export` statement
/// rules them out; a top-level `await` does too, which [`decide`] sees).
pub(super) fn may_be_commonjs(program: &Program) -> bool {
    !has_es_export(program)
}

/// The first `import` statement Bun keeps.
fn kept_import(imports: &[Import]) -> Option<&Import> {
    imports.iter().find(|import| import.kind == ImportKind::Static && !import.type_only)
}

/// What fails when Bun compiles a module of this `format`, if anything: an `import` statement in CommonJS, or the
/// import Bun adds for JSX there. The JSX import is dropped from `imports` then: Bun never resolves it.
pub(super) fn compile_error(format: Format, imports: &mut Vec<Import>) -> Option<SyntaxError> {
    let Format::CommonJs(because) = format else { return None };
    let why = match because {
        CommonJsBecause::Exports(name) => format!("it uses `{name}`"),
        CommonJsBecause::Other => {
            "it uses `require`, `__dirname`, `__filename` or `'use strict'` and has no `import` or `export` statement"
                .to_string()
        }
    };
    if let CommonJsBecause::Exports(name) = because
        && let Some(import) = kept_import(imports)
    {
        let message = format!(
            "Cannot use import statement with CommonJS-only features: the module uses `{name}`, so Bun compiles it as CommonJS and refuses the import (use `require()`)"
        );
        return Some(SyntaxError { span: import.span, message });
    }
    let at = imports.iter().position(|import| import.kind == ImportKind::Jsx)?;
    let jsx = imports.remove(at);
    let message = format!(
        "Unexpected token '{{'. import call expects one or two arguments. (Bun runs the module as CommonJS, as {why}, and compiles its JSX to an `import` of `{}`, which CommonJS cannot hold)",
        jsx.specifier
    );
    Some(SyntaxError { span: jsx.span, message })
}

/// The first top-level assignment to CommonJS's exports in an ES module, which throws when Bun loads it.
pub(super) fn load_error(text: &str, program: &Program, format: Format) -> Option<SyntaxError> {
    let because = match format {
        Format::EsModule(EsBecause::Export) => "as it has an `export` statement",
        Format::EsModule(EsBecause::TopLevelAwait(_)) => "as it has a top-level `await`",
        _ => return None,
    };
    let statement = program
        .body
        .iter()
        .filter(|statement| matches!(statement, Statement::ExpressionStatement(_)))
        .find(|statement| super::commonjs::commonjs_statement(statement).is_some())?;
    let span = Span::from(oxc_span::GetSpan::span(statement));
    let written = text.get(span.range()).unwrap_or("");
    let name = if written.contains("module") { "module" } else { "exports" };
    let message = format!(
        "{name} is not defined (the module is an ES module, {because}: CommonJS's `module` and `exports` do not exist there)"
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
