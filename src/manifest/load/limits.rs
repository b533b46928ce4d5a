//! How much of an import graph is loaded: a project has a handful of manifest files (the 20,000-module bench has
//! 51), a pull request can hold thousands that import one another, or a list of a million imports. Past either
//! limit one finding on the import where it was passed says so. Past the files, no file is opened any more (the
//! imports of those open are still walked, to find their cycles); past the imports, none is looked at.

use super::{ImportItem, LoadProblem, ProblemKind};

/// Files of the graph, the root included.
pub(super) const FILES: usize = 1_000;
/// `imports:` entries looked at, across the graph (each is a path resolved, maybe a file opened).
pub(super) const IMPORTS: usize = 10_000;

/// Which limit an import passes.
pub(super) enum Passed {
    Files,
    Imports,
}

/// The finding on `item`, the first import not followed.
pub(super) fn passed(item: &ImportItem, limit: Passed) -> LoadProblem {
    let why = match limit {
        Passed::Files => format!("the graph already holds {FILES} files, as many as beeuni-lint loads"),
        Passed::Imports => format!("it comes after {IMPORTS} `imports:` entries, as many as beeuni-lint follows"),
    };
    LoadProblem {
        kind: ProblemKind::ImportPath,
        at: item.label.clone(),
        message: format!("import `{}` is not followed: {why}; no file past this limit is checked", item.path),
        help: Some("a project needs far fewer manifest files: merge them into fewer, larger ones".into()),
        related: Vec::new(),
    }
}
