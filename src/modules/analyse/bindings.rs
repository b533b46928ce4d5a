//! The names a list of statements binds (a module's top level, the top of a function body), read the same way
//! for Beeuni tool modules and xcsh tools: both follow `export default x` and its fields through them.

use std::borrow::Cow;

use rustc_hash::FxHashMap;

use oxc_ast::ast::*;

/// What a name is bound to.
pub(crate) enum Binding<'b, 'a> {
    Value(&'b Expression<'a>),
    Function(&'b Function<'a>),
    Class,
    Import {
        source: &'a str,
        imported: &'a str,
    },
    /// Declared without a value we can read: no initialiser, a destructuring pattern, an enum (or a `let` or
    /// `var`, where only `const` values are followed).
    Unknown,
}

/// Names and what they are bound to (a module has a few dozen: FxHash, not SipHash).
pub(crate) type Bindings<'b, 'a> = FxHashMap<&'a str, Binding<'b, 'a>>;

/// Which declared values [`bindings`] follows.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Values {
    /// `const` only: a `let` or `var` may be reassigned before it is used.
    Const,
    /// Any variable with an initialiser.
    Any,
}

/// The names `statements` bind: imports, variables, functions (an exported default one too), classes,
/// `import x = require(...)` and enums.
pub(crate) fn bindings<'b, 'a>(statements: &'b [Statement<'a>], values: Values) -> Bindings<'b, 'a> {
    let mut bindings = Bindings::default();
    for statement in statements {
        let declaration = match statement {
            Statement::ExportDeclaration(export) => &export.declaration,
            Statement::ImportDeclaration(import) => {
                for specifier in import.specifiers.iter().flatten() {
                    let imported = match specifier {
                        ImportDeclarationSpecifier::ImportSpecifier(s) => s.imported.name().as_str(),
                        ImportDeclarationSpecifier::ImportDefaultSpecifier(_) => "default",
                        ImportDeclarationSpecifier::ImportNamespaceSpecifier(_) => "*",
                    };
                    let binding = Binding::Import { source: import.source.value.as_str(), imported };
                    bindings.insert(specifier.local().name.as_str(), binding);
                }
                continue;
            }
            Statement::ExportDefaultDeclaration(export) => {
                if let ExportDefaultDeclarationKind::FunctionDeclaration(f) = &export.declaration
                    && let Some(id) = &f.id
                {
                    bindings.insert(id.name.as_str(), Binding::Function(f));
                }
                continue;
            }
            _ => match statement.as_declaration() {
                Some(declaration) => declaration,
                None => continue,
            },
        };
        match declaration {
            Declaration::VariableDeclaration(variables) => {
                let followed = values == Values::Any || variables.kind == VariableDeclarationKind::Const;
                for declarator in &variables.declarations {
                    match (&declarator.id, &declarator.init) {
                        (BindingPattern::BindingIdentifier(id), Some(init)) if followed => {
                            bindings.insert(id.name.as_str(), Binding::Value(init));
                        }
                        // `const { tool } = require('ai')`: CommonJS's named import.
                        (BindingPattern::ObjectPattern(pattern), Some(init))
                            if followed && let Some(source) = required(init) =>
                        {
                            for property in &pattern.properties {
                                let imported = property.key.static_name().filter(|_| !property.computed);
                                for id in property.value.get_binding_identifiers() {
                                    let binding = match (&imported, &property.value) {
                                        (Some(Cow::Borrowed(imported)), BindingPattern::BindingIdentifier(_)) => {
                                            Binding::Import { source, imported }
                                        }
                                        _ => Binding::Unknown,
                                    };
                                    bindings.insert(id.name.as_str(), binding);
                                }
                            }
                            if let Some(rest) = &pattern.rest {
                                for id in rest.argument.get_binding_identifiers() {
                                    bindings.insert(id.name.as_str(), Binding::Unknown);
                                }
                            }
                        }
                        (pattern, _) => {
                            for id in pattern.get_binding_identifiers() {
                                bindings.insert(id.name.as_str(), Binding::Unknown);
                            }
                        }
                    }
                }
            }
            Declaration::FunctionDeclaration(f) => {
                if let Some(id) = &f.id {
                    bindings.insert(id.name.as_str(), Binding::Function(f));
                }
            }
            Declaration::ClassDeclaration(c) => {
                if let Some(id) = &c.id {
                    bindings.insert(id.name.as_str(), Binding::Class);
                }
            }
            Declaration::TSImportEqualsDeclaration(import) => {
                let source = match &import.module_reference {
                    TSModuleReference::ExternalModuleReference(r) => r.expression.value.as_str(),
                    _ => "",
                };
                bindings.insert(import.id.name.as_str(), Binding::Import { source, imported: "*" });
            }
            Declaration::TSEnumDeclaration(e) => {
                bindings.insert(e.id.name.as_str(), Binding::Unknown);
            }
            _ => {}
        }
    }
    bindings
}

/// `'x'` of `require('x')`.
fn required<'a>(init: &Expression<'a>) -> Option<&'a str> {
    let Expression::CallExpression(call) = init.get_inner_expression() else { return None };
    match (call.callee.get_inner_expression(), call.arguments.as_slice()) {
        (Expression::Identifier(id), [Argument::StringLiteral(source)]) if id.name == "require" => {
            Some(source.value.as_str())
        }
        _ => None,
    }
}
