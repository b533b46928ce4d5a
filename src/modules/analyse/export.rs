//! The default export: which form it takes and, for a plain object, what its fields hold.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};

use oxc_ast::ast::*;
use oxc_span::GetSpan;

use super::bindings::{Binding, Bindings, Values, bindings};
use super::commonjs::{CommonJs, commonjs_statement};
use crate::modules::facts::*;
use crate::source::Span;

mod fields;
mod named;
mod objects;
mod opencode;
mod wrapper;
pub use wrapper::MAX_IDENTITY_EXPORTS;

/// Identifier hops followed when resolving a binding, so that `const a = b; const b = a` ends.
const MAX_HOPS: usize = 8;

/// Objects read through (a spread's, a member read's) in one module, at most: each read may go over every property
/// of an object, and `{ ...a, ...a, … }` with `a` spreading `b` many times over would multiply them.
const MAX_OBJECT_READS: usize = 64;

pub(super) fn span(s: oxc_span::Span) -> Span {
    s.into()
}

/// Where an expression leads once parentheses, type assertions and top-level bindings are seen through.
enum Resolved<'b, 'a> {
    Expr(&'b Expression<'a>),
    Function(&'b Function<'a>),
    Class,
    Import(&'a str),
    Unknown(&'a str),
}

/// The `execute` function of an object export, for the facts the visitor gathers inside it.
pub(super) struct ExecuteInfo<'a> {
    pub property: Span,
    /// The function node (method, arrow, function expression or declaration), when there is one.
    pub function: Option<Span>,
    /// The name of its second parameter (the context), `_` for a destructuring pattern.
    pub context: Option<&'a str>,
    /// `e` of a second parameter `{ env: e }` (or `{ env }`): the context's environment itself.
    pub env_alias: Option<&'a str>,
}

/// A field of the tool object as written: a property of its literal, or a CommonJS `exports.NAME = value`.
#[derive(Clone, Copy)]
struct Written<'b, 'a> {
    /// The property, or the assignment statement.
    span: oxc_span::Span,
    /// A getter or setter: its value is computed when read.
    accessor: bool,
    value: &'b Expression<'a>,
}

impl<'b, 'a> From<&'b ObjectProperty<'a>> for Written<'b, 'a> {
    fn from(p: &'b ObjectProperty<'a>) -> Self {
        Written { span: p.span, accessor: p.kind != PropertyKind::Init, value: &p.value }
    }
}

/// The top-level bindings of a module, to read through `export default x` and `parameters: schema`.
pub(super) struct Scope<'b, 'a> {
    text: &'a str,
    bindings: Bindings<'b, 'a>,
    /// The names whose declared values (or functions) the reading went through, in order: the facts hold only
    /// if none of them changes after its declaration, which the semantic pass tells later.
    followed: RefCell<Vec<&'a str>>,
    /// How many objects the reading is inside (spreads, member reads): at most [`MAX_HOPS`].
    nesting: Cell<usize>,
    /// How many objects were read through so far: at most [`MAX_OBJECT_READS`].
    reads: Cell<usize>,
}

impl<'b, 'a> Scope<'b, 'a> {
    pub fn new(program: &'b Program<'a>) -> Self {
        // Module-level `let` and `var` values are followed too, not only `const`s: the names followed are
        // checked for later writes once the semantic pass has run (`followed`).
        Scope {
            text: program.source_text,
            bindings: bindings(&program.body, Values::Any),
            followed: RefCell::default(),
            nesting: Cell::new(0),
            reads: Cell::new(0),
        }
    }

    /// The names whose values were followed so far.
    pub fn followed(&self) -> Vec<&'a str> {
        self.followed.take()
    }

    fn follow(&self, name: &'a str) {
        let mut followed = self.followed.borrow_mut();
        if !followed.contains(&name) {
            followed.push(name);
        }
    }

