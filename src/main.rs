//! The thin binary: parse arguments, call the library, map the outcome to an exit code. It alone prints (the
//! library writes to what it is given, and sends its notes here: [`cache::place::send_notes_to`]).

// The package's lints (the `[lints]` table of Cargo.toml) hold here too: no `unsafe` but the one documented block,
// allowed where it stands. Printing is this target's job.
#![allow(clippy::print_stdout, clippy::print_stderr, reason = "the binary is the one part that prints")]

mod cli;
mod replay;
mod run;

use beeuni_lint::lint::{CacheChoice, CheckOptions};
use beeuni_lint::source::escape::{escape_lines, prefixed_lines};
use beeuni_lint::{cache, listing, render, rules};
use clap::Parser;
use cli::{CheckArgs, Cli, Command, ViewArgs};
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    fixed_mmap_threshold();
    cache::place::send_notes_to(|note| eprint!("{}", prefixed_lines("beeuni-lint: ", note)));
    let cli = Cli::parse();
    let outcome = match cli.command {
        None => mistyped_command(&cli.check).map_or_else(|| run::check(&cli.check), Err),
        Some(Command::Check(args)) => run::check(&args),
        Some(Command::Ls { json, view }) => ls(json, view),
        Some(Command::Agents { json, view }) => agents(json, view),
        Some(Command::Impact(args)) => impact(&args),
        Some(Command::Eject { name, from, template, force }) => {
            let source = match (from, template) {
                (Some(file), _) => Some(beeuni_lint::fix::eject::Source::From(file)),
                (None, true) => Some(beeuni_lint::fix::eject::Source::Template),
                (None, false) => None,
            };
            beeuni_lint::fix::eject::eject(std::path::Path::new("."), &name, source, force)
                .map_err(|error| error.to_string())
                .and_then(|out| print(&escape_lines(&out)))
                .map(|()| 0)
        }
        Some(Command::Restore { name }) => beeuni_lint::fix::restore::restore(std::path::Path::new("."), &name)
            .map_err(|error| error.to_string())
            .and_then(|out| print(&escape_lines(&out)))
            .map(|()| 0),
        Some(Command::Rules) => print(&rules_table()).map(|()| 0),
        Some(Command::Lsp) => beeuni_lint::lsp::run(),
        Some(Command::Schema) => print(&schema_text()).map(|()| 0),
        Some(Command::Explain { rule }) => explain(&rule),
    };
    match outcome {
        Ok(code) => ExitCode::from(code),
        Err(message) => {
            eprint!("{}", prefixed_lines("beeuni-lint: ", &message));
            ExitCode::from(2)
        }
    }
}

/// `beeuni-lint lst`: clap reads a mistyped command as the PATH of `check`. When no such file is there and the
/// word is near a command, say so instead of "cannot open".
fn mistyped_command(args: &CheckArgs) -> Option<String> {
    let [word] = args.paths.as_slice() else { return None };
    let word = word.to_str()?;
    if word.contains(['/', '\\', '.']) || std::path::Path::new(word).exists() {
        return None;
    }
    let command = <Cli as clap::CommandFactory>::command();
    let names: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).filter(|n| *n != "help").collect();
    let near: Vec<String> = beeuni_lint::suggest::near_matches(word, names.iter().copied())
        .iter()
        .map(|n| format!("beeuni-lint {n}"))
        .collect();
    let near: Vec<&str> = near.iter().map(String::as_str).collect();
    (!near.is_empty()).then(|| {
        format!(
            "`{word}` is neither a command nor a file or folder here: did you mean {}? (`beeuni-lint --help` lists the commands)",
            beeuni_lint::suggest::one_of(&near)
        )
    })
}

/// The project for `ls` and `agents`, or the exit code when it cannot be read: the findings that say why go to
/// standard error, one a line as `check --format short` prints them.
fn view_project(view: ViewArgs, command: &'static str) -> Result<Result<beeuni_lint::project::Project, u8>, String> {
    let mut options = CheckOptions::new(view.path);
    (options.config, options.xcsh, options.command) = (view.config, view.xcsh, Some(command));
    let project = beeuni_lint::lint::load(&options).map_err(|error| error.to_string())?.project;
    if project.misnamed_manifest.is_some() {
        return Err("no beeuni.yaml at the project root (run `beeuni-lint check` for details)".into());
    }
    let blockers = listing::unreadable(&project);
    if blockers.is_empty() {
        return Ok(Ok(project));
    }
    let report =
        beeuni_lint::report::Report { files: project.sources.len(), sources: project.sources, diagnostics: blockers };
    eprint!("{}", render::short::render(&report));
    eprintln!(
        "beeuni-lint: the manifest cannot be read: fix the errors above (`beeuni-lint check` shows them in full)"
    );
    Ok(Err(2))
}

fn ls(json: bool, view: ViewArgs) -> Result<u8, String> {
    let project = match view_project(view, "ls")? {
        Ok(project) => project,
        Err(code) => return Ok(code),
    };
    let listing = listing::listing(&project);
    print(&if json { listing::render_json(&listing) } else { listing::render_text(&listing) })?;
    Ok(0)
}

fn agents(json: bool, view: ViewArgs) -> Result<u8, String> {
    let project = match view_project(view, "agents")? {
        Ok(project) => project,
        Err(code) => return Ok(code),
    };
    let access = beeuni_lint::access::access(&project).map_err(|too_large| too_large.to_string())?;
    print(&if json {
        beeuni_lint::access::render_json(&access)
    } else {
        beeuni_lint::access::render_text(&project, &access)
    })?;
    Ok(0)
}

