//! What Bun's transpiler adds to or drops from a module's imports: the TypeScript imports it erases because no
//! binding they declare is used as a value, and the JSX runtime import it adds to a module that holds JSX.

use oxc_ast::ast::{Comment, ImportDeclarationSpecifier, Program, Statement};
use oxc_semantic::Semantic;

/// The `import … from` declarations of a TypeScript module that Bun drops: every binding they declare is used
/// only in types, or not at all. Bun 1.4 does this whatever `tsconfig.json` says (it reads neither
/// `verbatimModuleSyntax` nor `preserveValueImports`), as esbuild does without them. Never dropped: an import
/// without bindings (`import 'x'`, and `import {} from 'x'`, which Bun keeps as `import 'x'`), `import x =
/// require()` and `export … from` (whose erasure needs the other module's declarations). With decorators present
/// nothing more is dropped: `emitDecoratorMetadata` turns the types of a decorated signature into values. The
/// names in `read_by_jsx` (the classic runtime's factories) are values the module's JSX reads.
pub(super) fn unused_as_values(
    program: &Program,
    semantic: &Semantic,
    decorated: bool,
    read_by_jsx: &[&str],
) -> Vec<oxc_span::Span> {
    if decorated || !program.source_type.is_typescript() || program.source_type.is_typescript_definition() {
        return Vec::new();
    }
    let scoping = semantic.scoping();
    let used_as_value = |specifier: &ImportDeclarationSpecifier| {
        let local = specifier.local();
        // A binding the checker did not name is taken as used: only what is certainly erased is dropped.
        read_by_jsx.contains(&local.name.as_str())
            || local.symbol_id.get().is_none_or(|symbol| {
                scoping.get_resolved_references(symbol).any(|reference| reference.flags().is_value())
            })
    };
    program
        .body
        .iter()
        .filter_map(|statement| match statement {
            Statement::ImportDeclaration(import) if import.import_kind.is_value() => {
                let specifiers = import.specifiers.as_ref().filter(|s| !s.is_empty())?;
                (!specifiers.iter().any(used_as_value)).then_some(import.span)
            }
            _ => None,
        })
        .collect()
}

/// How Bun compiles a module's JSX, by its pragmas (the default: the automatic runtime from `react`).
pub(super) enum JsxRuntime<'t> {
    /// Calls of `jsxDEV` imported from `<source>/jsx-dev-runtime` (`/** @jsxImportSource x */` names the source).
    Automatic { source: &'t str },
    /// `/** @jsxRuntime classic */`: calls of the factory (`React.createElement`, or what `@jsx` and `@jsxFrag`
    /// name), nothing imported. The names the factories start with are read where the JSX is.
    Classic { factories: [&'t str; 2] },
}

impl<'t> JsxRuntime<'t> {
    /// The runtime the pragmas among `comments` ask for. A `@jsx h` pragma alone names the classic runtime's
    /// factory and leaves the automatic runtime on.
    pub(super) fn of(text: &'t str, comments: &[Comment]) -> Self {
        let (mut classic, mut source, mut factories) = (false, "react", ["React", "React"]);
        for comment in comments {
            let content = comment.content_span();
            let Some(body) = text.get(content.start as usize..content.end as usize) else { continue };
            let mut words = body.split(|c: char| c.is_whitespace() || c == '*').filter(|w| !w.is_empty());
            while let Some(word) = words.next() {
                let root = |value: &'t str| value.split('.').next().unwrap_or(value);
                match (word, words.clone().next()) {
                    ("@jsxRuntime", Some(runtime)) => classic = runtime == "classic",
                    ("@jsxImportSource", Some(named)) => source = named,
                    ("@jsx", Some(factory)) => factories[0] = root(factory),
                    ("@jsxFrag", Some(fragment)) => factories[1] = root(fragment),
                    _ => {}
                }
            }
        }
        if classic { JsxRuntime::Classic { factories } } else { JsxRuntime::Automatic { source } }
    }
}
