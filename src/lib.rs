//! beeuni-lint: a linter for Beeuni agent projects.
//!
//! The pipeline runs one way: discover the repository, load the manifest
//! graph, build the [`project::Project`] model once, run every rule over it,
//! apply ignores and config, and hand the [`Report`] to a renderer.

// The library's lints (CONTRIBUTING.md): no `unsafe` but the documented blocks, each allowed where it stands with
// its reason; no `unwrap`/`expect` outside tests (clippy.toml) but where the line above proves it, allowed there
// with the reason; no printing (the binary prints; notes go through `cache::place::send_notes_to`). They are
// attributes here, not a `[lints]` table of Cargo.toml: such a table holds for every target of the package, and
// the integration tests' helpers unwrap and the hostile suite measures its runs with `unsafe` `wait4`.
#![deny(unsafe_code)]
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout, clippy::print_stderr)]

pub mod access;
pub mod cache;
pub mod catalog;
pub mod change;
pub mod config;
pub mod diagnostic;
pub mod discover;
mod error;
pub mod fix;
#[doc(hidden)]
pub mod fuzzing;
pub mod hook;
pub mod listing;
pub mod lookup;
pub mod lsp;
pub mod manifest;
pub mod modules;
pub mod project;
pub mod render;
pub mod repo;
pub mod rules;
pub mod schema;
pub mod source;
pub mod stats;
pub mod suppress;
pub mod xcsh;
pub mod yaml;

use diagnostic::{Diagnostic, Severity};
pub use error::Error;
use std::path::PathBuf;
use std::sync::Arc;

/// What a run found: every file it read and every finding, sorted.
pub struct Report {
    pub sources: source::Sources,
    pub diagnostics: Vec<Diagnostic>,
    /// how many files were checked (for the summary line)
    pub files: usize,
}

impl Report {
    /// Makes the text of every file a finding points into (renderers show no other) safe to print in a snippet
    /// (see [`source::escape::same_length`]); the renderers escape messages, helps and paths themselves.
    pub fn make_terminal_safe(&mut self) {
        let mut shown = vec![false; self.sources.len()];
        for diagnostic in &self.diagnostics {
            for label in std::iter::once(&diagnostic.primary).chain(&diagnostic.related) {
                if let Some(shown) = shown.get_mut(label.file) {
                    *shown = true;
                }
            }
        }
        for (file, _) in self.sources.iter_mut().zip(shown).filter(|(_, shown)| *shown) {
            file.text.make_terminal_safe();
        }
    }

    /// Is any finding at or above `threshold`?
    pub fn fails(&self, threshold: Option<Severity>) -> bool {
        threshold.is_some_and(|t| self.diagnostics.iter().any(|d| d.severity >= t))
    }
}

#[derive(Clone)]
pub struct CheckOptions {
    pub path: PathBuf,
    pub config: Option<PathBuf>,
    /// `--base REV`: compare with the merge base of REV and HEAD.
    pub base: Option<String>,
    /// `--staged`: lint the index, and compare with HEAD (or with `base`).
    pub staged: bool,
    /// `--only-changed`: keep findings on lines the change adds or modifies.
    pub only_changed: bool,
    /// `--min-severity`: findings below it are dropped before they are counted (see [`diagnostic::cap`]).
    pub min_severity: Severity,
    /// `--xcsh PATH`: more xcsh tool folders (relative to the current folder).
    pub xcsh: Vec<PathBuf>,
    /// Where module facts are cached (`--cache-dir`, `--no-cache`).
    pub cache: CacheChoice,
    /// Keep module texts in memory (the language server compares and edits them); a run of the command line lets
    /// them go once analysed and reads again only those a finding is shown in.
    pub keep_texts: bool,
    /// The process ends after this run (the command line): the model is left for the operating system to reclaim
    /// instead of being freed piece by piece (on the 2,000-module bench, a tenth of the main thread's work).
    pub leave_model: bool,
}

/// Where the warm cache ([`cache`]) lives.
#[derive(Clone, Debug)]
pub enum CacheChoice {
    /// `.beeuni-lint-cache/` at the project root.
    ProjectRoot,
    /// `--cache-dir DIR`.
    Dir(PathBuf),
    /// `--no-cache`: neither read nor write one.
    Off,
    /// Read that cache, never write it (the fix engine's runs: planning writes nothing).
    ReadOnly(Box<CacheChoice>),
}

