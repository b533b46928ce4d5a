//! Reading and parsing one file of the graph: ahead of the walk on other threads, and through the cache.

use super::limits::Reserved;
use super::{Job, LoadProblem, ProblemKind, non_relative_reason};
use crate::cache::{Key, ModuleCache};
use crate::diagnostic::Label;
use crate::repo::checkout::{Checkout, Resolved};
use crate::repo::fs;
use crate::source::{FileId, SourceFile, Sources, Span};
use crate::yaml::{self, Document, SyntaxError};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};

/// What parsing a file gave, with its text.
type Prepared = (String, Result<Arc<Document>, SyntaxError>);

/// Files parsed ahead of the walk that opens them, by repo-relative path: where their text and what parsing it gave
/// will come from.
pub(super) type Ahead = HashMap<String, Receiver<Prepared>>;

/// Reads the files these import paths name (those not opened yet nor read already) and parses them on other threads
/// (reading work-tree files there too; or takes their trees from the cache), ahead of the depth-first walk that
/// opens them one at a time: a manifest that imports a hundred files does not parse them one by one on the thread
/// everything else waits for. What is not UTF-8 is left to [`read_yaml`].
pub(super) fn parse_ahead<'p, 'a>(
    checkout: &Checkout,
    cache: Option<&'a ModuleCache>,
    paths: impl Iterator<Item = &'p str>,
    visited: &HashMap<Resolved, usize>,
    ahead: &mut Ahead,
    reserved: &Reserved,
    spawn: &dyn Fn(Job<'a>),
) {
    // No more than the walk may follow or open (see [`super::limits`]).
    let paths =
        paths.take(super::limits::IMPORTS).filter(|path| non_relative_reason(path).is_none() && !path.ends_with('/'));
    for path in paths {
        if ahead.len() >= super::limits::FILES {
            return;
        }
        let Some(rel) = fs::normalize(path).filter(|rel| !ahead.contains_key(rel)) else { continue };
        let Some(real) = checkout.resolve(&rel).ok().filter(|real| !visited.contains_key(real)) else { continue };
        // A work-tree file is read by the job too (the walk marks it read from disk when it takes the parse); the
        // bytes of pending fixes, or of git objects, are taken here. Each only when its size fits the graph's
        // bytes (a file that does not is left to the walk, which says whether it passes the limit).
        let bytes = match (&real, checkout.overlaid(&rel)) {
            (_, Some(Some(bytes))) if reserved.reserve(bytes.len()) => Some(bytes.clone()),
            (_, Some(Some(_))) => continue,
            (Resolved::Path(_), _) => None,
            (Resolved::Blob(id), _) => match checkout.blob_len(*id).filter(|&len| reserved.reserve(len)) {
                Some(_) => match checkout.read_resolved(&real) {
                    Ok(bytes) => Some(bytes),
                    Err(_) => continue,
                },
                None => continue,
            },
        };
        let kept = kept(checkout, &rel, cache);
        let (sender, parsing) = channel();
        ahead.insert(rel.clone(), parsing);
        let reserved = reserved.clone();
        spawn(Box::new(move || {
            let bytes = match (bytes, real) {
                (Some(bytes), _) => bytes,
                (None, Resolved::Path(path)) => {
                    match fs::read_resolved_admitted(&path.path(), |len| reserved.reserve(len as usize)) {
                        Ok(Some(bytes)) => bytes,
                        Ok(None) | Err(_) => return,
                    }
                }
                (None, Resolved::Blob(_)) => return,
            };
            // What is not UTF-8 (or not readable) is left to the walk: it reads the file again and says so.
            let Ok(text) = String::from_utf8(bytes) else { return };
            let parsed = parse_text(&rel, &text, kept, |_, _| {});
            // The walk may have stopped waiting for it (a file it never opens).
            let _ = sender.send((text, parsed));
        }));
    }
}

/// The cache, with the file's blob id when git knows it without hashing.
type Kept<'c> = (&'c ModuleCache, Option<gix::ObjectId>);

/// The cache, for a file whose trees it keeps: bytes of pending fixes are not worth keeping (the cache is for what
/// is on disk).
fn kept<'c>(checkout: &Checkout, rel: &str, cache: Option<&'c ModuleCache>) -> Option<Kept<'c>> {
    cache.filter(|_| checkout.overlaid(rel).is_none()).map(|cache| (cache, blob_id(checkout, rel)))
}

