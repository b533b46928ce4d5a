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
use std::sync::{Arc, Mutex};

pub struct Discovered {
    pub root: PathBuf,
    /// The folder the search started from (the path given, or its folder).
    pub start: PathBuf,
    pub git: Option<GitRepo>,
    /// The project root relative to the git work tree root (`""` when they are the same), with `/`.
    pub git_prefix: String,
}

/// A [`Discovered`] handed by the caller that found it (the command line, which looks for the projects of its
/// PATHs first) to the run of that path, so that the run does not discover it again: discovery reads the whole
/// git index, which was 2.9 % of a warm run's instructions at 2,000 modules. Taken once, by the first run of those
/// options; a later one (the fix engine's next round) discovers again, as a run apart would.
#[derive(Clone, Default)]
pub struct Handed(Arc<Mutex<Option<Discovered>>>);

impl Handed {
    /// `found` must be what [`discover`] gives for the path and `staged` of the run it is handed to.
    pub fn new(found: Discovered) -> Self {
        Handed(Arc::new(Mutex::new(Some(found))))
    }

    /// What was handed, if nothing took it yet; otherwise [`discover`].
    pub fn take_or_discover(&self, path: &Path, staged: bool) -> Result<Discovered, Error> {
        match self.0.lock().ok().and_then(|mut handed| handed.take()) {
            Some(found) => Ok(found),
            None => discover(path, staged),
        }
    }
}

/// `staged`: the manifest may exist only in the index (staged, then deleted from the work tree).
pub fn discover(path: &Path, staged: bool) -> Result<Discovered, Error> {
    // Followed part by part: a symlink inside the repository that leads out of it is refused, not linted.
    let real = crate::repo::given::follow(path, "PATH").map_err(|refused| Error::Path(refused.0))?;
    let path =
        std::fs::canonicalize(&real).map_err(|e| Error::Path(format!("cannot open `{}`: {e}", path.display())))?;
    let git = GitRepo::discover(&path).map_err(Error::Git)?;
    let start = if path.is_file() { path.parent().map_or_else(|| path.clone(), Path::to_path_buf) } else { path };
    let top = git.as_ref().map_or_else(|| start.clone(), |g| g.root().to_path_buf());
    let root = start
        .ancestors()
        .take_while(|dir| dir.starts_with(&top))
        .find(|dir| dir.join(MANIFEST).is_file() || (staged && in_index(git.as_ref(), &top, dir)))
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

/// What the "no beeuni.yaml" error adds: where the search looked, and what to pass instead.
pub fn missing_help(start: &Path, checkout: &Checkout) -> String {
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
        [] => format!("{looked}; run beeuni-lint in a project's folder, or pass it: `beeuni-lint path/to/project`"),
        [one] => format!("{looked}; this repository has a project in `{one}`: run `beeuni-lint {one}`"),
        many => {
            let shown: Vec<String> = many.iter().take(5).map(|p| format!("`{p}`")).collect();
            let more = if many.len() > 5 { format!(" and {} more", many.len() - 5) } else { String::new() };
            format!(
                "{looked}; pass a project's folder, e.g. `beeuni-lint {}` (projects: {}{more})",
                many[0],
                shown.join(", ")
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first run takes what was handed to it (here a root no discovery could give, to tell them apart); the
    /// next discovers again, as a clone of the options shares what was handed.
    #[test]
    fn what_is_handed_is_taken_once() {
        let folder = std::env::temp_dir().join(format!("beeuni-handed-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let marker = PathBuf::from("/handed/not/discovered");
        let found = Discovered { root: marker.clone(), start: marker.clone(), git: None, git_prefix: String::new() };
        let handed = Handed::new(found);
        let shared = handed.clone();
        assert_eq!(shared.take_or_discover(&folder, false).unwrap().root, marker);
        let again = handed.take_or_discover(&folder, false).unwrap();
        assert_eq!(again.root, std::fs::canonicalize(&folder).unwrap());
        assert_eq!(Handed::default().take_or_discover(&folder, false).unwrap().root, again.root);
        std::fs::remove_dir_all(&folder).unwrap();
    }
}
