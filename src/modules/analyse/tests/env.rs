//! Environment reads, through `process.env`, `Bun.env` and the execute context's `env`.

use super::*;

#[test]
fn env_reads() {
    let text = r#"
const key = process.env.OPENAI_API_KEY
const other = process.env['X']
const { A, B: renamed, ...rest } = process.env
const bun = Bun.env.BUN_KEY
const bun2 = Bun.env["BUN_2"]
const dynamic = process.env[name]
const optional = process?.env?.OPT
const notEnv = process.envs.X
"#;
    let facts = run("a.ts", text);
    let got: Vec<_> = facts.env_reads.iter().map(|r| (r.name.as_str(), r.via, slice(text, r.span))).collect();
    assert_eq!(
        got,
        [
            ("OPENAI_API_KEY", "process.env", "process.env.OPENAI_API_KEY"),
            ("X", "process.env", "process.env['X']"),
            ("A", "process.env", "A"),
            ("B", "process.env", "B: renamed"),
            ("BUN_KEY", "Bun.env", "Bun.env.BUN_KEY"),
            ("BUN_2", "Bun.env", "Bun.env[\"BUN_2\"]"),
            ("OPT", "process.env", "process?.env?.OPT"),
        ]
    );
}

/// Many names, each read twice: each once, in the order first read (past 32 names they are kept by hash too).
#[test]
fn many_context_env_names_each_once() {
    let reads: String = (0..100).chain(0..100).map(|i| format!("context.env.K{i};")).collect();
    let text = format!("export default {{ execute(args, context) {{ {reads} }} }}");
    let names: Vec<String> = (0..100).map(|i| format!("K{i}")).collect();
    assert_eq!(run("a.ts", &text).context_env.to_vec(), names);
}

#[test]
fn context_env_reads() {
    let text = r#"
export default {
  async execute(args, ctx) {
    const a = ctx.env.FIRST
    const b = ctx.env['SECOND']
    const { THIRD, FIRST } = ctx.env
    return context.env.NOT_THE_PARAMETER
  },
}
"#;
    assert_eq!(run("a.ts", text).context_env.to_vec(), ["FIRST", "SECOND", "THIRD"]);
    // Without a second parameter, the usual names count.
    let text = "function helper(ctx) { return ctx.env.B }\n\
                export default { execute(args) { return context.env.A + helper(globalThis.ctx) } }";
    assert_eq!(run("a.ts", text).context_env.to_vec(), ["B", "A"]);
    // The context's `env` destructured or bound to a name, inside `execute` only.
    let text = "const env = load(); env.OUTSIDE\n\
                export default { execute(args, { env: e, signal }) {\n\
                  const { env } = context; const direct = context.env\n\
                  return [e.ONE, env['TWO'], direct.THREE, e.ONE] } }";
    assert_eq!(run("a.ts", text).context_env.to_vec(), ["ONE", "TWO", "THREE"]);
}