/// The blob id of a file, when git knows it without hashing: a file of a git side, or a work-tree file unchanged
/// since staged (one `stat`, compared with the index's stat data as git does).
fn blob_id(checkout: &Checkout, rel: &str) -> Option<gix::ObjectId> {
    match checkout.resolve(rel).ok()? {
        Resolved::Blob(id) => Some(id),
        Resolved::Path(real) => {
            checkout.index_stat(rel)?.id_if_same(&crate::repo::folders::stat_no_follow(&real.path()).ok()?)
        }
    }
}

/// How many manifest files a run parsed (for `BEEUNI_LINT_STATS`, see [`crate::stats`]).
pub static MANIFESTS_PARSED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The tree of a file's text: from the cache when it holds these bytes, else parsed (and put there), calling
/// `top_entry` as [`yaml::parse_with`] does. Shared: the graph keeps the tree, and the cache the same one until it
/// writes its entry.
fn parse_text(
    rel: &str,
    text: &str,
    cache: Option<Kept>,
    top_entry: impl FnMut(&Document, yaml::Entry),
) -> Result<Arc<Document>, SyntaxError> {
    let parse = |text: &str| {
        MANIFESTS_PARSED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        yaml::split::parse_split(text, top_entry, crate::pool::threads).map(Arc::new)
    };
    match cache.and_then(|(cache, known)| Some((cache, Key::manifest(known, text.as_bytes(), rel)?))) {
        Some((cache, key)) => match cache.document(&key, text.len()) {
            Some(document) => Ok(Arc::new(document)),
            None => parse(text).inspect(|document| cache.put_document(key, document.clone())),
        },
        None => parse(text),
    }
}

/// A file's text as the walk has it before parsing: read by the walk (with where its first byte that is not UTF-8
/// is, if one is), or read and parsed ahead.
pub(super) enum Text {
    Read(String, Option<usize>),
    Prepared(Prepared),
}

impl Text {
    /// What [`parse_ahead`] prepared, else the file read now.
    pub(super) fn take(checkout: &Checkout, rel: &str, prepared: Option<Prepared>) -> Text {
        if let Some(prepared) = prepared {
            return Text::Prepared(prepared);
        }
        match String::from_utf8(checkout.read(rel).unwrap_or_default()) {
            Ok(text) => Text::Read(text, None),
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                Text::Read(String::from_utf8_lossy(e.as_bytes()).into_owned(), Some(at))
            }
        }
    }

    pub(super) fn len(&self) -> usize {
        match self {
            Text::Read(text, _) | Text::Prepared((text, _)) => text.len(),
        }
    }
}

/// Parses one file's text (or takes what [`parse_ahead`] parsed); problems become `yaml-syntax` findings and an
/// empty document.
pub(super) fn read_yaml(
    checkout: &Checkout,
    rel: &str,
    sources: &mut Sources,
    problems: &mut Vec<LoadProblem>,
    cache: Option<&ModuleCache>,
    text: Text,
    top_entry: impl FnMut(&Document, yaml::Entry),
) -> (FileId, Arc<Document>) {
    let (text, bad_byte, parsed) = match text {
        Text::Prepared((text, parsed)) => (text, None, Some(parsed)),
        Text::Read(text, bad_byte) => (text, bad_byte, None),
    };
    let file = sources.add(SourceFile::new(rel.to_string(), text));
    let source = sources.get(file);
    let syntax = |offset: usize, message: String| LoadProblem {
        kind: ProblemKind::Syntax,
        at: Label::new(file, Span::empty(offset)),
        message,
        help: None,
        related: Vec::new(),
    };
    if let Some(at) = bad_byte {
        let line = source.line_index(at);
        let mut problem = syntax(at, "this file is not valid UTF-8: YAML files must be UTF-8".into());
        problem.at.span = source.line_span(line);
        problems.push(problem);
        return (file, Arc::default());
    }
    match parsed.unwrap_or_else(|| parse_text(rel, &source.text, kept(checkout, rel, cache), top_entry)) {
        Ok(doc) => (file, doc),
        Err(e) => {
            problems.push(syntax(e.offset, e.message));
            (file, Arc::default())
        }
    }
}
