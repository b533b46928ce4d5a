//! xcsh custom tools written the way real ones are (docs/spec/rules.md §6): each test is a minimal reproduction of an idiom
//! that loads and works in xcsh, linted through the real binary.

use crate::common::*;

const TOOL: &str = ".xcsh/tools/notify.ts";

/// A helper of the module's own whose parameter happens to be called `ctx` is not the `ctx` that `execute`
/// receives: whether its `ctx.ui` is guarded is its callers' business (here `if (ctx.hasUI)`), so it is not
/// reported; an unguarded `ctx.ui` inside `execute` still is.
#[test]
fn a_helpers_own_ctx_is_not_the_execute_context() {
    let module = r#"function notify(ctx, text) {
  ctx.ui.notify(text, 'info')
}

export default (pi) => ({
  name: 'notify',
  description: 'Shows a note',
  parameters: pi.typebox.Type.Object({ text: pi.typebox.Type.String() }),
  async execute(toolCallId, params, onUpdate, ctx, signal) {
    if (ctx.hasUI) notify(ctx, params.text)
    ctx.ui.setStatus('notify', 'done')
    return { content: [] }
  },
})
"#;
    let dir = project(&[(TOOL, module)]);
    let (code, report) = json_in(dir.path(), &[]);
    let message = "`ctx.ui` is used in `.xcsh/tools/notify.ts` outside a test of `hasUI`: without a UI it is a no-op";
    assert_findings(&report, &[("xcsh-ui-guard", "warning", TOOL, 11, 5, message)]);
    assert_eq!(code, 1);
}

/// One shape of real xcsh tool code: its files, and the findings it gets (in report order).
struct Shape<'a> {
    what: &'a str,
    files: &'a [(&'a str, &'a str)],
    expected: &'a [Expect<'a>],
}

const PI_TOOLS_TS: &str = r#"import type { CustomToolFactory } from '@f5-sales-demo/xcsh'

const factory: CustomToolFactory = (pi) => {
  const { Type } = pi.typebox
  return [
    {
      name: 'todo_add',
      description: 'Adds a TODO',
      parameters: Type.Object({ text: Type.String() }),
      async execute(toolCallId, params, onUpdate, ctx, signal) {
        return { content: [{ type: 'text', text: `added ${params.text}` }] }
      },
    },
    {
      name: 'todo_list',
      description: 'Lists the TODOs',
      parameters: Type.Object({}),
      async execute(toolCallId, params, onUpdate, ctx, signal) {
        if (!ctx.hasUI) return { content: [] }
        ctx.ui.notify('Listing…', 'info')
        return { content: [] }
      },
    },
  ]
}

export default factory
"#;

const COMMONJS_JS: &str = r#"const { execFile } = require('node:child_process')

module.exports = (pi) => ({
  name: 'uptime',
  description: 'Shows how long the machine has been up',
  parameters: pi.typebox.Type.Object({}),
  execute(toolCallId, params, onUpdate, ctx, signal) {
    return new Promise((resolve) => execFile('uptime', { signal }, (error, stdout) => resolve({ content: [{ type: 'text', text: stdout }] })))
  },
})
"#;

const ASYNC_UNDEFINED_TS: &str = r#"export default async function (pi) {
  const check = await pi.exec('docker', ['info'], { cwd: pi.cwd })
  if (check.code !== 0) return undefined
  return {
    name: 'docker_ps',
    description: 'Lists the running containers',
    parameters: pi.typebox.Type.Object({}),
    async execute(toolCallId, params, onUpdate, ctx, signal) {
      const result = await pi.exec('docker', ['ps'], { signal, cwd: pi.cwd })
      return { content: [{ type: 'text', text: result.stdout }] }
    },
  }
}
"#;

const NUMBER_JS: &str = r#"export default (pi) => (pi.hasUI ? 0 : { name: 'x', description: 'd', parameters: pi.typebox.Type.Object({}), execute(id, p, u, ctx, signal) { return { content: [] } } })
"#;

