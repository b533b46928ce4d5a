//! The analysis of whole modules, by the facts they give; each file one kind of fact.

mod depth;
mod docs;
mod env;
mod export;
mod fields;
mod imports;
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