    fn resolve(&self, expr: &'b Expression<'a>) -> Resolved<'b, 'a> {
        let mut expr = expr.get_inner_expression();
        let mut first = None;
        for _ in 0..MAX_HOPS {
            let id = match expr {
                Expression::Identifier(id) => id,
                // `details.function.description`: the field of a module-level object, as written there.
                Expression::StaticMemberExpression(member) => match self.member(member) {
                    Some(value) => {
                        expr = value.get_inner_expression();
                        continue;
                    }
                    None => return Resolved::Expr(expr),
                },
                _ => return Resolved::Expr(expr),
            };
            let name = id.name.as_str();
            first.get_or_insert(name);
            match self.bindings.get(name) {
                Some(Binding::Value(value)) => {
                    self.follow(name);
                    expr = value.get_inner_expression();
                }
                Some(Binding::Function(f)) => {
                    self.follow(name);
                    return Resolved::Function(f);
                }
                Some(Binding::Class) => return Resolved::Class,
                Some(Binding::Import { .. }) => return Resolved::Import(name),
                Some(Binding::Unknown) | None => return Resolved::Unknown(name),
            }
        }
        // A cycle (`const a = b; const b = a`): name where it started.
        Resolved::Unknown(first.unwrap_or_default())
    }

    /// The source of a node, shortened to fit in a message: runs of whitespace become one space, and more than
    /// 40 characters end in `…`. Borrowed when that changes nothing (most: `args`, `context`, `makeTool`).
    fn snippet(&self, s: oxc_span::Span) -> Cow<'a, str> {
        let text = self.text.get(s.start as usize..s.end as usize).unwrap_or("");
        if text.len() <= 40 && is_spaced_once(text) {
            return Cow::Borrowed(text);
        }
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        Cow::Owned(match text.char_indices().nth(40) {
            Some((cut, _)) => format!("{}…", &text[..cut]),
            None => text,
        })
    }

    /// The default export, if the module has one: ESM forms first, else the last CommonJS assignment, else the
    /// `exports` object its `exports.NAME = value` statements fill ([`super::commonjs`]).
    pub fn default_export(&self, program: &'b Program<'a>) -> Option<(DefaultExport, Option<ExecuteInfo<'a>>)> {
        let (mut commonjs, mut default_field) = (None, None);
        let (mut fields, mut es_module, mut changed) = (Vec::new(), false, None);
        for statement in &program.body {
            let (kind, info) = match statement {
                Statement::ExportDefaultDeclaration(export) => match &export.declaration {
                    ExportDefaultDeclarationKind::FunctionDeclaration(f) => {
                        (function_kind(&f.params, returns_object(f.body.as_deref())), None)
                    }
                    ExportDefaultDeclarationKind::ClassDeclaration(_) => (unanalyzable("a class"), None),
                    // An interface is erased at run time: it exports nothing.
                    ExportDefaultDeclarationKind::TSInterfaceDeclaration(_) => continue,
                    declaration => match declaration.as_expression() {
                        Some(expr) => self.classify(expr),
                        None => continue,
                    },
                },
                Statement::ExportNamedDeclaration(export) if export.export_kind.is_value() => {
                    let Some(specifier) =
                        export.specifiers.iter().find(|s| s.export_kind.is_value() && s.exported.name() == "default")
                    else {
                        continue;
                    };
                    match &specifier.local {
                        ModuleExportName::IdentifierReference(id) => self.classify_name(id),
                        _ => continue,
                    }
                }
                Statement::ExportFromDeclaration(export) if export.export_kind.is_value() => {
                    let Some(specifier) =
                        export.specifiers.iter().find(|s| s.export_kind.is_value() && s.exported.name() == "default")
                    else {
                        continue;
                    };
                    // `export { default } from './x'` is settled once `./x` is read (`modules::wrapped`).
                    let why = match specifier.local.name().as_str() {
                        "default" => reexported_default(&export.source.value),
                        name => format!("`{name}` re-exported from `{}`", export.source.value),
                    };
                    (DefaultExportKind::Unanalyzable { why: why.into() }, None)
                }
                _ => {
                    match commonjs_statement(statement) {
                        Some(CommonJs::Whole(value)) => commonjs = Some((statement.span(), value)),
                        Some(CommonJs::Default(value)) => default_field = Some((statement.span(), value)),
                        Some(CommonJs::Field(name, value)) => {
                            fields.push((name, Written { span: statement.span(), accessor: false, value }));
                        }
                        Some(CommonJs::EsModule) => es_module = true,
                        Some(CommonJs::Changed) => changed = Some(statement.span()),
                        None => {}
                    }
                    continue;
                }
            };
            return Some((DefaultExport { statement: span(statement.span()), kind }, info));
        }
        let is_tool_field = |name: &str| ["description", "parameters", "execute"].contains(&name);
        let assigned = "the exports are changed by `Object.assign` or its kin";
        if let Some((statement, expr)) = commonjs {
            // `module.exports = tool; module.exports.execute = run`: the object is not the one written.
            let (kind, info) =
                match fields.iter().find(|(name, w)| is_tool_field(name) && w.span.start > statement.start) {
                    Some((name, _)) => {
                        (unanalyzable(&format!("`{name}` is set on the exports after they are assigned")), None)
                    }
                    None if changed.is_some_and(|at| at.start > statement.start) => (unanalyzable(assigned), None),
                    None => self.classify(expr),
                };
            return Some((DefaultExport { statement: span(statement), kind }, info));
        }
        // `Object.assign(module.exports, { … })`: the exports object gets fields that are not read here.
        if let Some(at) = changed.filter(|_| !es_module) {
            return Some((DefaultExport { statement: span(at), kind: unanalyzable(assigned) }, None));
        }
        let has_tool_fields = fields.iter().any(|(name, _)| is_tool_field(name));
        // `exports.default = tool`: the default export only beside `__esModule`; without it, the exports object
        // `{ default: tool }` is, a tool only if `exports.NAME` statements give it the fields too (read below).
        if let Some((statement, expr)) = default_field.filter(|_| es_module || !has_tool_fields) {
            let (kind, info) = if es_module { self.classify(expr) } else { (DefaultExportKind::ExportsDefault, None) };
            return Some((DefaultExport { statement: span(statement), kind }, info));
        }
        // Only other names (`exports.tool = {...}`): the tool was meant as a named export, which is no default.
        if es_module || !has_tool_fields {
            return None;
        }
        let first = fields.first()?.1.span;
        let last = |field: &str| fields.iter().rev().find(|(name, _)| *name == field).map(|(_, w)| *w);
        let (object, info) = self.fields(last("description"), last("parameters"), last("execute"), &None);
        Some((DefaultExport { statement: span(first), kind: DefaultExportKind::Object(Box::new(object)) }, info))
    }

    fn classify_name(&self, id: &IdentifierReference<'a>) -> (DefaultExportKind, Option<ExecuteInfo<'a>>) {
        let followed = || self.follow(id.name.as_str());
        match self.bindings.get(id.name.as_str()) {
            Some(Binding::Value(value)) => {
                followed();
                self.classify(value)
            }
            Some(Binding::Function(f)) => {
                followed();
                (function_kind(&f.params, returns_object(f.body.as_deref())), None)
            }
            Some(Binding::Class) => (unanalyzable("a class"), None),
            Some(Binding::Import { .. }) => (unanalyzable(&format!("the imported binding `{}`", id.name)), None),
            Some(Binding::Unknown) | None => (unanalyzable(&not_constant(&id.name)), None),
        }
    }

    fn classify(&self, expr: &'b Expression<'a>) -> (DefaultExportKind, Option<ExecuteInfo<'a>>) {
        let why = match self.resolve(expr) {
            Resolved::Function(f) => return (function_kind(&f.params, returns_object(f.body.as_deref())), None),
            Resolved::Class => "a class".to_string(),
            Resolved::Import(name) => format!("the imported binding `{name}`"),
            Resolved::Unknown("undefined") => return (DefaultExportKind::Literal { text: "undefined".into() }, None),
            Resolved::Unknown(name) => not_constant(name),
            Resolved::Expr(expr) => match expr {
                _ if is_literal_value(expr) => {
                    return (DefaultExportKind::Literal { text: self.snippet(expr.span()).into() }, None);
                }
                Expression::ObjectExpression(object) => {
                    let (object, info) = self.object(object);
                    return (DefaultExportKind::Object(Box::new(object)), info);
                }
                Expression::FunctionExpression(f) => {
                    return (function_kind(&f.params, returns_object(f.body.as_deref())), None);
                }
                Expression::ArrowFunctionExpression(arrow) => {
                    let returns_object = match &arrow.body {
                        ArrowFunctionBody::FunctionBody(body) => returns_object(Some(body)),
                        body => body.as_expression().is_some_and(is_object),
                    };
                    return (function_kind(&arrow.params, returns_object), None);
                }
                Expression::CallExpression(call) if self.is_opencode_tool(&call.callee) => {
                    return (DefaultExportKind::OpencodeTool, None);
                }
                Expression::CallExpression(call) => match self.wrapped_object(call) {
                    Some((wrapper, object)) => {
                        let (object, info) = self.wrapped(wrapper, object);
                        return (DefaultExportKind::Object(Box::new(object)), info);
                    }
                    None => format!("a call to `{}(...)`", self.snippet(call.callee.span())),
                },
                Expression::NewExpression(new) => {
                    format!("an object built by `new {}(...)`", self.snippet(new.callee.span()))
                }
                Expression::ClassExpression(_) => "a class".to_string(),
                Expression::AwaitExpression(_) => "an awaited value".to_string(),
                _ if expr.is_member_expression() => format!("the value of `{}`", self.snippet(expr.span())),
                _ => "an expression computed at run time".to_string(),
            },
        };
        (DefaultExportKind::Unanalyzable { why: why.into() }, None)
    }
}

