//! A module without a default export whose tool object is a named export (`export const crmNote = {…}`,
//! `export { crmNote }`, CommonJS `exports.crmNote = {…}`, the AI SDK's `export const weather = tool({…})`): the
//! name it can be exported under as the default, and the library's shape it is written in.

use super::*;

impl<'b, 'a> Scope<'b, 'a> {
    /// The first named export (in source order) that holds a tool object, directly or through a module-level
    /// binding (`export const crmNote = base`), or CommonJS's `exports.NAME = {…}`.
    pub fn named_tool_object(&self, program: &'b Program<'a>) -> Option<NamedToolObject> {
        let named = |name: &str, commonjs, (wrapper, foreign)| {
            Some(NamedToolObject { name: name.to_string(), commonjs, wrapper, foreign })
        };
        for statement in &program.body {
            match statement {
                Statement::ExportDeclaration(export) => {
                    let Declaration::VariableDeclaration(variables) = &export.declaration else { continue };
                    for declarator in &variables.declarations {
                        if let (BindingPattern::BindingIdentifier(id), Some(value)) = (&declarator.id, &declarator.init)
                            && let Some(shape) = self.tool_object(value)
                        {
                            return named(&id.name, false, shape);
                        }
                    }
                }
                Statement::ExportNamedDeclaration(export) if export.export_kind.is_value() => {
                    for specifier in export.specifiers.iter().filter(|s| s.export_kind.is_value()) {
                        if let ModuleExportName::IdentifierReference(local) = &specifier.local
                            && let Some(Binding::Value(value)) = self.bindings.get(local.name.as_str())
                            && let Some(shape) = self.tool_object(value)
                        {
                            return named(&local.name, false, shape);
                        }
                    }
                }
                _ => {
                    if let Some(CommonJs::Field(name, value)) = commonjs_statement(statement)
                        && let Some(shape) = self.tool_object(value)
                    {
                        return named(name, true, shape);
                    }
                }
            }
        }
        None
    }

    /// Is `value` (or the module-level value it names, a few hops at most) an object literal with a tool's field,
    /// as written or passed to a wrapper ([`Scope::wrapped_object`])? How it is wrapped, and its foreign fields.
    fn tool_object(&self, value: &'b Expression<'a>) -> Option<(Wrapper, Foreign)> {
        let mut value = value.get_inner_expression();
        let mut wrapper = Wrapper::None;
        for _ in 0..MAX_HOPS {
            let object = match value {
                Expression::ObjectExpression(object) => object,
                Expression::Identifier(id) => match self.bindings.get(id.name.as_str()) {
                    Some(Binding::Value(next)) => {
                        value = next.get_inner_expression();
                        continue;
                    }
                    _ => return None,
                },
                Expression::CallExpression(call) if wrapper == Wrapper::None => {
                    let (by, object) = self.wrapped_object(call)?;
                    // Whether an imported helper returns its argument is known only at the modules stage.
                    if matches!(by, Wrapper::Imported(_)) {
                        return None;
                    }
                    wrapper = by;
                    object
                }
                _ => return None,
            };
            let mut foreign = Foreign::default();
            let mut tool = false;
            for key in object.properties.iter().filter_map(static_key) {
                foreign.note(key);
                tool |= ["description", "parameters", "execute"].contains(&key);
            }
            return tool.then_some((wrapper, foreign));
        }
        None
    }
}

/// The name of a property or method of a literal, when it is not computed.
fn static_key<'b>(property: &'b ObjectPropertyKind) -> Option<&'b str> {
    let ObjectPropertyKind::ObjectProperty(property) = property else { return None };
    match &property.key {
        PropertyKey::StaticIdentifier(id) if !property.computed => Some(id.name.as_str()),
        PropertyKey::StringLiteral(s) if !property.computed => Some(s.value.as_str()),
        _ => None,
    }
}
