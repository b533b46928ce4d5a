//! Where xcsh findings point, and the shared help of the xcsh rules (docs/spec/rules.md §6).

use crate::diagnostic::{Diagnostic, Label};
use crate::project::Project;
use crate::rules::Rule;
use crate::source::Span;
use crate::xcsh::XcshModule;
use crate::xcsh::facts::{Name, Tool, XcshFacts};

/// A finding of `rule` in the xcsh module at `span`.
pub fn at(rule: &Rule, module: &XcshModule, span: Span, message: String) -> Diagnostic {
    rule.diagnostic(Label::new(module.file, span), message)
}

/// From `start` to the end of its line (a finding about a multi-line node points at its first line).
pub fn first_line_from(project: &Project, module: &XcshModule, start: usize) -> Span {
    let file = project.file(module.file);
    let line = file.line_span(file.line_index(start));
    Span::new(start, line.end().max(start))
}

/// The module's path as reports show it (relative to the git work tree root).
pub fn shown<'p>(project: &'p Project, module: &XcshModule) -> &'p str {
    &project.file(module.file).shown
}

/// The xcsh modules whose contract could be read (they parse).
pub fn contracts(project: &Project) -> impl Iterator<Item = (&XcshModule, &XcshFacts)> {
    project.xcsh.modules.iter().filter_map(|m| Some((m, m.facts.as_ref()?)))
}

/// "the tool `repo_stats`" when its name is a literal, else "a tool".
pub fn tool_label(tool: &Tool) -> String {
    match &tool.name {
        Some((_, Name::Text(name))) if !name.is_empty() => format!("the tool `{name}`"),
        _ => "a tool".to_string(),
    }
}

pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}
