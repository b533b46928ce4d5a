//! The thin binary: parse arguments, call the library, map the outcome to an exit code.

mod cli;

use beeuni_lint::diagnostic::Severity;
use beeuni_lint::{CheckOptions, listing, render, rules};
use clap::Parser;
use cli::{CheckArgs, Cli, Color, Command, FailOn, Format};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        None => check(&cli.check),
        Some(Command::Check(args)) => check(&args),
        Some(Command::Ls { json, path }) => ls(json, path),
        Some(Command::Rules) => print(&rules_table()).map(|()| 0),
        Some(Command::Explain { rule }) => explain(&rule),
    };
    match outcome {
        Ok(code) => ExitCode::from(code),
        Err(message) => {
            eprintln!("beeuni-lint: {message}");
            ExitCode::from(2)
        }
    }
}

fn check(args: &CheckArgs) -> Result<u8, String> {
    let options = CheckOptions {
        path: args.path.clone(),
        config: args.config.clone(),
        base: args.base.clone(),
        staged: args.staged,
        only_changed: args.only_changed,
    };
    let mut report = beeuni_lint::check(&options)?;
    if args.format != Format::Json {
        report.make_terminal_safe();
    }
    let text = match args.format {
        Format::Human => {
            let color = match args.color {
                Color::Always => true,
                Color::Never => false,
                Color::Auto => {
                    args.output.is_none() && std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
                }
            };
            render::human::render(&report, color)
        }
        Format::Short => render::short::render(&report),
        Format::Json => render::json::render(&report, env!("CARGO_PKG_VERSION")),
    };
    let quiet = args.quiet && report.diagnostics.is_empty();
    match &args.output {
        Some(path) => std::fs::write(path, &text).map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        None if quiet => {}
        None => print(&text)?,
    }
    let threshold = match args.fail_on {
        FailOn::Error => Some(Severity::Error),
        FailOn::Warning => Some(Severity::Warning),
        FailOn::Info => Some(Severity::Info),
        FailOn::Never => None,
    };
    Ok(u8::from(report.fails(threshold)))
}

fn ls(json: bool, path: std::path::PathBuf) -> Result<u8, String> {
    let project = beeuni_lint::load(&CheckOptions::new(path))?.project;
    if project.misnamed_manifest.is_some() {
        return Err("no beeuni.yaml at the repository root (run `beeuni-lint check` for details)".into());
    }
    let listing = listing::listing(&project);
    print(&if json { listing::render_json(&listing) } else { listing::render_text(&listing) })?;
    Ok(0)
}

fn rules_table() -> String {
    let width = rules::RULES.iter().map(|r| r.id.len()).max().unwrap_or(0) + 2;
    rules::RULES.iter().map(|r| format!("{:<width$}{:<9}{}\n", r.id, r.severity.as_str(), r.summary())).collect()
}

fn explain(id: &str) -> Result<u8, String> {
    let rule = rules::find(id).ok_or_else(|| {
        let ids = rules::RULES.iter().map(|r| r.id);
        match rules::names::did_you_mean(id, ids) {
            Some(hint) => format!("no rule `{id}`: {hint}"),
            None => format!("no rule `{id}`: `beeuni-lint rules` lists them"),
        }
    })?;
    print(&format!("{} ({})\n\n{}", rule.id, rule.severity.as_str(), rule.docs()))?;
    Ok(0)
}

/// Writes to standard output; a closed pipe (`| head`) is not an error worth a panic.
fn print(text: &str) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("cannot write the report: {e}")),
        _ => Ok(()),
    }
}
