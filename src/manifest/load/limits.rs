//! How much of an import graph is loaded: a project has a handful of manifest files (the 20,000-module bench has
//! 51, 731 KB of YAML), a pull request can hold thousands that import one another, a list of a million imports, or
//! megabytes of declarations (the YAML tree and the model cost some 40 bytes of memory a byte of YAML). Past any
//! limit one finding on the import where it was passed says so, and no file is opened any more (the imports of
//! those open are still walked, to find their cycles); past the imports, none is looked at. A root manifest that
//! alone passes the bytes is a `yaml-syntax` finding on its first line, as a file too large to read is.

use super::{ImportItem, LoadProblem, ProblemKind};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Files of the graph, the root included.
pub(super) const FILES: usize = 1_000;
/// `imports:` entries looked at, across the graph (each is a path resolved, maybe a file opened).
pub(super) const IMPORTS: usize = 10_000;
/// Bytes of YAML across the graph (2 MiB), the root included: 2.8 times the 20,000-module bench's. 4 MiB of tool
/// declarations took 224 MiB and 4.5 s in a debug build; 2 MiB of the costliest shapes measured, 119 MiB or 5.2 s.
pub(super) const BYTES: usize = 2 * 1024 * 1024;

/// Which limit an import passes.
pub(super) enum Passed {
    Files,
    Imports,
    /// With the size of the file it would open, and the bytes the graph holds already.
    Bytes {
        file: usize,
        held: usize,
    },
}

/// The finding on `item`, the first import not followed.
pub(super) fn passed(item: &ImportItem, limit: Passed) -> LoadProblem {
    let merge = "a project needs far fewer manifest files: merge them into fewer, larger ones";
    let (why, help) = match limit {
        Passed::Files => (format!("the graph already holds {FILES} files, as many as beeuni-lint loads"), merge),
        Passed::Imports => {
            (format!("it comes after {IMPORTS} `imports:` entries, as many as beeuni-lint follows"), merge)
        }
        Passed::Bytes { file, held } => (
            format!(
                "its {file} bytes would take the graph's YAML past {BYTES} bytes (2 MiB), as much as beeuni-lint loads (it holds {held})"
            ),
            "a project's manifests hold a few hundred kilobytes of YAML: shorten them",
        ),
    };
    LoadProblem {
        kind: ProblemKind::ImportPath,
        at: item.label.clone(),
        message: format!("import `{}` is not followed: {why}; no file past this limit is checked", item.path),
        help: Some(help.into()),
        related: Vec::new(),
    }
}

/// The bytes of YAML read for the graph, shared with the threads that parse files ahead of the walk: the walk's
/// files and those parsed ahead but not opened yet. A file is parsed ahead only when it fits (so what parsing
/// ahead holds and may waste is bounded by [`BYTES`]); which file passes the limit is the walk's to say, in graph
/// order, from the bytes of the files it opened (not from this, which depends on the threads' timing).
#[derive(Clone, Default)]
pub(super) struct Reserved(Arc<AtomicUsize>);

impl Reserved {
    /// Takes `bytes` when they fit within [`BYTES`].
    pub(super) fn reserve(&self, bytes: usize) -> bool {
        let fits = |held: usize| held.checked_add(bytes).filter(|&total| total <= BYTES);
        self.0.fetch_update(Ordering::Relaxed, Ordering::Relaxed, fits).is_ok()
    }

    /// Takes `bytes` whether they fit or not (a file the walk read itself).
    pub(super) fn add(&self, bytes: usize) {
        self.0.fetch_add(bytes, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserves_only_what_fits() {
        let reserved = Reserved::default();
        assert!(reserved.reserve(BYTES - 10));
        assert!(!reserved.reserve(11), "past the limit");
        assert!(reserved.reserve(10), "exactly to the limit");
        assert!(!reserved.reserve(1));
        reserved.add(5);
        assert!(!reserved.reserve(0), "the walk's own file took it past the limit");
    }
}
