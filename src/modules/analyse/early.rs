//! Early errors: what a runtime rejects when it loads a file that parses. oxc's semantic checker finds them
//! (a redeclared `let`, `export` below the top level, two default exports, `await` where it is not allowed,
//! duplicate parameters in strict code, …); invalid regular expressions come from oxc's pattern parser, run on
//! each literal after the walk (`regex`); what Bun rejects beyond them comes from `identifiers`.

mod bun_identifiers;
mod identifiers;

use oxc_ast::ast::{ExportDefaultDeclarationKind, Program, Statement};
use oxc_diagnostics::OxcDiagnostic;
use oxc_semantic::{Semantic, SemanticBuilder};
use oxc_span::GetSpan;

use crate::modules::facts::SyntaxError;
use crate::source::Span;

/// Errors oxc's checker raises that a transpiler does not: it strips types without checking them, so these
/// TypeScript checks (abstract members, missing overload implementations, `infer` placement, ambient module
/// placement, parameter properties, annotated `for` heads, `export =` beside other exports, JSDoc `?`/`!` types) never
/// stop a module loading under Bun. Two TypeScript-coded ones are JavaScript early errors too and stay:
/// 2804 (a private name both static and instance) and 2337 (`super()` outside a constructor).
const TRANSPILER_ACCEPTS: &[&str] = &[
    "1228", "1234", "1235", "1244", "1253", "1338", "2309", "2369", "2390", "2391", "2404", "2435", "2483", "2670",
    "17019", "17020",
];

/// The same, for checks oxc raises without a TypeScript code.
const TRANSPILER_ACCEPTS_MESSAGES: &[&str] =
    &["Enum member must have initializer.", "Getters and setters must have an implementation."];

/// The early errors of a program that parsed without error, and the semantic model the checker built (its
/// scoping tells which bindings are written). `nested_module_code` is the first `import` or `export` declaration
/// below the top level (outside a namespace), which oxc checks only in JavaScript.
pub(super) fn check<'a>(
    program: &'a Program<'a>,
    nested_module_code: Option<(oxc_span::Span, &str)>,
) -> (Vec<SyntaxError>, Semantic<'a>) {
    let checked = SemanticBuilder::new().with_check_syntax_error(true).build(program);
    let text = program.source_text;
    let mut errors: Vec<SyntaxError> = checked
        .diagnostics
        .errors()
        .filter(|d| !transpiler_accepts(d) && !number_bun_rewrites(d, text))
        .map(|d| syntax_error(d, true))
        .collect();
    if program.source_type.is_typescript() {
        if let Some((at, what)) = nested_module_code {
            let message = format!("'{what}' declaration can only be used at the top level of a module");
            errors.push(SyntaxError { span: span(at), message });
        }
        if let Some(second) = default_exports(program).nth(1) {
            let message = "A module cannot have multiple default exports.".to_string();
            errors.push(SyntaxError { span: span(second), message });
        }
        errors.sort_by_key(|e| e.span.start());
    }
    if errors.is_empty() {
        errors.extend(identifiers::check(program));
    }
    (errors, checked.semantic)
}

/// The statements that give a TypeScript module a default value (oxc counts them only in JavaScript). An
/// overload signature, a `declare`d function and an interface export no value: TypeScript merges them.
fn default_exports<'p>(program: &'p Program) -> impl Iterator<Item = oxc_span::Span> + 'p {
    program.body.iter().filter_map(|statement| {
        let exports_default = match statement {
            Statement::ExportDefaultDeclaration(export) => match &export.declaration {
                ExportDefaultDeclarationKind::FunctionDeclaration(f) => f.body.is_some() && !f.declare,
                ExportDefaultDeclarationKind::TSInterfaceDeclaration(_) => false,
                _ => true,
            },
            Statement::ExportNamedDeclaration(export) => {
                export.export_kind.is_value()
                    && export.specifiers.iter().any(|s| s.export_kind.is_value() && s.exported.name() == "default")
            }
            _ => false,
        };
        exports_default.then(|| statement.span())
    })
}

fn span(at: oxc_span::Span) -> Span {
    Span::from(at)
}

fn transpiler_accepts(diagnostic: &OxcDiagnostic) -> bool {
    let code = &diagnostic.code;
    let typescript = code.scope.as_deref() == Some("TS");
    (typescript && code.number.as_deref().is_some_and(|n| TRANSPILER_ACCEPTS.contains(&n)))
        || TRANSPILER_ACCEPTS_MESSAGES.contains(&diagnostic.message.as_ref())
}

/// A legacy octal (`010`) or a decimal with a leading zero (`08`) in strict code: Bun's transpiler prints every
/// number in plain decimal, so JavaScriptCore never sees it and the module loads (measured with Bun 1.4.5, in
/// `.mjs` and `.ts`). A legacy octal escape in a string (`'\1'`) shares oxc's message and still fails.
fn number_bun_rewrites(diagnostic: &OxcDiagnostic, text: &str) -> bool {
    const NUMBERS: &[&str] = &[
        "'0'-prefixed octal literals and octal escape sequences are deprecated",
        "Decimals with leading zeros are not allowed in strict mode",
    ];
    let flagged = diagnostic.labels.first().and_then(|label| text.as_bytes().get(label.offset() as usize));
    NUMBERS.contains(&diagnostic.message.as_ref()) && flagged.is_some_and(u8::is_ascii_digit)
}

/// A diagnostic as a syntax error at one of its labels: the first (the parser's position) or, for early
/// errors, the last (a redeclaration's second place, the second `export default`).
pub(super) fn syntax_error(diagnostic: &OxcDiagnostic, last: bool) -> SyntaxError {
    // Two exports of one name: the second is the error.
    let last = last
        || diagnostic.message.starts_with("Duplicated export")
        || diagnostic.code.number.as_deref() == Some("2528");
    let label = if last { diagnostic.labels.last() } else { diagnostic.labels.first() };
    let span = label.map_or(Span::empty(0), |label| {
        Span::new(label.offset() as usize, label.offset() as usize + label.len() as usize)
    });
    SyntaxError { span, message: diagnostic.message.to_string() }
}
