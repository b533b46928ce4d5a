//! `check`: the projects a run lints (a PATH's, several PATHs', every project of a monorepo's root, or in hook
//! mode the ones the commit touches), each linted (and fixed), and the report printed.

use crate::cli::{CheckArgs, Color, FailOn, Format, MinSeverity};
use beeuni_lint::cache::replay::Outcome;
use beeuni_lint::diagnostic::Severity;
use beeuni_lint::hook::MAX_REPOSITORY_PROJECTS;
use beeuni_lint::lint::{CacheChoice, CheckOptions};
use beeuni_lint::render;
use beeuni_lint::repo::git::GitRepo;
use beeuni_lint::report::Report;
use beeuni_lint::source::escape::{escape, prefixed_lines};
use std::collections::HashSet;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub fn check(args: &CheckArgs) -> Result<u8, String> {
    let fixing = args.fix || args.unsafe_fixes || args.diff;
    if fixing && args.staged {
        return Err(
            "`--fix` edits the work tree, not the index: run `beeuni-lint --fix`, then `git add` the fixed files"
                .into(),
        );
    }
    match args.paths.as_slice() {
        [] if args.staged => hook(args),
        // `--fix` without PATH at the top of a monorepo (the `beeuni-lint-fix` hook): the projects the commit
        // being made touches, as hook mode picks them.
        [] if fixing && outside_every_project() => hook(args),
        [] => check_paths(args, &[PathBuf::from(".")]),
        paths => check_paths(args, paths),
    }
}

/// In a git work tree, but with no `beeuni.yaml` in the current folder or above it?
fn outside_every_project() -> bool {
    beeuni_lint::discover::discover(Path::new("."), false)
        .is_ok_and(|found| found.git.is_some() && !found.root.join(beeuni_lint::discover::MANIFEST).is_file())
}

/// Hook mode (`--staged` without PATH): every project the commit touches, one report each (in human form under
/// a heading that names the project, when it is not the repository alone); the exit status is the worst. A
/// document (JSON, SARIF, `--output`, `--sarif-file`) is one report of them all, as at a monorepo's root.
fn hook(args: &CheckArgs) -> Result<u8, String> {
    let projects = beeuni_lint::hook::staged_projects(Path::new(".")).map_err(|error| error.to_string())?;
    let one_document =
        matches!(args.format, Format::Json | Format::Sarif | Format::Gitlab | Format::Junit) || args.output.is_some();
    if one_document || args.sarif_file.is_some() {
        return report_projects(args, projects, None);
    }
    let several = projects.len() > 1;
    let (mut worst, mut headings) = (0, 0);
    for project in projects {
        let code = match lint(args, project, !several, None) {
            Ok(Linted::Report(report)) => {
                let named = args.format == Format::Human && (several || !report.sources.prefix().is_empty());
                if named && !(args.quiet && report.diagnostics.is_empty()) {
                    // A blank line parts a project's report from the heading of the next.
                    let gap = if headings > 0 { "\n" } else { "" };
                    print(&format!("{gap}{}", heading(report.sources.prefix())))?;
                    headings += 1;
                }
                emit(args, vec![report])?
            }
            Ok(Linted::Diff(code)) => code,
            Err(message) => {
                eprint!("{}", prefixed_lines("beeuni-lint: ", &message));
                2
            }
        };
        worst = worst.max(code);
    }
    Ok(worst)
}

/// The line that names a project above its report in hook mode: `==> apps/agent <==` (`.` for the root).
fn heading(project: &str) -> String {
    let project = if project.is_empty() { "." } else { project };
    format!("==> {} <==\n", escape(project))
}

/// PATHs given (or `.`): each its project; the root of a monorepo (no `beeuni.yaml` there) stands for every
/// project the repository tracks. One project is reported as ever; several in one report.
fn check_paths(args: &CheckArgs, paths: &[PathBuf]) -> Result<u8, String> {
    let replay = crate::replay::Replay::start(args);
    let (projects, repository) = projects_of(paths, args.staged, args.config.as_deref())?;
    // A run of several projects (a monorepo's root) keeps its record in the first one's cache folder.
    if let (Some(replay), Some(first)) = (replay, projects.first()) {
        let options = options(args, first.clone(), projects.len() == 1, repository.as_ref())?;
        if let Some(folder) = beeuni_lint::lint::cache_folder(&options) {
            return replay.run(&folder, || match projects.as_slice() {
                [_] => match lint_with(args, &options)? {
                    Linted::Report(report) => Ok((outcome(args, vec![report])?, true)),
                    Linted::Diff(code) => Ok((Outcome { text: None, code }, true)),
                },
                _ => several(args, projects.clone(), repository.as_ref()),
            });
        }
    }
    beeuni_lint::repo::watch::stop();
    report_projects(args, projects, repository.as_ref())
}

