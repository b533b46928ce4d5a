//! `--format short`: one line a finding, `path:line:col: severity[rule-id] message`.

use crate::diagnostic::Diagnostic;
use crate::render::locate;
use crate::report::Report;
use crate::source::Sources;
use crate::source::escape::escape;

pub fn render(report: &Report) -> String {
    report.diagnostics.iter().map(|diagnostic| render_one(&report.sources, diagnostic)).collect()
}

/// One finding's line, line break included.
pub(crate) fn render_one(sources: &Sources, diagnostic: &Diagnostic) -> String {
    let at = locate(sources, diagnostic.primary.file, diagnostic.primary.span);
    // One line a finding, whatever the message holds: its line breaks are escaped.
    let message = escape(&diagnostic.message);
    format!(
        "{}:{}:{}: {}[{}] {}\n",
        escape(at.path),
        at.start.line,
        at.start.column,
        diagnostic.severity.as_str(),
        diagnostic.rule,
        message
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::fixture;

    #[test]
    fn one_line_a_finding() {
        assert_eq!(
            render(&fixture::report()),
            "beeuni.yaml:1:15: warning[odd-name] the name ends in `agent`\n\
             beeuni.yaml:3:13: error[unknown-excluded-tool] unknown tool `bsh` in `exclude`\n\
             beeuni.yaml:4:7: info[empty-value] `model` has no value\n"
        );
    }

    #[test]
    fn edge_spans_do_not_panic() {
        assert_eq!(
            render(&fixture::edge_report()),
            "empty.yaml:1:1: error[r] empty file\n\
             crlf.yaml:3:1: warning[r] at the end\n\
             crlf.yaml:2:5: info[r] past the end\n\
             crlf.yaml:2:4: info[r] inside `ü`\n\
             :1:1: error[r] no such file\n\
             noeol.yaml:1:5: info[r] no line break\n"
        );
    }

    #[test]
    fn empty_report_is_empty() {
        let mut report = fixture::report();
        report.diagnostics.clear();
        assert_eq!(render(&report), "");
    }
}
