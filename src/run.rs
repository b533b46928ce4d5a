//! `check`: the projects a run lints (a PATH's, several PATHs', every project of a monorepo's root, or in hook
//! mode the ones the commit touches), each linted (and fixed), and the report printed.

use crate::cli::{CheckArgs, Color, FailOn, Format, MinSeverity};
use beeuni_lint::diagnostic::Severity;
use beeuni_lint::discover::Handed;
use beeuni_lint::hook::MAX_REPOSITORY_PROJECTS;
use beeuni_lint::lint::{CacheChoice, CheckOptions};
use beeuni_lint::render;
use beeuni_lint::report::Report;
use beeuni_lint::source::escape::{escape, prefixed_lines};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

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
    let one_document = matches!(args.format, Format::Json | Format::Sarif) || args.output.is_some();
    if one_document || args.sarif_file.is_some() {
        return report_projects(args, projects.into_iter().map(|path| (path, Handed::default())).collect());
    }
    let several = projects.len() > 1;
    let (mut worst, mut headings) = (0, 0);
    for project in projects {
        let code = match lint(args, project, Handed::default(), !several) {
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
    report_projects(args, found_projects(paths, args.staged)?)
}

/// Lints `projects` and prints one report of them: a project's as ever, several joined.
fn report_projects(args: &CheckArgs, projects: Vec<(PathBuf, Handed)>) -> Result<u8, String> {
    let sarif = args.format == Format::Sarif || args.sarif_file.is_some();
    if sarif && projects.len() > render::sarif::MAX_RUNS {
        return Err(format!(
            "{} projects: a SARIF report holds a run a project, and GitHub code scanning takes at most {} runs a file; name at most {} projects as PATHs",
            projects.len(),
            render::sarif::MAX_RUNS,
            render::sarif::MAX_RUNS
        ));
    }
    if let [(one, found)] = projects.as_slice() {
        return match lint(args, one.clone(), found.clone(), true)? {
            Linted::Report(report) => emit(args, vec![report]),
            Linted::Diff(code) => Ok(code),
        };
    }
    let (mut reports, mut worst) = (Vec::new(), 0);
    for (project, found) in projects {
        match lint(args, project, found, false) {
            Ok(Linted::Report(report)) => reports.push(report),
            Ok(Linted::Diff(code)) => worst = worst.max(code),
            Err(message) => {
                eprint!("{}", prefixed_lines("beeuni-lint: ", &message));
                worst = 2;
            }
        }
    }
    if !reports.is_empty() {
        worst = worst.max(emit(args, reports)?);
    }
    Ok(worst)
}

/// The projects to lint for `paths`: each path (the first of any that share a project), or for the top of a
/// work tree without `beeuni.yaml` every project the repository tracks. Several need one git work tree: their
/// paths are shown from its root.
pub(crate) fn projects_of(paths: &[PathBuf], staged: bool) -> Result<Vec<PathBuf>, String> {
    found_projects(paths, staged).map(|projects| projects.into_iter().map(|(path, _)| path).collect())
}

/// [`projects_of`], each PATH that is one project with what discovering it found, for its run to take.
fn found_projects(paths: &[PathBuf], staged: bool) -> Result<Vec<(PathBuf, Handed)>, String> {
    let mut projects: Vec<(PathBuf, PathBuf, Handed)> = Vec::new();
    let mut top = None;
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
        let found_projects = match expanded {
            Some(roots) if roots.len() > MAX_REPOSITORY_PROJECTS => {
                return Err(format!(
                    "the repository tracks {} projects, more than the {MAX_REPOSITORY_PROJECTS} a run at its root lints: name the projects to lint as PATHs",
                    roots.len()
                ));
            }
            Some(roots) => roots.into_iter().map(|root| (root.clone(), root, Handed::default())).collect(),
            None => vec![(found.root.clone(), path.clone(), Handed::new(found))],
        };
        for (root, given, handed) in found_projects {
            if !projects.iter().any(|(seen, _, _)| *seen == root) {
                projects.push((root, given, handed));
            }
        }
    }
    Ok(projects.into_iter().map(|(_, given, handed)| (given, handed)).collect())
}

/// A project linted: its report (fixes written, with `--fix`), or with `--diff` the exit code once the diff is
/// printed.
enum Linted {
    Report(Report),
    Diff(u8),
}

/// `alone`: the run's only project, whose model is left to the OS at exit rather than freed (see
/// [`CheckOptions::leave_model`]); with several, each is freed before the next is linted.
/// `found`: the project as [`found_projects`] discovered it, when it did.
fn lint(args: &CheckArgs, path: PathBuf, found: Handed, alone: bool) -> Result<Linted, String> {
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
        found,
    };
    if !(args.fix || args.unsafe_fixes || args.diff) {
        return beeuni_lint::fix::offer::check(&options).map(Linted::Report).map_err(|error| error.to_string());
    }
    let outcome = beeuni_lint::fix::plan(&options, args.unsafe_fixes, min).map_err(|error| error.to_string())?;
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

/// Prints the report of `reports` (one project's, or several joined: SARIF keeps a run each) and answers the
/// exit code `--fail-on` gives.
fn emit(args: &CheckArgs, reports: Vec<Report>) -> Result<u8, String> {
    let version = env!("CARGO_PKG_VERSION");
    let sarif = (args.sarif_file.is_some() || args.format == Format::Sarif)
        .then(|| render::sarif::render_runs(&reports, version, args.sarif_category.as_deref()));
    if let (Some(path), Some(sarif)) = (&args.sarif_file, &sarif) {
        beeuni_lint::repo::given::write_report(path, "--sarif-file", sarif).map_err(|error| error.to_string())?;
    }
    let projects: Vec<String> = reports.iter().map(|report| report.sources.prefix().to_string()).collect();
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
            render::human::render(&report, color)
        }
        (Format::Short, _) => render::short::render(&report),
        (Format::Json, _) => render::json::render_projects(&report, &projects, version),
        (Format::Sarif, Some(sarif)) => sarif,
        (Format::Sarif, None) => render::sarif::render(&report, version),
        (Format::Github, _) => render::github::render(&report),
    };
    let quiet = args.quiet && report.diagnostics.is_empty();
    match &args.output {
        Some(path) => {
            beeuni_lint::repo::given::write_report(path, "--output", &text).map_err(|error| error.to_string())?
        }
        None if quiet => {}
        None => print(&text)?,
    }
    if std::env::var_os(beeuni_lint::stats::VARIABLE).is_some() {
        eprintln!("{}", beeuni_lint::stats::line());
    }
    let threshold = match args.fail_on {
        FailOn::Error => Some(Severity::Error),
        FailOn::Warning => Some(Severity::Warning),
        FailOn::Info => Some(Severity::Info),
        FailOn::Never => None,
    };
    let code = u8::from(report.fails(threshold));
    // The run ends here: its files' texts and line tables are left to the OS rather than freed one by one.
    std::mem::forget(report);
    Ok(code)
}

fn print(text: &str) -> Result<(), String> {
    crate::print(text)
}
