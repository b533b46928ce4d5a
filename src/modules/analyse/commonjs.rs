//! CommonJS exports as Bun loads them: `module.exports = x` (also inside a chain such as
//! `exports = module.exports = x`) is the default export; without one, the `exports` object itself is, with the
//! fields that `exports.NAME = value` statements give it (unless `__esModule` marks it as compiled from an ES
//! module, whose default is `exports.default` alone). So `exports.default = x` without `__esModule` makes the
//! default export `{ default: x }`, not `x`.

use oxc_ast::ast::*;

/// What one top-level statement does to the CommonJS exports.
pub(crate) enum CommonJs<'b, 'a> {
    /// `module.exports = value`, `export = value`.
    Whole(&'b Expression<'a>),
    /// `exports.default = value` or `module.exports.default = value`: the default export only beside `__esModule`.
    Default(&'b Expression<'a>),
    /// `exports.NAME = value` or `module.exports.NAME = value`.
    Field(&'a str, &'b Expression<'a>),
    /// `exports.__esModule = …` or `Object.defineProperty(exports, '__esModule', …)`.
    EsModule,
    /// `Object.assign(module.exports, {...})`, `Object.defineProperty(exports, 'execute', …)` and their kin: the
    /// exports get fields that are not read.
    Changed,
}

/// What `statement` (at the top level of a module) does to the CommonJS exports, if anything.
pub(crate) fn commonjs_statement<'b, 'a>(statement: &'b Statement<'a>) -> Option<CommonJs<'b, 'a>> {
    let expression = match statement {
        Statement::TSExportAssignment(export) => return Some(CommonJs::Whole(&export.expression)),
        Statement::ExpressionStatement(statement) => statement.expression.without_parentheses(),
        _ => return None,
    };
    match expression {
        Expression::AssignmentExpression(assign) if assign.operator == AssignmentOperator::Assign => assignment(assign),
        Expression::CallExpression(call) if defines_es_module(call) => Some(CommonJs::EsModule),
        Expression::CallExpression(call) if changes_exports(call) => Some(CommonJs::Changed),
        _ => None,
    }
}

/// `a = b = value`: the export any target of the chain makes, with the value at its end.
fn assignment<'b, 'a>(mut assign: &'b AssignmentExpression<'a>) -> Option<CommonJs<'b, 'a>> {
    let mut found = None;
    loop {
        if found.is_none() {
            found = target(&assign.left);
        }
        match assign.right.without_parentheses() {
            Expression::AssignmentExpression(inner) if inner.operator == AssignmentOperator::Assign => assign = inner,
            _ => break,
        }
    }
    match found? {
        Target::Whole => Some(CommonJs::Whole(&assign.right)),
        Target::Default => Some(CommonJs::Default(&assign.right)),
        Target::Field("__esModule") => Some(CommonJs::EsModule),
        Target::Field(name) => Some(CommonJs::Field(name, &assign.right)),
    }
}

/// What an assignment to a CommonJS export sets.
enum Target<'a> {
    /// `module.exports`
    Whole,
    /// `exports.default`, `module.exports.default`
    Default,
    /// `exports.NAME`, `module.exports.NAME`
    Field(&'a str),
}

fn target<'a>(target: &AssignmentTarget<'a>) -> Option<Target<'a>> {
    if !is_commonjs_export(target) {
        return exported_field(target).map(Target::Field);
    }
    let default = target.as_member_expression().and_then(|m| m.static_property_name()) == Some("default");
    Some(if default { Target::Default } else { Target::Whole })
}

/// `module.exports`, `exports.default` or `module.exports.default`.
pub(super) fn is_commonjs_export(target: &AssignmentTarget) -> bool {
    let Some(member) = target.as_member_expression() else {
        return false;
    };
    let object = member.object().get_inner_expression();
    match member.static_property_name() {
        Some("exports") => object.is_specific_id("module"),
        Some("default") => is_exports_object(object),
        _ => false,
    }
}

/// `NAME` of `exports.NAME` or `module.exports.NAME` (not `default`, which is the whole export).
pub(crate) fn exported_field<'a>(target: &AssignmentTarget<'a>) -> Option<&'a str> {
    let member = target.as_member_expression()?;
    let name = member.static_property_name()?;
    (is_exports_object(member.object()) && name != "default").then_some(name)
}

/// `Object.defineProperty(exports, '__esModule', …)`, as TypeScript and Babel write it.
fn defines_es_module(call: &CallExpression) -> bool {
    let callee = call.callee.get_inner_expression();
    let [target, key, ..] = call.arguments.as_slice() else { return false };
    callee.is_specific_member_access("Object", "defineProperty")
        && is_exports(target)
        && matches!(key, Argument::StringLiteral(s) if s.value == "__esModule")
}

/// `Object.assign(exports, …)` and the other calls that change their first argument, on the exports.
fn changes_exports(call: &CallExpression) -> bool {
    super::changed::changed_target(call).is_some_and(is_exports_object)
}

/// `exports` or `module.exports`.
fn is_exports(argument: &Argument) -> bool {
    argument.as_expression().is_some_and(is_exports_object)
}

/// `exports` or `module.exports`, in parentheses or type assertions or not.
pub(crate) fn is_exports_object(expression: &Expression) -> bool {
    let expression = expression.get_inner_expression();
    expression.is_specific_id("exports") || expression.is_specific_member_access("module", "exports")
}
