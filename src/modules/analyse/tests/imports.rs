//! Imports and requires of every kind.

use super::*;

#[test]
fn imports_of_every_kind() {
    let text = r#"#!/usr/bin/env bun
import 'side-effect'
import def, { a } from './a.js'
import * as ns from 'node:fs'
import type { T } from '@opencode-ai/plugin'
import { type A, type B } from './types'
import { type C, d } from './mixed'
import {} from './empty'
export { x } from './x'
export type { Y } from './y'
export { type Z } from './z'
export * from './star'
export type * from './star-types'
import fs = require('fs')
const lazy = await import('./lazy')
const tpl = import(`./tpl`)
const notStatic = import(name)
const dep = require('dep')
const notDep = require(name)
function later() { return require('./nested') }
console.log(def, a, ns, d)
"#;
    let facts = run("a.ts", text);
    assert!(facts.syntax_errors().is_empty(), "{:?}", facts.syntax_errors());
    let got: Vec<_> = facts.imports.iter().map(|i| (i.specifier.as_str(), i.kind, i.type_only)).collect();
    use ImportKind::*;
    assert_eq!(
        got,
        [
            ("side-effect", Static, false),
            ("./a.js", Static, false),
            ("node:fs", Static, false),
            ("@opencode-ai/plugin", Static, true),
            ("./types", Static, true),
            ("./mixed", Static, false),
            ("./empty", Static, false),
            ("./x", ReExport, false),
            ("./y", ReExport, true),
            ("./z", ReExport, true),
            ("./star", ReExport, false),
            ("./star-types", ReExport, true),
            ("fs", Require, false),
            ("./lazy", Dynamic, false),
            ("./tpl", Dynamic, false),
            ("dep", Require, false),
            ("./nested", Require, false),
        ]
    );
    let spans: Vec<_> = facts.imports.iter().map(|i| slice(text, i.span)).collect();
    assert_eq!(spans[0], "import 'side-effect'");
    assert_eq!(spans[13], "import('./lazy')");
    assert_eq!(spans[15], "require('dep')");
}

#[test]
fn commonjs_requires() {
    let text = "const { a } = require('./a.cjs');\nmodule.exports = { description: require('./d.json').text };";
    let facts = run("a.cjs", text);
    let got: Vec<_> = facts.imports.iter().map(|i| i.specifier.as_str()).collect();
    assert_eq!(got, ["./a.cjs", "./d.json"]);
    assert_eq!(found(&object(&facts).description), Description::Other);
}
