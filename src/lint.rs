//! The lint pipeline: discover the repository, read its config, build the [`project::Project`] model once
//! (streaming the manifest graph into the modules stage), run every rule over it, apply ignores and config, and
//! hand back the [`Report`] a renderer formats. The fix engine ([`crate::fix`]) runs it again over pending fixes.

use crate::diagnostic::{self, Severity};
use crate::error::Error;
use crate::project;
use crate::report::Report;
use crate::{cache, change, config, discover, modules, pool, repo, rules, suppress, xcsh};
use std::path::PathBuf;
use std::sync::Arc;

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
    /// The command run for this (`ls`, `agents`; `None` for `check`): the "no beeuni.yaml" help names it.
    pub command: Option<&'static str>,
    /// The git repository already read for another project of this run (a monorepo's root): reused when the
    /// project is in its work tree, instead of reading the index again.
    pub repository: Option<Arc<repo::git::GitRepo>>,
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
        match self {
            CacheChoice::ReadOnly(choice) => choice.open(found).map(cache::ModuleCache::read_only),
            _ => self.folder(found)?.map_err(cache::place::note).ok().map(cache::ModuleCache::open),
        }
    }

    /// The cache folder of the project `found` (`None`: the cache is off), or why it is not the run's own.
    fn folder(&self, found: &discover::Discovered) -> Option<Result<PathBuf, String>> {
        match self {
            CacheChoice::ProjectRoot => {
                let git = found.git.as_deref().map(|git| (git, found.git_prefix.as_str()));
                Some(cache::place::project_folder(&found.root, git))
            }
            CacheChoice::Dir(dir) => Some(cache::place::chosen_folder(dir, found.git.as_deref())),
            CacheChoice::Off => None,
            CacheChoice::ReadOnly(choice) => choice.folder(found),
        }
    }
}

/// The cache folder a run of `options` uses, when it has one that is the run's own (the run itself says why not).
pub fn cache_folder(options: &CheckOptions) -> Option<PathBuf> {
    let found = discover::discover_in(&options.path, options.staged, options.repository.as_ref()).ok()?;
    options.cache.folder(&found)?.ok()
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
            command: None,
            repository: None,
        }
    }
}

/// A built project, the checkout it was read from, its config, and the two sides of a change-aware run.
pub struct Loaded {
    pub project: project::Project,
    /// Held here, not in the model: the rules read what the model found in it, never the checkout itself.
    pub checkout: repo::checkout::Checkout,
    pub config: config::Config,
    pub sides: Option<change::Sides>,
    /// The cache the project was built with, for a second build of the run (`impact`'s base side reads it too).
    pub cache: Option<cache::ModuleCache>,
}

/// Discovers the repository that holds `options.path`, reads its config and builds the model (and, for a
/// change-aware run, the base's facts). `Err` means the run cannot happen (exit 2).
pub fn load(options: &CheckOptions) -> Result<Loaded, Error> {
    load_with(options, None)
}

/// [`load`], with the work tree seen through pending fixes.
pub fn load_with(options: &CheckOptions, overlay: Option<Arc<repo::checkout::Overlay>>) -> Result<Loaded, Error> {
    load_over(options, overlay, &modules::Reused::default(), None)
}

/// [`load_with`], reusing what `parsed` (an earlier run) holds for every file whose text is the same, and what
/// `memo` knows of the disk: the language server's run, with its unsaved buffers as the overlay.
pub fn load_over(
    options: &CheckOptions,
    overlay: Option<Arc<repo::checkout::Overlay>>,
    parsed: &modules::Reused,
    memo: Option<Arc<repo::checkout::DiskMemo>>,
) -> Result<Loaded, Error> {
    let found = discover::discover_in(&options.path, options.staged, options.repository.as_ref())?;
    let top = found.git.as_ref().map_or_else(|| found.root.clone(), |git| git.root().to_path_buf());
    let config = config::Config::load(&found.root, &top, options.config.as_deref()).map_err(Error::Config)?;
    let cache = options.cache.open(&found);
    // The analysis threads size their allocator arenas by it (those git discovery started, from now on).
    pool::arena::expect_decoding(cache.as_ref().map_or(0, cache::ModuleCache::decodable_bytes));
    let mut work = repo::checkout::Checkout::work_tree(found.root.clone(), found.git, found.git_prefix);
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
            let help = Some(discover::missing_help(&found.start, &checkout, options.command));
            return Err(Error::NoManifest { place, stage, help });
        }
        Err(error) => return Err(error),
    };
    let mut project = project::Project::build(project::ProjectInput {
        checkout: &checkout,
        manifest,
        xcsh_paths,
        harness_tools: config.harness_tools.clone(),
        parsed,
        cache: cache.as_ref(),
        keep_texts: options.keep_texts,
        module_bytes: config.module_bytes(),
    });
    project.base = sides.as_ref().map(|sides| change::base_facts(&project, &checkout, sides));
    project.removed_on_purpose = config.removed_beeuni_tools.iter().map(|(name, _)| name.clone()).collect();
    Ok(Loaded { project, checkout, config, sides, cache })
}

/// The `--xcsh` folders, relative to the project root (each must be a folder inside it).
fn xcsh_folders(root: &std::path::Path, given: &[PathBuf]) -> Result<Vec<String>, Error> {
    given
        .iter()
        .map(|path| {
            repo::watch::note_identity(path);
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
    let Loaded { mut project, checkout, mut config, sides, .. } = load_with(options, overlay)?;
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
        diagnostics = change::only_changed(&project, &checkout, sides, diagnostics);
    }
    // Counted for the cap as the report will hold them: ignored, excluded, below `--min-severity` or off the
    // change, a finding is not one of those shown.
    diagnostics.retain(|d| d.severity >= options.min_severity);
    diagnostic::cap::apply(&mut diagnostics);
    rules::hints::complete(&project, &mut diagnostics);
    let root = project.root.clone();
    let looked = look(&project);
    let report = Report { sources: std::mem::take(&mut project.sources), diagnostics, files };
    if options.leave_model {
        std::mem::forget((project, checkout, config, sides));
    }
    Ok((report, root, looked))
}
