//! Folder listings that answer [`resolve`](super::resolve) for a run: one `getdents` a folder in place of an
//! `lstat` a file, with the `lstat`s a listing cannot spare remembered by path.

use super::{RealPath, Refusal, canonical_folder, in_git_folder, is_plain, resolve, resolve_entry, split_folder};
use crate::repo::folders::{self, Kind};
use rustc_hash::FxHashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

/// The folders of one run, each listed once: one `getdents` answers for every file in it, where [`resolve`] costs
/// an `lstat` per file (a project names thousands of modules in a few folders). A listing is a snapshot: keep
/// one only while the disk is taken as unchanged (one run). With the root the paths it answers are below, and
/// the answers of the `lstat`s a listing could not spare, by repo-relative path (the loader asks about each
/// manifest file three times: 159 `statx` on the main thread at 2,000 modules, where 53 tell the same).
/// Behind one lock, taken once per path looked up (the model is shared by the threads that run the rules).
#[derive(Default)]
pub struct Listings(Mutex<Listed>);

#[derive(Default)]
struct Listed {
    /// Each folder listed (`None` when it cannot be listed), and its repo-relative path with its `/` (see
    /// [`resolve_listed`]).
    folders: Vec<(String, Option<Listing>)>,
    /// Places in `folders` by repo-relative folder with its `/`.
    by_folder: FxHashMap<String, usize>,
    /// The place of the folder looked up last: manifests list their modules folder by folder, and comparing the
    /// folder with it spares hashing it and probing the map for nearly every path.
    last: usize,
    /// The answers of the `lstat`s no listing could spare, by repo-relative path.
    resolved: FxHashMap<String, Result<RealPath, Refusal>>,
    /// The root the paths found are below, shared by them.
    root: Option<Arc<PathBuf>>,
}

/// [`resolve_entry`] of `real` (at repo-relative `rel`), once per run: `resolved` holds the answers so far.
fn resolve_entry_once(
    resolved: &mut FxHashMap<String, Result<RealPath, Refusal>>,
    root: &Arc<PathBuf>,
    rel: &str,
    real: impl FnOnce() -> PathBuf,
) -> Result<RealPath, Refusal> {
    if let Some(known) = resolved.get(rel) {
        return known.clone();
    }
    let answer = resolve_entry(root, real()).map(|real| RealPath::new(root, real));
    resolved.insert(rel.to_string(), answer.clone());
    answer
}

/// A folder's canonical path and its entries by name (`None` when it cannot be listed, or is refused).
struct Listing {
    real: PathBuf,
    /// Why nothing in it is looked at: it is outside the root (a symlink on the way leads out) or in `.git`. Such a
    /// folder is neither listed nor has any entry `lstat`ed.
    refused: Option<Refusal>,
    /// `real` below the root, with the platform's separator after it unless empty (when inside and in UTF-8):
    /// with a name after it, the text [`RealPath::new`] keeps of the file's path (`\` between parts on Windows),
    /// so that a file listed and a file looked up compare equal.
    below: Option<String>,
    names: Option<folders::Names>,
}

impl Listing {
    fn of(root: &Path, folder: &str) -> Option<Listing> {
        // As written, whether or not it exists (`.GIT` is `.git` on a file system that ignores case).
        if in_git_folder(Path::new(folder)) {
            return Some(Listing {
                real: root.join(folder),
                refused: Some(Refusal::GitFolder),
                below: None,
                names: None,
            });
        }
        let real = canonical_folder(&root.join(folder))?;
        let refused = match real.strip_prefix(root) {
            Err(_) => Some(Refusal::OutsideRepository),
            Ok(below) if in_git_folder(below) => Some(Refusal::GitFolder),
            Ok(_) => None,
        };
        let names = if refused.is_none() { folders::list(&real) } else { None };
        let below = real.strip_prefix(root).ok().and_then(Path::to_str).map(str::to_string);
        let below = below.map(|below| if below.is_empty() { below } else { below + std::path::MAIN_SEPARATOR_STR });
        Some(Listing { real, refused, below, names })
    }
}