const NAMED_JS: &str = r#"export function createTool(pi) {
  return { name: 'ping', description: 'Pings a host', parameters: pi.typebox.Type.Object({}), execute(id, p, u, ctx, signal) { return { content: [] } } }
}
"#;

const HELPER_MTS: &str = "export function greeting(name: string): string {\n  return `hello ${name}`\n}\n";

const USES_HELPER_TS: &str = r#"import { greeting } from './greeting.mts'

export default (pi) => ({
  name: 'greet',
  description: 'Greets someone',
  parameters: pi.typebox.Type.Object({ name: pi.typebox.Type.String() }),
  async execute(toolCallId, params, onUpdate, ctx, signal) {
    return { content: [{ type: 'text', text: greeting(params.name) }] }
  },
})
"#;

const INVERTED_TS: &str = r#"export default (pi) => ({
  name: 'lint_fix',
  description: 'Fixes lint errors',
  parameters: pi.typebox.Type.Object({}),
  async execute(toolCallId, params, onUpdate, ctx, signal) {
    const result = await pi.exec('eslint', ['--fix', '.'], { signal, cwd: pi.cwd })
    ctx.hasUI ? null : ctx.ui.notify('fixed', 'info')
    return { content: [{ type: 'text', text: result.stdout }] }
  },
})
"#;

/// What `tsc` writes for `export default factory` in a CommonJS build.
const COMPILED_JS: &str = r#""use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const factory = (pi) => ({
    name: "compiled",
    description: "Built by tsc",
    parameters: pi.typebox.Type.Object({}),
    async execute(toolCallId, params, onUpdate, ctx, signal) {
        return { content: [] };
    },
});
exports.default = factory;
"#;

const DEFINE_TS: &str =
    "import { defineTool } from './lib/define'\n\nexport default defineTool('deploy', 'Deploys the site')\n";

const DEFINE_HELPER_TS: &str = "export const defineTool = (name, description) => (pi) => ({ name, description, parameters: pi.typebox.Type.Object({}), execute() { return { content: [] } } })\n";

const BEEUNI_BINDING_TS: &str = r#"const lookupOrder = {
  description: 'Look up an order',
  parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  async execute(args, context) {
    return `order ${args.id}`
  },
}

export default lookupOrder
"#;

