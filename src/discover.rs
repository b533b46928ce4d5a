//! Finds the project root and its manifest, and the git work tree around it.
//!
//! The root is the nearest folder at or above the given path, up to the git
//! work tree root, that holds `beeuni.yaml`; without one, the work tree root
//! (or, outside git, the folder given). A project in a subfolder of a larger
//! repository (a monorepo, or this tool's own `examples/`) is linted as its
//! own project, while git answers for the whole work tree.

use crate::repo::fs::{self, Refusal};
use crate::repo::git::GitRepo;
use std::path::{Path, PathBuf};

pub const MANIFEST: &str = "beeuni.yaml";

pub struct Discovered {
    pub root: PathBuf,
    pub git: Option<GitRepo>,
    /// The project root relative to the git work tree root (`""` when they are the same), with `/`.
    pub git_prefix: String,
    /// `Ok("beeuni.yaml")`, or `Err` with a misnamed manifest's name.
    pub manifest: Result<String, String>,
}

pub fn discover(path: &Path) -> Result<Discovered, String> {
    let path = std::fs::canonicalize(path).map_err(|e| format!("cannot open `{}`: {e}", path.display()))?;
    let git = GitRepo::discover(&path)?;
    let start = if path.is_file() {
        path.parent().map_or_else(|| path.clone(), Path::to_path_buf)
    } else {
        path
    };
    let top = git.as_ref().map_or_else(|| start.clone(), |g| g.root().to_path_buf());
    let root = start
        .ancestors()
        .take_while(|dir| dir.starts_with(&top))
        .find(|dir| dir.join(MANIFEST).exists())
        .map_or_else(|| top.clone(), Path::to_path_buf);
    let git_prefix = root
        .strip_prefix(&top)
        .ok()
        .map(|p| {
            p.components()
                .filter_map(|c| c.as_os_str().to_str())
                .collect::<Vec<_>>()
                .join("/")
        })
        .unwrap_or_default();
    let manifest = match fs::resolve(&root, MANIFEST) {
        Ok(_) => Ok(MANIFEST.to_string()),
        Err(Refusal::NotFound) => Err(misnamed(&root).ok_or_else(|| format!("no beeuni.yaml at {}", root.display()))?),
        Err(refusal) => return Err(format!("{MANIFEST} at {} {}", root.display(), refusal.describe())),
    };
    Ok(Discovered {
        root,
        git,
        git_prefix,
        manifest,
    })
}

/// `beeuni.yml`, or the manifest's name in other letter case, at the root.
fn misnamed(root: &Path) -> Option<String> {
    let mut names: Vec<String> = std::fs::read_dir(root)
        .ok()?
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| {
            let lower = name.to_ascii_lowercase();
            lower == "beeuni.yaml" || lower == "beeuni.yml"
        })
        .collect();
    names.sort();
    names.into_iter().find(|name| fs::is_file(root, name))
}
