//! What a run cost in module reads, parses and texts read again: printed on stderr when `BEEUNI_LINT_STATS` is
//! set, so that tests can tell a warm run from a cold one without timing it.

use std::sync::atomic::Ordering;

/// The environment variable that asks for the line.
pub const VARIABLE: &str = "BEEUNI_LINT_STATS";

/// `stats: modules read N, parsed N; texts read again N; manifest files parsed N; git objects opened for their
/// length N`.
pub fn line() -> String {
    let get = |counter: &std::sync::atomic::AtomicUsize| counter.load(Ordering::Relaxed);
    format!(
        "stats: modules read {}, parsed {}; texts read again {}; manifest files parsed {}; git objects opened for \
         their length {}",
        get(&crate::modules::MODULES_READ),
        get(&crate::modules::MODULES_PARSED),
        get(&crate::source::TEXTS_READ_AGAIN),
        get(&crate::manifest::load::MANIFESTS_PARSED),
        get(&crate::repo::git::BLOB_HEADERS_READ)
    )
}
