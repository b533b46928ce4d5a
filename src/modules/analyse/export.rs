//! The default export: which form it takes and, for a plain object, what its fields hold.

use std::cell::RefCell;

use oxc_ast::ast::*;
use oxc_span::GetSpan;

use super::bindings::{Binding, Bindings, Values, bindings};
use super::commonjs::{CommonJs, commonjs_statement};
use crate::modules::facts::*;
use crate::source::Span;

/// Identifier hops followed when resolving a binding, so that `const a = b; const b = a` ends.
const MAX_HOPS: usize = 8;

pub(super) fn span(s: oxc_span::Span) -> Span {
    Span::new(s.start as usize, s.end as usize)
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
pub(super) struct ExecuteInfo {
    pub property: Span,
    /// The function node (method, arrow, function expression or declaration), when there is one.
    pub function: Option<Span>,
    pub params: Vec<String>,
    /// `e` of a second parameter `{ env: e }` (or `{ env }`): the context's environment itself.
    pub env_alias: Option<String>,
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
}

impl<'b, 'a> Scope<'b, 'a> {
    pub fn new(program: &'b Program<'a>) -> Self {
        // Module-level `let` and `var` values are followed too, not only `const`s: the names followed are
        // checked for later writes once the semantic pass has run (`followed`).
        Scope {
            text: program.source_text,
            bindings: bindings(&program.body, Values::Any),
            followed: RefCell::default(),
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
            let Expression::Identifier(id) = expr else {
                return Resolved::Expr(expr);
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

    /// The source of a node, shortened to fit in a message.
    fn snippet(&self, s: oxc_span::Span) -> String {
        let text = self.text.get(s.start as usize..s.end as usize).unwrap_or("");
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        match text.char_indices().nth(40) {
            Some((cut, _)) => format!("{}…", &text[..cut]),
            None => text,
        }
    }

    /// The default export, if the module has one: ESM forms first, else the last CommonJS assignment, else the
    /// `exports` object its `exports.NAME = value` statements fill ([`super::commonjs`]).
    /// `allow_commonjs`: whether CommonJS counts (not in `.mjs`/`.mts`, which are ES modules only).
    pub fn default_export(
        &self,
        program: &'b Program<'a>,
        allow_commonjs: bool,
    ) -> Option<(DefaultExport, Option<ExecuteInfo>)> {
        let mut commonjs = None;
        let (mut fields, mut es_module, mut changed) = (Vec::new(), false, None);
        for statement in &program.body {
            let (kind, info) = match statement {
                Statement::ExportDefaultDeclaration(export) => match &export.declaration {
                    ExportDefaultDeclarationKind::FunctionDeclaration(_) => (DefaultExportKind::Factory, None),
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
                    if !export.specifiers.iter().any(|s| s.export_kind.is_value() && s.exported.name() == "default") {
                        continue;
                    }
                    let why = format!("re-exported from `{}`", export.source.value);
                    (DefaultExportKind::Unanalyzable { why }, None)
                }
                _ => {
                    match commonjs_statement(statement).filter(|_| allow_commonjs) {
                        Some(CommonJs::Whole(value)) => commonjs = Some((statement.span(), value)),
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
        // Only other names (`exports.tool = {...}`): the tool was meant as a named export, which is no default.
        if es_module || !fields.iter().any(|(name, _)| is_tool_field(name)) {
            return None;
        }
        let first = fields.first()?.1.span;
        let last = |field: &str| fields.iter().rev().find(|(name, _)| *name == field).map(|(_, w)| *w);
        let (object, info) = self.fields(last("description"), last("parameters"), last("execute"), &None);
        Some((DefaultExport { statement: span(first), kind: DefaultExportKind::Object(Box::new(object)) }, info))
    }

    fn classify_name(&self, id: &IdentifierReference<'a>) -> (DefaultExportKind, Option<ExecuteInfo>) {
        let followed = || self.follow(id.name.as_str());
        match self.bindings.get(id.name.as_str()) {
            Some(Binding::Value(value)) => {
                followed();
                self.classify(value)
            }
            Some(Binding::Function(_)) => {
                followed();
                (DefaultExportKind::Factory, None)
            }
            Some(Binding::Class) => (unanalyzable("a class"), None),
            Some(Binding::Import { .. }) => (unanalyzable(&format!("the imported binding `{}`", id.name)), None),
            Some(Binding::Unknown) | None => (unanalyzable(&not_constant(&id.name)), None),
        }
    }

    fn classify(&self, expr: &'b Expression<'a>) -> (DefaultExportKind, Option<ExecuteInfo>) {
        let why = match self.resolve(expr) {
            Resolved::Function(_) => return (DefaultExportKind::Factory, None),
            Resolved::Class => "a class".to_string(),
            Resolved::Import(name) => format!("the imported binding `{name}`"),
            Resolved::Unknown("undefined") => return (DefaultExportKind::Literal { text: "undefined".into() }, None),
            Resolved::Unknown(name) => not_constant(name),
            Resolved::Expr(expr) => match expr {
                _ if is_literal_value(expr) => {
                    return (DefaultExportKind::Literal { text: self.snippet(expr.span()) }, None);
                }
                Expression::ObjectExpression(object) => {
                    let (object, info) = self.object(object);
                    return (DefaultExportKind::Object(Box::new(object)), info);
                }
                Expression::ArrowFunctionExpression(_) | Expression::FunctionExpression(_) => {
                    return (DefaultExportKind::Factory, None);
                }
                Expression::CallExpression(call) if self.is_opencode_tool(&call.callee) => {
                    return (DefaultExportKind::OpencodeTool, None);
                }
                Expression::CallExpression(call) => format!("a call to `{}(...)`", self.snippet(call.callee.span())),
                Expression::NewExpression(new) => {
                    format!("an object built by `new {}(...)`", self.snippet(new.callee.span()))
                }
                Expression::ClassExpression(_) => "a class".to_string(),
                Expression::AwaitExpression(_) => "an awaited value".to_string(),
                _ if expr.is_member_expression() => format!("the value of `{}`", self.snippet(expr.span())),
                _ => "an expression computed at run time".to_string(),
            },
        };
        (DefaultExportKind::Unanalyzable { why }, None)
    }

    /// `tool(...)` or `tool.define(...)` where `tool` is `@opencode-ai/plugin`'s (under any local name, or as
    /// `oc.tool` of a namespace import). A project's own helper called `tool` is not the opencode form.
    fn is_opencode_tool(&self, callee: &Expression<'a>) -> bool {
        let callee = match callee.get_inner_expression() {
            Expression::StaticMemberExpression(member) if member.property.name == "define" => &member.object,
            callee => callee,
        };
        let from_plugin = |name: &str, want: &str| {
            matches!(self.bindings.get(name),
                Some(Binding::Import { source, imported }) if is_opencode_plugin(source) && *imported == want)
        };
        match callee.get_inner_expression() {
            Expression::Identifier(id) => from_plugin(&id.name, "tool"),
            Expression::StaticMemberExpression(member) if member.property.name == "tool" => {
                matches!(member.object.get_inner_expression(), Expression::Identifier(ns) if from_plugin(&ns.name, "*"))
            }
            _ => false,
        }
    }

    /// Named exports that are opencode tools (`export const search = tool({...})`), by exported name.
    pub fn opencode_exports(&self, program: &'b Program<'a>) -> Vec<String> {
        let mut names = Vec::new();
        for statement in &program.body {
            let Statement::ExportDeclaration(export) = statement else { continue };
            let Declaration::VariableDeclaration(variables) = &export.declaration else { continue };
            for declarator in &variables.declarations {
                if let (BindingPattern::BindingIdentifier(id), Some(Expression::CallExpression(call))) =
                    (&declarator.id, declarator.init.as_ref().map(Expression::get_inner_expression))
                    && self.is_opencode_tool(&call.callee)
                {
                    names.push(id.name.to_string());
                }
            }
        }
        names
    }

    /// `z.object({...})` and the like: a call whose callee chain starts at a binding imported from `zod`,
    /// unless it is `z.toJSONSchema(...)`, which builds JSON Schema.
    fn zod_schema(&self, call: &CallExpression<'a>) -> Option<String> {
        let mut callee = call.callee.get_inner_expression();
        // `z.toJSONSchema(...)`, or `toJSONSchema(...)` imported from zod by name.
        let to_json_schema = match callee {
            Expression::StaticMemberExpression(m) => m.property.name == "toJSONSchema",
            Expression::Identifier(id) => {
                matches!(self.bindings.get(id.name.as_str()), Some(Binding::Import { imported, .. }) if *imported == "toJSONSchema")
            }
            _ => false,
        };
        if to_json_schema {
            return None;
        }
        loop {
            callee = match callee {
                Expression::StaticMemberExpression(member) => member.object.get_inner_expression(),
                Expression::CallExpression(inner) => inner.callee.get_inner_expression(),
                Expression::Identifier(id) => {
                    let imported = matches!(self.bindings.get(id.name.as_str()),
                        Some(Binding::Import { source, .. }) if *source == "zod" || source.starts_with("zod/"));
                    return imported.then(|| self.snippet(call.span));
                }
                _ => return None,
            };
        }
    }

    fn object(&self, object: &'b ObjectExpression<'a>) -> (ObjectExport, Option<ExecuteInfo>) {
        let mut spread = None;
        let (mut description, mut parameters, mut execute) = (None, None, None);
        for property in &object.properties {
            match property {
                ObjectPropertyKind::SpreadProperty(s) => {
                    let why = format!("the object spreads `{}`", self.snippet(s.argument.span()));
                    spread.get_or_insert_with(|| (span(s.span), why));
                }
                // `__proto__: base` (not computed, not shorthand) sets the prototype: its fields are inherited.
                ObjectPropertyKind::ObjectProperty(p)
                    if !p.computed && !p.shorthand && p.key.is_specific_static_name("__proto__") =>
                {
                    let why = format!("the object inherits from `{}`", self.snippet(p.value.span()));
                    spread.get_or_insert_with(|| (span(p.span), why));
                }
                ObjectPropertyKind::ObjectProperty(p) => {
                    // `[EXECUTE]: run` names the field through a `const`; another computed key may name any.
                    let key = p.key.static_name().map(|k| k.to_string()).or_else(|| {
                        match p.key.as_expression().map(|k| self.resolve(k)) {
                            // A symbol (`[Symbol.iterator]`, `Symbol.for('x')`) is never a field's name.
                            Some(Resolved::Expr(key)) if is_symbol(key) => Some(String::new()),
                            Some(Resolved::Expr(key)) => string_value(key).map(str::to_string),
                            _ => None,
                        }
                    });
                    match key.as_deref() {
                        Some("description") => description = Some(Written::from(&**p)),
                        Some("parameters") => parameters = Some(Written::from(&**p)),
                        Some("execute") => execute = Some(Written::from(&**p)),
                        Some(_) => {}
                        None => {
                            let why = format!("the object has the computed key `[{}]`", self.snippet(p.key.span()));
                            spread.get_or_insert_with(|| (span(p.span), why));
                        }
                    }
                }
            }
        }
        self.fields(description, parameters, execute, &spread)
    }

    /// The tool object with these fields (`None`: not written, unless `spread` may supply it).
    fn fields(
        &self,
        description: Option<Written<'b, 'a>>,
        parameters: Option<Written<'b, 'a>>,
        execute: Option<Written<'b, 'a>>,
        spread: &Option<(Span, String)>,
    ) -> (ObjectExport, Option<ExecuteInfo>) {
        let (execute, info) = match execute {
            Some(p) => {
                let (value, info) = self.execute(p);
                (Field::Found { span: span(p.span), value }, Some(info))
            }
            None => (absent(spread), None),
        };
        let export = ObjectExport {
            description: description
                .map_or_else(|| absent(spread), |p| Field::Found { span: span(p.span), value: self.description(p) }),
            parameters: parameters.map_or_else(|| absent(spread), |p| self.parameters(p)),
            execute,
        };
        (export, info)
    }

    fn description(&self, property: Written<'b, 'a>) -> Description {
        if property.accessor {
            return Description::Other;
        }
        match self.resolve(property.value) {
            Resolved::Expr(Expression::StringLiteral(s)) => Description::Text(s.value.to_string()),
            Resolved::Expr(Expression::TemplateLiteral(t)) if t.expressions.is_empty() => {
                Description::Text(template_text(t).to_string())
            }
            Resolved::Expr(e) if is_non_string_literal(e) => Description::NotString,
            Resolved::Function(_) | Resolved::Class => Description::NotString,
            Resolved::Unknown("undefined") => Description::NotString,
            _ => Description::Other,
        }
    }

    fn parameters(&self, property: Written<'b, 'a>) -> Field<Parameters> {
        let at = span(property.span);
        let not_object = Field::Found { span: at, value: parameters(false) };
        let why = match self.resolve(property.value) {
            _ if property.accessor => "a getter".to_string(),
            Resolved::Expr(Expression::ObjectExpression(object)) => return self.schema(at, object),
            Resolved::Expr(e) if is_non_string_literal(e) || e.is_string_literal() => return not_object,
            Resolved::Function(_) | Resolved::Class | Resolved::Unknown("undefined") => return not_object,
            Resolved::Import(name) => format!("the imported binding `{name}`"),
            Resolved::Unknown(name) => not_constant(name),
            Resolved::Expr(Expression::CallExpression(call)) => match self.zod_schema(call) {
                Some(schema) => {
                    return Field::Found { span: at, value: Parameters { zod: Some(schema), ..parameters(false) } };
                }
                None => format!("built at run time by `{}(...)`", self.snippet(call.callee.span())),
            },
            Resolved::Expr(Expression::NewExpression(new)) => {
                format!("built at run time by `new {}(...)`", self.snippet(new.callee.span()))
            }
            Resolved::Expr(e) if e.is_member_expression() => {
                format!("read from `{}` at run time", self.snippet(e.span()))
            }
            Resolved::Expr(_) => "computed at run time".to_string(),
        };
        Field::Unanalyzable { span: at, why }
    }

    fn schema(&self, at: Span, object: &'b ObjectExpression<'a>) -> Field<Parameters> {
        let mut value = parameters(true);
        let mut spread = None;
        for property in &object.properties {
            let p = match property {
                ObjectPropertyKind::SpreadProperty(s) => {
                    spread.get_or_insert_with(|| (span(s.span), self.snippet(s.argument.span())));
                    continue;
                }
                ObjectPropertyKind::ObjectProperty(p) => p,
            };
            match p.key.static_name().as_deref() {
                Some("type") => {
                    value.has_type = true;
                    value.type_value = match self.resolve(&p.value) {
                        Resolved::Expr(e) => string_value(e).map(InlineStr::from),
                        _ => None,
                    };
                }
                Some("properties") => {
                    value.properties_span = Some(span(p.span));
                    value.properties = match self.resolve(&p.value) {
                        Resolved::Expr(Expression::ObjectExpression(o)) => object_keys(o),
                        _ => None,
                    };
                }
                Some("required") => {
                    if let Resolved::Expr(Expression::ArrayExpression(array)) = self.resolve(&p.value) {
                        // At most one per element (kept to the end of the run: a list collected from a filter grows).
                        let mut required = Vec::with_capacity(array.elements.len());
                        required.extend(
                            array
                                .elements
                                .iter()
                                .filter_map(|e| e.as_expression())
                                .filter_map(|e| Some((InlineStr::from(string_value(e)?), span(e.span())))),
                        );
                        value.required = required;
                    }
                }
                _ => {}
            }
        }
        match spread {
            // Without its own `type`, the spread may supply one: nothing can be said about the schema.
            Some((spread_at, what)) if !value.has_type => {
                Field::Unanalyzable { span: spread_at, why: format!("the parameters object spreads `{what}`") }
            }
            _ => Field::Found { span: at, value },
        }
    }

    fn execute(&self, property: Written<'b, 'a>) -> (Execute, ExecuteInfo) {
        let mut info =
            ExecuteInfo { property: span(property.span), function: None, params: Vec::new(), env_alias: None };
        if property.accessor {
            return (Execute::Other, info);
        }
        let (function, params) = match self.resolve(property.value) {
            Resolved::Expr(Expression::FunctionExpression(f)) => (f.span, &f.params),
            Resolved::Function(f) => (f.span, &f.params),
            Resolved::Expr(Expression::ArrowFunctionExpression(f)) => (f.span, &f.params),
            Resolved::Expr(e) if is_non_string_literal(e) || e.is_string_literal() => {
                return (Execute::NotFunction, info);
            }
            Resolved::Unknown("undefined") => return (Execute::NotFunction, info),
            _ => return (Execute::Other, info),
        };
        info.function = Some(span(function));
        info.params = param_names(params);
        info.env_alias = params.items.get(1).and_then(|p| env_binding(&p.pattern));
        (Execute::Function { params: self.params_as_written(params) }, info)
    }
}

impl Scope<'_, '_> {
    /// Each parameter as the source writes it, without its type or default: `args`, `{ location }`, `...rest`.
    fn params_as_written(&self, params: &FormalParameters) -> Vec<InlineStr> {
        let pattern = |p: &BindingPattern| match p {
            BindingPattern::AssignmentPattern(assign) => self.snippet(assign.left.span()),
            p => self.snippet(p.span()),
        };
        let rest = params.rest.as_ref().map(|rest| InlineStr::from(format!("...{}", pattern(&rest.rest.argument))));
        let mut written = Vec::with_capacity(params.items.len() + usize::from(rest.is_some()));
        written.extend(params.items.iter().map(|p| InlineStr::from(pattern(&p.pattern))));
        written.extend(rest);
        written
    }
}

/// The name `{ env: e }` (or `{ env }`) binds the `env` property to.
pub(super) fn env_binding(pattern: &BindingPattern) -> Option<String> {
    let BindingPattern::ObjectPattern(pattern) = pattern else {
        return None;
    };
    let property = pattern.properties.iter().find(|p| !p.computed && p.key.is_specific_static_name("env"))?;
    match &property.value {
        BindingPattern::BindingIdentifier(id) => Some(id.name.to_string()),
        BindingPattern::AssignmentPattern(p) => p.left.get_binding_identifier().map(|id| id.name.to_string()),
        _ => None,
    }
}

/// Parameters with nothing read yet.
fn parameters(is_object_literal: bool) -> Parameters {
    Parameters {
        type_value: None,
        has_type: false,
        is_object_literal,
        properties: None,
        properties_span: None,
        required: Vec::new(),
        zod: None,
    }
}

/// `Symbol.iterator`, `Symbol('x')`, `Symbol.for('x')`: a symbol, which names no string-keyed field.
fn is_symbol(key: &Expression) -> bool {
    let callee = match key {
        Expression::CallExpression(call) => call.callee.get_inner_expression(),
        key => key,
    };
    match callee {
        Expression::Identifier(id) => id.name == "Symbol" && matches!(key, Expression::CallExpression(_)),
        Expression::StaticMemberExpression(member) => member.object.get_inner_expression().is_specific_id("Symbol"),
        _ => false,
    }
}

/// A field the object does not spell out: missing, unless a spread (or a prototype) may supply it: where, and why.
fn absent<T>(spread: &Option<(Span, String)>) -> Field<T> {
    match spread {
        Some((at, why)) => Field::Unanalyzable { span: *at, why: why.clone() },
        None => Field::Missing,
    }
}

fn unanalyzable(why: &str) -> DefaultExportKind {
    DefaultExportKind::Unanalyzable { why: why.to_string() }
}

pub(crate) fn not_constant(name: &str) -> String {
    format!("the binding `{name}`, whose value is not known statically")
}

/// `module.exports`, `exports.default` or `module.exports.default`.
pub(crate) fn is_commonjs_export(target: &AssignmentTarget) -> bool {
    let Some(member) = target.as_member_expression() else {
        return false;
    };
    let object = member.object().get_inner_expression();
    match member.static_property_name() {
        Some("exports") => object.is_specific_id("module"),
        Some("default") => object.is_specific_id("exports") || object.is_specific_member_access("module", "exports"),
        _ => false,
    }
}

/// `@opencode-ai/plugin` or one of its subpaths (`@opencode-ai/plugin/tool`).
fn is_opencode_plugin(source: &str) -> bool {
    source == "@opencode-ai/plugin" || source.starts_with("@opencode-ai/plugin/")
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

/// The keys of an object literal, unless a spread or a computed key hides some.
fn object_keys(object: &ObjectExpression) -> Option<Vec<InlineStr>> {
    // Sized up front: the facts are kept to the end of the run, and a list collected through `Option` grows.
    let mut keys = Vec::with_capacity(object.properties.len());
    for property in &object.properties {
        let ObjectPropertyKind::ObjectProperty(p) = property else { return None };
        keys.push(InlineStr::from(p.key.static_name()?.as_ref()));
    }
    Some(keys)
}

/// Parameter names in order; `_` for a destructuring pattern.
fn param_names(params: &FormalParameters) -> Vec<String> {
    let name = |pattern: &BindingPattern| match pattern {
        BindingPattern::BindingIdentifier(id) => id.name.to_string(),
        BindingPattern::AssignmentPattern(p) => match &p.left {
            BindingPattern::BindingIdentifier(id) => id.name.to_string(),
            _ => "_".to_string(),
        },
        _ => "_".to_string(),
    };
    let mut names: Vec<String> = params.items.iter().map(|p| name(&p.pattern)).collect();
    if let Some(rest) = &params.rest {
        names.push(name(&rest.rest.argument));
    }
    names
}
