//! Whether a top-level binding the default export was read through changes after its declaration: the
//! platform reads the tool object as it is once the module has run, so a value reassigned (`tool = {...}`),
//! written through (`tool.execute = ...`, `delete tool.x`, `tool.n++`) or passed to `Object.assign` and its kin
//! is not the one written at its declaration, and checking that one would report what does not happen.
//! oxc's semantic pass already tells which references write (`MemberWriteTarget` for `x.y = ...`), so its scoping
//! answers this without another walk.

use oxc_ast::ast::{CallExpression, Expression};
use oxc_semantic::Semantic;

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
/// semantic model keeps no nodes (building them costs), so those are matched by name, which may take a
/// shadowing local for the top-level binding: the safe way to be wrong (the export is then not checked).
pub(super) fn first_changed<'n>(
    semantic: &Semantic,
    names: &[&'n str],
    passed_to_change: &[String],
) -> Option<&'n str> {
    let scoping = semantic.scoping();
    names.iter().copied().find(|&name| {
        passed_to_change.iter().any(|passed| passed == name)
            || scoping.get_root_binding(name.into()).is_some_and(|symbol| {
                scoping
                    .get_resolved_references(symbol)
                    .any(|reference| reference.flags().is_write() || reference.flags().is_member_write_target())
            })
    })
}

/// The identifier `call` changes: its first argument, when it is a call like `Object.assign(x, ...)`.
pub(super) fn changed_argument<'c>(call: &'c CallExpression) -> Option<&'c str> {
    let Expression::StaticMemberExpression(callee) = call.callee.get_inner_expression() else { return None };
    let Expression::Identifier(object) = callee.object.get_inner_expression() else { return None };
    let changes =
        CHANGES_FIRST_ARGUMENT.iter().any(|&(owner, method)| object.name == owner && callee.property.name == method);
    match call.arguments.first()?.as_expression()?.get_inner_expression() {
        Expression::Identifier(id) if changes => Some(id.name.as_str()),
        _ => None,
    }
}