/// The name `{ env: e }` (or `{ env }`) binds the `env` property to.
pub(super) fn env_binding<'a>(pattern: &BindingPattern<'a>) -> Option<&'a str> {
    let BindingPattern::ObjectPattern(pattern) = pattern else {
        return None;
    };
    let property = pattern.properties.iter().find(|p| !p.computed && p.key.is_specific_static_name("env"))?;
    match &property.value {
        BindingPattern::BindingIdentifier(id) => Some(id.name.as_str()),
        BindingPattern::AssignmentPattern(p) => p.left.get_binding_identifier().map(|id| id.name.as_str()),
        _ => None,
    }
}

/// Whether `text` is ASCII whose only whitespace is single spaces between other characters: what
/// [`Scope::snippet`] would give back unchanged (any other character may be Unicode whitespace).
fn is_spaced_once(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.first() != Some(&b' ')
        && bytes.last() != Some(&b' ')
        && bytes.iter().all(|&b| b.is_ascii() && (b == b' ' || (!b.is_ascii_whitespace() && b != 0x0b)))
        && !text.contains("  ")
}

/// A default-exported function: the xcsh/pi factory form when it returns an object literal or takes `pi`, else a
/// plain function (a tool's body, say).
fn function_kind(params: &FormalParameters, returns_object: bool) -> DefaultExportKind {
    let takes_pi = matches!(params.items.first().map(|p| &p.pattern),
        Some(BindingPattern::BindingIdentifier(id)) if id.name == "pi");
    if returns_object || takes_pi { DefaultExportKind::Factory } else { DefaultExportKind::Function }
}

