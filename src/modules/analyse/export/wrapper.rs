//! Calls that hand back a tool object: `tool({...})` of the Vercel AI SDK (which returns its argument) and a
//! module's own function whose body returns its parameter are read as the object they are given; LangChain's
//! `tool(fn, config)` builds a StructuredTool, read from its config: a `description`, never `parameters` nor
//! `execute`. Any other call stays unanalysable.

use super::*;

/// The packages that export the AI SDK's `tool` (`ai` re-exports it from `@ai-sdk/provider-utils`).
const AI_SDK: [&str; 2] = ["ai", "@ai-sdk/provider-utils"];
const LANGCHAIN: [&str; 1] = ["@langchain/core/tools"];

/// The identity exports a module's facts keep, at most (the first in source order): a helper module of a million
/// `export const a = (t) => t` would keep them all to the end of the run. A wrapper imported past them is not read
/// through (`analysis-limit`, warning).
pub const MAX_IDENTITY_EXPORTS: usize = 256;

impl<'b, 'a> Scope<'b, 'a> {
    /// The object a call wraps, and how, if the call is one of those above and the object a literal (directly or
    /// through module-level bindings).
    pub(super) fn wrapped_object(&self, call: &'b CallExpression<'a>) -> Option<(Wrapper, &'b ObjectExpression<'a>)> {
        let object_at = |at: usize| match self.resolve(call.arguments.get(at)?.as_expression()?) {
            Resolved::Expr(Expression::ObjectExpression(object)) => Some(&**object),
            _ => None,
        };
        let callee = call.callee.get_inner_expression();
        if self.imported_tool(callee, &AI_SDK) {
            return Some((Wrapper::AiSdk, object_at(0)?));
        }
        if self.imported_tool(callee, &LANGCHAIN) {
            return Some((Wrapper::LangChain, object_at(1)?));
        }
        let Expression::Identifier(id) = callee else { return None };
        let local = id.name.as_str();
        let wrapper = match self.bindings.get(local)? {
            // A relative module's export: whether it returns its argument is known once that module is read.
            Binding::Import { source, imported } if source.starts_with('.') => {
                Wrapper::imported(local, imported, source)
            }
            binding if self.is_identity_binding(binding) => Wrapper::Identity(local.into()),
            _ => return None,
        };
        // The helper's body is part of what was read: a later assignment to it makes the facts void.
        self.follow(local);
        Some((wrapper, object_at(0)?))
    }

    /// A function declaration, arrow function or function expression that returns its first parameter.
    fn is_identity_binding(&self, binding: &Binding<'b, 'a>) -> bool {
        match binding {
            Binding::Function(function) => is_identity(&function.params, returned(function.body.as_deref())),
            Binding::Value(value) => is_identity_function(value),
            _ => false,
        }
    }

    /// The exported functions that return their first parameter, by exported name (`default` for the default):
    /// what a module importing one of them as a wrapper relies on ([`Wrapper::Imported`]). Sorted, so that each
    /// importer searches them; the first [`MAX_IDENTITY_EXPORTS`] in source order.
    pub fn identity_exports(&self, program: &'b Program<'a>) -> Vec<InlineStr> {
        let mut names = Vec::new();
        let by_name = |name: &str| self.bindings.get(name).is_some_and(|b| self.is_identity_binding(b));
        for statement in &program.body {
            match statement {
                Statement::ExportDeclaration(export) => match &export.declaration {
                    Declaration::FunctionDeclaration(f) if f.id.as_ref().is_some_and(|id| by_name(&id.name)) => {
                        names.extend(f.id.as_ref().map(|id| InlineStr::from(id.name.as_str())));
                    }
                    Declaration::VariableDeclaration(variables) => {
                        for declarator in &variables.declarations {
                            if let BindingPattern::BindingIdentifier(id) = &declarator.id
                                && by_name(&id.name)
                            {
                                names.push(id.name.as_str().into());
                            }
                        }
                    }
                    _ => {}
                },
                Statement::ExportNamedDeclaration(export) if export.export_kind.is_value() => {
                    // One statement may list a million of them: no more than the bound are kept, even for a while.
                    let identities = export.specifiers.iter().filter(|s| {
                        s.export_kind.is_value()
                            && matches!(&s.local, ModuleExportName::IdentifierReference(local) if by_name(&local.name))
                    });
                    let room = MAX_IDENTITY_EXPORTS - names.len();
                    names.extend(identities.take(room).map(|s| InlineStr::from(s.exported.name().as_str())));
                }
                Statement::ExportDefaultDeclaration(export) => {
                    let identity = match &export.declaration {
                        ExportDefaultDeclarationKind::FunctionDeclaration(f) => {
                            is_identity(&f.params, returned(f.body.as_deref()))
                        }
                        ExportDefaultDeclarationKind::Identifier(id) => by_name(&id.name),
                        declaration => declaration.as_expression().is_some_and(is_identity_function),
                    };
                    if identity {
                        names.push("default".into());
                    }
                }
                _ => {
                    if let Some(CommonJs::Field(name, value)) = commonjs_statement(statement)
                        && match value.get_inner_expression() {
                            Expression::Identifier(id) => by_name(&id.name),
                            value => is_identity_function(value),
                        }
                    {
                        names.push(name.into());
                    }
                }
            }
            if names.len() >= MAX_IDENTITY_EXPORTS {
                names.truncate(MAX_IDENTITY_EXPORTS);
                break;
            }
        }
        names.sort_unstable();
        names.dedup();
        names
    }

