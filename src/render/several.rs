//! Several projects in one report: `beeuni-lint` at the root of a monorepo, or several PATHs.
//!
//! Every path a report prints is already relative to the git work tree root, so the projects' reports join
//! into one (their files, their findings, their counts) that the human, short, JSON and GitHub renderers
//! print as they print a project's. SARIF keeps one run per project instead ([`super::sarif::render_runs`]),
//! so that each project stays its own code-scanning category.

use crate::diagnostic::Label;
use crate::report::Report;
use crate::source::{FileId, Sources};

/// The reports (of projects of one git work tree) as one: the findings in the order of the reports. A fix's
/// files to delete become repo-relative, as the joined files are shown.
pub fn join(reports: Vec<Report>) -> Report {
    let mut joined = Report { sources: Sources::default(), diagnostics: Vec::new(), files: 0 };
    for report in reports {
        let offset = joined.sources.len();
        let count = report.sources.len();
        // A label that names no file of its report (none should) must not name another project's file.
        let moved = |id: FileId| if id < count { id + offset } else { FileId::MAX };
        let relabel = |label: &mut Label| label.file = moved(label.file);
        for mut d in report.diagnostics {
            relabel(&mut d.primary);
            d.related.iter_mut().for_each(relabel);
            if let Some(fix) = &mut d.fix {
                fix.edits.iter_mut().for_each(|edit| edit.file = moved(edit.file));
                fix.deletes.iter_mut().for_each(|path| *path = report.sources.shown(path).to_string());
            }
            joined.diagnostics.push(d);
        }
        joined.files += report.files;
        for file in report.sources.into_files() {
            joined.sources.add_shown(file);
        }
    }
    joined
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::{Diagnostic, Fix, Safety, Severity};
    use crate::render::{fixture, short};
    use crate::source::{SourceFile, Span};

    /// Does every label of every finding name one of the report's files?
    fn labels_resolve(report: &Report) -> bool {
        let resolves = |label: &Label| label.file < report.sources.len();
        report.diagnostics.iter().all(|d| resolves(&d.primary) && d.related.iter().all(resolves))
    }

    fn project(prefix: &str, rule: &'static str) -> Report {
        let mut sources = Sources::with_prefix(prefix);
        let manifest = sources.add(SourceFile::new("beeuni.yaml", "tools: {}\n".into()));
        let finding = Diagnostic::new(rule, Severity::Warning, Label::new(manifest, Span::new(0, 5)), "a finding")
            .fix(Fix::delete(Safety::Safe, "tools/old.ts".into()));
        Report { sources, diagnostics: vec![finding], files: 3 }
    }

    #[test]
    fn findings_keep_their_files_and_paths() {
        let joined = join(vec![project("apps/a", "rule-a"), project("apps/b", "rule-b")]);
        assert_eq!(joined.files, 6);
        assert!(labels_resolve(&joined));
        assert_eq!(
            short::render(&joined),
            "apps/a/beeuni.yaml:1:1: warning[rule-a] a finding\napps/b/beeuni.yaml:1:1: warning[rule-b] a finding\n"
        );
        let deletes: Vec<&str> = joined
            .diagnostics
            .iter()
            .flat_map(|d| d.fix.as_ref().unwrap().deletes.iter().map(String::as_str))
            .collect();
        assert_eq!(deletes, ["apps/a/tools/old.ts", "apps/b/tools/old.ts"]);
    }

    #[test]
    fn a_bad_file_id_stays_bad() {
        let joined = join(vec![fixture::report(), fixture::edge_report()]);
        let ids: Vec<FileId> = joined.diagnostics.iter().map(|d| d.primary.file).collect();
        assert_eq!(ids, [0, 0, 0, 2, 3, 3, 3, FileId::MAX, 4]);
        assert_eq!(joined.diagnostics[5].related[0].file, FileId::MAX);
        assert_eq!(joined.diagnostics[1].related[0].file, 1);
    }
}
