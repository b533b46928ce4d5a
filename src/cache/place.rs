//! Where the cache may live. Its entries decide findings (a forged entry can say a broken module is fine), so a
//! folder is used only when it is the run's own: inside a git work tree, one that git does not track (a repository,
//! a pull request in CI, must not decide its own findings) and that git ignores (so that no `git add` makes it the
//! repository's), reached with no link that leads out of the work tree (what is read and written stays in it). The
//! project's folder must moreover be a real folder (not a link, not a file); a `--cache-dir` outside the work tree
//! is the user's choice, wherever it is. In either, the file itself is opened only when it is a regular file
//! ([`super::Bytes`]).

use super::{DIR, FILE};
use crate::repo::git::GitRepo;
use std::path::{Component, Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// The project's cache folder (`.beeuni-lint-cache` at `root`), or why this run uses none: the note for standard
/// error. `git` is the repository with the project's path in it (`""` at its root), as discovered (its index read
/// once for the whole run).
pub fn project_folder(root: &Path, git: Option<(&GitRepo, &str)>) -> Result<PathBuf, String> {
    let shown = match git {
        Some((_, prefix)) if !prefix.is_empty() => format!("{prefix}/{DIR}"),
        _ => DIR.to_string(),
    };
    if let Some((repo, _)) = git {
        untracked(repo, &shown)?;
    }
    let dir = root.join(DIR);
    let printed = printable(&shown);
    match std::fs::symlink_metadata(&dir) {
        Ok(metadata) if metadata.is_dir() => match git {
            Some((repo, _)) => ignored(repo, &shown, &dir).map(|()| dir),
            None => Ok(dir),
        },
        Ok(metadata) if metadata.is_symlink() => Err(format!(
            "cache off: `{printed}` is a symbolic link: replace it with a folder, or pass `--cache-dir DIR`"
        )),
        Ok(_) => Err(format!("cache off: `{printed}` is not a folder: remove it, or pass `--cache-dir DIR`")),
        // Made when the run writes its first entry.
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(dir),
        Err(error) => Err(format!("cache off: `{printed}`: {error}")),
    }
}

/// The folder `--cache-dir` names (`dir`, from the current folder), as it really is (every link in its path
/// followed, so that what is looked at is what is read and written), or why this run uses none. `git` is the
/// project's repository: inside its work tree, the folder must be the run's own as the project's must.
pub fn chosen_folder(dir: &Path, git: Option<&GitRepo>) -> Result<PathBuf, String> {
    let Some(repo) = git else { return Ok(dir.to_path_buf()) };
    let work_tree = repo.root();
    let given = printable(&dir.to_string_lossy());
    let real = real_path(dir, work_tree).map_err(|why| match why {
        Unreal::Leaves(link) => format!(
            "cache off: `{given}` leads out of the repository through the symbolic link `{}`: pass a `--cache-dir` \
             outside the repository, or one without that link",
            printable(&relative(&link, work_tree))
        ),
        Unreal::Dangles(link) => format!(
            "cache off: `{given}` goes through the symbolic link `{}`, which leads nowhere: pass a `--cache-dir` \
             without that link",
            printable(&relative(&link, work_tree))
        ),
        Unreal::Io(error) => format!("cache off: `{given}`: {error}"),
    })?;
    let Ok(inside) = real.strip_prefix(work_tree) else { return Ok(real) };
    let rel = relative(inside, Path::new(""));
    if rel.is_empty() || inside.to_str().is_none() {
        // The work tree's root is never ignored; nor can git's rules name a path that is not UTF-8 here.
        return Err(not_ignored(if rel.is_empty() { "." } else { &rel }));
    }
    untracked(repo, &rel)?;
    match std::fs::symlink_metadata(&real) {
        Ok(metadata) if metadata.is_dir() => ignored(repo, &rel, &real).map(|()| real),
        Ok(_) => Err(format!("cache off: `{}` is not a folder: pass a `--cache-dir` that is", printable(&rel))),
        // Made when the run writes its first entry, with a `.gitignore` that has git ignore it.
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(real),
        Err(error) => Err(format!("cache off: `{}`: {error}", printable(&rel))),
    }
}

/// `Err` with the note when git tracks anything in the folder at `rel` (relative to the work tree root), in any
/// spelling of its path (on macOS and Windows, `App/.Beeuni-Lint-Cache` is the same folder as `app/...`).
fn untracked(repo: &GitRepo, rel: &str) -> Result<(), String> {
    match repo.tracked_spelling(rel) {
        Some(tracked) => {
            let tracked = printable(&tracked);
            Err(format!(
                "cache off: git tracks `{tracked}` (a repository must not decide its own findings): untrack it with \
                 `git rm -r --cached {tracked}`"
            ))
        }
        None => Ok(()),
    }
}

/// `Err` with the note when the folder `dir` (at `rel` in the work tree) holds something and git would not ignore
/// the cache file in it: a folder a `git add` would make the repository's. An empty one is the run's to fill (it
/// writes the folder's `.gitignore` first).
fn ignored(repo: &GitRepo, rel: &str, dir: &Path) -> Result<(), String> {
    let empty = std::fs::read_dir(dir).is_ok_and(|mut entries| entries.next().is_none());
    if empty || repo.is_ignored(&format!("{rel}/{FILE}"), false) { Ok(()) } else { Err(not_ignored(rel)) }
}

fn not_ignored(rel: &str) -> String {
    format!(
        "cache off: `{}` is in the work tree and git does not ignore it (a repository must not decide its own \
         findings): ignore it in `.gitignore`, or pass a `--cache-dir` outside the repository",
        printable(rel)
    )
}

/// Why a `--cache-dir` has no real path this run may use.
enum Unreal {
    /// The link, inside the work tree, that leads out of it.
    Leaves(PathBuf),
    /// The link, inside the work tree, that leads nowhere (the folder would be made wherever it comes to point).
    Dangles(PathBuf),
    Io(std::io::Error),
}

/// Where `dir` (from the current folder) really is: each part followed as the kernel follows it, links resolved (a
/// `..` after a link goes up from where the link leads). A link inside `work_tree` must lead to a place inside it.
fn real_path(dir: &Path, work_tree: &Path) -> Result<PathBuf, Unreal> {
    let mut real = match dir.is_absolute() {
        true => PathBuf::new(),
        false => std::env::current_dir().and_then(std::fs::canonicalize).map_err(Unreal::Io)?,
    };
    for component in dir.components() {
        match component {
            Component::Prefix(_) | Component::RootDir => real.push(component),
            Component::CurDir => {}
            Component::ParentDir => {
                real.pop();
            }
            Component::Normal(name) => {
                let next = real.join(name);
                let is_link = std::fs::symlink_metadata(&next).is_ok_and(|metadata| metadata.is_symlink());
                let inside = real.starts_with(work_tree);
                real = match (is_link, std::fs::canonicalize(&next)) {
                    (false, _) => next,
                    (true, Ok(target)) if target.starts_with(work_tree) || !inside => target,
                    (true, Ok(_)) => return Err(Unreal::Leaves(next)),
                    // Outside the work tree, a link that leads nowhere is the user's to have made (nothing can be
                    // written through it: making the folder fails).
                    (true, Err(_)) if !inside => next,
                    (true, Err(_)) => return Err(Unreal::Dangles(next)),
                };
            }
        }
    }
    Ok(real)
}

/// `path` from `base`, with `/` (as git names paths).
fn relative(path: &Path, base: &Path) -> String {
    let inside = path.strip_prefix(base).unwrap_or(path);
    inside.components().map(|part| part.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

/// A path for a note on standard error: a folder's name is the repository's to choose, and its bytes must not drive
/// the terminal or the log (shown escaped, [`crate::source::escape`]).
fn printable(path: &str) -> String {
    crate::source::escape::escape(path).into_owned()
}

/// Where [`note`] sends its notes: the binary's standard error. The library prints nothing itself.
static NOTE_SINK: OnceLock<fn(&str)> = OnceLock::new();

/// Sends every later [`note`] to `sink` (the first call of a process decides); until then notes are dropped, as for
/// a library caller that asked for none.
pub fn send_notes_to(sink: fn(&str)) {
    let _ = NOTE_SINK.set(sink);
}

/// Sends `note` to the sink ([`send_notes_to`]) once a process: the fix engine loads the project again for each
/// round of fixes, and hook mode lints each project of a commit in turn.
pub fn note(note: String) {
    static SHOWN: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let Some(sink) = NOTE_SINK.get() else { return };
    let mut shown = SHOWN.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if !shown.contains(&note) {
        sink(&note);
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
