//! `--format gitlab`: a GitLab Code Quality report, the JSON array of issues GitLab reads from a job's
//! `artifacts:reports:codequality` file and shows in the merge request and the pipeline (docs/output.md).
//!
//! Each finding is an issue with the fields GitLab documents: `description` (the message), `check_name` (the
//! rule id), `fingerprint` (the one SARIF gives the finding, so an issue keeps its identity across commits and
//! GitLab tells new findings from fixed ones), `severity` (error → `major`, warning → `minor`, info → `info`:
//! beeuni-lint has no `critical` or `blocker`) and `location.path` (repo-relative) with `location.lines.begin`
//! (and `end`, as Code Climate's spec has it). JSON is data: serde escapes it, and [`json_document`] writes
//! every character that acts as `\uXXXX`.

use serde::Serialize;

use crate::diagnostic::Severity;
use crate::render::locate;
use crate::render::sarif::fingerprint::Fingerprints;
use crate::report::Report;
use crate::source::escape::json_document;

#[derive(Serialize)]
struct Issue<'a> {
    description: &'a str,
    check_name: &'a str,
    fingerprint: String,
    severity: &'static str,
    location: Location<'a>,
}

#[derive(Serialize)]
struct Location<'a> {
    path: &'a str,
    lines: Lines,
}

#[derive(Serialize)]
struct Lines {
    begin: usize,
    end: usize,
}

/// GitLab's severity of a finding (its scale: `info`, `minor`, `major`, `critical`, `blocker`).
pub fn severity(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "major",
        Severity::Warning => "minor",
        Severity::Info => "info",
    }
}

pub fn render(report: &Report) -> String {
    let mut fingerprints = Fingerprints::default();
    let issues: Vec<Issue> = report
        .diagnostics
        .iter()
        .map(|d| {
            let at = locate(&report.sources, d.primary.file, d.primary.span);
            Issue {
                description: &d.message,
                check_name: d.rule,
                fingerprint: fingerprints.of(report, d),
                severity: severity(d.severity),
                location: Location { path: at.path, lines: Lines { begin: at.start.line, end: at.end.line } },
            }
        })
        .collect();
    json_document(&issues)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::{fixture, sarif};
    use serde_json::Value;

    /// The fields GitLab documents for a Code Quality issue (docs.gitlab.com, "Code Quality report format"),
    /// with their types; GitLab publishes no JSON Schema of the report.
    fn assert_documented(report: &Value) {
        let issues = report.as_array().expect("a Code Quality report is a JSON array");
        for issue in issues {
            let text = |pointer: &str| issue.pointer(pointer).and_then(Value::as_str);
            assert!(text("/description").is_some_and(|d| !d.is_empty()), "description: {issue}");
            assert!(text("/check_name").is_some_and(|c| !c.is_empty()), "check_name: {issue}");
            assert!(text("/fingerprint").is_some_and(|f| !f.is_empty()), "fingerprint: {issue}");
            let severities = ["info", "minor", "major", "critical", "blocker"];
            assert!(text("/severity").is_some_and(|s| severities.contains(&s)), "severity: {issue}");
            assert!(text("/location/path").is_some(), "location.path: {issue}");
            assert!(issue.pointer("/location/lines/begin").and_then(Value::as_u64).is_some_and(|l| l >= 1), "{issue}");
        }
        let mut prints: Vec<&str> = issues.iter().filter_map(|i| i["fingerprint"].as_str()).collect();
        prints.sort_unstable();
        prints.dedup();
        assert_eq!(prints.len(), issues.len(), "GitLab shows one issue a fingerprint: they must differ");
    }

    #[test]
    fn an_issue_a_finding_with_the_documented_fields() {
        let report = fixture::report();
        let text = render(&report);
        let issues: Value = serde_json::from_str(&text).unwrap();
        assert_documented(&issues);
        assert_eq!(issues[1]["description"], "unknown tool `bsh` in `exclude`");
        assert_eq!(issues[1]["check_name"], "unknown-excluded-tool");
        assert_eq!(issues[1]["severity"], "major");
        assert_eq!(issues[1]["location"]["path"], "beeuni.yaml");
        assert_eq!(issues[1]["location"]["lines"]["begin"], 3);
        let severities: Vec<&str> =
            issues.as_array().unwrap().iter().map(|i| i["severity"].as_str().unwrap()).collect();
        assert_eq!(severities, ["minor", "major", "info"]);
        insta::assert_snapshot!(text);
    }

    #[test]
    fn the_fingerprints_are_the_sarif_ones() {
        let report = fixture::report();
        let issues: Value = serde_json::from_str(&render(&report)).unwrap();
        let log: Value = serde_json::from_str(&sarif::render(&report, "0.1.0")).unwrap();
        for (issue, result) in issues.as_array().unwrap().iter().zip(log["runs"][0]["results"].as_array().unwrap()) {
            assert_eq!(issue["fingerprint"], result["partialFingerprints"][sarif::FINGERPRINT_KEY]);
        }
    }

    #[test]
    fn edge_spans_and_raw_characters_stay_data() {
        let mut report = fixture::edge_report();
        report.diagnostics[0].message = "a\u{1b}[31m\u{202e}b\nc".into();
        let text = render(&report);
        assert!(!text.chars().any(|c| crate::source::escape::acts(c) && c != '\n'), "{text}");
        let issues: Value = serde_json::from_str(&text).unwrap();
        assert_documented(&issues);
        assert_eq!(issues[0]["description"], "a\u{1b}[31m\u{202e}b\nc");
        // A label of no known file: no path, line 1.
        assert_eq!(issues[4]["location"]["path"], "");
    }

    #[test]
    fn no_finding_is_an_empty_array() {
        let mut report = fixture::report();
        report.diagnostics.clear();
        assert_eq!(render(&report), "[]\n");
    }
}