/// `impact`: each project of the PATHs (or `.`) compared, then one document of them all. A project that cannot
/// be compared stops the run (exit 2): a comment that leaves one out would read as "nothing changed".
fn impact(args: &cli::ImpactArgs) -> Result<u8, String> {
    if args.base.is_none() && !args.staged {
        return Err(beeuni_lint::impact::load::NEEDS_TWO_VERSIONS.into());
    }
    let link_base = args.link_base.as_deref().map(beeuni_lint::impact::link::LinkBase::parse).transpose()?;
    let paths = if args.paths.is_empty() { vec![std::path::PathBuf::from(".")] } else { args.paths.clone() };
    let mut document = beeuni_lint::impact::Impact {
        version: beeuni_lint::impact::JSON_VERSION,
        base: String::new(),
        head: "work tree",
        projects: Vec::new(),
    };
    for path in run::projects_of(&paths, args.staged, args.config.as_deref())?.0 {
        let mut options = CheckOptions::new(path);
        (options.config, options.base, options.staged) = (args.config.clone(), args.base.clone(), args.staged);
        // The facts a `check` of the project cached serve both sides; `impact` itself writes nothing.
        options.cache = CacheChoice::ReadOnly(Box::new(CacheChoice::ProjectRoot));
        let policy = args.policy.then_some(args.approved);
        let compared =
            beeuni_lint::impact::load::project_judged(&options, policy).map_err(|error| error.to_string())?;
        (document.base, document.head) = (compared.base, compared.head);
        document.projects.push(compared.impact);
    }
    if let Some(link_base) = &link_base {
        beeuni_lint::impact::link::add_links(&mut document, link_base);
    }
    let policy = beeuni_lint::impact::policy::render::human;
    let text = match args.format {
        cli::ImpactFormat::Json => beeuni_lint::impact::render::json(&document),
        cli::ImpactFormat::Human => beeuni_lint::impact::render::human(&document) + &policy(&document),
        cli::ImpactFormat::Markdown => {
            beeuni_lint::impact::render::markdown(&document) + &beeuni_lint::impact::policy::render::markdown(&document)
        }
    };
    // The rows were weighed before they were built (`impact::MAX_REPORT_BYTES`); this holds whatever the estimate.
    if text.len() > beeuni_lint::impact::render::MAX_OUTPUT_BYTES {
        return Err(format!(
            "the report is {} MiB, more than `impact` writes (32 MiB): compare a smaller change",
            text.len() >> 20
        ));
    }
    let fails = document.projects.iter().filter_map(|p| p.policy.as_ref()).any(|v| v.fails());
    print(&text)?;
    if std::env::var_os(beeuni_lint::stats::VARIABLE).is_some() {
        eprintln!("{}", beeuni_lint::stats::line());
    }
    Ok(u8::from(fails))
}

fn rules_table() -> String {
    let width = rules::RULES.iter().map(|r| r.id.len()).max().unwrap_or(0) + 2;
    rules::RULES.iter().map(|r| format!("{:<width$}{:<9}{}\n", r.id, r.severity.as_str(), r.summary())).collect()
}

fn schema_text() -> String {
    let mut text = serde_json::to_string_pretty(&beeuni_lint::schema::schema()).unwrap_or_default();
    text.push('\n');
    text
}

fn explain(id: &str) -> Result<u8, String> {
    let rule = rules::find(id).ok_or_else(|| {
        let ids: Vec<&str> = rules::RULES.iter().map(|r| r.id).collect();
        match beeuni_lint::suggest::did_you_mean_typed(id, &ids) {
            Some(hint) => format!("no rule `{id}`: {hint}"),
            None => format!("no rule `{id}`: `beeuni-lint rules` lists them"),
        }
    })?;
    print(&format!(
        "{} ({})\n\n{}\nOnline: {}\n",
        rule.id,
        rule.severity.as_str(),
        rule.docs(),
        rules::page_url(rule)
    ))?;
    Ok(0)
}

pub(crate) fn append_file(path: &std::path::Path, text: &str) -> Result<(), String> {
    use std::fs::OpenOptions;
    let mut file = OpenOptions::new().create(true).append(true).open(path);
    file.as_mut()
        .map_err(|e| e.to_string())
        .and_then(|f| f.write_all(text.as_bytes()).map_err(|e| e.to_string()))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Writes to standard output; a closed pipe (`| head`) is not an error worth a panic.
pub(crate) fn print(text: &str) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("cannot write the report: {e}")),
        _ => Ok(()),
    }
}

/// Keeps glibc's threshold for serving an allocation by its own `mmap` at its default (128 KiB) instead of letting
/// it rise: by default the first large block freed raises it to that block's size, and from then on the lists a
/// run grows (20,000 declarations and modules) are reallocated inside the heap, where each outgrown copy stays as
/// a hole, instead of being moved by `mremap`. Peak RSS at 20,000 modules: 88 -> 84 MiB (5 runs, medians).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code, reason = "glibc's `mallopt`, declared and called before any thread starts: see SAFETY")]
fn fixed_mmap_threshold() {
    const M_MMAP_THRESHOLD: std::ffi::c_int = -3;
    unsafe extern "C" {
        fn mallopt(param: std::ffi::c_int, value: std::ffi::c_int) -> std::ffi::c_int;
    }
    // SAFETY: `mallopt` only sets an allocator parameter; it is called before any thread is started.
    unsafe {
        mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn fixed_mmap_threshold() {}
