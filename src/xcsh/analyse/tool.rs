//! A returned tool literal's fields: `name`, `description`, `parameters` (TypeBox, Zod or a literal) and
//! `execute`, with the receivers its functions take.

use oxc_ast::ast::*;
use oxc_span::GetSpan;

use super::{Analyser, Func, MAX_HOPS, MAX_NESTING, Resolved, span};
use crate::xcsh::facts::*;

impl<'b, 'a> Analyser<'b, 'a> {
    pub(super) fn tool(&mut self, object: &'b ObjectExpression<'a>) -> Tool {
        let mut tool = Tool {
            span: span(object.span),
            missing: Vec::new(),
            spread: None,
            name: None,
            parameters: None,
            execute: None,
        };
        let mut description = false;
        for property in &object.properties {
            let p = match property {
                ObjectPropertyKind::SpreadProperty(s) => {
                    tool.spread
                        .get_or_insert_with(|| (span(s.span), format!("...{}", self.snippet(s.argument.span()))));
                    continue;
                }
                ObjectPropertyKind::ObjectProperty(p) => p,
            };
            let Some(key) = p.key.static_name() else {
                tool.spread.get_or_insert_with(|| (span(p.key.span()), format!("[{}]", self.snippet(p.key.span()))));
                continue;
            };
            let at = span(p.span);
            match key.as_ref() {
                "name" => tool.name = Some((at, self.name(p))),
                "description" => description = true,
                "parameters" => tool.parameters = Some((at, self.parameters(p))),
                "execute" => tool.execute = Some((at, self.execute(p))),
                "onSession" => {
                    if let Some(Func::Function(f)) =
                        (p.kind == PropertyKind::Init).then(|| self.function_of(&p.value)).flatten()
                    {
                        self.receivers.context(span(f.span), f.params.items.get(1).map(|p| &p.pattern));
                    }
                }
                _ => {}
            }
        }
        if tool.spread.is_none() {
            let present = [tool.name.is_some(), description, tool.parameters.is_some(), tool.execute.is_some()];
            let fields = ["name", "description", "parameters", "execute"];
            tool.missing = fields.iter().zip(present).filter(|(_, p)| !p).map(|(f, _)| *f).collect();
        }
        tool
    }

    fn name(&self, property: &'b ObjectProperty<'a>) -> Name {
        if property.kind != PropertyKind::Init {
            return Name::Unknown;
        }
        match self.resolve(&property.value) {
            Resolved::Expr(Expression::StringLiteral(s)) => Name::Text(s.value.to_string()),
            Resolved::Expr(Expression::TemplateLiteral(t)) if t.expressions.is_empty() => Name::Text(
                t.quasis.first().map(|q| q.value.cooked.unwrap_or(q.value.raw).to_string()).unwrap_or_default(),
            ),
            Resolved::Expr(e)
                if e.is_literal() || matches!(e, Expression::ObjectExpression(_) | Expression::ArrayExpression(_)) =>
            {
                Name::NotString
            }
            _ => Name::Unknown,
        }
    }

    fn parameters(&self, property: &'b ObjectProperty<'a>) -> Parameters {
        if property.kind != PropertyKind::Init {
            return Parameters::Other;
        }
        match self.resolve(&property.value) {
            Resolved::Expr(Expression::ObjectExpression(_)) => Parameters::ObjectLiteral,
            Resolved::Expr(Expression::CallExpression(call)) if self.is_typebox(&call.callee, 0) => Parameters::TypeBox,
            Resolved::Expr(Expression::CallExpression(call)) if self.is_zod(&call.callee, 0) => Parameters::Zod,
            _ => Parameters::Other,
        }
    }

    /// A callee reached through `Type` (`pi.typebox.Type.Object`, `Type.String`) or a `typebox` import.
    fn is_typebox(&self, callee: &'b Expression<'a>, depth: usize) -> bool {
        if depth > MAX_HOPS {
            return false;
        }
        match callee.get_inner_expression() {
            Expression::StaticMemberExpression(member) => {
                member.property.name == "Type" || self.is_typebox(&member.object, depth + 1)
            }
            Expression::Identifier(id) => {
                id.name == "Type"
                    || match self.resolve(callee) {
                        Resolved::Import { source, .. } => source.contains("typebox"),
                        Resolved::Expr(e) if !matches!(e, Expression::Identifier(_)) => self.is_typebox(e, depth + 1),
                        _ => false,
                    }
            }
            _ => false,
        }
    }

    /// A callee chain (`z.object(...).describe`) rooted in a binding imported from `zod`.
    fn is_zod(&self, callee: &'b Expression<'a>, depth: usize) -> bool {
        if depth > MAX_NESTING {
            return false;
        }
        match callee.get_inner_expression() {
            Expression::StaticMemberExpression(member) => self.is_zod(&member.object, depth + 1),
            Expression::CallExpression(call) => self.is_zod(&call.callee, depth + 1),
            Expression::Identifier(_) => {
                matches!(self.resolve(callee), Resolved::Import { source, .. } if source == "zod" || source.starts_with("zod/"))
            }
            _ => false,
        }
    }

    fn execute(&mut self, property: &'b ObjectProperty<'a>) -> Execute {
        if property.kind != PropertyKind::Init {
            return Execute::Other;
        }
        let (at, params) = match self.function_of(&property.value) {
            Some(Func::Function(f)) => (f.span, &f.params),
            Some(Func::Arrow(f)) => (f.span, &f.params),
            None => {
                return match self.resolve(&property.value) {
                    Resolved::Expr(e)
                        if e.is_literal()
                            || matches!(
                                e,
                                Expression::ObjectExpression(_)
                                    | Expression::ArrayExpression(_)
                                    | Expression::TemplateLiteral(_)
                            ) =>
                    {
                        Execute::NotFunction
                    }
                    Resolved::Unknown("undefined") => Execute::NotFunction,
                    _ => Execute::Other,
                };
            }
        };
        self.receivers.execute(span(at), params.items.get(3).map(|p| &p.pattern));
        let mut written: Vec<String> = params.items.iter().map(|p| self.snippet(p.pattern.span())).collect();
        if let Some(rest) = &params.rest {
            written.push(format!("...{}", self.snippet(rest.rest.argument.span())));
        }
        let first_destructured = params
            .items
            .first()
            .is_some_and(|p| matches!(p.pattern, BindingPattern::ObjectPattern(_) | BindingPattern::ArrayPattern(_)));
        Execute::Function { params: written, first_destructured }
    }
}
