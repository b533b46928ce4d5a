//! Reads an xcsh custom tool module's contract from its oxc AST (never runs it): the exported factory, what it
//! returns, each returned tool literal's fields. Bindings are followed through `const` declarations at the top
//! level and at the top of the factory's body, unless something writes them or through them later; anything else
//! is reported as built at run time, never guessed.

use oxc_allocator::Allocator;
use oxc_ast::ast::*;
use oxc_parser::{ParseOptions, Parser};
use oxc_span::{GetSpan, SourceType};

use super::facts::*;
use super::uses::{self, Receivers};
use oxc_semantic::{Semantic, SemanticBuilder};

use crate::modules::analyse::bindings::{Binding, Bindings, Values, bindings};
use crate::modules::analyse::changed;
use crate::modules::analyse::export::{is_commonjs_export, not_constant};
use crate::source::Span;

/// Identifier hops followed, so that `const a = b; const b = a` ends.
const MAX_HOPS: usize = 8;
/// How deep returned arrays, conditionals and statements are followed.
const MAX_NESTING: usize = 64;

fn span(s: oxc_span::Span) -> Span {
    Span::new(s.start as usize, s.end as usize)
}

/// Parses `text` as the xcsh tool module at `path`. `None` when it does not parse (the loading rules say so).
pub fn analyse(path: &str, text: &str) -> Option<XcshFacts> {
    let allocator = Allocator::default();
    let source_type = SourceType::from_path(path).unwrap_or_else(|_| SourceType::ts());
    let options = ParseOptions { allow_return_outside_function: !source_type.is_module(), ..ParseOptions::default() };
    let parsed = Parser::new(&allocator, text, source_type).with_options(options).parse();
    if parsed.panicked || parsed.diagnostics.errors().next().is_some() {
        return None;
    }
    let program = &parsed.program;
    // The modules stage took this module whole (within the depth limits), so the semantic pass may recurse. Its
    // nodes are kept to see `Object.assign(tool, ...)`: xcsh modules are few.
    let semantic = SemanticBuilder::new().with_build_nodes(true).build(program).semantic;
    let mut top = bindings(&program.body, Values::Const);
    changed::forget_changed(&mut top, &semantic, semantic.scoping().root_scope_id());
    let mut analyser = Analyser { text, semantic, top, local: Bindings::default(), receivers: Receivers::default() };
    let export = analyser.export(program, !(path.ends_with(".mjs") || path.ends_with(".mts")));
    let (exec_without_signal, unguarded_ui) = uses::collect(program, &analyser.receivers);
    Some(XcshFacts { export, exec_without_signal, unguarded_ui })
}

/// Where an expression leads once parentheses, type assertions and `const` bindings are seen through.
enum Resolved<'b, 'a> {
    Expr(&'b Expression<'a>),
    Function(&'b Function<'a>),
    Import { name: &'a str, source: &'a str },
    Unknown(&'a str),
}

/// A factory: a function declaration or expression, or an arrow function.
#[derive(Clone, Copy)]
enum Func<'b, 'a> {
    Function(&'b Function<'a>),
    Arrow(&'b ArrowFunctionExpression<'a>),
}

struct Analyser<'b, 'a> {
    text: &'a str,
    /// Which bindings are written after their declaration: those are not followed.
    semantic: Semantic<'a>,
    top: Bindings<'b, 'a>,
    /// The `const`s at the top of the factory's body.
    local: Bindings<'b, 'a>,
    receivers: Receivers,
}

impl<'b, 'a> Analyser<'b, 'a> {
    fn resolve(&self, expr: &'b Expression<'a>) -> Resolved<'b, 'a> {
        let mut expr = expr.get_inner_expression();
        let mut first = None;
        for _ in 0..MAX_HOPS {
            let Expression::Identifier(id) = expr else {
                return Resolved::Expr(expr);
            };
            let name = id.name.as_str();
            first.get_or_insert(name);
            match self.local.get(name).or_else(|| self.top.get(name)) {
                Some(Binding::Value(value)) => expr = value.get_inner_expression(),
                Some(Binding::Function(f)) => return Resolved::Function(f),
                Some(Binding::Import { source, .. }) => return Resolved::Import { name, source },
                Some(Binding::Class | Binding::Unknown) | None => return Resolved::Unknown(name),
            }
        }
        Resolved::Unknown(first.unwrap_or_default())
    }

