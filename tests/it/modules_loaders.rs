//! Imports as Bun's transpiler leaves them: in TypeScript, an `import … from`
//! none of whose bindings is used as a value is dropped (also without
//! `import type`), so nothing is reported about it; in JavaScript nothing is
//! erased. JSX compiles to an import of `react/jsx-dev-runtime`, reported by
//! the package rules at the first element like any import.

use crate::common::*;
use crate::modules_support::*;

/// Types imported without `import type` (from a package, a harness package, a hand-written `types.d.ts`), a
/// binding used only in `typeof`, and an import never used: all erased. `zod`, used as a value, is not.
const TYPES_ONLY: &str = "\
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { ToolContext } from '@opencode-ai/plugin'
import { Order } from './types'
import { format } from '../lib/format'
import { pad } from 'left-pad'
import { z } from 'zod'

type Formatter = typeof format
let server: McpServer | undefined
export default {
  description: 'Looks up an order',
  parameters: { type: 'object', properties: { id: { type: 'string' } } },
  async execute(args: Order, context: ToolContext): Promise<string> {
    const f: Formatter | undefined = undefined
    return String(server ?? f ?? z)
  },
}
";

#[test]
fn imports_used_only_as_types_are_erased_in_typescript() {
    let dir = tempfile::TempDir::new().unwrap();
    write_module(dir.path(), "tools/lookup_order.ts", TYPES_ONLY.as_bytes());
    write(dir.path(), "tools/types.d.ts", b"export interface Order { id: string }\n");
    let (code, report) = json_in(dir.path(), &[]);
    let harness = "`tools/lookup_order.ts` imports types from the harness package `@opencode-ai/plugin`: it ties the module to one harness";
    assert_module_findings(
        &report,
        &[
            (("module-harness-type-import", "warning", "tools/lookup_order.ts", 2, 1, harness), 3),
            (("module-package-missing", "error", "tools/lookup_order.ts", 6, 1, "Cannot find package 'zod'"), 3),
        ],
    );
    assert_eq!(code, 1);

    // The twin: `z` is no longer used as a value, and its import goes too.
    let dir = tempfile::TempDir::new().unwrap();
    write_module(dir.path(), "tools/lookup_order.ts", TYPES_ONLY.replace("f ?? z", "f").as_bytes());
    write(dir.path(), "tools/types.d.ts", b"export interface Order { id: string }\n");
    let (code, report) = json_in(dir.path(), &[]);
    assert_module_findings(
        &report,
        &[(("module-harness-type-import", "warning", "tools/lookup_order.ts", 2, 1, harness), 3)],
    );
    assert_eq!(code, 1);
}

/// JavaScript has no types to erase: an import never used is still evaluated, and must resolve.
#[test]
fn unused_imports_are_kept_in_javascript() {
    let module = "import { pad } from 'left-pad'\nimport { format } from '../lib/format'\nexport default { description: 'x', parameters: { type: 'object', properties: {} }, async execute() { return 'ok' } }\n";
    let dir = tempfile::TempDir::new().unwrap();
    write_module(dir.path(), "tools/lookup_order.js", module.as_bytes());
    let (code, report) = json_in(dir.path(), &[]);
    let missing =
        "`tools/lookup_order.js` imports `../lib/format`: no such file (tried the module extensions and `index.*`)";
    assert_module_findings(
        &report,
        &[
            (("module-package-missing", "error", "tools/lookup_order.js", 1, 1, "Cannot find package 'left-pad'"), 3),
            (("module-import-missing", "error", "tools/lookup_order.js", 2, 1, missing), 3),
        ],
    );
    assert_eq!(code, 1);
}

