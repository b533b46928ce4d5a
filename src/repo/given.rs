//! Paths given on the command line (the project PATH, `--config`, `--output`, `--sarif-file`, `--cache-dir`): the
//! user's own, but a workflow names them inside a checkout a pull request wrote, where any part may be a symlink
//! it committed. Such a path is followed as the kernel follows it, one part at a time, and a symlink inside a git
//! work tree is followed only when its target stays inside that work tree and out of its `.git`: `apps/agent`
//! committed as a link to `/home/runner` is refused, not linted, cached into or fixed. Outside every work tree
//! (`/tmp/report.json`, `/dev/stdout`) a path is the user's, and its links are followed as they are.

use super::fs::in_git_folder;
use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};

/// Followed symlinks beyond this many are a loop (Linux stops at 40 too).
const MAX_LINKS: usize = 40;

/// Why a given path is refused. The message names the path and the link, never where the link leads.
#[derive(Debug, PartialEq, Eq)]
pub struct Refused(pub String);

/// The real path of `given` (relative to the current folder): every symlink on the way followed and checked, parts
/// that do not exist (yet) kept as written. `what` names the path in a refusal (`--output`, `PATH`).
pub fn follow(given: &Path, what: &str) -> Result<PathBuf, Refused> {
    walk(given, given, what)
}

/// [`follow`] of `given`, `named` itself or a folder on the way to it (the path a refusal names).
fn walk(given: &Path, named: &Path, what: &str) -> Result<PathBuf, Refused> {
    let refused = |why: String| Refused(format!("{what} `{}` {why}", named.display()));
    let absolute = if given.is_absolute() {
        given.to_path_buf()
    } else {
        std::env::current_dir().map_err(|e| refused(format!("cannot be found: the current folder: {e}")))?.join(given)
    };
    let mut real = PathBuf::from("/");
    let mut links = 0;
    let mut parts: Vec<OsString> = Vec::new();
    push_front(&mut parts, &absolute);
    // `parts` holds what is left to walk, last part first.
    while let Some(part) = parts.pop() {
        match Path::new(&part).components().next() {
            Some(Component::RootDir) => real = PathBuf::from("/"),
            Some(Component::ParentDir) => {
                // `real` holds no symlink, so its parent is what the kernel takes for `..`.
                real.pop();
            }
            Some(Component::Normal(name)) => {
                let next = real.join(name);
                super::watch::note_identity(&next);
                let is_link = std::fs::symlink_metadata(&next).is_ok_and(|m| m.file_type().is_symlink());
                if !is_link {
                    real = next;
                    continue;
                }
                links += 1;
                if links > MAX_LINKS {
                    return Err(refused("goes through too many symlinks (a loop?)".into()));
                }
                let target = std::fs::read_link(&next).map_err(|e| refused(format!("cannot be followed: {e}")))?;
                if let Some(tree) = work_tree_of(&real) {
                    let landed = lands_at(&real, &target);
                    // The path itself, or a folder on its way.
                    let link = match parts.is_empty() && links == 1 && given == named {
                        true => "is a symlink".to_string(),
                        false => format!("goes through `{}`, a symlink", shown_link(&next, &tree)),
                    };
                    if !landed.as_deref().is_some_and(|at| at.starts_with(&tree)) {
                        return Err(refused(format!(
                            "{link} to outside the repository at {}: beeuni-lint reads and writes nothing outside it",
                            tree.display()
                        )));
                    }
                    if landed.as_deref().and_then(|at| at.strip_prefix(&tree).ok()).is_some_and(in_git_folder) {
                        return Err(refused(format!(
                            "{link} into `.git`, git's own folder, which beeuni-lint never reads or writes"
                        )));
                    }
                }
                push_front(&mut parts, &target);
            }
            // `.` and (on Windows) a prefix: nothing to walk.
            _ => {}
        }
    }
    Ok(real)
}

/// Writes a report file (`--output`, `--sarif-file`) at `given`. Inside a git work tree its folder is followed as
/// [`follow`] does, and the file itself must be new or a regular file outside `.git`: an existing symlink there is
/// refused, never written through (nor replaced: it is the repository's file). Outside every work tree the path is
/// the user's, written as given (`/dev/stdout` included).
pub fn write_report(given: &Path, what: &str, text: &str) -> Result<(), crate::error::Error> {
    write_report_refused(given, what, text).map_err(crate::error::Error::Report)
}

