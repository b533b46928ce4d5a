//! `--format junit`: JUnit XML, the test report most CI systems read (GitLab's `artifacts:reports:junit`,
//! Jenkins, Azure Pipelines, CircleCI, Buildkite); docs/output.md documents the fields.
//!
//! `testsuites` holds a `testsuite` a file with findings, in report order, and each finding is a `testcase`
//! that failed: `name` is `rule-id at path:line:column`, `classname` and `file` the repo-relative path, `line`
//! its line, and `failure` carries the message (`message`), the severity (`type`) and, as text, the finding as
//! the short format writes it followed by its help and related locations. A report with no finding is one
//! suite with one passing testcase, so a CI system shows the check as run and green.
//!
//! Every value is repository text: first each character that [`acts`] becomes its visible escape (XML 1.0
//! cannot carry most control characters at all, not even as `&#…;`, and a line break in an attribute would be
//! read as a space), also the noncharacters U+FFFE and U+FFFF that XML forbids; then `&`, `<`, `>`, `"` and `'`
//! become entities.

#[cfg(test)]
mod reader;

use crate::diagnostic::Diagnostic;
use crate::render::{Summary, locate, short, summary_line};
use crate::report::Report;
use crate::source::escape::{acts, escape};

const NAME: &str = "beeuni-lint";

pub fn render(report: &Report) -> String {
    let failures = report.diagnostics.len();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str(&format!(
        "<testsuites name=\"{NAME}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\">\n",
        failures.max(1)
    ));
    if report.diagnostics.is_empty() {
        out.push_str(&format!("  <testsuite name=\"{NAME}\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"0\">\n"));
        let summary = summary_line(&Summary::of(report));
        out.push_str(&format!("    <testcase name=\"{}\" classname=\"{NAME}\"/>\n", xml(&summary)));
        out.push_str("  </testsuite>\n");
    }
    // The findings of one file are together in a sorted report: a suite each run of one path.
    let mut rest = report.diagnostics.as_slice();
    while let Some(first) = rest.first() {
        let path = locate(&report.sources, first.primary.file, first.primary.span).path;
        let count =
            rest.iter().take_while(|d| locate(&report.sources, d.primary.file, d.primary.span).path == path).count();
        let (suite, next) = rest.split_at(count);
        out.push_str(&format!(
            "  <testsuite name=\"{}\" tests=\"{count}\" failures=\"{count}\" errors=\"0\" skipped=\"0\">\n",
            xml(path)
        ));
        for d in suite {
            out.push_str(&testcase(report, d));
        }
        out.push_str("  </testsuite>\n");
        rest = next;
    }
    out.push_str("</testsuites>\n");
    out
}

/// One finding as a failed testcase.
fn testcase(report: &Report, d: &Diagnostic) -> String {
    let at = locate(&report.sources, d.primary.file, d.primary.span);
    let path = xml(at.path);
    let mut body = short::render_one(&report.sources, d);
    if let Some(help) = d.help.as_deref().filter(|help| !help.is_empty()) {
        body.push_str(&format!("help: {}\n", escape(help)));
    }
    for label in &d.related {
        let related = locate(&report.sources, label.file, label.span);
        let message = label.message.as_deref().map(|m| format!(": {}", escape(m))).unwrap_or_default();
        body.push_str(&format!(
            "related: {}:{}:{}{message}\n",
            escape(related.path),
            related.start.line,
            related.start.column
        ));
    }
    format!(
        "    <testcase name=\"{} at {path}:{}:{}\" classname=\"{path}\" file=\"{path}\" line=\"{}\">\n      \
         <failure message=\"{}\" type=\"{}\">{}</failure>\n    </testcase>\n",
        xml(d.rule),
        at.start.line,
        at.start.column,
        at.start.line,
        xml(&d.message),
        d.severity.as_str(),
        // The body's own line breaks are kept (text, not an attribute); its values were escaped above.
        xml_lines(&body)
    )
}

/// A value for an attribute or text: every character that acts (line breaks too) as its visible escape, then
/// XML's entities.
fn xml(value: &str) -> String {
    entities(&escape(value))
}

/// A text whose line breaks are its own (the failure's body): as [`xml`], `\n` kept.
fn xml_lines(text: &str) -> String {
    entities(&crate::source::escape::escape_lines(text))
}

