//! The factory's body: what its `return` statements give back, followed through arrays, conditionals, `await`
//! and `Promise.resolve` down to the tool literals (or, when it returns nothing, whether it registers tools).

use oxc_ast::ast::*;
use oxc_span::GetSpan;

use super::{Analyser, Func, MAX_NESTING, Resolved, span};
use crate::modules::analyse::bindings::{Values, bindings};
use crate::modules::analyse::changed;
use crate::modules::analyse::export::not_constant;
use crate::xcsh::facts::*;
use crate::xcsh::uses;

impl<'b, 'a> Analyser<'b, 'a> {
    pub(super) fn factory(&mut self, func: Func<'b, 'a>) -> Factory {
        let (at, params, body, expression) = match func {
            Func::Function(f) => (f.span, &f.params, f.body.as_deref(), None),
            Func::Arrow(f) => (f.span, &f.params, f.get_function_body(), f.get_expression()),
        };
        if let Some(first) = params.items.first() {
            self.receivers.factory(span(at), &first.pattern);
        }
        let statements = body.map_or(&[][..], |b| b.statements.as_slice());
        self.local = bindings(statements, Values::Const);
        let scope = match func {
            Func::Function(f) => f.scope_id.get(),
            Func::Arrow(f) => f.scope_id.get(),
        };
        if let Some(scope) = scope {
            changed::forget_changed(&mut self.local, &self.semantic, scope);
        }
        let mut returned = Vec::new();
        match expression {
            Some(expr) => returned.push(Return::Value(expr)),
            None => returns(statements, 0, &mut returned),
        }
        let returns = if returned.iter().all(|r| matches!(r, Return::Bare(_))) {
            let registers = uses::calls_register_tool(statements, &self.receivers);
            if registers { Returns::RegistersTools } else { Returns::Nothing }
        } else {
            let mut values = Vec::new();
            for value in returned {
                match value {
                    Return::Value(expr) => self.returned(expr, 0, &mut values),
                    // Beside returns of a value, a bare one gives the loader `undefined` on its path.
                    Return::Bare(at) => {
                        values.push(Returned::NotTool { span: span(at), what: "`undefined` (a bare `return;`)".into() })
                    }
                }
            }
            Returns::Values(values)
        };
        Factory { span: span(at), returns }
    }

    fn returned(&mut self, expr: &'b Expression<'a>, depth: usize, out: &mut Vec<Returned>) {
        let unanalyzable = |at: oxc_span::Span, why: String| Returned::Unanalyzable { span: span(at), why };
        if depth > MAX_NESTING {
            out.push(unanalyzable(expr.span(), "the return value is nested too deeply to follow".into()));
            return;
        }
        match self.resolve(expr) {
            Resolved::Expr(Expression::ObjectExpression(object)) => out.push(Returned::Tool(self.tool(object))),
            Resolved::Expr(Expression::ArrayExpression(array)) => {
                for element in &array.elements {
                    match element {
                        ArrayExpressionElement::SpreadElement(s) => out.push(unanalyzable(
                            s.span,
                            format!("the returned array spreads `{}`", self.snippet(s.argument.span())),
                        )),
                        ArrayExpressionElement::Elision(_) => {}
                        element => {
                            if let Some(e) = element.as_expression() {
                                self.returned(e, depth + 1, out);
                            }
                        }
                    }
                }
            }
            Resolved::Expr(Expression::AwaitExpression(a)) => self.returned(&a.argument, depth + 1, out),
            Resolved::Expr(Expression::ConditionalExpression(c)) => {
                self.returned(&c.consequent, depth + 1, out);
                self.returned(&c.alternate, depth + 1, out);
            }
            Resolved::Expr(Expression::CallExpression(call))
                if call.callee.is_specific_member_access("Promise", "resolve") && call.arguments.len() == 1 =>
            {
                if let Some(value) = call.arguments[0].as_expression() {
                    self.returned(value, depth + 1, out);
                }
            }
            Resolved::Expr(Expression::CallExpression(call)) => out.push(unanalyzable(
                call.span,
                format!("the tool is built at run time by `{}(...)`", self.snippet(call.callee.span())),
            )),
            Resolved::Expr(e) if is_no_tool(e) => {
                out.push(Returned::NotTool { span: span(e.span()), what: format!("`{}`", self.snippet(e.span())) });
            }
            Resolved::Unknown("undefined") => {
                out.push(Returned::NotTool { span: span(expr.span()), what: "`undefined`".into() });
            }
            Resolved::Import { name, source } => {
                out.push(unanalyzable(expr.span(), format!("the tool is `{name}`, imported from `{source}`")));
            }
            Resolved::Unknown(name) => {
                out.push(unanalyzable(expr.span(), format!("the tool is {}", not_constant(name))))
            }
            Resolved::Expr(e) => {
                out.push(unanalyzable(e.span(), format!("the factory returns `{}`", self.snippet(e.span()))));
            }
            Resolved::Function(f) => out.push(unanalyzable(f.span, "the factory returns a function".into())),
        }
    }
}

/// A primitive the loader cannot use as a tool: a literal (`null`, `0`, `'x'`) or `void …`.
fn is_no_tool(e: &Expression) -> bool {
    e.is_literal()
        || matches!(e, Expression::TemplateLiteral(_))
        || matches!(e, Expression::UnaryExpression(u) if u.operator == UnaryOperator::Void)
}

/// A `return` statement of the factory: its value, or a bare `return;` (its span).
enum Return<'b, 'a> {
    Value(&'b Expression<'a>),
    Bare(oxc_span::Span),
}

/// The `return` statements among `statements` (not those of nested functions).
fn returns<'b, 'a>(statements: &'b [Statement<'a>], depth: usize, out: &mut Vec<Return<'b, 'a>>) {
    if depth > MAX_NESTING {
        return;
    }
    for statement in statements {
        returns_of(statement, depth + 1, out);
    }
}

fn returns_of<'b, 'a>(statement: &'b Statement<'a>, depth: usize, out: &mut Vec<Return<'b, 'a>>) {
    let nested = |s: &'b Statement<'a>, out: &mut Vec<Return<'b, 'a>>| returns(std::slice::from_ref(s), depth, out);
    match statement {
        Statement::ReturnStatement(r) => {
            out.push(r.argument.as_ref().map_or(Return::Bare(r.span), Return::Value));
        }
        Statement::BlockStatement(b) => returns(&b.body, depth, out),
        Statement::IfStatement(s) => {
            nested(&s.consequent, out);
            if let Some(alternate) = &s.alternate {
                nested(alternate, out);
            }
        }
        Statement::TryStatement(s) => {
            returns(&s.block.body, depth, out);
            if let Some(handler) = &s.handler {
                returns(&handler.body.body, depth, out);
            }
            if let Some(finalizer) = &s.finalizer {
                returns(&finalizer.body, depth, out);
            }
        }
        Statement::SwitchStatement(s) => {
            for case in &s.cases {
                returns(&case.consequent, depth, out);
            }
        }
        Statement::ForStatement(s) => nested(&s.body, out),
        Statement::ForInStatement(s) => nested(&s.body, out),
        Statement::ForOfStatement(s) => nested(&s.body, out),
        Statement::WhileStatement(s) => nested(&s.body, out),
        Statement::DoWhileStatement(s) => nested(&s.body, out),
        Statement::LabeledStatement(s) => nested(&s.body, out),
        _ => {}
    }
}
