//! Identifiers Bun rejects where oxc does not. oxc reads identifiers by a newer Unicode than Bun's transpiler
//! (Unicode 15.1 in Bun 1.4.5, measured: `bun_identifiers`), so a letter assigned later (U+2B81E, say) parses
//! here and fails at load. And Bun's parser rejects a parameter name bound twice in sloppy code too, where
//! JavaScript allows it (oxc reports it only in strict code).

use oxc_ast::ast::{
    BindingIdentifier, FormalParameters, IdentifierName, IdentifierReference, LabelIdentifier, PrivateIdentifier,
    Program,
};
use oxc_ast_visit::{Visit, walk};

use super::bun_identifiers::{ID_PART, ID_START};
use crate::modules::facts::SyntaxError;

/// The first identifier of `program` that Bun rejects, for a program oxc found no early error in.
pub(super) fn check(program: &Program) -> Option<SyntaxError> {
    let text = program.source_text;
    // Only non-ASCII letters (or `\u` escapes of them) and sloppy code can hold what this looks for: an ES
    // module is strict, and oxc has checked every ASCII identifier.
    let unicode = !text.is_ascii() || text.contains("\\u");
    if !unicode && program.source_type.is_module() {
        return None;
    }
    let mut checker = Checker { unicode, first: None };
    checker.visit_program(program);
    checker.first
}

struct Checker {
    unicode: bool,
    first: Option<SyntaxError>,
}

impl Checker {
    fn name(&mut self, name: &str, at: oxc_span::Span) {
        if !self.unicode || self.first.is_some() {
            return;
        }
        for (index, character) in name.chars().enumerate() {
            let table = if index == 0 { ID_START } else { ID_PART };
            if !character.is_ascii() && !in_table(table, character) {
                let place = if index == 0 { "start" } else { "be part of" };
                let message = format!(
                    "Invalid identifier: U+{:04X} cannot {place} an identifier under Bun, whose parser reads \
                     identifiers by Unicode 15.1",
                    u32::from(character)
                );
                self.first = Some(SyntaxError { span: span(at), message });
                return;
            }
        }
    }
}

fn in_table(table: &[(u32, u32)], character: char) -> bool {
    let code = u32::from(character);
    let after = table.partition_point(|&(_, last)| last < code);
    table.get(after).is_some_and(|&(first, _)| first <= code)
}

fn span(at: oxc_span::Span) -> crate::source::Span {
    crate::source::Span::from(at)
}

impl<'a> Visit<'a> for Checker {
    fn visit_identifier_name(&mut self, it: &IdentifierName<'a>) {
        self.name(&it.name, it.span);
    }

    fn visit_identifier_reference(&mut self, it: &IdentifierReference<'a>) {
        self.name(&it.name, it.span);
    }

    fn visit_binding_identifier(&mut self, it: &BindingIdentifier<'a>) {
        self.name(&it.name, it.span);
    }

    fn visit_label_identifier(&mut self, it: &LabelIdentifier<'a>) {
        self.name(&it.name, it.span);
    }

    fn visit_private_identifier(&mut self, it: &PrivateIdentifier<'a>) {
        self.name(&it.name, it.span);
    }

    fn visit_formal_parameters(&mut self, it: &FormalParameters<'a>) {
        if self.first.is_none() {
            let mut bound = Vec::new();
            let rest = it.rest.iter().map(|rest| &rest.rest.argument);
            for pattern in it.items.iter().map(|item| &item.pattern).chain(rest) {
                bound.extend(pattern.get_binding_identifiers());
            }
            let mut seen = std::collections::HashSet::new();
            if let Some(again) = bound.into_iter().find(|binding| !seen.insert(binding.name.as_str())) {
                let message = format!(
                    "Identifier `{}` has already been declared: Bun rejects a parameter name bound twice in \
                     sloppy code too",
                    again.name
                );
                self.first = Some(SyntaxError { span: span(again.span), message });
            }
        }
        walk::walk_formal_parameters(self, it);
    }
}
