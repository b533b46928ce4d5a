use crate::diagnostic::{Diagnostic, Label};
use crate::project::Project;
use crate::repo::fs::Refusal;

crate::rules::declare_rule! {
    /// A declared module does not exist, is a folder, or leads outside the repository.
    ///
    /// ## What it checks
    /// For every valid module path under `tools:`, the file must exist inside the
    /// repository as a regular file. A symlink whose target is outside the
    /// repository counts as missing, and its target is never read.
    ///
    /// ## Why
    /// A module that cannot be loaded is skipped: the tool is not offered to the
    /// model, and the daemon only logs `[tools] project tools that did not load`.
    ///
    /// ## Example
    /// ```yaml
    /// tools:
    ///   lookup_order: tools/lookup_order.ts   # no such file
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// tools:
    ///   lookup_order: tools/lookup_order.ts
    /// ```
    ///
    /// ```ts
    /// // tools/lookup_order.ts
    /// export default {
    ///   description: 'Look up an order by its id and return its status',
    ///   parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    ///   async execute(args, context) {
    ///     return `order ${args.id}: shipped`
    ///   },
    /// }
    /// ```
    ///
    /// ## Fix
    /// Create the module, correct the path, or remove the entry.
    id: "module-missing",
    severity: Error,
    category: Tool,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for (index, decl) in project.tools.iter().enumerate() {
        let (Some(path), Some(Err(refusal))) = (decl.module_path(), &decl.module) else {
            continue;
        };
        if let Refusal::TooLarge(_) = refusal {
            // It exists: the modules stage reports it as not analysed (`module-unanalyzable`).
            continue;
        }
        let instead = project.missing_module(index).cloned().unwrap_or_default();
        if instead.unstaged {
            // Not staged: `file-untracked` says so.
            continue;
        }
        let message = match refusal {
            Refusal::OutsideRepository => {
                format!("module `{path}` is a symlink to outside the repository; its target is not read")
            }
            other => format!("module `{path}` of tool `{}` {}", decl.name, other.describe()),
        };
        let help = match refusal {
            Refusal::NotFound => instead
                .sibling
                .map(|found| format!("`{found}` exists: point the entry at it"))
                .unwrap_or_else(|| format!("create `{path}`, correct the path, or remove the entry")),
            _ => "point the entry at a module file inside the repository".into(),
        };
        out.push(RULE.diagnostic(Label::new(decl.file, decl.entry()), message).help(help));
    }
}
