//! Reads an xcsh custom tool module's contract from its oxc AST (never runs it): the exported factory, what it
//! returns, each returned tool literal's fields. Bindings are followed through `const` declarations at the top
//! level and at the top of the factory's body, unless something writes them or through them later; anything else
//! is reported as built at run time, never guessed.

mod factory;
mod tool;

use oxc_allocator::Allocator;
use oxc_ast::ast::*;
use oxc_parser::{ParseOptions, Parser};
use oxc_span::{GetSpan, SourceType};

use super::facts::*;
use super::uses::{self, Receivers};
use oxc_semantic::{Semantic, SemanticBuilder};

use crate::modules::analyse::bindings::{Binding, Bindings, Values, bindings};
use crate::modules::analyse::changed;
use crate::modules::analyse::commonjs::{CommonJs, commonjs_statement};
use crate::modules::analyse::export::not_constant;
use crate::source::Span;

/// Identifier hops followed, so that `const a = b; const b = a` ends.
const MAX_HOPS: usize = 8;
/// How many of an exported object's keys are kept for the help.
const MAX_KEYS: usize = 8;
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
    let export = analyser.export(program);
    let (exec_without_signal, unguarded_ui) = uses::collect(program, &analyser.receivers);
    Some(XcshFacts { export, exec_without_signal, unguarded_ui })
}

/// A name or snippet of the module cut to fit in a message (a name is as long as its author makes it).
fn shortened(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
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
        shortened(&text.split_whitespace().collect::<Vec<_>>().join(" "))
    }

    /// The default export as Bun gives it (ESM first, else the last `module.exports =`, else `exports.default =`
    /// beside `__esModule`); without one, the first named function export, which the loader does not take.
    fn export(&mut self, program: &'b Program<'a>) -> Export {
        let (mut commonjs, mut exports_default, mut es_module) = (None, None, false);
        for statement in &program.body {
            match statement {
                Statement::ExportDefaultDeclaration(export) => match &export.declaration {
                    ExportDefaultDeclarationKind::FunctionDeclaration(f) => {
                        return Export::Factory(self.factory(Func::Function(f)));
                    }
                    ExportDefaultDeclarationKind::ClassDeclaration(c) => {
                        return Export::Unanalyzable { span: span(c.span), why: "it is a class".into() };
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
                    let why = format!("it is re-exported from `{}`", export.source.value);
                    return Export::Unanalyzable { span: span(export.span), why };
                }
                // Whatever the extension: Bun runs an `.mjs` without `export` statements as CommonJS too.
                Statement::TSExportAssignment(_) | Statement::ExpressionStatement(_) => {
                    match commonjs_statement(statement) {
                        Some(CommonJs::Whole(value)) => commonjs = Some((statement.span(), value)),
                        Some(CommonJs::Default(value)) => exports_default = Some((statement.span(), value)),
                        Some(CommonJs::EsModule) => es_module = true,
                        Some(CommonJs::Field(..) | CommonJs::Changed) | None => {}
                    }
                }
                _ => {}
            }
        }
        if let Some((at, expr)) = commonjs {
            return self.classify(at, expr);
        }
        // Without `__esModule`, Bun makes the exports object the default export: `{ default: factory }`, no function.
        if let Some((at, expr)) = exports_default {
            if es_module {
                return self.classify(at, expr);
            }
            return Export::CommonJsDefault { span: span(at) };
        }
        self.named_function(program).map_or(Export::Missing, |local| Export::NamedOnly { local: shortened(&local) })
    }

    /// The local name of the first named export that is a function (`export function f`, `export const f = (pi)
    /// => …`): the loader does not take it (it reads `module.default ?? module`), so it is not analysed.
    fn named_function(&self, program: &'b Program<'a>) -> Option<String> {
        program.body.iter().find_map(|statement| match statement {
            Statement::ExportDeclaration(export) => match &export.declaration {
                Declaration::FunctionDeclaration(f) => f.id.as_ref().map(|id| id.name.to_string()),
                Declaration::VariableDeclaration(variables) => variables.declarations.iter().find_map(|d| {
                    self.function_of(d.init.as_ref()?)?;
                    Some(d.id.get_binding_identifier()?.name.to_string())
                }),
                _ => None,
            },
            Statement::ExportNamedDeclaration(export) => export.specifiers.iter().find_map(|s| match &s.local {
                ModuleExportName::IdentifierReference(id) => match self.top.get(id.name.as_str()) {
                    Some(Binding::Function(_)) => Some(id.name.to_string()),
                    Some(Binding::Value(value)) => self.function_of(value).map(|_| id.name.to_string()),
                    _ => None,
                },
                _ => None,
            }),
            _ => None,
        })
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
            Some(Binding::Import { source, .. }) => {
                Export::Unanalyzable { span: span(at), why: format!("it is `{}`, imported from `{source}`", id.name) }
            }
            _ => Export::Unanalyzable { span: span(at), why: format!("it is {}", not_constant(&id.name)) },
        }
    }

    /// The default export's value: a factory, or what it is instead.
    fn classify(&mut self, at: oxc_span::Span, expr: &'b Expression<'a>) -> Export {
        if let Some(func) = self.function_of(expr) {
            return Export::Factory(self.factory(func));
        }
        let binding = match expr.get_inner_expression() {
            Expression::Identifier(id) => Some(shortened(&id.name)),
            _ => None,
        };
        let not_function = |what: &str, beeuni: bool, keys: Vec<String>| Export::NotFunction {
            span: span(at),
            what: what.to_string(),
            beeuni,
            binding: binding.clone(),
            keys,
        };
        let why = match self.resolve(expr) {
            Resolved::Expr(Expression::ObjectExpression(object)) => {
                let mut keys: Vec<String> = object
                    .properties
                    .iter()
                    .filter_map(|p| match p {
                        ObjectPropertyKind::ObjectProperty(p) if !p.computed => p.key.static_name(),
                        _ => None,
                    })
                    .map(|key| shortened(&key))
                    .collect();
                let has = |key: &str| keys.iter().any(|k| k == key);
                let beeuni = !has("name") && ["description", "parameters", "execute"].iter().any(|k| has(k));
                // The help spells out a few of them.
                keys.truncate(MAX_KEYS);
                return not_function("an object", beeuni, keys);
            }
            Resolved::Expr(Expression::ArrayExpression(_)) => return not_function("an array", false, Vec::new()),
            Resolved::Expr(e) if e.is_literal() || matches!(e, Expression::TemplateLiteral(_)) => {
                return not_function(&format!("`{}`", self.snippet(e.span())), false, Vec::new());
            }
            Resolved::Unknown("undefined") => return not_function("`undefined`", false, Vec::new()),
            Resolved::Import { name, source } => format!("it is `{name}`, imported from `{source}`"),
            Resolved::Unknown(name) => format!("it is {}", not_constant(name)),
            Resolved::Expr(Expression::CallExpression(call)) => {
                format!("it is built at run time by `{}(...)`", self.snippet(call.callee.span()))
            }
            Resolved::Expr(Expression::ClassExpression(_)) => "it is a class".into(),
            Resolved::Expr(_) | Resolved::Function(_) => "it is computed at run time".into(),
        };
        Export::Unanalyzable { span: span(at), why }
    }
}

#[cfg(test)]
mod tests;
