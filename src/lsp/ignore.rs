//! Where "ignore this rule on this line" writes its comment (docs/spec/interface.md, Ignoring): into an ignore comment
//! that already speaks for the line; else at the end of a YAML line; else (a line that already ends in a
//! comment, such as `# ejected from beeuni:<name>`, and every module line) alone on a new line above it; for a
//! module's `#!` line, below it.

use crate::diagnostic::Diagnostic;
use crate::project::Project;
use crate::source::{SourceFile, Span};
use crate::suppress::parse_ignore;

/// The edit (a span to replace and its new text) that makes an ignore comment cover `finding`.
pub fn comment(project: &Project, finding: &Diagnostic) -> Option<(Span, String)> {
    let file = finding.primary.file;
    let source = project.file(file);
    let line = source.line_index(finding.primary.span.start());
    let yaml = project.graph.files.iter().find(|m| m.file == file).map(|m| &m.doc);
    // Comments of the file: (span, text after the marker) — YAML comments, or a module's ignore comments.
    let comments: Vec<(Span, &str)> = match yaml {
        Some(doc) => doc.comments.iter().map(|c| (c.span, c.text.as_str())).collect(),
        None => project
            .modules
            .iter()
            .filter(|m| m.file == file)
            .flat_map(|m| m.facts.comments().iter().map(|(span, text)| (*span, text.as_str())))
            .collect(),
    };
    let is_yaml = yaml.is_some() || crate::source::is_yaml(&source.path);
    let on_line = |line: usize| comments.iter().filter(move |(span, _)| source.line_index(span.start()) == line);
    let alone =
        |span: Span| source.slice(Span::new(source.line_start(line_of(source, span)), span.start())).trim().is_empty();
    // An ignore comment at the end of this line, or alone on the line above, takes one more id.
    let speaking = on_line(line).find(|(span, text)| parse_ignore(text).is_some() && !alone(*span)).or_else(|| {
        line.checked_sub(1)
            .and_then(|above| on_line(above).find(|(span, text)| parse_ignore(text).is_some() && alone(*span)))
    });
    if let Some((span, _)) = speaking {
        let close = span.start() + source.slice(*span).find(']')?;
        return Some((Span::empty(close), format!(", {}", finding.rule)));
    }
    let marker = if is_yaml { "#" } else { "//" };
    let text = format!("{marker} beeuni-lint: ignore[{}]", finding.rule);
    let bounds = source.line_span(line);
    let has_comment = on_line(line).next().is_some();
    if is_yaml && !has_comment {
        return Some((Span::empty(bounds.end()), format!("  {text}")));
    }
    let line_text = source.slice(bounds);
    let indent = &line_text[..line_text.len() - line_text.trim_start().len()];
    let newline = if source.text[bounds.end()..].starts_with("\r\n") { "\r\n" } else { "\n" };
    // Nothing may stand above a module's `#!` line (the module would no longer parse) nor after it on its line
    // (that is the hashbang's text): the comment goes on a line of its own below it, where an ignore before the
    // first statement speaks for line 1 too (crate::suppress).
    if !is_yaml && line == 0 && source.text.starts_with("#!") {
        let end = source.text[bounds.end()..].find('\n').map_or(source.text.len(), |i| bounds.end() + i + 1);
        let lead = if end == source.text.len() && !source.text.ends_with('\n') { newline } else { "" };
        return Some((Span::empty(end), format!("{lead}{text}{newline}")));
    }
    Some((Span::empty(bounds.start()), format!("{indent}{text}{newline}")))
}

fn line_of(source: &SourceFile, span: Span) -> usize {
    source.line_index(span.start())
}