/// Lints `projects` and prints one report of them: a project's as ever, several joined. `repository`: the git
/// repository they are all in, read once for them all.
fn report_projects(args: &CheckArgs, projects: Vec<PathBuf>, repository: Option<&Arc<GitRepo>>) -> Result<u8, String> {
    if let [one] = projects.as_slice() {
        return match lint(args, one.clone(), true, repository)? {
            Linted::Report(report) => emit(args, vec![report]),
            Linted::Diff(code) => Ok(code),
        };
    }
    printed(several(args, projects, repository)?.0)
}

/// Lints several projects: their joined report as [`emit`] prints it, and whether each was linted (a project that
/// could not be has its error on standard error, and the run's exit status is 2).
fn several(
    args: &CheckArgs,
    projects: Vec<PathBuf>,
    repository: Option<&Arc<GitRepo>>,
) -> Result<(Outcome, bool), String> {
    let sarif = args.format == Format::Sarif || args.sarif_file.is_some();
    if sarif && projects.len() > render::sarif::MAX_RUNS {
        return Err(format!(
            "{} projects: a SARIF report holds a run a project, and GitHub code scanning takes at most {} runs a file; name at most {} projects as PATHs",
            projects.len(),
            render::sarif::MAX_RUNS,
            render::sarif::MAX_RUNS
        ));
    }
    let (mut reports, mut worst, mut each) = (Vec::new(), 0, true);
    for project in projects {
        match lint(args, project, false, repository) {
            Ok(Linted::Report(report)) => reports.push(report),
            Ok(Linted::Diff(code)) => worst = worst.max(code),
            Err(message) => {
                eprint!("{}", prefixed_lines("beeuni-lint: ", &message));
                (worst, each) = (2, false);
            }
        }
    }
    if reports.is_empty() {
        return Ok((Outcome { text: None, code: worst }, each));
    }
    let Outcome { text, code } = outcome(args, reports)?;
    Ok((Outcome { text, code: worst.max(code) }, each))
}

/// The projects to lint for `paths`: each path (the first of any that share a project), or for the top of a
/// work tree without `beeuni.yaml` every project the repository tracks but the config's `[paths] exclude` globs
/// (`config`, else the `beeuni-lint.toml` at the top). Several need one git work tree: their paths are shown
/// from its root. With them, for a run at the root, the repository read to list them: their runs reuse it.
pub(crate) fn projects_of(
    paths: &[PathBuf],
    staged: bool,
    config: Option<&Path>,
) -> Result<(Vec<PathBuf>, Option<Arc<GitRepo>>), String> {
    let mut projects: Vec<PathBuf> = Vec::new();
    // The roots seen, to lint each once: a set, as a root's projects are up to 10,000 (a scan of those before
    // each, comparing paths part by part, took most of a 10,000-project run).
    let mut seen: HashSet<PathBuf> = HashSet::new();
    let (mut top, mut repository) = (None, None);
    for path in paths {
        let found = beeuni_lint::discover::discover(path, staged).map_err(|error| error.to_string())?;
        let expanded = beeuni_lint::hook::repository_projects(&found, staged);
        if paths.len() > 1 || expanded.is_some() {
            let Some(git) = &found.git else {
                return Err(format!(
                    "`{}` is not in a git repository: several projects are linted together only inside one (their paths are shown from its root); lint each on its own",
                    escape(&path.display().to_string())
                ));
            };
            if top.get_or_insert_with(|| git.root().to_path_buf()) != git.root() {
                return Err("the PATHs are in different git repositories: lint each on its own".into());
            }
        }
        let expanded = match (expanded, &found.git) {
            (Some(roots), Some(git)) => Some(not_excluded(roots, git.root(), config)?),
            (expanded, _) => expanded,
        };
        let found_projects = match expanded {
            Some(roots) if roots.len() > MAX_REPOSITORY_PROJECTS => {
                return Err(format!(
                    "the repository tracks {} projects, more than the {MAX_REPOSITORY_PROJECTS} a run at its root lints: name the projects to lint as PATHs",
                    roots.len()
                ));
            }
            Some(roots) => {
                repository = found.git.clone();
                roots.into_iter().map(|root| (root.clone(), root)).collect()
            }
            None => {
                // One PATH: its run takes the repository read here rather than reading the index again (2.9 % of a
                // warm run at 2,000 modules). Not with several, where a later PATH may be in a repository nested in
                // this one's work tree.
                if paths.len() == 1 {
                    repository = found.git.clone();
                }
                vec![(found.root, path.clone())]
            }
        };
        for (root, given) in found_projects {
            if seen.insert(root) {
                projects.push(given);
            }
        }
    }
    Ok((projects, repository))
}

