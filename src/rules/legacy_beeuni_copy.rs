use crate::catalog::is_beeuni;
use crate::diagnostic::{Diagnostic, Fix, Label, Safety};
use crate::project::Project;

crate::rules::declare_rule! {
    /// `harnesses/opencode/tools/` holds a copy of a Beeuni tool.
    ///
    /// ## What it checks
    /// A file `web_search.ts`, `memory.ts`, … (any module extension) named like
    /// one of the five Beeuni tools in the standard harness's own tool folder.
    /// Projects created before the hosted tools have such copies.
    ///
    /// ## Why
    /// On the standard harness a tool in this folder takes precedence over the
    /// hosted tool of the same name: the project keeps running its old copy, and
    /// Beeuni's fixes never reach it.
    ///
    /// ## Example
    /// `harnesses/opencode/tools/web_search.ts`
    ///
    /// ## Use instead
    /// No file: list the tool in `beeuni.yaml` and the daemon provides it on both harnesses.
    ///
    /// ```yaml
    /// tools:
    ///   web_search: beeuni:web_search
    /// ```
    ///
    /// ## Fix
    /// Delete the file: the daemon provides the tools `beeuni.yaml` lists, on both
    /// harnesses. `--fix --unsafe-fixes` deletes it (an unsafe fix), offered only
    /// when git reports it unmodified.
    id: "legacy-beeuni-copy",
    severity: Warning,
    category: Legacy,
    fix: Unsafe,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for (file, stem) in project.legacy_tools.iter().filter(|(_, stem)| is_beeuni(stem)) {
        let (path, shown) = (&project.file(*file).path, &project.file(*file).shown);
        let message = format!(
            "`{shown}` is an old copy of the Beeuni tool `{stem}`: on the standard harness it takes precedence over the hosted tool"
        );
        let help = format!("delete it: the daemon provides `{stem}` on both harnesses when `beeuni.yaml` lists it");
        let at = Label::new(*file, project.file(*file).line_span(0));
        let mut diagnostic = RULE.diagnostic(at, message).help(help);
        if project.is_unmodified(path) {
            diagnostic = diagnostic.fix(Fix::delete(Safety::Unsafe, path.to_string()));
        }
        out.push(diagnostic);
    }
}
