//! xcsh custom tools written the way real ones are (RULES.md §6): each test is a minimal reproduction of an idiom
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