impl CacheChoice {
    /// The cache of the project `found`: none when its folder is not the run's own to trust (see [`cache::place`];
    /// a note on standard error says why).
    fn open(&self, found: &discover::Discovered) -> Option<cache::ModuleCache> {
        let folder = match self {
            CacheChoice::ProjectRoot => {
                let git = found.git.as_ref().map(|git| (git, found.git_prefix.as_str()));
                cache::place::project_folder(&found.root, git)
            }
            CacheChoice::Dir(dir) => cache::place::chosen_folder(dir, found.git.as_ref()),
            CacheChoice::Off => return None,
            CacheChoice::ReadOnly(choice) => return choice.open(found).map(cache::ModuleCache::read_only),
        };
        folder.map_err(cache::place::note).ok().map(cache::ModuleCache::open)
    }
}

impl CheckOptions {
    pub fn new(path: PathBuf) -> Self {
        CheckOptions {
            path,
            config: None,
            base: None,
            staged: false,
            only_changed: false,
            min_severity: Severity::Info,
            xcsh: Vec::new(),
            // Only `check` keeps a cache: the other commands (and the language server) leave no files behind.
            cache: CacheChoice::Off,
            keep_texts: false,
            leave_model: false,
        }
    }
}

/// A built project, its config, and the two sides of a change-aware run.
pub struct Loaded {
    pub project: project::Project,
    pub config: config::Config,
    pub sides: Option<change::Sides>,
}

/// Discovers the repository that holds `options.path`, reads its config and builds the model (and, for a
/// change-aware run, the base's facts). `Err` means the run cannot happen (exit 2).
pub fn load(options: &CheckOptions) -> Result<Loaded, Error> {
    load_with(options, None)
}

/// [`load`], with the work tree seen through pending fixes.
pub fn load_with(options: &CheckOptions, overlay: Option<Arc<repo::checkout::Overlay>>) -> Result<Loaded, Error> {
    load_over(options, overlay, &manifest::load::Parsed::default(), None)
}

/// [`load_with`], reusing what `parsed` (an earlier run) holds for every file whose text is the same, and what
/// `memo` knows of the disk: the language server's run, with its unsaved buffers as the overlay.
pub fn load_over(
    options: &CheckOptions,
    overlay: Option<Arc<repo::checkout::Overlay>>,
    parsed: &manifest::load::Parsed,
    memo: Option<Arc<repo::checkout::DiskMemo>>,
) -> Result<Loaded, Error> {
    let found = discover::discover(&options.path, options.staged)?;
    let top = found.git.as_ref().map_or_else(|| found.root.clone(), |git| git.root().to_path_buf());
    let config = config::Config::load(&found.root, &top, options.config.as_deref()).map_err(Error::Config)?;
    let cache = options.cache.open(&found);
    // The analysis threads size their allocator arenas by it (those git discovery started, from now on).
    modules::arena::expect_decoding(cache.as_ref().map_or(0, cache::ModuleCache::decodable_bytes));
    let mut work = repo::checkout::Checkout::work_tree(found.root.clone(), found.git.map(Arc::new), found.git_prefix);
    work.overlay = overlay;
    work.memo = memo;
    let sides = if options.base.is_some() || options.staged {
        Some(change::sides(&work, options.base.as_deref(), options.staged).map_err(Error::Change)?)
    } else {
        None
    };
    let checkout = match &sides {
        Some(sides) => work.at(sides.head),
        None => work,
    };
    let mut xcsh_paths = xcsh_folders(&checkout.root, &options.xcsh)?;
    for folder in config.xcsh_folders() {
        if !checkout.is_dir(&folder) && !folder.is_empty() {
            let shown = config.file.as_ref().map_or(config::FILE_NAME, |f| f.path.as_str());
            return Err(Error::Config(format!("{shown}: xcsh-paths: `{folder}` is not a folder of the project")));
        }
        if !xcsh_paths.contains(&folder) {
            xcsh_paths.push(folder);
        }
    }
    // A project of xcsh tools needs no manifest (docs/spec/rules.md §6).
    let manifest = match discover::manifest(&checkout) {
        Ok(found) => Some(found),
        Err(_) if xcsh::has_tool_folders(&checkout, &xcsh_paths) => None,
        Err(Error::NoManifest { place, stage, help: None }) if checkout.side == repo::checkout::Side::WorkTree => {
            let help = Some(discover::missing_help(&found.start, &checkout));
            return Err(Error::NoManifest { place, stage, help });
        }
        Err(error) => return Err(error),
    };
    let mut project = project::Project::build(project::ProjectInput {
        checkout,
        manifest,
        xcsh_paths,
        harness_tools: config.harness_tools.clone(),
        parsed,
        cache: cache.as_ref(),
        keep_texts: options.keep_texts,
    });
    project.base = sides.as_ref().map(|sides| change::base_facts(&project, sides));
    project.removed_on_purpose = config.removed_beeuni_tools.iter().map(|(name, _)| name.clone()).collect();
    Ok(Loaded { project, config, sides })
}