/// Does a function body hold `return { … }` among its own statements?
fn returns_object(body: Option<&FunctionBody>) -> bool {
    body.is_some_and(|body| {
        body.statements
            .iter()
            .any(|s| matches!(s, Statement::ReturnStatement(r) if r.argument.as_ref().is_some_and(is_object)))
    })
}

fn is_object(e: &Expression) -> bool {
    matches!(e.get_inner_expression(), Expression::ObjectExpression(_))
}

fn unanalyzable(why: &str) -> DefaultExportKind {
    DefaultExportKind::Unanalyzable { why: why.into() }
}

/// Why the default export `export { default } from 'source'` is not read here: the words that mark it until the
/// module `source` loads is read ([`crate::modules::wrapped`]).
pub(crate) fn reexported_default(source: &str) -> String {
    format!("re-exported from `{source}`")
}

pub(crate) fn not_constant(name: &str) -> String {
    format!("the binding `{name}`, whose value is not known statically")
}

/// A value that is not an object (a literal, an array, a template): never a tool.
fn is_literal_value(e: &Expression) -> bool {
    e.is_literal() || matches!(e, Expression::ArrayExpression(_) | Expression::TemplateLiteral(_))
}

/// A literal (or an object, array, function or class) that is not a string.
fn is_non_string_literal(e: &Expression) -> bool {
    matches!(
        e,
        Expression::NumericLiteral(_)
            | Expression::BooleanLiteral(_)
            | Expression::NullLiteral(_)
            | Expression::BigIntLiteral(_)
            | Expression::RegExpLiteral(_)
            | Expression::ObjectExpression(_)
            | Expression::ArrayExpression(_)
            | Expression::FunctionExpression(_)
            | Expression::ArrowFunctionExpression(_)
            | Expression::ClassExpression(_)
    )
}

fn template_text<'a>(t: &TemplateLiteral<'a>) -> &'a str {
    t.quasis.first().map_or("", |q| q.value.cooked.unwrap_or(q.value.raw).as_str())
}

/// The value of a string literal or of a template without expressions.
pub(super) fn string_value<'a>(e: &Expression<'a>) -> Option<&'a str> {
    match e.get_inner_expression() {
        Expression::StringLiteral(s) => Some(s.value.as_str()),
        Expression::TemplateLiteral(t) if t.expressions.is_empty() => Some(template_text(t)),
        _ => None,
    }
}
