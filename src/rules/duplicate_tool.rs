use crate::diagnostic::{Diagnostic, Label};
use crate::project::Project;

crate::rules::declare_rule! {
    /// One tool name is declared in two files of the graph.
    ///
    /// ## What it checks
    /// A name under `tools:` may be declared in one file only. The finding points
    /// at the later declaration in graph order (the root, then imports
    /// depth-first) and labels the first. Two declarations in one mapping are
    /// `duplicate-key`.
    ///
    /// ## Why
    /// The docs make it an error: which declaration wins is not defined.
    ///
    /// ## Example
    /// ```yaml
    /// # beeuni.yaml
    /// imports: [config/tools.yaml]
    /// tools: { lookup_order: tools/lookup_order.ts }
    /// # config/tools.yaml
    /// tools: { lookup_order: tools/orders.ts }
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// # beeuni.yaml
    /// imports: [config/tools.yaml]
    /// tools: { lookup_order: tools/lookup_order.ts }
    /// # config/tools.yaml
    /// tools: { list_orders: tools/orders.ts }
    /// ```
    ///
    /// ## Fix
    /// Keep one declaration.
    id: "duplicate-tool",
    severity: Error,
    category: Tool,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for (first, repeat) in super::declared_elsewhere(&project.tools, |d| project.first_declared(&d.name), |d| d.file) {
        let message = format!(
            "tool `{}` is already declared in `{}`: a name may be declared in one file only",
            repeat.name,
            project.file(first.file).shown
        );
        out.push(
            RULE.diagnostic(Label::new(repeat.file, repeat.entry()), message)
                .related(Label::with_message(first.file, first.entry(), "first declared here"))
                .help("remove one of the two declarations"),
        );
    }
}