/// [`resolve`], answered from the folder's listing where it can be: a name the listing lacks does not exist, a
/// folder is a folder, and a regular file is accepted without an `lstat` when `within_limit` vouches for its size
/// (the git index's record of it). Symlinks, other kinds, files of unknown size and paths not in plain form
/// (`./`, `..`, empty parts) take [`resolve`]'s way.
pub fn resolve_listed(
    root: &Path,
    rel: &str,
    listings: &Listings,
    within_limit: impl FnOnce() -> bool,
) -> Result<RealPath, Refusal> {
    let (folder, name) = split_folder(rel);
    // The folder as written, with its `/` (`""` for a path with none): the key a listing is remembered by. A path
    // is in plain form when its name is one plain part and its folder is plain (or it has none); the folder is
    // checked once per change of folder, not once per path (manifests list their modules folder by folder).
    let prefix = &rel[..rel.len() - name.len()];
    let mut listed = listings.0.lock().unwrap_or_else(PoisonError::into_inner);
    let Listed { folders, by_folder, last, resolved, root: shared } = &mut *listed;
    let shared = match shared {
        Some(shared) if shared.as_path() == root => shared.clone(),
        _ => shared.insert(Arc::new(root.to_path_buf())).clone(),
    };
    if matches!(name, "" | "." | "..") {
        drop(listed);
        return resolve(root, rel).map(|real| RealPath::new(&shared, real));
    }
    if folders.get(*last).is_none_or(|(listed, _)| listed != prefix) {
        if !(prefix.is_empty() || is_plain(folder, false)) {
            drop(listed);
            return resolve(root, rel).map(|real| RealPath::new(&shared, real));
        }
        *last = match by_folder.get(prefix) {
            Some(&at) => at,
            None => {
                folders.push((prefix.to_string(), Listing::of(root, folder)));
                by_folder.insert(prefix.to_string(), folders.len() - 1);
                folders.len() - 1
            }
        };
    }
    let Some(listing) = folders.get(*last).and_then(|(_, listing)| listing.as_ref()) else {
        return Err(Refusal::NotFound);
    };
    if let Some(refusal) = &listing.refused {
        return Err(refusal.clone());
    }
    if name.eq_ignore_ascii_case(".git") {
        return Err(Refusal::GitFolder);
    }
    let Some(names) = &listing.names else {
        return resolve_entry_once(resolved, &shared, rel, || listing.real.join(name));
    };
    match names.get(name) {
        None => Err(Refusal::NotFound),
        Some(kind @ (Kind::File | Kind::Folder)) => {
            // A plain name in a folder inside the root is inside the root (only such folders are listed).
            if kind == Kind::Folder {
                Err(Refusal::Directory)
            } else if within_limit() {
                // The listing's folder below the root, and the name (a plain part): no path is built.
                Ok(match &listing.below {
                    Some(folder) => {
                        let mut below = compact_str::CompactString::with_capacity(folder.len() + name.len());
                        below.push_str(folder);
                        below.push_str(name);
                        RealPath::Below(shared, below)
                    }
                    None => RealPath::new(&shared, listing.real.join(name)),
                })
            } else {
                resolve_entry_once(resolved, &shared, rel, || listing.real.join(name))
            }
        }
        Some(Kind::Other) => resolve_entry_once(resolved, &shared, rel, || listing.real.join(name)),
    }
}

#[cfg(test)]
mod tests {
    use super::super::MAX_FILE_BYTES;
    use super::*;
    use std::fs;

