//! Writing a plan: each changed file atomically (a temporary file in its own folder, renamed over it, with its
//! permissions), never through a symlink that leaves the repository and never outside it, all of them or none.

use super::Change;
use super::transaction::{self, Step};
use crate::repo::fs;
use std::io::Write;
use std::path::Path;

/// Writes every change under `root` (the project root), all of them or none (see [`super::transaction`]).
pub fn write(root: &Path, changes: &[Change]) -> Result<(), crate::error::Error> {
    let steps: Vec<Step> = changes
        .iter()
        .map(|change| match &change.after {
            Some(bytes) => Step::Replace(&change.path, bytes),
            None => Step::Delete(&change.path),
        })
        .collect();
    transaction::apply(root, &steps)
        .map_err(|failed| crate::error::Error::Fix(format!("cannot fix {}: {}", changes[failed.at].shown, failed.why)))
}

/// Where a project-relative path really is: inside the root, through symlinks that stay inside.
pub(super) fn real_path(root: &Path, rel: &str) -> Result<std::path::PathBuf, String> {
    fs::resolve(root, rel).map_err(|refusal| format!("it {}", refusal.describe()))
}

/// Writes a temporary file beside `target` and renames it over `target`.
pub(super) fn rename_into(
    target: &Path,
    bytes: &[u8],
    permissions: Option<std::fs::Permissions>,
) -> Result<(), String> {
    let folder = target.parent().ok_or("it has no folder")?;
    let mut temp = tempfile_in(folder)?;
    let result = temp
        .1
        .write_all(bytes)
        .and_then(|()| temp.1.sync_all())
        .and_then(|()| permissions.map_or(Ok(()), |p| std::fs::set_permissions(&temp.0, p)))
        .and_then(|()| std::fs::rename(&temp.0, target));
    if let Err(e) = result {
        let _ = std::fs::remove_file(&temp.0);
        return Err(e.to_string());
    }
    Ok(())
}

/// A new file beside the target, named so no other file is taken.
fn tempfile_in(folder: &Path) -> Result<(std::path::PathBuf, std::fs::File), String> {
    for attempt in 0..100u32 {
        let path = folder.join(format!(".beeuni-lint-fix.{}.{attempt}.tmp", std::process::id()));
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(file) => return Ok((path, file)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(format!("cannot create a temporary file in {}: {e}", folder.display())),
        }
    }
    Err(format!("cannot create a temporary file in {}", folder.display()))
}
