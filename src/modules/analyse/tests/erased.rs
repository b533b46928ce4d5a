//! What Bun's transpiler erases from a module's imports, and the JSX runtime import it adds.

use super::*;

/// (specifier, kind, erased) of each import, in order.
fn imports(path: &str, text: &str) -> Vec<(String, ImportKind, bool)> {
    let facts = run(path, text);
    assert!(facts.syntax_errors().is_empty(), "{:?}", facts.syntax_errors());
    facts.imports.iter().map(|i| (i.specifier.to_string(), i.kind, i.type_only)).collect()
}

fn erased(path: &str, text: &str) -> Vec<(String, bool)> {
    imports(path, text).into_iter().map(|(specifier, _, erased)| (specifier, erased)).collect()
}

#[test]
fn typescript_imports_without_value_uses_are_erased() {
    let text = "\
import { McpServer } from 'mcp'
import { unused } from 'unused'
import Def from 'def'
import * as ns from 'ns'
import { helper } from 'helper'
import { Shadowed } from 'shadowed'
import { a, B } from 'mixed'
import { called } from 'called'
type H = typeof helper
let server: McpServer | Def | ns.T | H
function f(Shadowed: number) { return Shadowed }
const x: B = a
called()
";
    let want = [
        ("mcp", true),
        ("unused", true),
        ("def", true),
        ("ns", true),
        ("helper", true),
        ("shadowed", true),
        ("mixed", false),
        ("called", false),
    ];
    for path in ["a.ts", "a.mts", "a.cts", "a.tsx"] {
        assert_eq!(erased(path, text), want.map(|(s, e)| (s.to_string(), e)), "{path}");
    }
}

/// A side-effect import, `import {}`, a name re-exported or exported as the default, `import x = require()`,
/// and every import of a module with a decorator are kept.
#[test]
fn imports_bun_keeps_in_typescript() {
    let text = "\
import 'side'
import {} from 'empty'
import { Reexported } from 'reexported'
import Default from 'default'
import fs = require('fs')
export { Reexported }
export default Default
";
    let got = erased("a.ts", text);
    assert!(got.iter().all(|(_, erased)| !erased), "{got:?}");
    let decorated = "import { Reader } from 'reader'\n@sealed class A { constructor(r: Reader) {} }\nfunction sealed(c: unknown) {}\n";
    assert_eq!(erased("a.ts", decorated), [("reader".to_string(), false)]);
}

/// JavaScript erases nothing: an unused import is evaluated.
#[test]
fn javascript_keeps_unused_imports() {
    for path in ["a.js", "a.mjs", "a.jsx"] {
        assert_eq!(erased(path, "import { unused } from 'unused'\n"), [("unused".to_string(), false)], "{path}");
    }
}

/// In `.tsx` a component's import is a value (the element reads it); `React` is not (the automatic runtime
/// does not read it).
#[test]
fn jsx_runtime_import_at_the_first_element() {
    let text =
        "import React from 'react'\nimport { Card } from './card'\nexport const view = () => <Card><b/></Card>\n";
    let got = imports("a.tsx", text);
    assert_eq!(
        got,
        [
            ("react".to_string(), ImportKind::Static, true),
            ("./card".to_string(), ImportKind::Static, false),
            ("react/jsx-dev-runtime".to_string(), ImportKind::Jsx, false),
        ]
    );
    let facts = run("a.tsx", text);
    assert_eq!(slice(text, facts.imports[2].span), "<Card>");
    let fragment = "const f = () => 1\nexport default () => <>\n  <p>x</p>\n</>\n";
    let facts = run("a.jsx", fragment);
    assert_eq!(slice(fragment, facts.imports[0].span), "<>");
}

#[test]
fn jsx_pragmas() {
    let element = "export const v = <p/>\n";
    let runtime = |text: String, path: &str| -> Vec<String> {
        imports(path, &text).into_iter().map(|(specifier, _, _)| specifier).collect()
    };
    assert_eq!(runtime(format!("/** @jsx h */\n{element}"), "a.js"), ["react/jsx-dev-runtime"]);
    assert_eq!(
        runtime(format!("/**\n * @jsxImportSource @emotion/react\n */\n{element}"), "a.jsx"),
        ["@emotion/react/jsx-dev-runtime"]
    );
    assert_eq!(runtime(format!("// @jsxImportSource preact\n{element}"), "a.tsx"), ["preact/jsx-dev-runtime"]);
    assert!(runtime(format!("/** @jsxRuntime classic */\n{element}"), "a.js").is_empty());
    assert!(runtime("export const v = 1 < 2\n".to_string(), "a.js").is_empty());
}

/// Under the classic runtime the JSX calls its factory: the import that binds it is a value (the automatic
/// runtime reads no `React`, and its import goes).
#[test]
fn the_classic_runtime_reads_its_factory() {
    let element = "import React from 'react'\nimport { h, Fragment } from 'preact'\nexport const v = <p/>\n";
    let classic = format!("/** @jsxRuntime classic */\n{element}");
    assert_eq!(erased("a.tsx", &classic), [("react".to_string(), false), ("preact".to_string(), true)]);
    let preact = format!("/** @jsxRuntime classic @jsx h @jsxFrag Fragment */\n{element}");
    assert_eq!(erased("a.tsx", &preact), [("react".to_string(), true), ("preact".to_string(), false)]);
    let automatic = erased("a.tsx", element);
    assert_eq!(automatic, [("react".into(), true), ("preact".into(), true), ("react/jsx-dev-runtime".into(), false)]);
}
