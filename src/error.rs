//! Why a run cannot happen (exit 2), at the library's boundary: [`load`](crate::lint::load), [`check`](crate::fix::offer::check),
//! [`lint`](crate::lint::lint), project discovery and the fix stage. One enum for the crate, a variant per area; each
//! one's text is the message the binary prints after `beeuni-lint: ` (the tests assert them byte for byte). Inside
//! an area, messages are still formed as text where they arise and the area's variant carries them; a variant of
//! its own is for what a caller decides on (the missing manifest gets the help of where the search looked).

use crate::catalog::MANIFEST;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A path given (the one to lint, `--from`) cannot be used: it is not there, or it leads out of the repository.
    #[error("{0}")]
    Path(String),
    /// The git repository around the project cannot be read.
    #[error("{0}")]
    Git(String),
    /// No `beeuni.yaml` at `place` ("at /the/root" or "in the index"): with the path to `git add` when the index
    /// was looked at, and with where the search looked (see [`crate::discover::missing_help`]).
    #[error("no {MANIFEST} {place}{}", no_manifest_tail(.stage.as_deref(), .help.as_deref()))]
    NoManifest { place: String, stage: Option<String>, help: Option<String> },
    /// The manifest at `place` is there but cannot be read (`reason`: a link out of the repository, not a file…).
    #[error("{MANIFEST} {place} {reason}")]
    ManifestUnreadable { place: String, reason: String },
    /// The config file (`beeuni-lint.toml` or `--config`); its messages name the file and, within it, the place.
    #[error("{0}")]
    Config(String),
    /// The change of `--base`/`--staged` cannot be looked at.
    #[error("{0}")]
    Change(String),
    /// A flag or its value cannot be used (`--only-changed` without a change, an `--xcsh` folder outside).
    #[error("{0}")]
    Usage(String),
    /// The fixes cannot be planned or written.
    #[error("{0}")]
    Fix(String),
    /// `eject` or `restore` will not edit the project (the name, the manifest or the module is not as it must be),
    /// or cannot write it.
    #[error("{0}")]
    Edit(String),
    /// A report file (`--output`, `--sarif-file`) cannot be written where it is asked for.
    #[error("{0}")]
    Report(String),
}

/// ": stage it with `git add PATH`", then ": HELP", each when there is one.
fn no_manifest_tail(stage: Option<&str>, help: Option<&str>) -> String {
    let stage = stage.map(|path| format!(": stage it with `git add {path}`")).unwrap_or_default();
    let help = help.map(|help| format!(": {help}")).unwrap_or_default();
    format!("{stage}{help}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_manifest_reads_as_it_did_with_each_tail() {
        let missing = |stage: Option<&str>, help: Option<&str>| Error::NoManifest {
            place: "at /repo".into(),
            stage: stage.map(str::to_string),
            help: help.map(str::to_string),
        };
        assert_eq!(missing(None, None).to_string(), "no beeuni.yaml at /repo");
        assert_eq!(
            missing(Some("apps/beeuni.yaml"), None).to_string(),
            "no beeuni.yaml at /repo: stage it with `git add apps/beeuni.yaml`"
        );
        assert_eq!(missing(None, Some("looked in /repo")).to_string(), "no beeuni.yaml at /repo: looked in /repo");
        let unreadable = Error::ManifestUnreadable { place: "at /repo".into(), reason: "is a folder".into() };
        assert_eq!(unreadable.to_string(), "beeuni.yaml at /repo is a folder");
    }
}
