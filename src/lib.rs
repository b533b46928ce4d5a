//! beeuni-lint: a linter for Beeuni agent projects.
//!
//! The pipeline runs one way: discover the repository, load the manifest
//! graph, build the [`project::Project`] model once, run every rule over it,
//! apply ignores and config, and hand the [`Report`] to a renderer.

pub mod catalog;
pub mod config;
pub mod diagnostic;
pub mod discover;
pub mod listing;
pub mod manifest;
pub mod project;
pub mod render;
pub mod repo;
pub mod rules;
pub mod source;
pub mod suppress;
pub mod yaml;

use diagnostic::{Diagnostic, Severity};
use std::path::PathBuf;

/// What a run found: every file it read and every finding, sorted.
pub struct Report {
    pub sources: source::Sources,
    pub diagnostics: Vec<Diagnostic>,
    /// how many files were checked (for the summary line)
    pub files: usize,
}

impl Report {
    /// Is any finding at or above `threshold`?
    pub fn fails(&self, threshold: Option<Severity>) -> bool {
        threshold.is_some_and(|t| self.diagnostics.iter().any(|d| d.severity >= t))
    }
}

pub struct CheckOptions {
    pub path: PathBuf,
    pub config: Option<PathBuf>,
}

/// Discovers the repository that holds `options.path`, reads its config and builds the model.
/// `Err` means the run cannot happen (exit 2).
pub fn load(options: &CheckOptions) -> Result<(project::Project, config::Config), String> {
    let found = discover::discover(&options.path)?;
    let config = config::Config::load(&found.root, options.config.as_deref())?;
    let project = project::Project::build(project::ProjectInput {
        root: found.root,
        manifest: found.manifest,
        git: found.git,
        git_prefix: found.git_prefix,
        staged: false,
        harness_tools: config.harness_tools.clone(),
    });
    Ok((project, config))
}

/// Lints the repository that holds `options.path`.
pub fn check(options: &CheckOptions) -> Result<Report, String> {
    let (project, config) = load(options)?;
    let diagnostics = suppress::apply(&project, &config, rules::check(&project));
    let files = project.sources.len();
    Ok(Report {
        sources: project.sources,
        diagnostics,
        files,
    })
}
