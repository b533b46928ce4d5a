//! Where the cache may live. Its entries decide findings (a forged entry can say a broken module is fine), so the
//! project's folder is used only when it is the run's own: a real folder (not a link that may lead out of the
//! repository, not a file) that git does not track (a repository, a pull request in CI, must not decide its own
//! findings). A folder given as `--cache-dir` is the user's choice, wherever it is. In either, the file itself is
//! opened only when it is a regular file ([`super::Bytes`]).

use super::DIR;
use crate::repo::git::GitRepo;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The project's cache folder (`.beeuni-lint-cache` at `root`), or why this run uses none: the note for standard
/// error. `git` is the repository with the project's path in it (`""` at its root), as discovered (its index read
/// once for the whole run).
pub fn project_folder(root: &Path, git: Option<(&GitRepo, &str)>) -> Result<PathBuf, String> {
    let shown = match git {
        Some((_, prefix)) if !prefix.is_empty() => format!("{prefix}/{DIR}"),
        _ => DIR.to_string(),
    };
    if let Some(tracked) = git.and_then(|(repo, _)| repo.tracked_spelling(&shown)) {
        return Err(format!(
            "cache off: git tracks `{tracked}` (a repository must not decide its own findings): untrack it with \
             `git rm -r --cached {tracked}`"
        ));
    }
    let dir = root.join(DIR);
    match std::fs::symlink_metadata(&dir) {
        Ok(metadata) if metadata.is_dir() => Ok(dir),
        Ok(metadata) if metadata.is_symlink() => {
            Err(format!("cache off: `{shown}` is a symbolic link: replace it with a folder, or pass `--cache-dir DIR`"))
        }
        Ok(_) => Err(format!("cache off: `{shown}` is not a folder: remove it, or pass `--cache-dir DIR`")),
        // Made when the run writes its first entry.
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(dir),
        Err(error) => Err(format!("cache off: `{shown}`: {error}")),
    }
}

/// Prints `note` on standard error once a process: the fix engine loads the project again for each round of fixes,
/// and hook mode lints each project of a commit in turn.
pub fn note(note: String) {
    static SHOWN: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let mut shown = SHOWN.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if !shown.contains(&note) {
        eprint!("{}", crate::source::escape::prefixed_lines("beeuni-lint: ", &note));
        shown.push(note);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outside_git_only_a_real_folder_or_none_is_used() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        assert_eq!(project_folder(root, None), Ok(root.join(DIR)), "none yet: made when written");
        std::fs::create_dir(root.join(DIR)).unwrap();
        assert_eq!(project_folder(root, None), Ok(root.join(DIR)));
        std::fs::remove_dir(root.join(DIR)).unwrap();
        std::fs::write(root.join(DIR), "").unwrap();
        let file = "cache off: `.beeuni-lint-cache` is not a folder: remove it, or pass `--cache-dir DIR`";
        assert_eq!(project_folder(root, None), Err(file.to_string()));
        #[cfg(unix)]
        {
            std::fs::remove_file(root.join(DIR)).unwrap();
            let elsewhere = tempfile::tempdir().unwrap();
            std::os::unix::fs::symlink(elsewhere.path(), root.join(DIR)).unwrap();
            let link = "cache off: `.beeuni-lint-cache` is a symbolic link: replace it with a folder, or pass \
                        `--cache-dir DIR`";
            assert_eq!(project_folder(root, None), Err(link.to_string()));
        }
    }
}
