//! A finding's fix as SARIF `fixes`: replacements in artifacts (SARIF has no form for deleting a file). The fixes
//! are those the fix stage let through (`fix::offer::verify`, or the planner's outcome).

use std::collections::BTreeMap;

use serde_json::Value;
use serde_sarif::sarif;

use super::location::{artifact, region};
use super::{message, number};
use crate::diagnostic::{Fix, Safety};
use crate::report::Report;
use crate::source::FileId;

/// One `artifactChange` a file, in the order the files first appear; each edit a replacement whose deleted
/// region is given both as lines and UTF-16 columns and as a byte range.
pub(super) fn fix(report: &Report, fix: &Fix) -> sarif::Fix {
    let mut changes: Vec<(FileId, sarif::ArtifactChange)> = Vec::new();
    for edit in &fix.edits {
        let (path, mut deleted) = region(report, edit.file, edit.span);
        deleted.byte_offset = Some(number(edit.span.start()));
        deleted.byte_length = Some(number(edit.span.end().saturating_sub(edit.span.start())));
        let inserted = sarif::ArtifactContent { text: Some(edit.content.clone()), ..Default::default() };
        let replacement =
            sarif::Replacement { deleted_region: deleted, inserted_content: Some(inserted), properties: None };
        match changes.iter_mut().find(|(file, _)| *file == edit.file) {
            Some((_, change)) => change.replacements.push(replacement),
            None => {
                let change = sarif::ArtifactChange {
                    artifact_location: artifact(path),
                    replacements: vec![replacement],
                    properties: None,
                };
                changes.push((edit.file, change));
            }
        }
    }
    let (safety, description) = safety(fix.safety);
    let properties = BTreeMap::from([("safety".to_string(), Value::from(safety))]);
    sarif::Fix {
        artifact_changes: changes.into_iter().map(|(_, change)| change).collect(),
        description: Some(message(description)),
        properties: Some(sarif::PropertyBag::builder().additional_properties(properties).build()),
    }
}

/// A fix's safety as the properties say it, and the description of a fix of that safety.
pub(super) fn safety(safety: Safety) -> (&'static str, &'static str) {
    match safety {
        Safety::Safe => ("safe", "Apply the safe fix (`beeuni-lint --fix`)"),
        Safety::Unsafe => ("unsafe", "Apply the unsafe fix (`beeuni-lint --fix --unsafe-fixes`); review it first"),
    }
}
