//! `--format gitlab` (GitLab Code Quality) and `--format junit` (JUnit XML) on a real project, checked against
//! the fields GitLab documents and against the JSON report of the same run, and `examples/gitlab-ci.yml` run as
//! written (docs/ci-reports.md).

use crate::common::*;
use serde_json::Value;
use std::path::Path;
use tempfile::TempDir;

/// `examples/broken` in a fresh git repository, committed.
fn broken() -> TempDir {
    let dir = TempDir::new().unwrap();
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/broken"), dir.path());
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-qm", "broken"]);
    dir
}

/// The findings of the JSON report of the same run: (rule, severity, path, line, column, message).
fn findings(dir: &Path) -> Vec<(String, String, String, u64, u64, String)> {
    let (_, report) = json_in(dir, &[]);
    let text = |d: &Value, key: &str| d[key].as_str().unwrap().to_string();
    diagnostics(&report)
        .iter()
        .map(|d| {
            let number = |key: &str| d[key].as_u64().unwrap();
            (
                text(d, "rule"),
                text(d, "severity"),
                text(d, "path"),
                number("line"),
                number("column"),
                text(d, "message"),
            )
        })
        .collect()
}

/// The fields GitLab documents for a Code Quality issue ("Code Quality report format": a JSON array of objects
/// with `description`, `check_name`, `fingerprint`, `severity` one of `info`, `minor`, `major`, `critical`,
/// `blocker`, `location.path` and `location.lines.begin`), fingerprints unique (GitLab keeps one issue a
/// fingerprint).
fn assert_code_quality(report: &Value) {
    let issues = report.as_array().expect("a JSON array");
    for issue in issues {
        for field in ["/description", "/check_name", "/fingerprint", "/location/path"] {
            assert!(issue.pointer(field).and_then(Value::as_str).is_some_and(|v| !v.is_empty()), "{field}: {issue}");
        }
        let severity = issue["severity"].as_str().unwrap();
        assert!(["info", "minor", "major", "critical", "blocker"].contains(&severity), "{issue}");
        assert!(issue.pointer("/location/lines/begin").and_then(Value::as_u64).is_some_and(|l| l >= 1), "{issue}");
    }
    let mut prints: Vec<&str> = issues.iter().map(|i| i["fingerprint"].as_str().unwrap()).collect();
    prints.sort_unstable();
    prints.dedup();
    assert_eq!(prints.len(), issues.len(), "two issues share a fingerprint");
}

#[test]
fn a_gitlab_report_is_a_code_quality_issue_a_finding() {
    let dir = broken();
    let run = run_in(dir.path(), &["--format", "gitlab"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_code_quality(&report);
    let issues: Vec<(String, String, String, u64, String)> = report
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            let text = |pointer: &str| i.pointer(pointer).unwrap().as_str().unwrap().to_string();
            let line = i["location"]["lines"]["begin"].as_u64().unwrap();
            (text("/check_name"), text("/severity"), text("/location/path"), line, text("/description"))
        })
        .collect();
    let gitlab_severity = |severity: &str| match severity {
        "error" => "major",
        "warning" => "minor",
        _ => "info",
    };
    let wanted: Vec<(String, String, String, u64, String)> = findings(dir.path())
        .into_iter()
        .map(|(rule, severity, path, line, _, message)| (rule, gitlab_severity(&severity).into(), path, line, message))
        .collect();
    assert_eq!(issues, wanted);
    // The fingerprints are the SARIF report's: code scanning and GitLab follow the same finding.
    let sarif: Value = serde_json::from_str(&run_in(dir.path(), &["--format", "sarif"]).stdout).unwrap();
    let sarif_prints: Vec<&Value> = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["partialFingerprints"][beeuni_lint::render::sarif::FINGERPRINT_KEY])
        .collect();
    let prints: Vec<&Value> = report.as_array().unwrap().iter().map(|i| &i["fingerprint"]).collect();
    assert_eq!(prints, sarif_prints);
    insta::assert_snapshot!("gitlab_examples_broken", run.stdout);
}

