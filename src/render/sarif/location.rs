//! Where a finding is: repo-relative URIs against `%SRCROOT%`, regions in 1-based lines and UTF-16 columns.

use serde_sarif::sarif;

use super::{SRCROOT, message, number};
use crate::render::locate;
use crate::report::Report;
use crate::source::{FileId, Span};

/// A repo-relative path as a URI reference: every byte but unreserved ones and `/` percent-encoded.
pub(super) fn uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => out.push(char::from(byte)),
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

pub(super) fn artifact(path: &str) -> sarif::ArtifactLocation {
    sarif::ArtifactLocation { uri: Some(uri(path)), uri_base_id: Some(SRCROOT.into()), ..Default::default() }
}

/// The start and end of a span as a text region (1-based lines, UTF-16 columns).
pub(super) fn region(report: &Report, file: FileId, span: Span) -> (&str, sarif::Region) {
    let at = locate(&report.sources, file, span);
    let region = sarif::Region {
        start_line: Some(number(at.start.line)),
        start_column: Some(number(at.start.column)),
        end_line: Some(number(at.end.line)),
        end_column: Some(number(at.end.column)),
        ..Default::default()
    };
    (at.path, region)
}

pub(super) fn location(
    report: &Report,
    file: FileId,
    span: Span,
    text: Option<&str>,
    id: Option<i64>,
) -> sarif::Location {
    let (path, region) = region(report, file, span);
    let physical =
        sarif::PhysicalLocation { artifact_location: Some(artifact(path)), region: Some(region), ..Default::default() };
    sarif::Location { id, message: text.map(message), physical_location: Some(physical), ..Default::default() }
}
