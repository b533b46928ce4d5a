//! The opencode form: `tool(...)` of `@opencode-ai/plugin`, as the default export or as named exports.

use super::*;

impl<'b, 'a> Scope<'b, 'a> {
    /// `tool(...)` or `tool.define(...)` where `tool` is `@opencode-ai/plugin`'s (under any local name, or as
    /// `oc.tool` of a namespace import). A project's own helper called `tool` is not the opencode form.
    pub(super) fn is_opencode_tool(&self, callee: &Expression<'a>) -> bool {
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
}

/// `@opencode-ai/plugin` or one of its subpaths (`@opencode-ai/plugin/tool`).
fn is_opencode_plugin(source: &str) -> bool {
    source == "@opencode-ai/plugin" || source.starts_with("@opencode-ai/plugin/")
}