/// The project roots the config at the top of the work tree (or `--config`) does not exclude: a root is left out
/// when a `[paths] exclude` glob matches its folder or its `beeuni.yaml` (`tests/fixtures/**`), from the top.
fn not_excluded(roots: Vec<PathBuf>, top: &Path, config: Option<&Path>) -> Result<Vec<PathBuf>, String> {
    let config = beeuni_lint::config::Config::load(top, top, config)?;
    if config.exclude.is_none() {
        return Ok(roots);
    }
    let kept: Vec<PathBuf> = roots
        .into_iter()
        .filter(|root| {
            let folder: Vec<&str> = root
                .strip_prefix(top)
                .map(|rel| rel.components().filter_map(|c| c.as_os_str().to_str()).collect())
                .unwrap_or_default();
            let folder = folder.join("/");
            // The top itself (a project of xcsh tools there) is the repository's own: never left out.
            folder.is_empty()
                || !(config.is_excluded(&folder)
                    || config.is_excluded(&format!("{folder}/{}", beeuni_lint::discover::MANIFEST)))
        })
        .collect();
    if kept.is_empty() {
        let shown = config.file.as_ref().map_or(beeuni_lint::config::FILE_NAME, |file| file.path.as_str());
        return Err(format!(
            "every project the repository tracks is excluded by `[paths] exclude` in {}: name a project to lint as a PATH",
            escape(shown)
        ));
    }
    Ok(kept)
}

/// A project linted: its report (fixes written, with `--fix`), or with `--diff` the exit code once the diff is
/// printed.
enum Linted {
    Report(Report),
    Diff(u8),
}

/// `alone`: the run's only project, whose model is left to the OS at exit rather than freed (see
/// [`CheckOptions::leave_model`]); with several, each is freed before the next is linted.
fn lint(args: &CheckArgs, path: PathBuf, alone: bool, repository: Option<&Arc<GitRepo>>) -> Result<Linted, String> {
    lint_with(args, &options(args, path, alone, repository)?)
}

/// What `check` hands the library for the project at `path` (see [`lint`]).
fn options(
    args: &CheckArgs,
    path: PathBuf,
    alone: bool,
    repository: Option<&Arc<GitRepo>>,
) -> Result<CheckOptions, String> {
    // `--min-severity`: what is below it is dropped before anything else, in the run itself (before findings are
    // capped), from the fixes, the output and from `--fail-on`.
    let min = match args.min_severity {
        MinSeverity::Info => Severity::Info,
        MinSeverity::Warning => Severity::Warning,
        MinSeverity::Error => Severity::Error,
    };
    let options = CheckOptions {
        path,
        config: args.config.clone(),
        base: args.base.clone(),
        staged: args.staged,
        only_changed: args.only_changed,
        min_severity: min,
        xcsh: args.xcsh.clone(),
        cache: match (&args.cache_dir, args.no_cache) {
            (_, true) => CacheChoice::Off,
            // A cache folder is written: never through a symlink that leads out of the repository.
            (Some(dir), false) => {
                CacheChoice::Dir(beeuni_lint::repo::given::follow(dir, "--cache-dir").map_err(|refused| refused.0)?)
            }
            (None, false) => CacheChoice::ProjectRoot,
        },
        keep_texts: false,
        leave_model: alone,
        command: None,
        repository: repository.cloned(),
    };
    Ok(options)
}

/// [`lint`] with its options made.
fn lint_with(args: &CheckArgs, options: &CheckOptions) -> Result<Linted, String> {
    if args.policy {
        return policy_check(args, options).map(Linted::Report);
    }
    if !(args.fix || args.unsafe_fixes || args.diff) {
        return beeuni_lint::fix::offer::check(options).map(Linted::Report).map_err(|error| error.to_string());
    }
    let outcome =
        beeuni_lint::fix::plan(options, args.unsafe_fixes, options.min_severity).map_err(|error| error.to_string())?;
    if args.diff {
        // Raw bytes where they go to a program (`--diff | git apply`); shown escaped where they may be read as
        // they come: a terminal, or the job log of GitHub Actions, which runs a line starting with `::`.
        let raw = !std::io::stdout().is_terminal() && std::env::var_os("GITHUB_ACTIONS").is_none();
        print(&beeuni_lint::fix::diff(&outcome.changes, raw))?;
        return Ok(Linted::Diff(u8::from(!outcome.changes.is_empty())));
    }
    beeuni_lint::fix::write(&outcome.root, &outcome.changes).map_err(|error| error.to_string())?;
    eprint!("{}", beeuni_lint::fix::summary(&outcome));
    Ok(Linted::Report(outcome.report))
}