/// The `--xcsh` folders, relative to the project root (each must be a folder inside it).
fn xcsh_folders(root: &std::path::Path, given: &[PathBuf]) -> Result<Vec<String>, Error> {
    given
        .iter()
        .map(|path| {
            let real =
                std::fs::canonicalize(path).map_err(|e| Error::Usage(format!("--xcsh `{}`: {e}", path.display())))?;
            if !real.is_dir() {
                return Err(Error::Usage(format!("--xcsh `{}` is not a folder", path.display())));
            }
            let rel = real.strip_prefix(root).map_err(|_| {
                Error::Usage(format!(
                    "--xcsh `{}` is outside the project at {}: beeuni-lint reads nothing outside it",
                    path.display(),
                    root.display()
                ))
            })?;
            Ok(rel.components().filter_map(|c| c.as_os_str().to_str()).collect::<Vec<_>>().join("/"))
        })
        .collect()
}

/// Lints the repository that holds `options.path`. Each finding's fix is offered only when it passes the fix
/// stage's checks ([`fix::offer::verify`]), so every view offers what `--fix` would apply.
pub fn check(options: &CheckOptions) -> Result<Report, Error> {
    let mut report = lint(options, None)?.0;
    fix::offer::verify(&mut report);
    Ok(report)
}

/// Lints the repository, its work tree seen through pending fixes; also gives the project root.
pub fn lint(options: &CheckOptions, overlay: Option<Arc<repo::checkout::Overlay>>) -> Result<(Report, PathBuf), Error> {
    lint_then(options, overlay, |_| ()).map(|(report, root, ())| (report, root))
}

/// [`lint`], and what `look` reads of the project's model before it is let go (the fix stage: what each agent
/// can call).
pub fn lint_then<T>(
    options: &CheckOptions,
    overlay: Option<Arc<repo::checkout::Overlay>>,
    look: impl FnOnce(&project::Project) -> T,
) -> Result<(Report, PathBuf, T), Error> {
    if options.only_changed && options.base.is_none() && !options.staged {
        return Err(Error::Usage("`--only-changed` needs a change to look at: add `--base REV` or `--staged`".into()));
    }
    let Loaded { mut project, mut config, sides } = load_with(options, overlay)?;
    let found = rules::check(&project);
    let files = project.sources.len();
    // The config joins the sources only when a finding points into it.
    let config_file = match config.file.take() {
        Some(file) if config.removed_beeuni_tools.iter().any(|(name, _)| project.is_loaded_beeuni(name)) => {
            Some(project.sources.add_shown(file))
        }
        _ => None,
    };
    let mut diagnostics = suppress::apply(&project, &config, config_file, found);
    if let (true, Some(sides)) = (options.only_changed, &sides) {
        diagnostics = change::only_changed(&project, sides, diagnostics);
    }
    // Counted for the cap as the report will hold them: ignored, excluded, below `--min-severity` or off the
    // change, a finding is not one of those shown.
    diagnostics.retain(|d| d.severity >= options.min_severity);
    diagnostic::cap::apply(&mut diagnostics);
    rules::hints::complete(&project, &mut diagnostics);
    let root = project.checkout.root.clone();
    let looked = look(&project);
    let report = Report { sources: std::mem::take(&mut project.sources), diagnostics, files };
    if options.leave_model {
        std::mem::forget((project, config, sides));
    }
    Ok((report, root, looked))
}
