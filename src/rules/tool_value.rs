use crate::diagnostic::{Diagnostic, Label};
use crate::manifest::tools::ToolValue;
use crate::project::Project;

crate::rules::declare_rule! {
    /// A tool's value is not a string.
    ///
    /// ## What it checks
    /// Every value under `tools:` is a string: `beeuni:<name>` or a module path.
    /// Null (a key with nothing after the colon), numbers, booleans, lists and
    /// mappings are errors.
    ///
    /// ## Why
    /// The platform cannot load a tool without a source.
    ///
    /// ## Example
    /// ```yaml
    /// tools:
    ///   lookup_order:
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// tools:
    ///   lookup_order: tools/lookup_order.ts
    /// ```
    ///
    /// ## Fix
    /// Write the module path (`lookup_order: tools/lookup_order.ts`) or, for a
    /// Beeuni tool, `beeuni:<name>`.
    id: "tool-value",
    severity: Error,
    category: Tool,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for decl in &project.tools {
        let ToolValue::NotString(what) = decl.value else {
            continue;
        };
        let name = &decl.name;
        let message = format!("the value of tool `{name}` must be a string, not {what}");
        let help = if decl.is_beeuni_name() {
            format!("write `{name}: beeuni:{name}`, or the path of a module that replaces it")
        } else {
            format!("write the path of its module, e.g. `{name}: tools/{name}.ts`")
        };
        out.push(RULE.diagnostic(Label::new(decl.file, decl.entry()), message).help(help));
    }
}
