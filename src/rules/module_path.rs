use crate::diagnostic::{Diagnostic, Label};
use crate::manifest::tools::ToolValue;
use crate::project::Project;

crate::rules::declare_rule! {
    /// A project tool's module path is not a repo-relative path to a module.
    ///
    /// ## What it checks
    /// The path must be repo-relative (not absolute, not `~`, not a URL or
    /// scheme, no drive letter, no backslashes), stay inside the repository, and
    /// end in `.ts`, `.js`, `.mts`, `.mjs`, `.cts` or `.cjs` (not `.tsx`, `.jsx`,
    /// `.json`, `.md`, nor a `.d.ts` declaration file). `./tools/x.ts` is fine. A
    /// path that fails here is not checked for existence.
    ///
    /// ## Why
    /// The platform refuses the declaration; the tool never loads.
    ///
    /// ## Example
    /// ```yaml
    /// tools:
    ///   lookup_order: tools/lookup_order.tsx
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// tools:
    ///   lookup_order: tools/lookup_order.ts
    /// ```
    ///
    /// ## Fix
    /// Point at a `.ts` or `.js` module inside the repository.
    id: "module-path",
    severity: Error,
    category: Tool,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for decl in project.tools.iter().filter(|d| !d.is_beeuni_name()) {
        let ToolValue::Module { path: Err(reason) } = &decl.value else {
            continue;
        };
        // The subject (the tool), the value and what is wrong with it, then the documented requirement.
        let message = format!(
            "module path of tool `{}`: {reason}; it must be a repo-relative path to a .ts, .js, .mts, .mjs, .cts or .cjs module",
            decl.name
        );
        let help = format!("point `{}` at a `.ts` or `.js` module inside the repository", decl.name);
        let at = Label::new(decl.file, decl.entry());
        out.push(RULE.diagnostic(at, message).help(help));
    }
}
