use crate::diagnostic::{Diagnostic, Fix, Label, Safety};
use crate::modules::resolve::Resolution;
use crate::project::Project;

crate::rules::declare_rule! {
    /// A restored Beeuni tool's ejected copy is still in `tools/`.
    ///
    /// ## What it checks
    /// `<name>: beeuni:<name>` is declared, `tools/<name>.ts` (or another module
    /// extension) still exists, no tools entry declares that file and no declared
    /// module imports it.
    ///
    /// ## Why
    /// Restoring a tool means setting the line back and deleting the file. The
    /// leftover copy is dead code that looks alive, and the next eject refuses to
    /// overwrite it.
    ///
    /// ## Example
    /// ```yaml
    /// tools:
    ///   web_search: beeuni:web_search
    /// ```
    ///
    /// ```ts
    /// // tools/web_search.ts
    /// export default {
    ///   description: 'Search the web and return the first results as text',
    ///   parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
    ///   async execute(args, context) {
    ///     return `no results for ${args.query}`
    ///   },
    /// }
    /// ```
    ///
    /// ## Use instead
    /// The same manifest, with `tools/web_search.ts` deleted (or, to keep the copy, declared again:
    /// `web_search: tools/web_search.ts`):
    ///
    /// ```yaml
    /// tools:
    ///   web_search: beeuni:web_search
    /// ```
    ///
    /// ## Fix
    /// Delete the file. `--fix --unsafe-fixes` deletes it (an unsafe fix), offered
    /// only when git reports it unmodified (`beeuni-lint restore <name>` does the
    /// same).
    id: "stale-ejected-copy",
    severity: Info,
    category: Tool,
    fix: Unsafe,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for (index, copy) in &project.ejected_copies {
        let decl = &project.tools[*index];
        let declared = project.tools.iter().any(|d| d.module_path() == Some(copy.as_str()));
        let imported = project
            .modules
            .iter()
            .any(|m| m.resolutions().any(|r| matches!(r, Some(Resolution::File(path)) if path == copy)));
        if declared || imported {
            continue;
        }
        let message = format!("`{copy}` is a leftover copy: `{}` points back at `beeuni:{}`", decl.name, decl.name);
        let help = format!("restoring a tool means setting the line back and deleting the file: delete `{copy}`");
        let mut diagnostic = RULE.diagnostic(Label::new(decl.file, decl.entry()), message).help(help);
        if project.is_unmodified(copy) {
            diagnostic = diagnostic.fix(Fix::delete(Safety::Unsafe, copy.clone()));
        }
        out.push(diagnostic);
    }
}