    /// The source of a node, on one line and shortened to fit in a message.
    fn snippet(&self, s: oxc_span::Span) -> String {
        let text = self.text.get(s.start as usize..s.end as usize).unwrap_or("");
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        match text.char_indices().nth(40) {
            Some((cut, _)) => format!("{}…", &text[..cut]),
            None => text,
        }
    }

    /// The default export (ESM first, else the last CommonJS assignment), else the first named function export.
    fn export(&mut self, program: &'b Program<'a>, allow_commonjs: bool) -> Export {
        let mut commonjs = None;
        for statement in &program.body {
            match statement {
                Statement::ExportDefaultDeclaration(export) => match &export.declaration {
                    ExportDefaultDeclarationKind::FunctionDeclaration(f) => {
                        return Export::Factory(self.factory(Func::Function(f)));
                    }
                    ExportDefaultDeclarationKind::ClassDeclaration(c) => {
                        return Export::Unanalyzable {
                            span: span(c.span),
                            why: "the default export is a class".into(),
                        };
                    }
                    ExportDefaultDeclarationKind::TSInterfaceDeclaration(_) => {}
                    declaration => {
                        if let Some(expr) = declaration.as_expression() {
                            return self.classify(export.span, expr);
                        }
                    }
                },
                Statement::ExportNamedDeclaration(export) if export.export_kind.is_value() => {
                    let default =
                        export.specifiers.iter().find(|s| s.export_kind.is_value() && s.exported.name() == "default");
                    if let Some(ModuleExportName::IdentifierReference(id)) = default.map(|s| &s.local) {
                        return self.classify_name(export.span, id);
                    }
                }
                Statement::ExportFromDeclaration(export)
                    if export.export_kind.is_value()
                        && export
                            .specifiers
                            .iter()
                            .any(|s| s.export_kind.is_value() && s.exported.name() == "default") =>
                {
                    let why = format!("the factory is re-exported from `{}`", export.source.value);
                    return Export::Unanalyzable { span: span(export.span), why };
                }
                Statement::TSExportAssignment(export) if allow_commonjs => {
                    commonjs = Some((export.span, &export.expression));
                }
                Statement::ExpressionStatement(statement) if allow_commonjs => {
                    if let Expression::AssignmentExpression(assign) = statement.expression.without_parentheses()
                        && assign.operator == AssignmentOperator::Assign
                        && is_commonjs_export(&assign.left)
                    {
                        commonjs = Some((statement.span, &assign.right));
                    }
                }
                _ => {}
            }
        }
        if let Some((at, expr)) = commonjs {
            return self.classify(at, expr);
        }
        self.named_factory(program).map_or(Export::Missing, Export::Factory)
    }

    /// The first named export that is a function (`export function f`, `export const f = (pi) => …`).
    fn named_factory(&mut self, program: &'b Program<'a>) -> Option<Factory> {
        for statement in &program.body {
            let func = match statement {
                Statement::ExportDeclaration(export) => match &export.declaration {
                    Declaration::FunctionDeclaration(f) => Some(Func::Function(f)),
                    Declaration::VariableDeclaration(variables) => variables
                        .declarations
                        .iter()
                        .filter_map(|d| d.init.as_ref())
                        .find_map(|init| self.function_of(init)),
                    _ => None,
                },
                Statement::ExportNamedDeclaration(export) => export.specifiers.iter().find_map(|s| match &s.local {
                    ModuleExportName::IdentifierReference(id) => match self.top.get(id.name.as_str()) {
                        Some(Binding::Function(f)) => Some(Func::Function(f)),
                        Some(Binding::Value(value)) => self.function_of(value),
                        _ => None,
                    },
                    _ => None,
                }),
                _ => None,
            };
            if let Some(func) = func {
                return Some(self.factory(func));
            }
        }
        None
    }