#[test]
fn a_junit_report_is_a_failed_testcase_a_finding() {
    let dir = broken();
    let run = run_in(dir.path(), &["--format", "junit"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let xml = &run.stdout;
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"beeuni-lint\" "));
    let found = findings(dir.path());
    assert!(xml.contains(&format!("tests=\"{0}\" failures=\"{0}\" errors=\"0\">", found.len())), "{xml}");
    // Each finding a testcase, in report order, its failure typed by severity.
    let mut rest = xml.as_str();
    for (rule, severity, path, line, column, _) in &found {
        let case = format!(
            "<testcase name=\"{rule} at {path}:{line}:{column}\" classname=\"{path}\" file=\"{path}\" line=\"{line}\">"
        );
        let at = rest.find(&case).unwrap_or_else(|| panic!("no {case} in order in\n{xml}"));
        rest = &rest[at..];
        assert!(rest.contains(&format!("type=\"{severity}\">{path}:{line}:{column}: {severity}[{rule}] ")), "{case}");
    }
    assert_eq!(xml.matches("<testcase ").count(), found.len());
    assert_eq!(xml.matches("<testsuite ").count(), xml.matches("</testsuite>").count());
    insta::assert_snapshot!("junit_examples_broken", run.stdout);
}

#[test]
fn a_clean_project_is_an_empty_code_quality_report_and_one_passing_test() {
    let dir = project(&[("beeuni.yaml", "tools:\n  web_search: beeuni:web_search\n")]);
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "-A"]);
    let gitlab = run_in(dir.path(), &["--format", "gitlab"]);
    assert_eq!((gitlab.code, gitlab.stdout.as_str()), (0, "[]\n"));
    let junit = run_in(dir.path(), &["--format", "junit"]);
    assert_eq!(junit.code, 0);
    assert!(
        junit.stdout.contains(
            "<testsuite name=\"beeuni-lint\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"0\">\n    \
             <testcase name=\"no problems in 1 file\" classname=\"beeuni-lint\"/>\n"
        ),
        "{}",
        junit.stdout
    );
}

/// Several projects (the root of a monorepo) are one document, as for JSON and SARIF.
#[test]
fn several_projects_are_one_document() {
    let manifest = "tools:\n  lookup-order: tools/lookup_order.ts\n";
    let dir = project(&[("apps/a/beeuni.yaml", manifest), ("apps/b/beeuni.yaml", manifest)]);
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "-A"]);
    let run = run_in(dir.path(), &["--format", "gitlab"]);
    let report: Value = serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stdout));
    assert_code_quality(&report);
    let paths: Vec<&str> = report.as_array().unwrap().iter().map(|i| i["location"]["path"].as_str().unwrap()).collect();
    assert!(paths.contains(&"apps/a/beeuni.yaml") && paths.contains(&"apps/b/beeuni.yaml"), "{paths:?}");
    let run = run_in(dir.path(), &["--format", "junit"]);
    assert_eq!(run.stdout.matches("<?xml").count(), 1, "{}", run.stdout);
    assert_eq!(run.stdout.matches("<testsuite name=\"apps/").count(), 2, "{}", run.stdout);
}

/// The `beeuni-lint` lines of examples/gitlab-ci.yml, run as GitLab runs them (outside a merge request, then in
/// one with a base), write the two reports the job's `artifacts:reports` name.
#[test]
fn the_gitlab_ci_example_runs_as_written() {
    let example =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/gitlab-ci.yml")).unwrap();
    let commands: Vec<&str> = example.lines().filter_map(|line| line.trim().strip_prefix("- beeuni-lint ")).collect();
    assert_eq!(commands.len(), 2, "{example}");
    for expected in ["codequality: gl-code-quality-report.json", "junit: beeuni-lint.xml"] {
        assert!(example.contains(expected), "{expected}");
    }
    // The revision it builds is the one the GitHub workflow pins (tests/it/packaging.rs checks that one).
    let workflow =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/github-workflow.yml")).unwrap();
    let pin = workflow.split_once("uses: beeuni/beeuni-lint@").unwrap().1.split_whitespace().next().unwrap();
    assert!(
        example.contains(&format!("BEEUNI_LINT_REV: {pin} ")),
        "examples/gitlab-ci.yml builds another revision than {pin}"
    );
    assert!(example.contains("--git https://github.com/beeuni/beeuni-lint --rev \"$BEEUNI_LINT_REV\""), "{example}");
    let image = format!("image: rust:{} ", env!("CARGO_PKG_RUST_VERSION"));
    assert!(example.contains(&image), "examples/gitlab-ci.yml: not the toolchain of Cargo.toml ({image})");
    let dir = broken();
    for base in [None, Some("HEAD")] {
        for command in &commands {
            let base_args = base.map(|base| format!("--base {base}")).unwrap_or_default();
            let line = command.replace("${BASE:+--base \"$BASE\"}", &base_args);
            let args: Vec<&str> = line.split_whitespace().collect();
            let run = run_in(dir.path(), &args);
            // Findings fail the Code Quality run (exit 1), never the JUnit one (`--fail-on never`); 2 would be a
            // command the binary refuses.
            let wanted = if line.contains("--fail-on never") { 0 } else { 1 };
            assert_eq!(run.code, wanted, "{line}: {}", run.stderr);
        }
        let quality = std::fs::read_to_string(dir.path().join("gl-code-quality-report.json")).unwrap();
        let quality: Value = serde_json::from_str(&quality).unwrap();
        assert_code_quality(&quality);
        // `--min-severity warning`: no `info` issue.
        assert!(quality.as_array().unwrap().iter().all(|i| i["severity"] != "info"), "{quality}");
        let junit = std::fs::read_to_string(dir.path().join("beeuni-lint.xml")).unwrap();
        assert!(junit.contains("<testsuites name=\"beeuni-lint\""), "{junit}");
    }
}