/// `check --policy`: the report, with each guarded gain of the change as a `policy-gain` finding. The two sides
/// are built again as `impact` builds them (full models: the check's base is only what its rules read), which
/// costs a second build of the head, for this flag only.
fn policy_check(args: &CheckArgs, options: &CheckOptions) -> Result<Report, String> {
    if args.fix || args.unsafe_fixes || args.diff {
        return Err("`--policy` judges a change and fixes nothing: drop `--fix`, `--unsafe-fixes` and `--diff`".into());
    }
    if args.base.is_none() && !args.staged {
        return Err("`--policy` judges a change: add `--base REV` (or `--staged`)".into());
    }
    let mut report = beeuni_lint::fix::offer::check(options).map_err(|error| error.to_string())?;
    let compared =
        beeuni_lint::impact::load::project_judged(options, Some(args.approved)).map_err(|error| error.to_string())?;
    if let Some(verdict) = &compared.impact.policy {
        beeuni_lint::impact::policy::check::add(&mut report, verdict, options.min_severity);
    }
    Ok(report)
}

/// Prints the report of `reports` (one project's, or several joined: SARIF keeps a run each) and answers the
/// exit code `--fail-on` gives.
fn emit(args: &CheckArgs, reports: Vec<Report>) -> Result<u8, String> {
    printed(outcome(args, reports)?)
}

/// Prints `outcome` (and the stats line, when asked for) and answers its exit code.
fn printed(Outcome { text, code }: Outcome) -> Result<u8, String> {
    if let Some(text) = text {
        print(&text)?;
    }
    if std::env::var_os(beeuni_lint::stats::VARIABLE).is_some() {
        eprintln!("{}", beeuni_lint::stats::line());
    }
    Ok(code)
}

/// The report of `reports` as [`emit`] prints it (`None`: nothing to print), once the files it goes to are
/// written, and the exit code.
fn outcome(args: &CheckArgs, reports: Vec<Report>) -> Result<Outcome, String> {
    let version = env!("CARGO_PKG_VERSION");
    let sarif = (args.sarif_file.is_some() || args.format == Format::Sarif)
        .then(|| render::sarif::render_runs(&reports, version, args.sarif_category.as_deref()));
    if let (Some(path), Some(sarif)) = (&args.sarif_file, &sarif) {
        beeuni_lint::repo::given::write_report(path, "--sarif-file", sarif).map_err(|error| error.to_string())?;
    }
    let projects: Vec<String> = reports.iter().map(|report| report.sources.prefix().to_string()).collect();
    let with_findings = reports.iter().filter(|report| !report.diagnostics.is_empty()).count();
    let projects: Vec<&str> = projects.iter().map(String::as_str).collect();
    let mut report = match <[Report; 1]>::try_from(reports) {
        Ok([one]) => one,
        Err(several) => render::several::join(several),
    };
    if let (Format::Github, Some(summary)) = (args.format, std::env::var_os("GITHUB_STEP_SUMMARY")) {
        crate::append_file(Path::new(&summary), &render::github::step_summary(&report))?;
    }
    if matches!(args.format, Format::Human) {
        report.make_terminal_safe();
    }
    let text = match (args.format, sarif) {
        (Format::Human, _) => {
            let color = match args.color {
                Color::Always => true,
                Color::Never => false,
                Color::Auto => {
                    args.output.is_none() && std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
                }
            };
            let mut text = render::human::render(&report, color);
            // Several projects joined: the clean ones would be invisible without this line.
            if projects.len() > 1 {
                text.push_str(&render::human::projects_line(projects.len(), with_findings));
            }
            text
        }
        (Format::Short, _) => render::short::render(&report),
        (Format::Json, _) => render::json::render_projects(&report, &projects, version),
        (Format::Sarif, Some(sarif)) => sarif,
        (Format::Sarif, None) => render::sarif::render(&report, version),
        (Format::Github, _) => render::github::render(&report),
        (Format::Gitlab, _) => render::gitlab::render(&report),
        (Format::Junit, _) => render::junit::render(&report),
    };
    let quiet = args.quiet && report.diagnostics.is_empty();
    let text = match &args.output {
        Some(path) => {
            beeuni_lint::repo::given::write_report(path, "--output", &text).map_err(|error| error.to_string())?;
            None
        }
        None if quiet => None,
        None => Some(text),
    };
    let threshold = match args.fail_on {
        FailOn::Error => Some(Severity::Error),
        FailOn::Warning => Some(Severity::Warning),
        FailOn::Info => Some(Severity::Info),
        FailOn::Never => None,
    };
    let code = u8::from(report.fails(threshold));
    // The run ends here: its files' texts and line tables are left to the OS rather than freed one by one.
    std::mem::forget(report);
    Ok(Outcome { text, code })
}

fn print(text: &str) -> Result<(), String> {
    crate::print(text)
}