    /// The tool object a wrapped call gives: the object as written, or for LangChain's StructuredTool the config's
    /// `description` alone (its schema and function are under other names: `schema`, `func`).
    pub(super) fn wrapped(
        &self,
        wrapper: Wrapper,
        object: &'b ObjectExpression<'a>,
    ) -> (ObjectExport, Option<ExecuteInfo<'a>>) {
        let (mut export, mut info) = self.object(object);
        if wrapper == Wrapper::LangChain {
            (export.parameters, export.execute, info) = (Field::Missing, Field::Missing, None);
        }
        export.wrapper = wrapper;
        (export, info)
    }

    /// `tool` imported from one of `sources` under any local name, or `ns.tool` of a namespace import of one.
    /// The name is followed: `let { tool } = require('ai')` may be assigned another function later.
    fn imported_tool(&self, callee: &'b Expression<'a>, sources: &[&str]) -> bool {
        let from = |name: &'a str, want: &str| {
            let imported = matches!(self.bindings.get(name),
                Some(Binding::Import { source, imported }) if sources.contains(source) && *imported == want);
            if imported {
                self.follow(name);
            }
            imported
        };
        match callee {
            Expression::Identifier(id) => from(id.name.as_str(), "tool"),
            Expression::StaticMemberExpression(member) if member.property.name == "tool" => {
                matches!(member.object.get_inner_expression(), Expression::Identifier(ns) if from(ns.name.as_str(), "*"))
            }
            _ => false,
        }
    }
}

/// An arrow function or function expression that returns its first parameter.
fn is_identity_function(value: &Expression) -> bool {
    match value.get_inner_expression() {
        Expression::ArrowFunctionExpression(arrow) => {
            let returned = match &arrow.body {
                ArrowFunctionBody::FunctionBody(body) => returned(Some(body)),
                body => body.as_expression(),
            };
            is_identity(&arrow.params, returned)
        }
        Expression::FunctionExpression(function) => is_identity(&function.params, returned(function.body.as_deref())),
        _ => false,
    }
}

/// A function that returns `returned` (its only statement, or an arrow's expression) returns its first parameter
/// (`(t) => t`, `function tool<T>(t: T): T { return t }`, through `as`, `satisfies` and parentheses).
fn is_identity(params: &FormalParameters, returned: Option<&Expression>) -> bool {
    let (Some(first), Some(returned)) = (params.items.first(), returned) else { return false };
    let BindingPattern::BindingIdentifier(parameter) = &first.pattern else { return false };
    returned.get_inner_expression().is_specific_id(&parameter.name)
}

/// The value a body returns when a `return` is all it holds.
fn returned<'b, 'a>(body: Option<&'b FunctionBody<'a>>) -> Option<&'b Expression<'a>> {
    match body?.statements.as_slice() {
        [Statement::ReturnStatement(ret)] => ret.argument.as_ref(),
        _ => None,
    }
}