/// docs/ci-reports.md shows examples/gitlab-ci.yml as it is, and an issue `--format gitlab` really writes for
/// `examples/broken` in a clone of this repository.
#[test]
fn the_page_shows_the_example_and_a_real_issue() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = std::fs::read_to_string(root.join("docs/ci-reports.md")).unwrap();
    let example = std::fs::read_to_string(root.join("examples/gitlab-ci.yml")).unwrap();
    assert!(
        page.contains(&format!("```yaml\n{example}```\n")),
        "docs/ci-reports.md does not show examples/gitlab-ci.yml"
    );
    let (_, json) = page.split_once("```json\n").unwrap();
    let shown: Value = serde_json::from_str(json.split_once("```").unwrap().0).unwrap();
    let dir = TempDir::new().unwrap();
    copy_dir(&root.join("examples"), &dir.path().join("examples"));
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "-A"]);
    let run = run_in(dir.path(), &["examples/broken", "--format", "gitlab"]);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    assert!(report.as_array().unwrap().contains(&shown), "{shown} is not in\n{}", run.stdout);
}

/// Markup and characters that act, in a path and a message of the repository, stay data: the JUnit report holds
/// them as entities and visible escapes, the Code Quality report as JSON escapes that read back to the text.
#[test]
fn hostile_text_stays_data_in_both_reports() {
    // YAML's `\e` is ESC and `\u202E` the right-to-left override: a module path no file has.
    let manifest = "tools:\n  lookup_order: \"tools/<b>&\\\"'\\e[31m\\u202E.ts\"\n";
    let dir = project(&[("beeuni.yaml", manifest)]);
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "-A"]);
    let raw = |text: &str| text.chars().any(|c| beeuni_lint::source::escape::acts(c) && c != '\n');
    let junit = run_in(dir.path(), &["--format", "junit"]);
    assert_eq!(junit.code, 1, "{}", junit.stderr);
    assert!(!raw(&junit.stdout), "{:?}", junit.stdout);
    let shown = "tools/&lt;b&gt;&amp;&quot;&apos;\\u{1b}[31m\\u{202e}.ts";
    assert!(junit.stdout.contains(shown), "{}", junit.stdout);
    // No markup of the repository's: every `<` of the report opens one of the report's own elements.
    for tag in junit.stdout.split('<').skip(1) {
        let name: String = tag.chars().take_while(|c| c.is_ascii_alphabetic() || *c == '/' || *c == '?').collect();
        let known = ["?xml", "testsuites", "/testsuites", "testsuite", "/testsuite", "testcase", "/testcase"];
        assert!(known.contains(&name.as_str()) || ["failure", "/failure"].contains(&name.as_str()), "<{tag}");
    }
    let gitlab = run_in(dir.path(), &["--format", "gitlab"]);
    assert!(!raw(&gitlab.stdout), "{:?}", gitlab.stdout);
    let report: Value = serde_json::from_str(&gitlab.stdout).unwrap();
    assert_code_quality(&report);
    let texts: Vec<&str> = report.as_array().unwrap().iter().map(|i| i["description"].as_str().unwrap()).collect();
    assert!(texts.iter().any(|t| t.contains("tools/<b>&\"'\u{1b}[31m\u{202e}.ts")), "{texts:?}");
}