/// A side-effect import, a binding re-exported by name and a TypeScript module with decorators keep their
/// imports (Bun runs the first; the second is a value for all the transpiler knows; `emitDecoratorMetadata` may
/// turn the third's types into values).
#[test]
fn imports_bun_keeps_in_typescript() {
    let module = "import 'left-pad'\nimport { Order } from './order'\nimport { Reader } from 'reader'\nexport { Order }\n@sealed\nclass Lookup { constructor(reader: Reader) {} }\nfunction sealed(c: unknown) {}\nexport default { description: 'x', parameters: { type: 'object', properties: {} }, async execute() { return 'ok' } }\n";
    let dir = tempfile::TempDir::new().unwrap();
    write_module(dir.path(), "tools/lookup_order.ts", module.as_bytes());
    let (_, report) = json_in(dir.path(), &[]);
    let missing = "`tools/lookup_order.ts` imports `./order`: no such file (tried the module extensions and `index.*`)";
    let found: Vec<(&str, u64)> = diagnostics(&report)
        .iter()
        .filter(|d| d["rule"].as_str().is_some_and(|r| r.starts_with("module-package") || r == "module-import-missing"))
        .map(|d| (d["rule"].as_str().unwrap(), d["line"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        found,
        [("module-package-missing", 1), ("module-import-missing", 2), ("module-package-missing", 3)],
        "{report:#}"
    );
    assert!(report.to_string().contains(missing), "{report:#}");
}

const JSX_TOOL: &str = "\
import { card } from './card.tsx'

const header = <h1>Orders</h1>
export default {
  description: 'Looks up an order',
  parameters: { type: 'object', properties: {} },
  async execute() { return String(header) + card() },
}
";

const JSX_HELPER: &str = "/** @jsx h */\nexport function card(): unknown {\n  return <>\n    <p>order</p>\n  </>\n}\n";

/// JSX in a `.js` tool and a `.tsx` helper, without `react` installed: each module fails to load. A `@jsx h`
/// pragma alone leaves the automatic runtime on.
#[test]
fn jsx_imports_the_react_runtime() {
    let dir = tempfile::TempDir::new().unwrap();
    write_module(dir.path(), "tools/lookup_order.js", JSX_TOOL.as_bytes());
    write(dir.path(), "tools/card.tsx", JSX_HELPER.as_bytes());
    let (code, report) = json_in(dir.path(), &[]);
    let message = "Cannot find package 'react': Bun compiles the module's JSX to an import of `react/jsx-dev-runtime`";
    assert_findings(
        &report,
        &[
            ("module-package-missing", "error", "tools/card.tsx", 3, 10, message),
            ("module-package-missing", "error", "tools/lookup_order.js", 3, 16, message),
        ],
    );
    assert_help(
        &diagnostics(&report)[1],
        "the sandbox installs no packages for a tool: build the values without JSX, or commit `react` under a tracked `node_modules` beside or above the module",
    );
    assert_eq!(code, 1);
}

/// The twins: `react` installed; the classic runtime asked for (it imports nothing); `@jsxImportSource` naming
/// an installed package.
#[test]
fn jsx_with_its_runtime_installed_or_none_needed() {
    let dir = tempfile::TempDir::new().unwrap();
    write_module(dir.path(), "tools/lookup_order.js", JSX_TOOL.as_bytes());
    write(dir.path(), "tools/card.tsx", JSX_HELPER.as_bytes());
    write(dir.path(), "node_modules/react/package.json", b"{ \"name\": \"react\" }\n");
    write(dir.path(), "node_modules/react/jsx-dev-runtime.js", b"module.exports = {}\n");
    let (code, report) = json_in(dir.path(), &[]);
    assert_clean("react installed", code, &report);

    let dir = tempfile::TempDir::new().unwrap();
    let classic = format!("/** @jsxRuntime classic */\n{JSX_TOOL}");
    write_module(dir.path(), "tools/lookup_order.js", classic.as_bytes());
    let helper = JSX_HELPER.replace("@jsx h", "@jsxImportSource preact");
    write(dir.path(), "tools/card.tsx", helper.as_bytes());
    write(dir.path(), "node_modules/preact/package.json", b"{ \"name\": \"preact\" }\n");
    write(dir.path(), "node_modules/preact/jsx-dev-runtime.js", b"module.exports = {}\n");
    let (code, report) = json_in(dir.path(), &[]);
    assert_clean("classic runtime, preact", code, &report);
}