    fn function_of(&self, expr: &'b Expression<'a>) -> Option<Func<'b, 'a>> {
        match self.resolve(expr) {
            Resolved::Function(f) => Some(Func::Function(f)),
            Resolved::Expr(Expression::FunctionExpression(f)) => Some(Func::Function(f)),
            Resolved::Expr(Expression::ArrowFunctionExpression(f)) => Some(Func::Arrow(f)),
            _ => None,
        }
    }

    fn classify_name(&mut self, at: oxc_span::Span, id: &'b IdentifierReference<'a>) -> Export {
        match self.top.get(id.name.as_str()) {
            Some(Binding::Function(f)) => Export::Factory(self.factory(Func::Function(f))),
            Some(Binding::Value(value)) => self.classify(at, value),
            Some(Binding::Import { source, .. }) => Export::Unanalyzable {
                span: span(at),
                why: format!("the factory is `{}`, imported from `{source}`", id.name),
            },
            _ => Export::Unanalyzable { span: span(at), why: not_constant(&id.name) },
        }
    }

    /// The default export's value: a factory, or what it is instead.
    fn classify(&mut self, at: oxc_span::Span, expr: &'b Expression<'a>) -> Export {
        if let Some(func) = self.function_of(expr) {
            return Export::Factory(self.factory(func));
        }
        let not_function = |what: String, beeuni: bool| Export::NotFunction { span: span(at), what, beeuni };
        let why = match self.resolve(expr) {
            Resolved::Expr(Expression::ObjectExpression(object)) => {
                let has = |key: &str| {
                    object.properties.iter().any(
                        |p| matches!(p, ObjectPropertyKind::ObjectProperty(p) if p.key.is_specific_static_name(key)),
                    )
                };
                let beeuni = !has("name") && ["description", "parameters", "execute"].iter().any(|k| has(k));
                return not_function("an object".into(), beeuni);
            }
            Resolved::Expr(Expression::ArrayExpression(_)) => return not_function("an array".into(), false),
            Resolved::Expr(e) if e.is_literal() || matches!(e, Expression::TemplateLiteral(_)) => {
                return not_function(format!("`{}`", self.snippet(e.span())), false);
            }
            Resolved::Unknown("undefined") => return not_function("`undefined`".into(), false),
            Resolved::Import { name, source } => format!("the factory is `{name}`, imported from `{source}`"),
            Resolved::Unknown(name) => not_constant(name),
            Resolved::Expr(Expression::CallExpression(call)) => {
                format!("the factory is built at run time by `{}(...)`", self.snippet(call.callee.span()))
            }
            Resolved::Expr(Expression::ClassExpression(_)) => "the default export is a class".into(),
            Resolved::Expr(_) | Resolved::Function(_) => "the default export is computed at run time".into(),
        };
        Export::Unanalyzable { span: span(at), why }
    }

    fn factory(&mut self, func: Func<'b, 'a>) -> Factory {
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
            Some(expr) => returned.push(expr),
            None => returns(statements, 0, &mut returned),
        }
        let returns = if returned.is_empty() {
            let registers = uses::calls_register_tool(statements, &self.receivers);
            if registers { Returns::RegistersTools } else { Returns::Nothing }
        } else {
            let mut values = Vec::new();
            for expr in returned {
                self.returned(expr, 0, &mut values);
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

    fn tool(&mut self, object: &'b ObjectExpression<'a>) -> Tool {
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

/// The values of the `return` statements among `statements` (not those of nested functions).
fn returns<'b, 'a>(statements: &'b [Statement<'a>], depth: usize, out: &mut Vec<&'b Expression<'a>>) {
    if depth > MAX_NESTING {
        return;
    }
    for statement in statements {
        returns_of(statement, depth + 1, out);
    }
}

fn returns_of<'b, 'a>(statement: &'b Statement<'a>, depth: usize, out: &mut Vec<&'b Expression<'a>>) {
    let nested = |s: &'b Statement<'a>, out: &mut Vec<&'b Expression<'a>>| returns(std::slice::from_ref(s), depth, out);
    match statement {
        Statement::ReturnStatement(r) => out.extend(r.argument.as_ref()),
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

#[cfg(test)]
mod tests;