/// [`write_report`], refused with the reason's text.
fn write_report_refused(given: &Path, what: &str, text: &str) -> Result<(), String> {
    let refused = |why: &str| format!("{what} `{}` {why}", given.display());
    let Some(name) = given.file_name() else {
        return Err(refused("names no file"));
    };
    let folder = given.parent().filter(|folder| !folder.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let real_folder = walk(folder, given, what).map_err(|refused| refused.0)?;
    let target = real_folder.join(name);
    if let Some(tree) = work_tree_of(&real_folder) {
        if target.strip_prefix(&tree).is_ok_and(in_git_folder) {
            return Err(refused("is inside `.git`, git's own folder, where beeuni-lint writes nothing"));
        }
        match std::fs::symlink_metadata(&target) {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(refused(
                    "is a symlink in the repository: beeuni-lint never writes a report through a link (remove it, \
                     or name another file)",
                ));
            }
            Ok(meta) if !meta.is_file() => return Err(refused("exists and is not a regular file")),
            _ => {}
        }
    }
    std::fs::write(&target, text).map_err(|e| format!("cannot write {}: {e}", given.display()))
}

/// Puts the parts of `path` in front of those left to walk (the stack's top is its end).
fn push_front(parts: &mut Vec<OsString>, path: &Path) {
    for component in path.components().rev() {
        parts.push(component.as_os_str().to_os_string());
    }
}

/// Where a symlink in the folder `folder` (a real path) with this target leads, fully resolved; `None` when it
/// leads nowhere that exists. A target that does not exist is resolved as far as it does (its folder), so that a
/// dangling link to `/elsewhere/new` still counts as leading out.
fn lands_at(folder: &Path, target: &Path) -> Option<PathBuf> {
    let joined = folder.join(target);
    std::fs::canonicalize(&joined).ok().or_else(|| {
        let parent = std::fs::canonicalize(joined.parent()?).ok()?;
        Some(parent.join(joined.file_name()?))
    })
}

/// The link's path inside its work tree, as the refusal names it.
fn shown_link(link: &Path, tree: &Path) -> String {
    link.strip_prefix(tree).unwrap_or(link).display().to_string()
}

/// The git work tree that holds `folder` (a real path): the nearest folder at or above it with a `.git` entry (a
/// folder, or the file of a linked work tree or submodule).
pub fn work_tree_of(folder: &Path) -> Option<PathBuf> {
    folder.ancestors().find(|dir| std::fs::symlink_metadata(dir.join(".git")).is_ok()).map(Path::to_path_buf)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn links_inside_a_work_tree_are_followed_only_when_they_stay_inside() {
        let dir = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(dir.path()).unwrap();
        let (repo, outside) = (base.join("repo"), base.join("outside"));
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(repo.join("apps/real")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        symlink(&outside, repo.join("apps/out")).unwrap();
        symlink("real", repo.join("apps/in")).unwrap();
        symlink("../.git", repo.join("apps/git")).unwrap();
        symlink(outside.join("none"), repo.join("apps/dangling")).unwrap();
        symlink(&repo, outside.join("back")).unwrap();
        assert_eq!(follow(&repo.join("apps/in/x.json"), "--output"), Ok(repo.join("apps/real/x.json")));
        assert_eq!(follow(&repo.join("apps/in/../real"), "PATH"), Ok(repo.join("apps/real")));
        assert_eq!(follow(&outside.join("back/apps/in"), "PATH"), Ok(repo.join("apps/real")));
        for escape in ["apps/out", "apps/out/x.json", "apps/dangling", "apps/in/../out/a"] {
            let Err(Refused(message)) = follow(&repo.join(escape), "PATH") else { panic!("{escape} followed") };
            let named = ["goes through `apps/out`", "apps/dangling` is a symlink", "apps/out` is a symlink"];
            assert!(named.iter().any(|name| message.contains(name)), "{message}");
            assert!(message.contains("to outside the repository"), "{message}");
            assert!(!message.contains(outside.to_str().unwrap()), "{message}");
        }
        let Err(Refused(message)) = follow(&repo.join("apps/git/config"), "--config") else { panic!("followed") };
        assert!(message.contains("into `.git`"), "{message}");
        // Outside every work tree, links are the user's.
        symlink(repo.join("apps/real"), outside.join("mine")).unwrap();
        assert_eq!(follow(&outside.join("mine"), "PATH"), Ok(repo.join("apps/real")));
    }

    #[test]
    fn a_loop_of_links_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(dir.path()).unwrap();
        symlink("b", base.join("a")).unwrap();
        symlink("a", base.join("b")).unwrap();
        let Err(Refused(message)) = follow(&base.join("a/x"), "PATH") else { panic!("followed") };
        assert!(message.contains("too many symlinks"), "{message}");
    }
}
