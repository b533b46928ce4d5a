//! The modules stage: every declared tool module is read once and parsed once,
//! in parallel (one oxc allocator per thread, on threads with a large stack),
//! and reduced to [`facts::ModuleFacts`]; then its imports are resolved.
//! Modules are never run or imported.

pub mod analyse;
pub mod facts;
pub mod resolve;

use crate::manifest::tools::ToolDecl;
use crate::repo::checkout::{Checkout, Resolved};
use crate::repo::fs::{self, Refusal};
use crate::source::{FileId, SourceFile, Sources};
use facts::{ModuleFacts, SyntaxError};
use oxc_allocator::Allocator;
use rayon::prelude::*;
use resolve::{Resolution, Resolver};
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::PathBuf;

/// Parsing is recursive in oxc: deep (but accepted) nesting needs a deep stack.
const ANALYSIS_STACK: usize = 64 * 1024 * 1024;

#[derive(Debug)]
pub struct Module {
    /// Repo-relative path.
    pub path: String,
    pub file: FileId,
    /// Indices into `Project::tools` of the entries that declare this module.
    pub declared_by: Vec<usize>,
    pub facts: ModuleFacts,
    /// The resolution of each import of `facts.imports`, by index (type-only imports of non-harness packages
    /// are not resolved: they are erased at run time).
    pub resolutions: Vec<Option<Resolution>>,
}

thread_local! {
    static ALLOCATOR: RefCell<Allocator> = RefCell::new(Allocator::default());
}

/// Reads, parses and resolves every module the declarations point at.
pub fn analyse_all(checkout: &Checkout, tools: &[ToolDecl], sources: &mut Sources) -> Vec<Module> {
    let mut unique: Vec<(String, Vec<usize>)> = Vec::new();
    let mut index_of = HashMap::new();
    let mut reads = Vec::new();
    for (index, decl) in tools.iter().enumerate() {
        let (Some(path), Some(Ok(resolved))) = (decl.module_path(), &decl.module) else { continue };
        match index_of.get(path) {
            Some(&at) => {
                let entry: &mut (String, Vec<usize>) = &mut unique[at];
                entry.1.push(index);
            }
            None => {
                index_of.insert(path.to_string(), unique.len());
                unique.push((path.to_string(), vec![index]));
                reads.push(match resolved {
                    // Work-tree files are read on the analysis threads; git blobs here (gix is not `Sync`).
                    Resolved::Path(real) => Read::Later(real.clone()),
                    blob => Read::Done(checkout.read_resolved(blob)),
                });
            }
        }
    }
    let work: Vec<Work> = unique.iter().map(|(path, _)| path.as_str()).zip(reads).collect();
    let parsed = parse_in_parallel(work);
    let mut resolver = Resolver::new(checkout);
    unique
        .into_iter()
        .zip(parsed)
        .map(|((path, declared_by), (text, facts))| {
            let resolutions = facts
                .imports
                .iter()
                .map(|import| {
                    let resolution = resolver.resolve(&path, &import.specifier);
                    let erased = import.type_only && !matches!(resolution, Resolution::Harness(_));
                    (!erased).then_some(resolution)
                })
                .collect();
            let file = sources.add(SourceFile::new(path.clone(), text));
            Module { path, file, declared_by, facts, resolutions }
        })
        .collect()
}

/// A module's bytes, or where to read them.
enum Read {
    Later(PathBuf),
    Done(Result<Vec<u8>, Refusal>),
}

type Work<'a> = (&'a str, Read);

fn parse_in_parallel(work: Vec<Work>) -> Vec<(String, ModuleFacts)> {
    let pool = rayon::ThreadPoolBuilder::new().stack_size(ANALYSIS_STACK).build();
    match pool {
        Ok(pool) => pool.install(|| work.into_par_iter().map(|(path, bytes)| analyse_bytes(path, bytes)).collect()),
        // Without a pool of our own, analyse on one big-stack thread rather than risk the default stack.
        Err(_) => std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(ANALYSIS_STACK)
                .spawn_scoped(scope, || work.into_iter().map(|(path, bytes)| analyse_bytes(path, bytes)).collect())
                .ok()
                .and_then(|handle| handle.join().ok())
                .unwrap_or_default()
        }),
    }
}

fn analyse_bytes(path: &str, read: Read) -> (String, ModuleFacts) {
    let bytes = match read {
        Read::Later(real) => fs::read_resolved(&real),
        Read::Done(bytes) => bytes,
    };
    let bytes = match bytes {
        Ok(bytes) => bytes,
        Err(refusal) => {
            let error = SyntaxError { span: Default::default(), message: format!("the module {}", refusal.describe()) };
            return (String::new(), ModuleFacts { syntax_errors: vec![error], ..Default::default() });
        }
    };
    match String::from_utf8(bytes) {
        Ok(text) => {
            let facts = ALLOCATOR.with(|allocator| analyse::analyse(path, &text, &mut allocator.borrow_mut()));
            (text, facts)
        }
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
            let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
            let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            let error = SyntaxError {
                span: crate::source::Span::new(line_start, line_end),
                message: "the module is not valid UTF-8".into(),
            };
            (text, ModuleFacts { syntax_errors: vec![error], ..Default::default() })
        }
    }
}
