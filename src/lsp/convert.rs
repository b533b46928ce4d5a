//! Between the linter's byte spans and repo paths and the protocol's UTF-16 positions and `file:` URIs.

use crate::diagnostic::{self, Severity};
use crate::rules;
use crate::source::escape::escape;
use crate::source::{Lines, SourceFile, Span, line_starts};
use lsp_types::{
    CodeDescription, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Position, Range, Uri,
};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The absolute path a `file:` URI names (percent-decoded), or `None` for another scheme.
pub fn uri_to_path(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file:///a` and `file://localhost/a`; a Windows drive comes as `/C:/a`.
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    let path = path.split(['?', '#']).next().unwrap_or(path);
    let bytes = path.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1).copied().and_then(hex), bytes.get(i + 2).copied().and_then(hex)) {
            (b'%', Some(high), Some(low)) => {
                decoded.push((high * 16 + low) as u8);
                i += 3;
            }
            (byte, ..) => {
                decoded.push(byte);
                i += 1;
            }
        }
    }
    let path = String::from_utf8(decoded).ok()?;
    path.starts_with('/').then(|| PathBuf::from(path))
}

/// The `file:` URI of an absolute path, with every byte but the unreserved ones and `/` percent-encoded.
pub fn path_to_uri(path: &Path) -> Option<Uri> {
    let mut uri = String::from("file://");
    for byte in path.to_str()?.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'/' | b'-' | b'.' | b'_' | b'~') {
            uri.push(byte as char);
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    Uri::from_str(&uri).ok()
}

/// The protocol position (0-based line, UTF-16 column) of a byte offset.
pub fn position(file: &SourceFile, offset: usize) -> Position {
    let at = file.position(offset);
    Position { line: (at.line - 1) as u32, character: (at.column - 1) as u32 }
}

/// [`position`] in a text without a line index (a buffer).
pub fn position_in(text: &str, offset: usize) -> Position {
    let starts = line_starts(text);
    let at = Lines::new(text, &starts).position(offset);
    Position { line: (at.line - 1) as u32, character: (at.column - 1) as u32 }
}

pub fn range(file: &SourceFile, span: Span) -> Range {
    Range { start: position(file, span.start()), end: position(file, span.end()) }
}

/// The byte offset of a protocol position in `text` (clamped to the line's end and to the text).
pub fn offset(text: &str, position: Position) -> usize {
    let starts = line_starts(text);
    Lines::new(text, &starts).offset(position.line as usize, position.character as usize)
}

fn severity(severity: Severity) -> DiagnosticSeverity {
    match severity {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Info => DiagnosticSeverity::INFORMATION,
    }
}

/// The rule's page (the same link SARIF gives as `helpUri`), for rules the registry knows.
pub fn rule_page(rule: &str) -> Option<Uri> {
    rules::find(rule).and_then(|rule| Uri::from_str(&rules::page_url(rule)).ok())
}