    #[cfg(unix)]
    #[test]
    fn listings_answer_as_lstat_does() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.ts"), "").unwrap();
        let repo = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(repo.path()).unwrap();
        std::fs::create_dir_all(root.join("tools/sub")).unwrap();
        std::fs::write(root.join("tools/a.ts"), "export {}").unwrap();
        std::fs::write(root.join("top.ts"), "export {}").unwrap();
        std::os::unix::fs::symlink("a.ts", root.join("tools/in.ts")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret.ts"), root.join("tools/out.ts")).unwrap();
        std::fs::File::create(root.join("tools/big.ts")).unwrap().set_len(MAX_FILE_BYTES + 1).unwrap();
        let listings = Listings::default();
        for rel in [
            "tools/a.ts",
            "tools/in.ts",
            "tools/out.ts",
            "tools/sub",
            "tools/none.ts",
            "none/a.ts",
            "tools/big.ts",
            "top.ts",
        ] {
            let listed = resolve_listed(&root, rel, &listings, || false).map(|real| real.path().into_owned());
            assert_eq!(listed, resolve(&root, rel), "{rel}");
        }
        assert_eq!(resolve(&root, "tools/big.ts"), Err(Refusal::TooLarge(MAX_FILE_BYTES + 1)));
        // A size the index vouches for spares the `lstat`.
        // From one folder to another and back (the folder looked up last is remembered), the root's files too.
        for rel in ["tools/a.ts", "top.ts", "tools/a.ts", "tools/sub/none.ts", "top.ts"] {
            let real = resolve_listed(&root, rel, &listings, || true).map(|real| real.path().into_owned());
            assert_eq!(real, resolve(&root, rel), "{rel}");
        }
        // Paths not in plain form take `resolve`'s way, whichever folder was looked up before them.
        let forms = ["./tools/a.ts", "tools//a.ts", "tools/./a.ts", "/top.ts", "tools/../top.ts", "tools/", "tools/."];
        let more = ["tools/..", "", ".", "..", "./top.ts", "sub/../tools/a.ts", "tools/sub/../a.ts", "tools/sub//"];
        for rel in forms.iter().chain(&more) {
            for before in ["tools/a.ts", "top.ts", "tools/sub/x.ts"] {
                let _ = resolve_listed(&root, before, &listings, || true);
                let real = resolve_listed(&root, rel, &listings, || true).map(|real| real.path().into_owned());
                assert_eq!(real, resolve(&root, rel), "{rel} after {before}");
            }
        }
        // One file is one path however it was reached: listed, by `lstat`, through a symlink (the manifest loader
        // tells files apart by it).
        let listed = resolve_listed(&root, "tools/a.ts", &listings, || true).unwrap();
        assert_eq!(listed, RealPath::Below(Arc::new(root.clone()), "tools/a.ts".into()));
        for rel in ["tools/a.ts", "./tools/a.ts", "tools/in.ts", "tools/sub/../a.ts"] {
            assert_eq!(resolve_listed(&root, rel, &listings, || false), Ok(listed.clone()), "{rel}");
        }
        // A folder a symlink takes out of the root, and `.git` (in any case, directly or through a link), are refused
        // without being listed.
        std::os::unix::fs::symlink(outside.path(), root.join("linked")).unwrap();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::write(root.join(".git/config"), "[core]").unwrap();
        std::os::unix::fs::symlink(".git/config", root.join("config.yaml")).unwrap();
        // Listed again: the listings so far are of the disk as it was.
        let listings = Listings::default();
        for (rel, refusal) in [
            ("linked/secret.ts", Refusal::OutsideRepository),
            ("linked/none.ts", Refusal::OutsideRepository),
            (".git/config", Refusal::GitFolder),
            (".Git/config", Refusal::GitFolder),
            (".git", Refusal::GitFolder),
            ("config.yaml", Refusal::GitFolder),
        ] {
            assert_eq!(resolve_listed(&root, rel, &listings, || true), Err(refusal.clone()), "{rel}");
            assert_eq!(resolve(&root, rel).map_err(|_| ()), Err(()), "{rel}");
        }
        let root_itself = RealPath::new(&Arc::new(root.clone()), root.clone());
        assert!(matches!(&root_itself, RealPath::Whole(whole) if **whole == *root), "{root_itself:?}");
    }
}
