//! The analysis of whole modules, by the facts they give; each file one kind of fact.

mod depth;
mod docs;
mod env;
mod erased;
mod export;
mod fields;
mod imports;
mod shapes;
mod signal;
mod syntax;

use super::*;

fn run(path: &str, text: &str) -> ModuleFacts {
    let mut allocator = Allocator::default();
    analyse(path, text, &mut allocator)
}

fn object(facts: &ModuleFacts) -> &ObjectExport {
    match &facts.default_export {
        Some(DefaultExport { kind: DefaultExportKind::Object(object), .. }) => object,
        other => panic!("expected an object export, got {other:?}"),
    }
}

fn kind(path: &str, text: &str) -> DefaultExportKind {
    let facts = run(path, text);
    assert!(facts.syntax_errors().is_empty(), "{:?}", facts.syntax_errors());
    facts.default_export.unwrap().kind
}

fn why(kind: DefaultExportKind) -> String {
    match kind {
        DefaultExportKind::Unanalyzable { why } => why.into(),
        other => panic!("expected unanalyzable, got {other:?}"),
    }
}

fn found<T: Clone + std::fmt::Debug>(field: &Field<T>) -> T {
    match field {
        Field::Found { value, .. } => value.clone(),
        other => panic!("expected a found field, got {other:?}"),
    }
}

fn slice(text: &str, span: impl Into<Span>) -> &str {
    let span: Span = span.into();
    &text[span.range()]
}

#[test]
fn source_type_is_what_oxc_makes_of_the_path() {
    // `|` between them: the empty path is one too.
    let paths = "tools/a.ts|a.js|a.mjs|a.cjs|a.jsx|a.mts|a.cts|a.tsx|types/a.d.ts|a.d.mts|a.d.cts|a.d.css.ts|d.ts|.d.ts|\
        x/.d.ts|a.d.js|a.d.tsx|.ts|x/.ts|..ts|a.b.ts|a.|a|A.TS|a.json|dir.d.ts/a.js|dir.ts/a||.|..|a/|a/.|a/..|./a.ts|\
        a//b.mts|é/ü.d.ts";
    for path in paths.split('|') {
        assert_eq!(source_type(path), SourceType::from_path(path).ok(), "{path}");
    }
}
