use super::site::{at_import, export_site, in_module, tool_modules};
use crate::diagnostic::Diagnostic;
use crate::modules::facts::{DefaultExport, DefaultExportKind};
use crate::modules::resolve::{MAX_EXAMINED, Resolution};
use crate::project::Project;

crate::rules::declare_rule! {
    /// A limit of beeuni-lint left a tool module, a helper or an import unchecked.
    ///
    /// ## What it checks
    /// beeuni-lint bounds what a repository can make it spend (docs/limits.md).
    /// When one of those bounds leaves something the project declares
    /// unchecked, this finding names the limit, the place and what was not
    /// checked:
    ///
    /// - a tool module or helper larger than `[limits] module-bytes` of
    ///   `beeuni-lint.toml` (2 MiB by default), or than the 32 MiB of a file
    ///   read: neither read nor parsed, at its line 1;
    /// - a module nested deeper than the parser's stack takes (5,000 brackets,
    ///   or a chain of operators or statements the parser follows by
    ///   recursion), or whose regular expressions pass their limits: at the
    ///   place where it goes too deep;
    /// - a tool object wrapped by a function imported from a helper that
    ///   exports more than the 256 identity functions beeuni-lint reads: at
    ///   the `export default`;
    /// - an import whose package map (`exports` or `imports` of a
    ///   `package.json`, `compilerOptions.paths` of a `tsconfig.json`) is
    ///   larger than beeuni-lint looks through: at the import.
    ///
    /// None of the module's checks were made (for an import: its resolution).
    /// What cannot be known statically by nature (a value computed when the
    /// module runs) is `module-unanalyzable` (info) instead.
    ///
    /// ## Why
    /// A limit must never be a silent pass: a pull request that makes a tool
    /// module larger or deeper than beeuni-lint analyses would otherwise switch
    /// its checks off. A warning fails the default `--fail-on warning`.
    ///
    /// ## Example
    /// `tools/huge.ts`, 30 MB of generated code, more than the 2 MiB analysed:
    ///
    /// ```ts
    /// const table = [0, 0, 0 /* … 30 MB of numbers … */];
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// // tools/huge.ts: a few lines; the generated data is a JSON file the tool reads when it runs
    /// import { readFile } from 'node:fs/promises';
    ///
    /// export default {
    ///   description: 'Looks a code up in the generated table',
    ///   parameters: { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] },
    ///   async execute({ code }) {
    ///     const table = JSON.parse(await readFile(new URL('./huge-data.json', import.meta.url), 'utf8'));
    ///     return table[code] ?? 'unknown';
    ///   },
    /// };
    /// ```
    ///
    /// ## Fix
    /// Keep tool modules small: move generated data to a JSON file the tool
    /// reads at run time, flatten generated nesting. A project that needs a
    /// larger module raises `module-bytes` under `[limits]` in
    /// `beeuni-lint.toml` (at most 32 MiB; each MiB costs some 40 MiB of memory
    /// while it is parsed).
    id: "analysis-limit",
    severity: Warning,
    category: Module,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for module in &project.modules {
        let Some(not) = module.facts.not_analysed() else { continue };
        let message = format!("`{}` {}: none of its checks were made", project.module_path(module), not.why);
        let diagnostic = in_module(project, &RULE, module, not.span, message);
        out.push(diagnostic.help("the runtime may still load it; beeuni-lint stops here to stay within its limits"));
    }
    for module in tool_modules(project).filter(|m| m.wrapper_past_limit && m.facts.is_whole()) {
        let Some(DefaultExport { kind: DefaultExportKind::Unanalyzable { why }, .. }) = &module.facts.default_export
        else {
            continue;
        };
        let message = format!(
            "the default export of `{}` cannot be read: {why}; none of the tool's checks were made",
            project.module_path(module)
        );
        let diagnostic = in_module(project, &RULE, module, export_site(project, module), message);
        out.push(diagnostic.help(
            "export the wrapper among the helper's first 256 identity functions, or write the tool object without it",
        ));
    }
    for module in &project.modules {
        for (import, resolution) in module.facts.imports.iter().zip(module.resolutions()) {
            let Some(Resolution::Unchecked { map, file }) = resolution else { continue };
            let message = format!(
                "'{}' cannot be checked statically: {map} of `{file}` is larger than beeuni-lint looks through ({MAX_EXAMINED} entries, a target of 4 KiB)",
                import.specifier
            );
            let diagnostic = at_import(project, &RULE, module, import, message);
            out.push(diagnostic.help("the runtime may still load it; a package map of that size is not checked"));
        }
    }
}