/// A finding as the protocol shows it. `file` is its primary file; `locate` gives a related label's file and URI.
/// Its texts are escaped ([`escape`]): an editor shows them as they come.
pub fn diagnostic<'a>(
    file: &SourceFile,
    finding: &diagnostic::Diagnostic,
    locate: impl Fn(usize) -> Option<(&'a SourceFile, Uri)>,
) -> lsp_types::Diagnostic {
    let related: Vec<DiagnosticRelatedInformation> = finding
        .related
        .iter()
        .filter_map(|label| {
            let (file, uri) = locate(label.file)?;
            let message = escape(label.message.as_deref().unwrap_or("related location")).into_owned();
            Some(DiagnosticRelatedInformation { location: Location { uri, range: range(file, label.span) }, message })
        })
        .collect();
    let message = match &finding.help {
        Some(help) => format!("{}\nhelp: {}", escape(&finding.message), escape(help)),
        None => escape(&finding.message).into_owned(),
    };
    lsp_types::Diagnostic {
        range: range(file, finding.primary.span),
        severity: Some(severity(finding.severity)),
        code: Some(NumberOrString::String(finding.rule.to_string())),
        code_description: rule_page(finding.rule).map(|href| CodeDescription { href }),
        source: Some("beeuni-lint".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_round_trip_with_escapes() {
        let path = Path::new("/tmp/a b/ü#1.yaml");
        let uri = path_to_uri(path).unwrap();
        assert_eq!(uri.as_str(), "file:///tmp/a%20b/%C3%BC%231.yaml");
        assert_eq!(uri_to_path(&uri).unwrap(), path);
        let vscode = Uri::from_str("file:///tmp/x%3Ay/beeuni.yaml").unwrap();
        assert_eq!(uri_to_path(&vscode).unwrap(), Path::new("/tmp/x:y/beeuni.yaml"));
        assert_eq!(uri_to_path(&Uri::from_str("untitled:Untitled-1").unwrap()), None);
    }

    #[test]
    fn a_finding_shows_repository_text_escaped() {
        use crate::diagnostic::{Diagnostic, Label};
        let file = SourceFile::new("beeuni.yaml", "a: b\n".into());
        let uri = Uri::from_str("file:///r/beeuni.yaml").unwrap();
        let finding = Diagnostic::new("r", Severity::Warning, Label::new(0, Span::new(0, 1)), "`a\r::add-mask::x`")
            .help("b\u{1b}]0;title\u{7}")
            .related(Label::with_message(0, Span::new(3, 4), "c\u{202e}d\n"));
        let shown = diagnostic(&file, &finding, |_| Some((&file, uri.clone())));
        assert_eq!(shown.message, "`a\\r::add-mask::x`\nhelp: b\\u{1b}]0;title\\u{7}");
        assert_eq!(shown.related_information.unwrap()[0].message, "c\\u{202e}d\\n");
    }

    #[test]
    fn offsets_count_utf16_units() {
        let text = "a: 1\n😀 x: bsh\r\nz";
        let x = text.find('x').unwrap();
        // The emoji is two UTF-16 units, and a space follows it.
        assert_eq!(offset(text, Position { line: 1, character: 3 }), x);
        let file = SourceFile::new("f", text.into());
        assert_eq!(position(&file, x), Position { line: 1, character: 3 });
        // Past the line's end: the end, before `\r\n`.
        assert_eq!(offset(text, Position { line: 1, character: 99 }), text.find('\r').unwrap());
        assert_eq!(offset(text, Position { line: 9, character: 0 }), text.len());
    }

    #[test]
    fn a_lone_carriage_return_ends_a_line_as_in_the_line_index() {
        let text = "tools:\r  web_search: beeuni:web_serch\r\nagents: {}\rz";
        let file = SourceFile::new("beeuni.yaml", text.into());
        for offset_in in
            [0, text.find("web_").unwrap(), text.find("serch").unwrap(), text.find("agents").unwrap(), text.len()]
        {
            let at = position(&file, offset_in);
            assert_eq!(position_in(text, offset_in), at, "at {offset_in}");
            assert_eq!(offset(text, at), offset_in, "back from {at:?}");
        }
        assert_eq!(offset(text, Position { line: 1, character: 99 }), text.find("\r\n").unwrap());
        assert_eq!(offset(text, Position { line: 2, character: 99 }), text.rfind('\r').unwrap());
    }

    #[test]
    fn a_byte_order_mark_is_no_column() {
        let text = "\u{feff}tools: {}\nagents: {}";
        let after_mark = '\u{feff}'.len_utf8();
        assert_eq!(offset(text, Position { line: 0, character: 0 }), after_mark);
        assert_eq!(position_in(text, after_mark), Position { line: 0, character: 0 });
        assert_eq!(offset(text, Position { line: 0, character: 5 }), text.find(':').unwrap());
        assert_eq!(position_in(text, text.find("agents").unwrap()), Position { line: 1, character: 0 });
    }
}
