//! The floor: the work no linter of a Beeuni project can skip, and nothing else.
//!
//! `cargo run --release --example floor -- PROJECT` reads the git index of the
//! repository at PROJECT, then reads and parses every YAML file it tracks (one
//! at a time, as a manifest graph is followed), then reads every tracked
//! JavaScript/TypeScript file outside `node_modules` and, in parallel with one
//! oxc allocator per thread, parses it, runs oxc_semantic's early-error checks
//! and walks its AST once. It prints what it saw, so nothing is optimised away.
//! `bench/bench.py` times it beside `beeuni-lint check` and oxlint.

#![allow(clippy::print_stdout, clippy::print_stderr, reason = "a command-line program: it prints what it saw")]

use oxc_allocator::Allocator;
use oxc_ast::ast::Expression;
use oxc_ast_visit::{Visit, walk};
use oxc_parser::{ParseOptions, Parser};
use oxc_semantic::SemanticBuilder;
use oxc_span::SourceType;
use rayon::prelude::*;
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Same as the linter's analysis threads: oxc's parser recurses.
const STACK: usize = 64 * 1024 * 1024;

thread_local! {
    static ALLOCATOR: RefCell<Allocator> = RefCell::new(Allocator::default());
}

fn main() -> ExitCode {
    let Some(root) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: floor PROJECT");
        return ExitCode::from(2);
    };
    match run(&root) {
        Ok(seen) => {
            println!(
                "{} YAML files ({} events), {} modules ({} expressions, {} syntax errors)",
                seen.yaml_files, seen.yaml_events, seen.modules, seen.expressions, seen.errors
            );
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("floor: {message}");
            ExitCode::from(2)
        }
    }
}

#[derive(Default)]
struct Seen {
    yaml_files: usize,
    yaml_events: usize,
    modules: usize,
    expressions: usize,
    errors: usize,
}

fn run(root: &Path) -> Result<Seen, String> {
    let repo = gix::open(root).map_err(|e| e.to_string())?;
    let index = repo.index_or_empty().map_err(|e| e.to_string())?;
    let mut yaml = Vec::new();
    let mut modules = Vec::new();
    for entry in index.entries() {
        let path = entry.path(&index).to_string();
        if path.starts_with("node_modules/") || path.contains("/node_modules/") {
            continue;
        }
        match path.rsplit_once('.').map(|(_, ext)| ext) {
            Some("yaml" | "yml") => yaml.push(root.join(&path)),
            Some("ts" | "mts" | "cts" | "js" | "mjs" | "cjs") => modules.push((root.join(&path), path)),
            _ => {}
        }
    }

    let mut seen = Seen { yaml_files: yaml.len(), modules: modules.len(), ..Seen::default() };
    for path in &yaml {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        for event in granit_parser::Parser::new_from_str(&text) {
            event.map_err(|e| format!("{}: {}", path.display(), e.info()))?;
            seen.yaml_events += 1;
        }
    }

    let pool = rayon::ThreadPoolBuilder::new().stack_size(STACK).build().map_err(|e| e.to_string())?;
    let counts: Vec<(usize, usize)> = pool.install(|| {
        modules
            .par_iter()
            .map(|(real, rel)| {
                let text = std::fs::read_to_string(real).unwrap_or_default();
                ALLOCATOR.with(|allocator| parse(rel, &text, &mut allocator.borrow_mut()))
            })
            .collect()
    });
    for (expressions, errors) in counts {
        seen.expressions += expressions;
        seen.errors += errors;
    }
    Ok(seen)
}

/// Parses, checks and walks one module: (expressions visited, syntax errors).
fn parse(path: &str, text: &str, allocator: &mut Allocator) -> (usize, usize) {
    allocator.reset();
    let source_type = SourceType::from_path(path).unwrap_or_else(|_| SourceType::ts());
    // Regular expressions are validated, as the linter does: an invalid one stops a module loading.
    let options = ParseOptions { parse_regular_expression: true, ..ParseOptions::default() };
    let parsed = Parser::new(allocator, text, source_type).with_options(options).parse();
    let semantic = SemanticBuilder::new().with_check_syntax_error(true).build(&parsed.program);
    let mut walker = Walker(0);
    walker.visit_program(&parsed.program);
    (walker.0, parsed.diagnostics.errors().count() + semantic.diagnostics.len())
}

struct Walker(usize);

impl<'a> Visit<'a> for Walker {
    fn visit_expression(&mut self, expression: &Expression<'a>) {
        self.0 += 1;
        walk::walk_expression(self, expression);
    }
}
