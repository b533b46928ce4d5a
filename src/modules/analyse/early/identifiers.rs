//! Identifiers Bun rejects where oxc does not. oxc reads identifiers by a newer Unicode than Bun's transpiler
//! (Unicode 15.1 in Bun 1.4.5, measured: `bun_identifiers`), so a letter assigned later (U+2B81E, say) parses
//! here and fails at load. And Bun's parser rejects a parameter name bound twice in sloppy code too, where
//! JavaScript allows it (oxc reports it only in strict code).

use oxc_ast::ast::{
    BindingIdentifier, BindingPattern, FormalParameters, IdentifierName, IdentifierReference, LabelIdentifier,
    PrivateIdentifier, Program,
};
use oxc_ast_visit::{Visit, walk};
use rustc_hash::FxHashSet;

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
    // In strict code oxc has reported a parameter bound twice already.
    let sloppy = !program.source_type.is_module();
    let mut checker = Checker { unicode, sloppy, first: None, parameters: FxHashSet::default() };
    checker.visit_program(program);
    checker.first
}

struct Checker<'a> {
    unicode: bool,
    sloppy: bool,
    first: Option<SyntaxError>,
    /// The names one parameter list binds, kept between lists so that each function does not allocate a set.
    parameters: FxHashSet<&'a str>,
}

impl<'a> Checker<'a> {
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

/// The first name `pattern` binds that is in `seen` already, adding the others.
fn bound_again<'b, 'a>(
    pattern: &'b BindingPattern<'a>,
    seen: &mut FxHashSet<&'a str>,
) -> Option<&'b BindingIdentifier<'a>> {
    match pattern {
        BindingPattern::BindingIdentifier(id) => (!seen.insert(id.name.as_str())).then_some(&**id),
        BindingPattern::AssignmentPattern(assign) => bound_again(&assign.left, seen),
        BindingPattern::ObjectPattern(object) => {
            let rest = object.rest.iter().map(|rest| &rest.argument);
            object.properties.iter().map(|p| &p.value).chain(rest).find_map(|p| bound_again(p, seen))
        }
        BindingPattern::ArrayPattern(array) => {
            let rest = array.rest.iter().map(|rest| &rest.argument);
            array.elements.iter().flatten().chain(rest).find_map(|p| bound_again(p, seen))
        }
    }
}

impl<'a> Visit<'a> for Checker<'a> {
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
        if self.sloppy && self.first.is_none() {
            self.parameters.clear();
            let rest = it.rest.iter().map(|rest| &rest.rest.argument);
            let seen = &mut self.parameters;
            let again = it.items.iter().map(|item| &item.pattern).chain(rest).find_map(|p| bound_again(p, seen));
            if let Some(again) = again {
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
