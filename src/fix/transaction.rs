//! Writing several files as one change (`--fix`, `eject`, `restore`): every file and folder is checked before the
//! first write (inside the root, through no symlink that leaves it, not in `.git`), and when a write fails the
//! ones before it are undone, so that all the files change or none does.

use super::write::{real_path, rename_into};
use crate::repo::fs::in_git_folder;
use std::path::{Path, PathBuf};

/// One file to change, by its project-relative path.
pub enum Step<'a> {
    /// An existing file gets these bytes (its permissions kept).
    Replace(&'a str, &'a [u8]),
    /// These bytes over the file when it exists, else in a new file, its missing folders created.
    Create(&'a str, &'a [u8]),
    /// The file (a symlink: the link itself) goes.
    Delete(&'a str),
}

impl Step<'_> {
    /// The project-relative path it changes.
    pub fn path(&self) -> &str {
        match self {
            Step::Replace(rel, _) | Step::Create(rel, _) | Step::Delete(rel) => rel,
        }
    }
}

/// Why a transaction stopped: the step (its index in the steps given) and why. Nothing is left changed, unless
/// `why` says that undoing failed too.
#[derive(Debug)]
pub struct Failed {
    pub at: usize,
    pub why: String,
}

/// Every step checked, with what undoing it needs.
pub struct Transaction {
    planned: Vec<Planned>,
}

enum Planned {
    Replace { real: PathBuf, bytes: Vec<u8>, permissions: std::fs::Permissions, before: Vec<u8> },
    Create { folders: Vec<PathBuf>, target: PathBuf, bytes: Vec<u8> },
    Delete { path: PathBuf, before: Before },
}

/// What a deleted path was, to put it back.
enum Before {
    File(Vec<u8>, std::fs::Permissions),
    Link(PathBuf),
}

/// Checks every step and then writes them all, or none.
pub fn apply(root: &Path, steps: &[Step]) -> Result<(), Failed> {
    Transaction::prepare(root, steps)?.commit()
}

impl Transaction {
    /// Checks every step against the disk as it is now; writes nothing.
    pub fn prepare(root: &Path, steps: &[Step]) -> Result<Transaction, Failed> {
        let planned = steps
            .iter()
            .enumerate()
            .map(|(at, step)| plan(root, step).map_err(|why| Failed { at, why }))
            .collect::<Result<_, _>>()?;
        Ok(Transaction { planned })
    }

    /// Writes every step in order; when one fails, undoes it and the ones before it (last first).
    pub fn commit(self) -> Result<(), Failed> {
        for (at, step) in self.planned.iter().enumerate() {
            if let Err(why) = run(step) {
                // A step that fails leaves nothing of its own behind (see `run`).
                let undone: Vec<String> = self.planned[..at].iter().rev().filter_map(|done| undo(done).err()).collect();
                let why = match undone.as_slice() {
                    [] => format!("{why} (nothing was changed)"),
                    _ => format!("{why}; undoing the files written before it failed too: {}", undone.join("; ")),
                };
                return Err(Failed { at, why });
            }
        }
        Ok(())
    }
}

fn plan(root: &Path, step: &Step) -> Result<Planned, String> {
    let rel = step.path();
    if in_git_folder(Path::new(rel)) {
        return Err("it is inside `.git`, git's own folder, where beeuni-lint writes nothing".into());
    }
    match step {
        Step::Replace(rel, bytes) => replaced(root, rel, bytes),
        Step::Create(rel, bytes) if real_path(root, rel).is_ok() => replaced(root, rel, bytes),
        Step::Create(rel, bytes) => created(root, rel, bytes),
        Step::Delete(rel) => deleted(root, rel),
    }
}

fn replaced(root: &Path, rel: &str, bytes: &[u8]) -> Result<Planned, String> {
    let real = real_path(root, rel)?;
    let permissions = std::fs::metadata(&real).map_err(|e| e.to_string())?.permissions();
    let before = crate::repo::fs::read_resolved(&real).map_err(|refusal| format!("it {}", refusal.describe()))?;
    Ok(Planned::Replace { real, bytes: bytes.to_vec(), permissions, before })
}

