//! Finds the project root and its manifest, and the git work tree around it.
//!
//! The root is the nearest folder at or above the given path, up to the git
//! work tree root, that holds `beeuni.yaml`; without one, the work tree root
//! (or, outside git, the folder given). A project in a subfolder of a larger
//! repository (a monorepo, or this tool's own `examples/`) is linted as its
//! own project, while git answers for the whole work tree.

pub use crate::catalog::MANIFEST;
use crate::error::Error;
use crate::repo::checkout::Checkout;
use crate::repo::fs::Refusal;
use crate::repo::git::{GitRepo, GitSource};
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub struct Discovered {
    pub root: PathBuf,
    /// The folder the search started from (the path given, or its folder).
    pub start: PathBuf,
    pub git: Option<Arc<GitRepo>>,
    /// The project root relative to the git work tree root (`""` when they are the same), with `/`.
    pub git_prefix: String,
}

/// `staged`: the manifest may exist only in the index (staged, then deleted from the work tree).
pub fn discover(path: &Path, staged: bool) -> Result<Discovered, Error> {
    discover_in(path, staged, None)
}

/// [`discover`], reusing `known` (a repository already read for another project of a run) when `path` is inside
/// its work tree: a run at a monorepo's root lints projects its index lists, all of that work tree, and reading
/// the index again for each made the run grow with the square of the projects (10,000: 44 s of CPU).
pub fn discover_in(path: &Path, staged: bool, known: Option<&Arc<GitRepo>>) -> Result<Discovered, Error> {
    // Followed part by part: a symlink inside the repository that leads out of it is refused, not linted.
    let real = crate::repo::given::follow(path, "PATH").map_err(|refused| Error::Path(refused.0))?;
    crate::repo::watch::note_identity(&real);
    let path =
        std::fs::canonicalize(&real).map_err(|e| Error::Path(format!("cannot open `{}`: {e}", path.display())))?;
    let git = match known {
        Some(git) if path.starts_with(git.root()) => Some(Arc::clone(git)),
        _ => GitRepo::discover(&path).map_err(Error::Git)?.map(Arc::new),
    };
    let start = if path.is_file() { path.parent().map_or_else(|| path.clone(), Path::to_path_buf) } else { path };
    let top = git.as_ref().map_or_else(|| start.clone(), |g| g.root().to_path_buf());
    let root = start
        .ancestors()
        .take_while(|dir| dir.starts_with(&top))
        .find(|dir| {
            let manifest = dir.join(MANIFEST);
            crate::repo::watch::note(&manifest);
            manifest.is_file() || (staged && in_index(git.as_deref(), &top, dir))
        })
        .map_or_else(|| top.clone(), Path::to_path_buf);
    let git_prefix = root
        .strip_prefix(&top)
        .ok()
        .map(|p| p.components().filter_map(|c| c.as_os_str().to_str()).collect::<Vec<_>>().join("/"))
        .unwrap_or_default();
    Ok(Discovered { root, start, git, git_prefix })
}

fn in_index(git: Option<&GitRepo>, top: &Path, dir: &Path) -> bool {
    let (Some(git), Ok(rel)) = (git, dir.strip_prefix(top)) else { return false };
    let mut path: Vec<&str> = rel.components().filter_map(|c| c.as_os_str().to_str()).collect();
    path.push(MANIFEST);
    git.entry(GitSource::Index, &path.join("/")).is_some()
}

/// `Ok("beeuni.yaml")`, `Err` with a misnamed manifest's name (`manifest-name`), or, when there is neither,
/// the exit-2 error.
pub fn manifest(checkout: &Checkout) -> Result<Result<String, String>, Error> {
    let place =
        if checkout.is_index() { "in the index".to_string() } else { format!("at {}", checkout.root.display()) };
    match checkout.resolve(MANIFEST) {
        // Too large to read: loading it says so on the file.
        Ok(_) | Err(Refusal::TooLarge(_)) => Ok(Ok(MANIFEST.to_string())),
        Err(Refusal::NotFound) => {
            let misnamed = checkout.list_dir("").into_iter().find(|name| {
                let lower = name.to_ascii_lowercase();
                (lower == "beeuni.yaml" || lower == "beeuni.yml") && checkout.is_file(name)
            });
            match misnamed {
                Some(name) => Ok(Err(name)),
                None => {
                    let stage = checkout.is_index().then(|| checkout.git_path(MANIFEST).into_owned());
                    Err(Error::NoManifest { place, stage, help: None })
                }
            }
        }
        Err(refusal) => Err(Error::ManifestUnreadable { place, reason: refusal.describe() }),
    }
}

/// What the "no beeuni.yaml" error adds: where the search looked, and what to pass instead, as `command` (`ls`,
/// `agents`; `None` for `check`) takes it.
pub fn missing_help(start: &Path, checkout: &Checkout, command: Option<&str>) -> String {
    let run = command.map_or_else(|| "beeuni-lint".to_string(), |command| format!("beeuni-lint {command}"));
    let looked = if start == checkout.root {
        format!("looked in {}", start.display())
    } else {
        format!("looked in {} and every folder above it up to {}", start.display(), checkout.root.display())
    };
    // The projects are named as a path from where the search started.
    let depth = start.strip_prefix(&checkout.root).map_or(0, |rel| rel.components().count());
    let up = "../".repeat(depth);
    let projects: Vec<String> = checkout.git.as_ref().map_or_else(Vec::new, |git| {
        git.tracked_named(MANIFEST)
            .into_iter()
            .filter_map(|p| p.strip_suffix(MANIFEST).map(|dir| dir.trim_end_matches('/').to_string()))
            .filter(|dir| !dir.is_empty())
            .map(|dir| format!("{}{dir}", up))
            .collect()
    });
    match projects.as_slice() {
        [] => format!("{looked}; run {run} in a project's folder, or pass it: `{run} path/to/project`"),
        [one] => format!("{looked}; this repository has a project in `{one}`: run `{run} {one}`"),
        many => {
            let shown: Vec<String> = many.iter().take(5).map(|p| format!("`{p}`")).collect();
            let more = if many.len() > 5 { format!(" and {} more", many.len() - 5) } else { String::new() };
            format!(
                "{looked}; pass a project's folder, e.g. `{run} {}` (projects: {}{more})",
                many[0],
                shown.join(", ")
            )
        }
    }
}
