//! A resolved file's path, kept as the shared root and the part below it.

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A work-tree file's real path (symlinks followed, inside the repository), as [`resolve_listed`](super::resolve_listed) found it. A run
/// keeps one for every module (its declaration's and its file's, to read it again): the root, shared, and the part
/// below it, inline up to 24 bytes, where an absolute path of its own cost an allocation of 80 bytes a module (1.6
/// MB at the 20k bench's peak).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RealPath {
    /// Below the (canonical) root: the root, and the path below it.
    Below(Arc<PathBuf>, compact_str::CompactString),
    /// Anywhere else (a symlink's target outside the project root).
    Whole(Arc<Path>),
}

impl RealPath {
    /// `real` as found by a checkout at `root`: one path has one form, so that the same file compares equal however
    /// it was reached. Below the root that is the text `strip_prefix` leaves, the platform's separator between parts,
    /// as a folder's listing builds it too.
    pub fn new(root: &Arc<PathBuf>, real: PathBuf) -> RealPath {
        match real.strip_prefix(root.as_path()).ok().and_then(Path::to_str) {
            Some(below) if !below.is_empty() => RealPath::Below(root.clone(), below.into()),
            _ => RealPath::Whole(real.into()),
        }
    }

    /// The path, to open or look at.
    pub fn path(&self) -> Cow<'_, Path> {
        match self {
            RealPath::Below(root, below) => {
                // Joined as text, sized once: `below` is relative and plain (what `strip_prefix` left of a canonical
                // path), so `Path::join`'s checks come down to the separator, and they cost ~750 instructions a path
                // (a warm run builds one per module, for its `stat`).
                let root = root.as_os_str();
                let mut joined = std::ffi::OsString::with_capacity(root.len() + 1 + below.len());
                joined.push(root);
                if !root.as_encoded_bytes().last().is_some_and(|&b| std::path::is_separator(b.into())) {
                    joined.push(std::path::MAIN_SEPARATOR_STR);
                }
                joined.push(below.as_str());
                Cow::Owned(PathBuf::from(joined))
            }
            RealPath::Whole(real) => Cow::Borrowed(real),
        }
    }
}

/// Tests' shorthand only: it always builds the `Whole` form, which compares unequal to the `Below` form
/// [`RealPath::new`] gives a path below the root (the manifest's visited map relies on one form per file).
#[cfg(test)]
impl From<PathBuf> for RealPath {
    fn from(real: PathBuf) -> RealPath {
        RealPath::Whole(real.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_real_path_below_the_root_is_the_root_joined_with_it() {
        for (root, real) in [("/repo/x", "/repo/x/tools/a.ts"), ("/", "/a.ts"), ("/repo", "/repo/ü/b c.ts")] {
            let root = Arc::new(PathBuf::from(root));
            let path = RealPath::new(&root, PathBuf::from(real));
            assert!(matches!(path, RealPath::Below(..)), "{real}");
            assert_eq!(path.path().as_os_str(), Path::new(real).as_os_str(), "{real}");
        }
    }

    /// A file below nested folders has one form, listed or looked up (the manifest loader tells files apart by it):
    /// the same separators between all of its parts, the platform's.
    #[test]
    fn a_nested_file_is_one_real_path_listed_or_looked_up() {
        use super::super::{Listings, resolve_listed};
        let repo = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(repo.path()).unwrap();
        std::fs::create_dir_all(root.join("tools/sub/deep")).unwrap();
        std::fs::write(root.join("tools/sub/deep/a.ts"), "export {}").unwrap();
        let rel = "tools/sub/deep/a.ts";
        let listed = resolve_listed(&root, rel, &Listings::default(), || true).unwrap();
        let looked_up = resolve_listed(&root, rel, &Listings::default(), || false).unwrap();
        let built = RealPath::new(&Arc::new(root.clone()), root.join("tools").join("sub").join("deep").join("a.ts"));
        let sep = std::path::MAIN_SEPARATOR;
        let below = format!("tools{sep}sub{sep}deep{sep}a.ts");
        assert_eq!(listed, RealPath::Below(Arc::new(root.clone()), below.as_str().into()));
        assert_eq!(looked_up, listed);
        assert_eq!(built, listed);
        assert_eq!(listed.path(), root.join("tools").join("sub").join("deep").join("a.ts"));
    }
}
