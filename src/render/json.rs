//! `--format json`: the shape docs/spec/interface.md documents, pretty-printed with a
//! 2-space indent and a trailing newline. Fields keep the documented order;
//! `help`, `related` and `fix` are left out when empty. The fixes are those the
//! fix stage let through (`fix::offer::verify`, or the planner's outcome).

use serde::Serialize;

use crate::diagnostic::{Diagnostic, Fix, Safety, Severity};
use crate::render::{Summary, locate};
use crate::report::Report;

/// The version of this JSON shape (not of the tool).
const FORMAT_VERSION: u32 = 1;

#[derive(Serialize)]
struct Output<'a> {
    version: u32,
    tool: Tool<'a>,
    /// The project root, relative to the git work tree root (`""` at the top); `null` for several projects.
    project: Option<&'a str>,
    /// The projects of a report about several (a monorepo's root, several PATHs); left out for one.
    #[serde(skip_serializing_if = "Option::is_none")]
    projects: Option<&'a [&'a str]>,
    diagnostics: Vec<JsonDiagnostic<'a>>,
    summary: JsonSummary,
}

#[derive(Serialize)]
struct Tool<'a> {
    name: &'static str,
    version: &'a str,
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    rule: &'a str,
    severity: Severity,
    message: &'a str,
    path: &'a str,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    help: Option<&'a str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related: Vec<JsonRelated<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fix: Option<JsonFix<'a>>,
}

#[derive(Serialize)]
struct JsonRelated<'a> {
    path: &'a str,
    line: usize,
    column: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<&'a str>,
}

#[derive(Serialize)]
struct JsonFix<'a> {
    safety: Safety,
    edits: Vec<JsonEdit<'a>>,
    /// Files the fix deletes (repo-relative paths).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    delete: Vec<String>,
}

#[derive(Serialize)]
struct JsonEdit<'a> {
    path: &'a str,
    /// byte offsets
    start: usize,
    end: usize,
    content: &'a str,
}

#[derive(Serialize)]
struct JsonSummary {
    error: usize,
    warning: usize,
    info: usize,
    files: usize,
}

pub fn render(report: &Report, version: &str) -> String {
    render_projects(report, &[report.sources.prefix()], version)
}

/// The report of the `projects` given (repo-relative roots): `"project"` names the one, or is `null` and
/// `"projects"` lists them.
pub fn render_projects(report: &Report, projects: &[&str], version: &str) -> String {
    let summary = Summary::of(report);
    let output = Output {
        version: FORMAT_VERSION,
        tool: Tool { name: "beeuni-lint", version },
        project: match projects {
            [one] => Some(one),
            _ => None,
        },
        projects: (projects.len() != 1).then_some(projects),
        diagnostics: report.diagnostics.iter().map(|d| diagnostic(report, d)).collect(),
        summary: JsonSummary {
            error: summary.error,
            warning: summary.warning,
            info: summary.info,
            files: summary.files,
        },
    };
    match serde_json::to_string_pretty(&output) {
        Ok(mut text) => {
            text.push('\n');
            crate::source::escape::json(text)
        }
        // Unreachable for these plain structs; still answer with valid JSON.
        Err(err) => format!("{{\"version\": 1, \"error\": {}}}\n", serde_json::Value::String(err.to_string())),
    }
}

fn diagnostic<'a>(report: &'a Report, d: &'a Diagnostic) -> JsonDiagnostic<'a> {
    let at = locate(&report.sources, d.primary.file, d.primary.span);
    JsonDiagnostic {
        rule: d.rule,
        severity: d.severity,
        message: &d.message,
        path: at.path,
        line: at.start.line,
        column: at.start.column,
        end_line: at.end.line,
        end_column: at.end.column,
        help: d.help.as_deref().filter(|help| !help.is_empty()),
        related: d
            .related
            .iter()
            .map(|label| {
                let at = locate(&report.sources, label.file, label.span);
                JsonRelated {
                    path: at.path,
                    line: at.start.line,
                    column: at.start.column,
                    message: label.message.as_deref(),
                }
            })
            .collect(),
        fix: d
            .fix
            .as_ref()
            .filter(|fix| !fix.edits.is_empty() || !fix.deletes.is_empty())
            .map(|fix| self::fix(report, fix)),
    }
}