/// Real-code xcsh shapes, TS and JS, ESM and CommonJS, with what each gets as the loader sees it.
#[test]
fn real_code_shapes_of_xcsh_tools() {
    let shapes = [
        Shape {
            what: "a pi factory returning two tools, typed",
            files: &[(".xcsh/tools/todo.ts", PI_TOOLS_TS)],
            expected: &[],
        },
        Shape { what: "CommonJS module.exports", files: &[(".xcsh/tools/uptime.js", COMMONJS_JS)], expected: &[] },
        Shape {
            what: "an async factory returning undefined on one path",
            files: &[(".xcsh/tools/docker.ts", ASYNC_UNDEFINED_TS)],
            expected: &[(
                "xcsh-factory-return",
                "error",
                ".xcsh/tools/docker.ts",
                1,
                16,
                "the factory of `.xcsh/tools/docker.ts` returns `undefined`, not a tool: it must return a tool, an array of tools, or a Promise of either",
            )],
        },
        Shape {
            what: "a number on one side of a conditional",
            files: &[(".codex/tools/maybe.js", NUMBER_JS)],
            expected: &[(
                "xcsh-factory-return",
                "error",
                ".codex/tools/maybe.js",
                1,
                16,
                "the factory of `.codex/tools/maybe.js` returns `0`, not a tool: it must return a tool, an array of tools, or a Promise of either",
            )],
        },
        Shape {
            what: "a factory exported by name only, in JS",
            files: &[(".claude/tools/ping.js", NAMED_JS)],
            expected: &[(
                "xcsh-export",
                "error",
                ".claude/tools/ping.js",
                1,
                1,
                "`.claude/tools/ping.js` has no default export: the loader takes `module.default ?? module`, not the named `createTool`, and the loader fails with \"Tool must export a default function\"",
            )],
        },
        Shape {
            what: "a .mts helper beside the tool, and a .mjs file in .codex/tools: helpers, not tools",
            files: &[
                (".xcsh/tools/greet.ts", USES_HELPER_TS),
                (".xcsh/tools/greeting.mts", HELPER_MTS),
                (".codex/tools/draft.mjs", "export default (pi) => ({ name: 'draft' })\n"),
            ],
            expected: &[],
        },
        Shape {
            what: "a README and a shell script in .claude/tools",
            files: &[(".claude/tools/README.md", "# Tools\n"), (".claude/tools/build.sh", "#!/bin/sh\nmake\n")],
            expected: &[
                (
                    "xcsh-metadata-file",
                    "info",
                    ".claude/tools/README.md",
                    1,
                    1,
                    "`.claude/tools/README.md` is metadata in an xcsh tool folder: the loader never loads it as a tool",
                ),
                (
                    "xcsh-export",
                    "error",
                    ".claude/tools/build.sh",
                    1,
                    1,
                    "`.claude/tools/build.sh` is no module, but xcsh loads every file in `.claude/tools` as a tool: the loader fails with \"Tool must export a default function\"",
                ),
            ],
        },
        Shape {
            what: "exports.default in CommonJS, without and with __esModule",
            files: &[
                (".xcsh/tools/plain.js", "exports.default = (pi) => ({ name: 'plain' })\n"),
                (".xcsh/tools/compiled.js", COMPILED_JS),
            ],
            expected: &[(
                "xcsh-export",
                "error",
                ".xcsh/tools/plain.js",
                1,
                1,
                "`.xcsh/tools/plain.js` sets `exports.default` without `__esModule`: Bun's default export is then the exports object `{ default: … }`, and the loader fails with \"Tool must export a default function\"",
            )],
        },
        Shape {
            what: "the UI called in the branch without a UI",
            files: &[(".xcsh/tools/lint_fix.ts", INVERTED_TS)],
            expected: &[(
                "xcsh-ui-guard",
                "warning",
                ".xcsh/tools/lint_fix.ts",
                7,
                24,
                "`ctx.ui` is used in `.xcsh/tools/lint_fix.ts` where `hasUI` is false: an inverted guard, not a guard; it runs only without a UI, where it is a no-op",
            )],
        },
        Shape {
            what: "a factory built by a helper of the project",
            files: &[(".xcsh/tools/deploy.ts", DEFINE_TS), (".xcsh/tools/lib/define.ts", DEFINE_HELPER_TS)],
            expected: &[(
                "xcsh-unanalyzable",
                "info",
                ".xcsh/tools/deploy.ts",
                3,
                1,
                "the default export of `.xcsh/tools/deploy.ts` could not be checked: it is built at run time by `defineTool(...)`",
            )],
        },
        Shape {
            what: "a Beeuni tool object in .xcsh/tools, exported through a binding",
            files: &[(".xcsh/tools/lookup.ts", BEEUNI_BINDING_TS)],
            expected: &[(
                "xcsh-export",
                "error",
                ".xcsh/tools/lookup.ts",
                9,
                1,
                "`.xcsh/tools/lookup.ts` exports a plain object: this is the Beeuni form; an xcsh custom tool module exports a factory `(pi) => tool`",
            )],
        },
    ];
    for shape in shapes {
        let dir = project(shape.files);
        let (_, report) = json_in(dir.path(), &[]);
        eprintln!("shape: {}", shape.what);
        assert_findings(&report, shape.expected);
    }
    // The help wraps the module's own binding, named after the file.
    let dir = project(&[(".xcsh/tools/lookup.ts", BEEUNI_BINDING_TS)]);
    let (_, report) = json_in(dir.path(), &[]);
    let help = diagnostics(&report)[0]["help"].as_str().unwrap();
    assert!(help.starts_with("return the object from a factory, with a `name`: `export default (pi) => ({ name: \"lookup\", ...lookupOrder })`"), "{help}");
}
