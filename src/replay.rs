//! `check` replayed: a run of the work tree with the cache on notes what it looks at, and the next run with the
//! same arguments, in the same folder and environment, prints the same report without linting again while every
//! path noted answers `lstat` as it did ([`beeuni_lint::cache::replay`]).

use crate::cli::{CheckArgs, Format};
use beeuni_lint::cache::replay::{self, Outcome};
use beeuni_lint::repo::watch;
use std::io::IsTerminal;
use std::path::Path;
use std::time::SystemTime;

pub struct Replay {
    started: SystemTime,
    key: Vec<u8>,
}

impl Replay {
    /// Starts noting what the run looks at, when its report could be replayed: a plain `check` of the work tree
    /// (one project, or several: a monorepo's root) whose only output is what it prints. Fixes, `--base`,
    /// `--staged` and `--policy` runs, reports written to files (`--output`, `--sarif-file`, GitHub's job summary)
    /// and `--no-cache` lint every time.
    pub fn start(args: &CheckArgs) -> Option<Replay> {
        let plain = !(args.fix || args.unsafe_fixes || args.diff || args.staged || args.policy || args.no_cache)
            && args.base.is_none()
            && args.output.is_none()
            && args.sarif_file.is_none()
            && args.format != Format::Github
            && std::env::var_os(beeuni_lint::stats::VARIABLE).is_none();
        if !plain {
            return None;
        }
        let key = key(args)?;
        // Before anything is looked at: a path changed after this instant is too recent to record.
        let started = SystemTime::now();
        watch::start();
        Some(Replay { started, key })
    }

    /// Prints what the record in the cache `folder` holds for this run, when nothing it looked at has changed;
    /// otherwise lints (`lint`: the outcome, and whether it may be recorded: not when a project could not be
    /// linted, whose error went to standard error), prints, and records the run for the next.
    pub fn run(self, folder: &Path, lint: impl FnOnce() -> Result<(Outcome, bool), String>) -> Result<u8, String> {
        if let Some(Outcome { text, code }) = replay::replay(folder, &self.key) {
            watch::stop();
            if let Some(text) = text {
                crate::print(&text)?;
            }
            return Ok(code);
        }
        let (outcome, recordable) = lint()?;
        if let Some(text) = &outcome.text {
            crate::print(text)?;
        }
        let seen = watch::stop();
        if recordable {
            replay::record(folder, &self.key, self.started, &seen, &outcome);
        }
        Ok(outcome.code)
    }
}

/// What a run's output depends on besides the files it looks at: this build (the record's header holds it), the
/// arguments, the current folder, whether standard output is a terminal (colour), and the environment git and
/// colour read (`GIT_*`, `HOME`, `XDG_CONFIG_HOME`, `NO_COLOR`), with this tool's own variables.
fn key(args: &CheckArgs) -> Option<Vec<u8>> {
    let mut key = format!("{args:?}\0{}\0", std::io::stdout().is_terminal()).into_bytes();
    key.extend_from_slice(std::env::current_dir().ok()?.as_os_str().as_encoded_bytes());
    let mut variables: Vec<_> = std::env::vars_os()
        .filter(|(name, _)| {
            name.to_str().is_some_and(|name| {
                name.starts_with("GIT")
                    || name.starts_with("BEEUNI")
                    || matches!(name, "HOME" | "XDG_CONFIG_HOME" | "NO_COLOR")
            })
        })
        .collect();
    variables.sort();
    for (name, value) in variables {
        key.push(0);
        key.extend_from_slice(name.as_encoded_bytes());
        key.push(b'=');
        key.extend_from_slice(value.as_encoded_bytes());
    }
    Some(key)
}
