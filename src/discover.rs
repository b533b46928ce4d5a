//! Finds the repository root (the git work tree, or the folder given) and its manifest.

use crate::repo::fs::{self, Refusal};
use crate::repo::git::GitRepo;
use std::path::{Path, PathBuf};

pub const MANIFEST: &str = "beeuni.yaml";

pub struct Discovered {
    pub root: PathBuf,
    pub git: Option<GitRepo>,
    /// `Ok("beeuni.yaml")`, or `Err` with a misnamed manifest's name.
    pub manifest: Result<String, String>,
}

pub fn discover(path: &Path) -> Result<Discovered, String> {
    let path = std::fs::canonicalize(path).map_err(|e| format!("cannot open `{}`: {e}", path.display()))?;
    let git = GitRepo::discover(&path)?;
    let root = match &git {
        Some(git) => git.root().to_path_buf(),
        None if path.is_file() => path.parent().map_or_else(|| path.clone(), Path::to_path_buf),
        None => path.clone(),
    };
    let manifest = match fs::resolve(&root, MANIFEST) {
        Ok(_) => Ok(MANIFEST.to_string()),
        Err(Refusal::NotFound) => Err(misnamed(&root).ok_or_else(|| format!("no beeuni.yaml at {}", root.display()))?),
        Err(refusal) => return Err(format!("{MANIFEST} at {} {}", root.display(), refusal.describe())),
    };
    Ok(Discovered { root, git, manifest })
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
