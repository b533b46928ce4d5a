use crate::diagnostic::{Diagnostic, Label};
use crate::manifest::tools::{ToolDecl, ejected_from};
use crate::project::Project;
use std::collections::HashMap;

crate::rules::declare_rule! {
    /// A `# ejected from beeuni:<x>` comment sits on the line of another tool.
    ///
    /// ## What it checks
    /// `beeuni tools eject <x>` ends the line it changes with
    /// `# ejected from beeuni:<x>`. Such a comment on the line of a tool whose key
    /// is not `<x>` is a leftover of an edit. On a restored `<x>: beeuni:<x>`
    /// line it is fine.
    ///
    /// ## Why
    /// The comment tells readers (and `restore`) where a module came from; on the
    /// wrong line it misleads both.
    ///
    /// ## Example
    /// ```yaml
    /// tools:
    ///   memory: tools/web_search.ts  # ejected from beeuni:web_search
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// tools:
    ///   web_search: tools/web_search.ts  # ejected from beeuni:web_search
    ///   memory: beeuni:memory
    /// ```
    ///
    /// ## Fix
    /// Move the comment to the `<x>` line, or remove it.
    id: "eject-comment",
    severity: Warning,
    category: Tool,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for manifest in &project.graph.files {
        let source = project.file(manifest.file);
        // The file's declarations by line, made at its first eject comment (searched for each comment, the
        // declarations were comments times tools).
        let mut by_line: Option<HashMap<usize, Vec<&ToolDecl>>> = None;
        for comment in &manifest.doc.comments {
            let Some(named) = ejected_from(&comment.text) else {
                continue;
            };
            let line = source.line_index(comment.span.start());
            let by_line = by_line.get_or_insert_with(|| {
                let mut by_line: HashMap<usize, Vec<&ToolDecl>> = HashMap::new();
                for decl in project.tools.iter().filter(|d| d.file == manifest.file) {
                    by_line.entry(source.line_index(decl.name_span().start())).or_default().push(decl);
                }
                by_line
            });
            let on_line = by_line.get(&line).map_or(&[][..], Vec::as_slice);
            // A flow mapping holds several entries on one line: the comment is right when one of them is `<x>`.
            let Some(decl) = on_line.first() else { continue };
            if on_line.iter().any(|d| d.name == named) {
                continue;
            }
            let message = format!("this line declares `{}` but says it was ejected from `beeuni:{named}`", decl.name);
            let help = format!("move the comment to the `{named}` line, or remove it");
            let at = Label::new(decl.file, decl.entry());
            out.push(
                RULE.diagnostic(at, message)
                    .related(Label::with_message(manifest.file, comment.span, "the eject comment"))
                    .help(help),
            );
        }
    }
}