fn entities(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\u{fffe}' | '\u{ffff}' => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => {
                debug_assert!(!acts(c) || c == '\n', "escaped before");
                out.push(c);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::reader::{Element, parse};
    use super::*;
    use crate::render::fixture;

    /// The documented shape: `testsuites` of `testsuite`s of `testcase`s, each with at most one `failure`, and
    /// the counts of each level true.
    fn assert_documented(root: &Element) {
        assert_eq!(root.name, "testsuites");
        let count = |element: &Element, name: &str| element.attribute(name).unwrap().parse::<usize>().unwrap();
        let (mut tests, mut failures) = (0, 0);
        for suite in &root.children {
            assert_eq!(suite.name, "testsuite");
            assert!(suite.attribute("name").is_some());
            assert_eq!(count(suite, "tests"), suite.children.len());
            let failed = suite.children.iter().filter(|case| !case.children.is_empty()).count();
            assert_eq!(count(suite, "failures"), failed);
            for case in &suite.children {
                assert_eq!(case.name, "testcase");
                assert!(case.attribute("name").is_some() && case.attribute("classname").is_some());
                assert!(case.children.len() <= 1);
                for failure in &case.children {
                    assert_eq!(failure.name, "failure");
                    assert!(["error", "warning", "info"].contains(&failure.attribute("type").unwrap()));
                    assert!(failure.attribute("message").is_some());
                }
            }
            tests += suite.children.len();
            failures += failed;
        }
        assert_eq!((count(root, "tests"), count(root, "failures")), (tests, failures));
    }

    #[test]
    fn a_failed_testcase_a_finding_a_suite_a_file() {
        let text = render(&fixture::report());
        let root = parse(&text).unwrap();
        assert_documented(&root);
        assert_eq!(root.children.len(), 1);
        let case = &root.children[0].children[1];
        assert_eq!(case.attribute("name"), Some("unknown-excluded-tool at beeuni.yaml:3:13"));
        assert_eq!((case.attribute("file"), case.attribute("line")), (Some("beeuni.yaml"), Some("3")));
        let failure = &case.children[0];
        assert_eq!(failure.attribute("message"), Some("unknown tool `bsh` in `exclude`"));
        assert_eq!(failure.attribute("type"), Some("error"));
        assert_eq!(
            failure.text,
            "beeuni.yaml:3:13: error[unknown-excluded-tool] unknown tool `bsh` in `exclude`\n\
             help: did you mean `bash`?\nrelated: tools/bash.ts:1:14: `bash` is defined here\n"
        );
        insta::assert_snapshot!(text);
    }

    #[test]
    fn a_clean_report_is_one_passing_testcase() {
        let mut report = fixture::report();
        report.diagnostics.clear();
        let root = parse(&render(&report)).unwrap();
        assert_documented(&root);
        let case = &root.children[0].children[0];
        assert_eq!((case.attribute("name"), case.children.len()), (Some("no problems in 2 files"), 0));
    }

    #[test]
    fn markup_and_control_characters_stay_text() {
        let mut report = fixture::edge_report();
        report.diagnostics[0].message = "<b a=\"1\">&amp;</b> \u{1b}[31m\u{202e}\r\n\u{0}\u{ffff}'".into();
        report.diagnostics[1].help = Some("]]> <!-- --> \u{7}".into());
        let text = render(&report);
        let root = parse(&text).unwrap_or_else(|e| panic!("{e}:\n{text}"));
        assert_documented(&root);
        let failure = &root.children[0].children[0].children[0];
        let shown = "<b a=\"1\">&amp;</b> \\u{1b}[31m\\u{202e}\\r\\n\\u{0}\\u{ffff}'";
        assert_eq!(failure.attribute("message"), Some(shown));
        assert!(text.contains("help: ]]&gt; &lt;!-- --&gt; \\u{7}\n"), "{text}");
        // The edge report's findings: files in report order, one of no known file (no path).
        let suites: Vec<&str> = root.children.iter().map(|s| s.attribute("name").unwrap()).collect();
        assert_eq!(suites, ["empty.yaml", "crlf.yaml", "", "noeol.yaml"]);
    }

    #[test]
    fn the_reader_refuses_what_xml_refuses() {
        let head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
        for bad in ["<a>x & y</a>", "<a>x < y</a>", "<a b=\"<\"/>", "<a>\u{1b}</a>", "<a></b>", "<a>&foo;</a>"] {
            assert!(parse(&format!("{head}{bad}\n")).is_err(), "{bad}");
        }
        assert!(parse(&format!("{head}<a b=\"&lt;\">&amp;<c/></a>\n")).is_ok());
    }
}
