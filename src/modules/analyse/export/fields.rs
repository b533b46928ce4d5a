//! The fields of a tool object: `description`, `parameters` (a JSON Schema, or what it is instead) and
//! `execute` with its parameters, each read through the module's top-level bindings.

use super::*;
use std::collections::HashSet;

impl<'b, 'a> Scope<'b, 'a> {
    /// The tool object an object literal writes: its `description`, `parameters` and `execute` properties, and the
    /// first spread, prototype or computed key, which may supply fields not read here. A spread of a module-level
    /// object literal (or of the object a call that returns its argument is given) is read as its fields, written
    /// there: `{ ...readFileTool, execute }`.
    pub(super) fn object(&self, object: &'b ObjectExpression<'a>) -> (ObjectExport, Option<ExecuteInfo<'a>>) {
        let mut gathered = Gathered::default();
        self.gather(object, &mut gathered);
        let Gathered { description, parameters, execute, spread, foreign } = gathered;
        let (mut export, info) = self.fields(description, parameters, execute, &spread);
        export.foreign = foreign;
        (export, info)
    }

    /// Adds the fields `object` writes to `gathered`, a later one in place of an earlier one of the same name.
    fn gather(&self, object: &'b ObjectExpression<'a>, gathered: &mut Gathered<'b, 'a>) {
        for property in &object.properties {
            match property {
                ObjectPropertyKind::SpreadProperty(s) => {
                    let spread = self.nested(|| self.object_literal(&s.argument)).flatten();
                    match spread.and_then(|spread| self.nested(|| self.gather(spread, gathered))) {
                        Some(()) => {}
                        None if gathered.spread.is_none() => {
                            let why = format!("the object spreads `{}`", self.snippet(s.argument.span()));
                            gathered.spread = Some((span(s.span), why));
                        }
                        None => {}
                    }
                }
                // `__proto__: base` (not computed, not shorthand) sets the prototype: its fields are inherited.
                ObjectPropertyKind::ObjectProperty(p)
                    if !p.computed && !p.shorthand && p.key.is_specific_static_name("__proto__") =>
                {
                    let why = format!("the object inherits from `{}`", self.snippet(p.value.span()));
                    gathered.spread.get_or_insert_with(|| (span(p.span), why));
                }
                ObjectPropertyKind::ObjectProperty(p) => {
                    // `[EXECUTE]: run` names the field through a `const`; another computed key may name any.
                    // Borrowed (`static_name` copies only a number key): this runs for every property of the object.
                    let key = p.key.static_name().or_else(|| {
                        match p.key.as_expression().map(|k| self.resolve(k)) {
                            // A symbol (`[Symbol.iterator]`, `Symbol.for('x')`) is never a field's name.
                            Some(Resolved::Expr(key)) if is_symbol(key) => Some(Cow::Borrowed("")),
                            Some(Resolved::Expr(key)) => string_value(key).map(Cow::Borrowed),
                            _ => None,
                        }
                    });
                    match key.as_deref() {
                        Some("description") => gathered.description = Some(Written::from(&**p)),
                        Some("parameters") => gathered.parameters = Some(Written::from(&**p)),
                        Some("execute") => gathered.execute = Some(Written::from(&**p)),
                        Some(other) => gathered.foreign.note(other),
                        None => {
                            let why = format!("the object has the computed key `[{}]`", self.snippet(p.key.span()));
                            gathered.spread.get_or_insert_with(|| (span(p.span), why));
                        }
                    }
                }
            }
        }
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
                    return imported.then(|| self.snippet(call.span).into_owned());
                }
                _ => return None,
            };
        }
    }

    /// The tool object with these fields (`None`: not written, unless `spread` may supply it).
    pub(super) fn fields(
        &self,
        description: Option<Written<'b, 'a>>,
        parameters: Option<Written<'b, 'a>>,
        execute: Option<Written<'b, 'a>>,
        spread: &Option<(Span, String)>,
    ) -> (ObjectExport, Option<ExecuteInfo<'a>>) {
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
            wrapper: Wrapper::None,
            foreign: Foreign::default(),
        };
        (export, info)
    }

    fn description(&self, property: Written<'b, 'a>) -> Description {
        if property.accessor {
            return Description::Other;
        }
        match self.resolve(property.value) {
            Resolved::Expr(Expression::StringLiteral(s)) => Description::Text { blank: s.value.trim().is_empty() },
            Resolved::Expr(Expression::TemplateLiteral(t)) if t.expressions.is_empty() => {
                Description::Text { blank: template_text(t).trim().is_empty() }
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
                    return Field::Found {
                        span: at,
                        value: Parameters { zod: Some(schema.into()), ..parameters(false) },
                    };
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
        Field::Unanalyzable { span: at, why: why.into() }
    }

    fn schema(&self, at: Span, object: &'b ObjectExpression<'a>) -> Field<Parameters> {
        let mut value = parameters(true);
        let mut spread = None;
        // The last `required` array, read once `properties` is known too (it may come first).
        let mut required = None;
        for property in &object.properties {
            let p = match property {
                ObjectPropertyKind::SpreadProperty(s) => {
                    spread.get_or_insert_with(|| (span(s.span), self.snippet(s.argument.span()).into_owned()));
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
                    required = match self.resolve(&p.value) {
                        Resolved::Expr(Expression::ArrayExpression(array)) => Some(&**array),
                        _ => None,
                    };
                }
                _ => {}
            }
        }
        // Collected straight into what is kept: most modules' `required` names only defined properties (no list).
        if let (Some(properties), Some(required)) = (&value.properties, required) {
            // Looked for in the names as they are kept (one string) while both lists are short, as in nearly every
            // module; by hash past that (a generated schema of 20,000 of each took 25 G instructions).
            let defined: Option<HashSet<&str>> =
                (required.elements.len() * properties.len() > 64).then(|| properties.iter().collect());
            let is_defined = |name: &str| {
                defined.as_ref().map_or_else(|| properties.iter().any(|p| p == name), |d| d.contains(name))
            };
            value.required_undefined = required
                .elements
                .iter()
                .filter_map(|e| e.as_expression())
                .filter_map(|e| Some((string_value(e)?, span(e.span()))))
                .filter(|(name, _)| !is_defined(name))
                .map(|(name, at)| (InlineStr::from(name), at))
                .collect();
        }
        match spread {
            // Without its own `type`, the spread may supply one: nothing can be said about the schema.
            Some((spread_at, what)) if !value.has_type => {
                Field::Unanalyzable { span: spread_at, why: format!("the parameters object spreads `{what}`").into() }
            }
            _ => Field::Found { span: at, value },
        }
    }

    fn execute(&self, property: Written<'b, 'a>) -> (Execute, ExecuteInfo<'a>) {
        let mut info = ExecuteInfo { property: span(property.span), function: None, context: None, env_alias: None };
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
        info.context = param_name(params, 1);
        info.env_alias = params.items.get(1).and_then(|p| env_binding(&p.pattern));
        (Execute::Function { params: self.params_as_written(params) }, info)
    }
}

impl Scope<'_, '_> {
    /// Each parameter as the source writes it, without its type or default: `args`, `{ location }`, `...rest`.
    fn params_as_written(&self, params: &FormalParameters) -> Params {
        let pattern = |p: &BindingPattern| match p {
            BindingPattern::AssignmentPattern(assign) => self.snippet(assign.left.span()),
            p => self.snippet(p.span()),
        };
        let rest = params.rest.as_ref().map(|rest| Cow::Owned(format!("...{}", pattern(&rest.rest.argument))));
        Params::new(params.items.iter().map(|p| pattern(&p.pattern)).chain(rest))
    }
}

/// The fields of a tool object as its literal and the objects it spreads write them.
#[derive(Default)]
struct Gathered<'b, 'a> {
    description: Option<Written<'b, 'a>>,
    parameters: Option<Written<'b, 'a>>,
    execute: Option<Written<'b, 'a>>,
    /// The first spread, prototype or computed key that may supply other fields: where, and why.
    spread: Option<(Span, String)>,
    foreign: Foreign,
}

/// Parameters with nothing read yet.
fn parameters(is_object_literal: bool) -> Parameters {
    Parameters {
        type_value: None,
        has_type: false,
        is_object_literal,
        properties: None,
        properties_span: None,
        required_undefined: Box::default(),
        zod: None,
    }
}

/// A field the object does not spell out: missing, unless a spread (or a prototype) may supply it: where, and why.
fn absent<T>(spread: &Option<(Span, String)>) -> Field<T> {
    match spread {
        Some((at, why)) => Field::Unanalyzable { span: *at, why: why.as_str().into() },
        None => Field::Missing,
    }
}

/// The keys of an object literal, unless a spread or a computed key hides some.
fn object_keys(object: &ObjectExpression) -> Option<Properties> {
    let mut keys = Properties::default();
    for property in &object.properties {
        let ObjectPropertyKind::ObjectProperty(p) = property else { return None };
        keys.push(&p.key.static_name()?);
    }
    Some(keys)
}

/// The name of the parameter at `at` (counting a rest parameter last); `_` for a destructuring pattern.
fn param_name<'a>(params: &FormalParameters<'a>, at: usize) -> Option<&'a str> {
    let name = |pattern: &BindingPattern<'a>| match pattern {
        BindingPattern::BindingIdentifier(id) => id.name.as_str(),
        BindingPattern::AssignmentPattern(p) => match &p.left {
            BindingPattern::BindingIdentifier(id) => id.name.as_str(),
            _ => "_",
        },
        _ => "_",
    };
    match params.items.get(at) {
        Some(param) => Some(name(&param.pattern)),
        None if at == params.items.len() => params.rest.as_ref().map(|rest| name(&rest.rest.argument)),
        None => None,
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