/// A new file: each existing folder on the way must be a folder inside the root (a symlink followed only when it
/// stays inside); the missing ones are created when the transaction commits.
fn created(root: &Path, rel: &str, bytes: &[u8]) -> Result<Planned, String> {
    let (folder_part, name) = crate::repo::fs::split_folder(rel);
    let mut folder = root.to_path_buf();
    let mut folders = Vec::new();
    for part in folder_part.split('/').filter(|part| !part.is_empty()) {
        folder.push(part);
        if !folders.is_empty() || std::fs::symlink_metadata(&folder).is_err() {
            folders.push(folder.clone());
            continue;
        }
        folder = std::fs::canonicalize(&folder).map_err(|e| e.to_string())?;
        if !folder.starts_with(root) {
            return Err("its folder resolves through a symlink to outside the repository".into());
        }
        if folder.strip_prefix(root).is_ok_and(in_git_folder) {
            return Err("its folder resolves through a symlink into `.git`, where beeuni-lint writes nothing".into());
        }
        if !folder.is_dir() {
            return Err(format!("`{part}` on its way is not a folder"));
        }
    }
    let target = folder.join(name);
    if std::fs::symlink_metadata(&target).is_ok() {
        return Err("it exists but is not a regular file inside the repository".into());
    }
    Ok(Planned::Create { folders, target, bytes: bytes.to_vec() })
}

/// The path itself in its (real) folder inside the root: a symlink is removed, its target kept.
fn deleted(root: &Path, rel: &str) -> Result<Planned, String> {
    real_path(root, rel)?;
    let path = root.join(rel);
    let folder = path.parent().and_then(|f| std::fs::canonicalize(f).ok()).ok_or("its folder cannot be read")?;
    if !folder.starts_with(root) {
        return Err("its folder is outside the repository".into());
    }
    let path = folder.join(path.file_name().ok_or("it has no name")?);
    let meta = std::fs::symlink_metadata(&path).map_err(|e| e.to_string())?;
    let before = if meta.file_type().is_symlink() {
        Before::Link(std::fs::read_link(&path).map_err(|e| e.to_string())?)
    } else {
        let bytes = crate::repo::fs::read_resolved(&path).map_err(|refusal| format!("it {}", refusal.describe()))?;
        Before::File(bytes, meta.permissions())
    };
    Ok(Planned::Delete { path, before })
}

/// Does one step; when it fails, what it did is undone before it returns (a replaced file is renamed over in one
/// step; the folders a new file needed are removed again).
fn run(step: &Planned) -> Result<(), String> {
    match step {
        Planned::Replace { real, bytes, permissions, .. } => rename_into(real, bytes, Some(permissions.clone())),
        Planned::Create { folders, target, bytes } => {
            let made = folders.iter().take_while(|folder| std::fs::create_dir(folder).is_ok()).count();
            let result = match folders.get(made) {
                Some(folder) => Err(format!("cannot create the folder {}", folder.display())),
                None => rename_into(target, bytes, None),
            };
            if result.is_err() {
                for folder in folders[..made].iter().rev() {
                    let _ = std::fs::remove_dir(folder);
                }
            }
            result
        }
        Planned::Delete { path, .. } => std::fs::remove_file(path).map_err(|e| e.to_string()),
    }
}

/// Puts back what `step` changed (all of it, or the part it did before it failed).
fn undo(step: &Planned) -> Result<(), String> {
    let shown = |path: &Path, e: std::io::Error| format!("{}: {e}", path.display());
    match step {
        Planned::Replace { real, permissions, before, .. } => {
            rename_into(real, before, Some(permissions.clone())).map_err(|e| format!("{}: {e}", real.display()))
        }
        Planned::Create { folders, target, .. } => {
            match std::fs::remove_file(target) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(shown(target, e)),
                _ => {}
            }
            for folder in folders.iter().rev() {
                match std::fs::remove_dir(folder) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(shown(folder, e)),
                    _ => {}
                }
            }
            Ok(())
        }
        Planned::Delete { path, before } => match before {
            _ if std::fs::symlink_metadata(path).is_ok() => Ok(()),
            Before::File(bytes, permissions) => {
                rename_into(path, bytes, Some(permissions.clone())).map_err(|e| format!("{}: {e}", path.display()))
            }
            Before::Link(target) => symlink(target, path).map_err(|e| shown(path, e)),
        },
    }
}

