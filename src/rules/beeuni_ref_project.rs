use crate::catalog::BEEUNI_TOOLS;
use crate::diagnostic::{Diagnostic, Label};
use crate::manifest::tools::ToolValue;
use crate::project::Project;
use crate::suggest::near_matches;

crate::rules::declare_rule! {
    /// A project tool (not a Beeuni tool's name) has a `beeuni:` value.
    ///
    /// ## What it checks
    /// Only the five Beeuni tools take `beeuni:` values; any other name needs a
    /// module path. When the name is close to a Beeuni tool's, the help suggests
    /// that key.
    ///
    /// ## Why
    /// `search: beeuni:web_search` neither renames nor loads the Beeuni tool: the
    /// platform refuses it.
    ///
    /// ## Example
    /// ```yaml
    /// tools:
    ///   search: beeuni:web_search
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// tools:
    ///   web_search: beeuni:web_search
    /// ```
    ///
    /// ## Fix
    /// Use the Beeuni tool's own key (`web_search: beeuni:web_search`), or point
    /// the project tool at its module.
    id: "beeuni-ref-project",
    severity: Error,
    category: Tool,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for decl in project.tools.iter().filter(|d| !d.is_beeuni_name()) {
        let ToolValue::Beeuni(target) = &decl.value else {
            continue;
        };
        let name = &decl.name;
        let message =
            format!("`{name}` is not a Beeuni tool: a project tool needs a module path, not `beeuni:{target}`");
        let help = match near_matches(name, BEEUNI_TOOLS).first() {
            Some(beeuni) => format!("did you mean `{beeuni}: beeuni:{beeuni}`?"),
            None => format!("point it at its module, e.g. `{name}: tools/{name}.ts`"),
        };
        out.push(RULE.diagnostic(Label::new(decl.file, decl.entry()), message).help(help));
    }
}
