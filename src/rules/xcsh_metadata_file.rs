use crate::diagnostic::{Diagnostic, Label};
use crate::project::Project;

crate::rules::declare_rule! {
    /// A `.md` or `.json` file in an xcsh tool folder: metadata, never loaded as a tool.
    ///
    /// ## What it checks
    /// Every `.md` and `.json` file directly in `.xcsh/tools/`, `.claude/tools/`
    /// or a folder of `--xcsh` and `xcsh-paths`, and every `.sh`, `.bash` and
    /// `.py` file directly in `.xcsh/tools/` (the metadata kinds xcsh's native
    /// provider reads there). `.codex/tools/` is not looked at for them: its
    /// provider takes only `*.ts` and `*.js`.
    ///
    /// ## Why
    /// Some providers read such files as tool metadata, but the module loader
    /// rejects them as executable tools ("Declarative tool files (.md, .json)
    /// cannot be loaded as executable modules"): a tool written as JSON or as a
    /// script is never offered to the model.
    ///
    /// ## Example
    /// ```text
    /// .xcsh/tools/repo_stats.json
    /// ```
    ///
    /// ## Use instead
    /// The notes outside the tools folder, and the tool a module beside them:
    ///
    /// ```text
    /// docs/tools/repo_stats.json
    /// .xcsh/tools/repo_stats.ts
    /// ```
    ///
    /// ## Fix
    /// Nothing, if the file documents a tool. A tool itself is a module (`.ts`,
    /// `.js`, …) that exports a factory. To keep a metadata file without this
    /// note: in a `.md` file, `<!-- beeuni-lint: ignore[xcsh-metadata-file] -->`
    /// on its first line or alone above its first line of text; a `.json` file
    /// has no comments, so turn the rule off in `beeuni-lint.toml`
    /// (`[rules]` `xcsh-metadata-file = "off"`) or exclude the path (`[paths]`).
    id: "xcsh-metadata-file",
    severity: Info,
    category: Xcsh,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for &file in &project.xcsh.metadata {
        let source = project.file(file);
        let message =
            format!("`{}` is metadata in an xcsh tool folder: the loader never loads it as a tool", source.shown);
        let diagnostic = RULE.diagnostic(Label::new(file, source.line_span(0)), message);
        out.push(diagnostic.help("a tool is a module (`.ts`, `.js`, …) that exports a factory `(pi) => tool`"));
    }
}
