//! A module without a default export whose tool object is a named export (`export const crmNote = {…}`,
//! `export { crmNote }`, CommonJS `exports.crmNote = {…}`): the name it can be exported under as the default.

use super::*;

impl<'b, 'a> Scope<'b, 'a> {
    /// The first named export (in source order) that holds a tool object, directly or through a module-level
    /// binding (`export const crmNote = base`). `allow_commonjs`: whether `exports.NAME = {…}` counts.
    pub fn named_tool_object(&self, program: &'b Program<'a>, allow_commonjs: bool) -> Option<NamedToolObject> {
        let named = |name: &str, commonjs| Some(NamedToolObject { name: name.to_string(), commonjs });
        for statement in &program.body {
            match statement {
                Statement::ExportDeclaration(export) => {
                    let Declaration::VariableDeclaration(variables) = &export.declaration else { continue };
                    for declarator in &variables.declarations {
                        if let (BindingPattern::BindingIdentifier(id), Some(value)) = (&declarator.id, &declarator.init)
                            && self.holds_tool_object(value)
                        {
                            return named(&id.name, false);
                        }
                    }
                }
                Statement::ExportNamedDeclaration(export) if export.export_kind.is_value() => {
                    for specifier in export.specifiers.iter().filter(|s| s.export_kind.is_value()) {
                        if let ModuleExportName::IdentifierReference(local) = &specifier.local
                            && let Some(Binding::Value(value)) = self.bindings.get(local.name.as_str())
                            && self.holds_tool_object(value)
                        {
                            return named(&local.name, false);
                        }
                    }
                }
                _ if allow_commonjs => {
                    if let Some(CommonJs::Field(name, value)) = commonjs_statement(statement)
                        && self.holds_tool_object(value)
                    {
                        return named(name, true);
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// Is `value` (or the module-level value it names, a few hops at most) an object literal with a tool's field?
    fn holds_tool_object(&self, value: &'b Expression<'a>) -> bool {
        let mut value = value.get_inner_expression();
        for _ in 0..MAX_HOPS {
            match value {
                Expression::ObjectExpression(object) => return object.properties.iter().any(is_tool_field),
                Expression::Identifier(id) => match self.bindings.get(id.name.as_str()) {
                    Some(Binding::Value(next)) => value = next.get_inner_expression(),
                    _ => return false,
                },
                _ => return false,
            }
        }
        false
    }
}

/// `description`, `parameters` or `execute`, as a property or a method of the literal.
fn is_tool_field(property: &ObjectPropertyKind) -> bool {
    let ObjectPropertyKind::ObjectProperty(property) = property else { return false };
    !property.computed
        && ["description", "parameters", "execute"].iter().any(|field| property.key.is_specific_static_name(field))
}