fn fix<'a>(report: &'a Report, fix: &'a Fix) -> JsonFix<'a> {
    JsonFix {
        safety: fix.safety,
        edits: fix
            .edits
            .iter()
            .map(|edit| JsonEdit {
                path: locate(&report.sources, edit.file, edit.span).path,
                start: edit.span.start(),
                end: edit.span.end(),
                content: &edit.content,
            })
            .collect(),
        delete: fix.deletes.iter().map(|path| report.sources.shown(path).into()).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::fixture;
    use serde_json::{Value, json};

    fn parse(report: &Report) -> (String, Value) {
        let text = render(report, "0.1.0");
        let value = serde_json::from_str(&text).unwrap();
        (text, value)
    }

    #[test]
    fn top_level_shape() {
        let (text, value) = parse(&fixture::report());
        assert!(text.ends_with("}\n") && !text.ends_with("\n\n"));
        assert!(text.starts_with("{\n  \"version\": 1,\n  \"tool\": {\n    \"name\": \"beeuni-lint\""));
        let at: Vec<usize> = ["version", "tool", "project", "diagnostics", "summary"]
            .iter()
            .map(|key| text.find(&format!("\n  \"{key}\": ")).unwrap())
            .collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{at:?}");
        assert_eq!(value.as_object().unwrap().len(), 5);
        assert_eq!(value["project"], "");
        assert_eq!(value["version"], 1);
        assert_eq!(value["tool"], json!({"name": "beeuni-lint", "version": "0.1.0"}));
        assert_eq!(value["summary"], json!({"error": 1, "warning": 1, "info": 1, "files": 2}));
        assert_eq!(value["diagnostics"].as_array().unwrap().len(), 3);
    }

    #[test]
    fn several_projects_are_listed_and_none_is_the_project() {
        let text = render_projects(&fixture::report(), &["apps/a", "apps/b"], "0.1.0");
        let at: Vec<usize> = ["project", "projects", "diagnostics"]
            .iter()
            .map(|key| text.find(&format!("\n  \"{key}\": ")).unwrap())
            .collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{at:?}");
        let value: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["project"], Value::Null);
        assert_eq!(value["projects"], json!(["apps/a", "apps/b"]));
    }

    #[test]
    fn field_order_follows_the_interface() {
        let (text, _) = parse(&fixture::report());
        let order = [
            "\"rule\"",
            "\"severity\"",
            "\"message\"",
            "\"path\"",
            "\"line\"",
            "\"column\"",
            "\"end_line\"",
            "\"end_column\"",
            "\"help\"",
            "\"related\"",
            "\"fix\"",
        ];
        // The second diagnostic has every field.
        let second = &text[text.find("\"unknown-excluded-tool\"").unwrap() - 10..];
        let at: Vec<usize> = order.iter().map(|key| second.find(key).unwrap()).collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{at:?}");
    }

    #[test]
    fn diagnostics_field_by_field() {
        let (_, value) = parse(&fixture::report());
        let d = &value["diagnostics"];
        // UTF-16 columns: `é` counts 1, `😀` counts 2.
        assert_eq!(
            d[0],
            json!({
                "rule": "odd-name", "severity": "warning", "message": "the name ends in `agent`",
                "path": "beeuni.yaml", "line": 1, "column": 15, "end_line": 1, "end_column": 20,
                "related": [{"path": "beeuni.yaml", "line": 2, "column": 1, "message": "tools follow"}]
            })
        );
        let bsh = fixture::YAML.find("bsh").unwrap();
        assert_eq!(
            d[1],
            json!({
                "rule": "unknown-excluded-tool", "severity": "error", "message": "unknown tool `bsh` in `exclude`",
                "path": "beeuni.yaml", "line": 3, "column": 13, "end_line": 3, "end_column": 16,
                "help": "did you mean `bash`?",
                "related": [{"path": "tools/bash.ts", "line": 1, "column": 14, "message": "`bash` is defined here"}],
                "fix": {"safety": "safe", "edits": [
                    {"path": "beeuni.yaml", "start": bsh, "end": bsh + 3, "content": "bash"}
                ]}
            })
        );
        // Zero-width: end equals start; no help, related or fix keys at all.
        assert_eq!(
            d[2],
            json!({
                "rule": "empty-value", "severity": "info", "message": "`model` has no value",
                "path": "beeuni.yaml", "line": 4, "column": 7, "end_line": 4, "end_column": 7
            })
        );
    }

    #[test]
    fn deterministic_and_survives_edge_spans() {
        let report = fixture::edge_report();
        assert_eq!(render(&report, "1.2.3"), render(&report, "1.2.3"));
        let (_, value) = parse(&report);
        let d = &value["diagnostics"];
        assert_eq!((&d[0]["line"], &d[0]["column"], &d[0]["end_column"]), (&json!(1), &json!(1), &json!(1)));
        assert_eq!((&d[2]["end_line"], &d[2]["end_column"]), (&json!(3), &json!(1)));
        assert_eq!(d[2]["related"], json!([{"path": "", "line": 1, "column": 1}]));
        assert_eq!(d[4]["path"], "");
    }
}
