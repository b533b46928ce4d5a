//! Whether a top-level binding the default export was read through changes after its declaration: the
//! platform reads the tool object as it is once the module has run, so a value reassigned (`tool = {...}`),
//! written through (`tool.execute = ...`, `delete tool.x`, `tool.n++`) or passed to `Object.assign` and its kin
//! is not the one written at its declaration, and checking that one would report what does not happen.
//! oxc's semantic pass already tells which references write (`MemberWriteTarget` for `x.y = ...`), so its scoping
//! answers this without another walk.

use oxc_ast::AstKind;
use oxc_ast::ast::{CallExpression, Expression};
use oxc_semantic::{ScopeId, Semantic, SymbolId};
use oxc_span::GetSpan;

use super::bindings::{Binding, Bindings};

/// The calls that change the object given as their first argument.
const CHANGES_FIRST_ARGUMENT: &[(&str, &str)] = &[
    ("Object", "assign"),
    ("Object", "defineProperty"),
    ("Object", "defineProperties"),
    ("Object", "setPrototypeOf"),
    ("Reflect", "set"),
    ("Reflect", "defineProperty"),
    ("Reflect", "deleteProperty"),
    ("Reflect", "setPrototypeOf"),
];

/// The first of `names` (top-level bindings) that changes after its declaration. `passed_to_change` are the
/// names given first to a call that changes its argument ([`changed_argument`]), gathered by the visitor: the
/// semantic model of a Beeuni module keeps no nodes (building them costs), so those are matched by name, which
/// may take a shadowing local for the top-level binding: the safe way to be wrong (the export is then not
/// checked).
pub(crate) fn first_changed<'n>(semantic: &Semantic, names: &[&'n str], passed_to_change: &[&str]) -> Option<&'n str> {
    let scoping = semantic.scoping();
    names.iter().copied().find(|&name| {
        passed_to_change.contains(&name)
            || scoping.get_root_binding(name.into()).is_some_and(|symbol| changes(semantic, symbol))
    })
}

/// Turns the values of `bindings` (declared in `scope`) that change after their declaration into unknowns.
pub(crate) fn forget_changed(bindings: &mut Bindings, semantic: &Semantic, scope: ScopeId) {
    for (name, binding) in bindings.iter_mut() {
        if matches!(binding, Binding::Value(_) | Binding::Function(_))
            && semantic.scoping().find_binding(scope, (*name).into()).is_some_and(|symbol| changes(semantic, symbol))
        {
            *binding = Binding::Unknown;
        }
    }
}

/// Whether a reference to `symbol` writes it or through it: assigned, written through, or (when the model
/// holds its nodes) given first to `Object.assign` and its kin.
fn changes(semantic: &Semantic, symbol: SymbolId) -> bool {
    let nodes = semantic.nodes();
    semantic.scoping().get_resolved_references(symbol).any(|reference| {
        let flags = reference.flags();
        flags.is_write()
            || flags.is_member_write_target()
            || (!nodes.is_empty() && {
                let at = nodes.get_node(reference.node_id()).span();
                matches!(nodes.parent_kind(reference.node_id()), AstKind::CallExpression(call)
                    if changed_argument(call).is_some() && call.arguments.first().is_some_and(|a| a.span() == at))
            })
    })
}

/// The identifier `call` changes: its first argument, when it is a call like `Object.assign(x, ...)`.
pub(super) fn changed_argument<'a>(call: &CallExpression<'a>) -> Option<&'a str> {
    match changed_target(call)?.get_inner_expression() {
        Expression::Identifier(id) => Some(id.name.as_str()),
        _ => None,
    }
}

/// What `call` changes: its first argument, when it is a call like `Object.assign(x, ...)`.
pub(super) fn changed_target<'b, 'a>(call: &'b CallExpression<'a>) -> Option<&'b Expression<'a>> {
    let Expression::StaticMemberExpression(callee) = call.callee.get_inner_expression() else { return None };
    let Expression::Identifier(object) = callee.object.get_inner_expression() else { return None };
    CHANGES_FIRST_ARGUMENT
        .iter()
        .any(|&(owner, method)| object.name == owner && callee.property.name == method)
        .then(|| call.arguments.first()?.as_expression())
        .flatten()
}