#[cfg(unix)]
fn symlink(target: &Path, path: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(target, path)
}

#[cfg(not(unix))]
fn symlink(_target: &Path, _path: &Path) -> std::io::Result<()> {
    Err(std::io::Error::other("symlinks cannot be made here"))
}

#[cfg(test)]
#[cfg(unix)]
mod tests {
    use super::*;

    fn project() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap().join("repo");
        std::fs::create_dir_all(root.join("tools")).unwrap();
        std::fs::write(root.join("beeuni.yaml"), "tools: {}\n").unwrap();
        std::fs::write(root.join("tools/old.ts"), "old").unwrap();
        (dir, root)
    }

    #[test]
    fn a_write_that_fails_puts_back_the_ones_before_it() {
        let (_dir, root) = project();
        let steps = [
            Step::Replace("beeuni.yaml", b"edited\n"),
            Step::Delete("tools/old.ts"),
            Step::Create("new/a/b.ts", b"b"),
            Step::Create("tools/c.ts", b"c"),
        ];
        let transaction = Transaction::prepare(&root, &steps).unwrap();
        // What the checks saw changes before the writes: the last file's place is taken by a folder that is not
        // empty, so renaming over it fails.
        std::fs::create_dir_all(root.join("tools/c.ts/inside")).unwrap();
        let failed = transaction.commit().unwrap_err();
        assert_eq!(failed.at, 3, "{}", failed.why);
        assert!(failed.why.ends_with("(nothing was changed)"), "{}", failed.why);
        assert_eq!(std::fs::read_to_string(root.join("beeuni.yaml")).unwrap(), "tools: {}\n");
        assert_eq!(std::fs::read_to_string(root.join("tools/old.ts")).unwrap(), "old");
        assert!(!root.join("new").exists(), "the folders made for the new file are gone");
        let names = |folder: &Path| {
            let mut names: Vec<_> = std::fs::read_dir(folder).unwrap().map(|e| e.unwrap().file_name()).collect();
            names.sort();
            names
        };
        // No temporary file is left.
        assert_eq!(names(&root), ["beeuni.yaml", "tools"]);
        assert_eq!(names(&root.join("tools")), ["c.ts", "old.ts"]);
    }

    #[test]
    fn every_check_comes_before_the_first_write() {
        let (dir, root) = project();
        let outside = dir.path().join("outside");
        std::fs::create_dir_all(&outside).unwrap();
        std::os::unix::fs::symlink(&outside, root.join("linked")).unwrap();
        std::fs::create_dir_all(root.join(".GIT")).unwrap();
        for (step, why) in [
            (Step::Create("linked/x.ts", b"x"), "its folder resolves through a symlink to outside the repository"),
            (Step::Create("linked", b"x"), "it exists but is not a regular file inside the repository"),
            (Step::Create(".GIT/hooks/pre-commit", b"x"), "it is inside `.git`"),
            (Step::Delete("tools/none.ts"), "it does not exist"),
        ] {
            let failed = apply(&root, &[Step::Replace("beeuni.yaml", b"edited\n"), step]).unwrap_err();
            assert_eq!(failed.at, 1);
            assert!(failed.why.starts_with(why), "{}", failed.why);
            assert_eq!(std::fs::read_to_string(root.join("beeuni.yaml")).unwrap(), "tools: {}\n");
        }
        assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
        assert!(!root.join(".GIT/hooks").exists());
    }

    #[test]
    fn a_deleted_symlink_is_put_back_as_a_link() {
        let (_dir, root) = project();
        std::os::unix::fs::symlink("old.ts", root.join("tools/link.ts")).unwrap();
        let steps = [Step::Delete("tools/link.ts"), Step::Create("tools/b.ts", b"b")];
        let transaction = Transaction::prepare(&root, &steps).unwrap();
        std::fs::create_dir_all(root.join("tools/b.ts/inside")).unwrap();
        transaction.commit().unwrap_err();
        assert_eq!(std::fs::read_link(root.join("tools/link.ts")).unwrap(), Path::new("old.ts"));
        assert_eq!(std::fs::read_to_string(root.join("tools/old.ts")).unwrap(), "old");
    }
}
