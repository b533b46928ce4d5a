//! Safe reads: a file is read only when it resolves inside the repository,
//! is a regular file and is not too large. Nothing behind a symlink that
//! leaves the repository is ever opened.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fs;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

mod listings;
mod real;
pub use listings::{Listings, resolve_listed};
pub use real::RealPath;

/// Larger files are refused: a manifest or module this size is a mistake, and reading it would cost the run.
pub const MAX_FILE_BYTES: u64 = 32 * 1024 * 1024;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    NotFound,
    Directory,
    /// A FIFO, socket or device.
    NotRegular,
    /// A symlink (or `..`) that leads out of the repository.
    OutsideRepository,
    /// A path inside `.git` (a part named so, in any case, as git itself refuses it), directly or through a symlink:
    /// git's own files (its config, hooks, credentials helpers' settings) are never a source.
    GitFolder,
    TooLarge(u64),
    Io(String),
}

impl Refusal {
    pub fn describe(&self) -> String {
        match self {
            Refusal::NotFound => "does not exist".into(),
            Refusal::Directory => "is a folder, not a file".into(),
            Refusal::NotRegular => "is not a regular file (a FIFO, socket or device)".into(),
            Refusal::OutsideRepository => "resolves through a symlink to outside the repository".into(),
            Refusal::GitFolder => "is inside `.git`, git's own folder, which beeuni-lint never reads".into(),
            Refusal::TooLarge(size) => {
                format!("is {size} bytes, more than the {MAX_FILE_BYTES} bytes beeuni-lint reads")
            }
            Refusal::Io(message) => format!("cannot be read: {message}"),
        }
    }
}

/// Lexically normalises a repo-relative path (`./a/../b` → `b`); `None` when it climbs above the root.
pub fn normalize(rel: &str) -> Option<String> {
    normalized(rel).map(Cow::into_owned)
}

/// [`normalize`], borrowing a path in plain form (the usual case: every declared module, most imports), which is
/// its own normal form.
pub fn normalized(rel: &str) -> Option<Cow<'_, str>> {
    if is_plain(rel, true) {
        return Some(Cow::Borrowed(rel));
    }
    let mut parts: Vec<&str> = Vec::new();
    for component in Path::new(rel).components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::Normal(part) => parts.push(part.to_str()?),
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(Cow::Owned(parts.join("/")))
}

/// Do the parts of `rel` between `/`s hold no empty part, `.` or `..` (and, when `strict`, no `\` or `:`)? One pass
/// over its bytes: this runs for every declared module and import, where `split` costs several times as much.
pub fn is_plain(rel: &str, strict: bool) -> bool {
    plain_last_part(rel, strict).is_some()
}

/// Where the last part of a path in plain form starts, and its last `.` (byte offsets in `rel`), from the pass of
/// [`is_plain`] (`None` when the path is not in plain form): a declared module's extension costs no second search.
pub fn plain_last_part(rel: &str, strict: bool) -> Option<(usize, Option<usize>)> {
    // A part is `""`, `.` or `..` when all its bytes are dots and it has at most two: counting its bytes and its
    // dots decides that without looking back at the part.
    let bad = |len: usize, dots: usize| len == dots && len <= 2;
    let (mut len, mut dots, mut start, mut dot) = (0, 0, 0, None);
    for (at, &byte) in rel.as_bytes().iter().enumerate() {
        match byte {
            b'/' => {
                if bad(len, dots) {
                    return None;
                }
                (len, dots, start, dot) = (0, 0, at + 1, None);
            }
            b'.' => {
                (len, dots, dot) = (len + 1, dots + 1, Some(at));
            }
            b'\\' | b':' if strict => return None,
            _ => len += 1,
        }
    }
    (!bad(len, dots)).then_some((start, dot))
}

/// A repo-relative path's folder and name (the folder empty at the root), split at its last `/` by a byte search
/// (cheaper than a `char` one on these short paths, and it runs per module and per import).
pub fn split_folder(rel: &str) -> (&str, &str) {
    match rel.as_bytes().iter().rposition(|&b| b == b'/') {
        Some(at) => (&rel[..at], &rel[at + 1..]),
        None => ("", rel),
    }
}

/// Is one of the parts of this (relative) path `.git`, in any case? git refuses such paths (`.GIT` is the same
/// folder on a case-insensitive file system), and so does every source of a run.
pub fn in_git_folder(rel: &Path) -> bool {
    rel.components().any(|part| matches!(part, Component::Normal(name) if name.eq_ignore_ascii_case(".git")))
}

/// Canonical forms of the folders already resolved: a project names thousands of modules in a few folders,
/// and resolving each folder once saves a `readlink` per path component per module.
static FOLDERS: Mutex<Option<HashMap<PathBuf, Option<PathBuf>>>> = Mutex::new(None);

/// Forgets the folders resolved so far: a process that lives on (the language server) calls it when the disk
/// may have changed, so a folder created, removed or replaced by a symlink since is looked at again.
pub fn forget_folders() {
    let mut cache = FOLDERS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    *cache = None;
    super::folders::forget();
}

fn canonical_folder(folder: &Path) -> Option<PathBuf> {
    let mut cache = FOLDERS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let cache = cache.get_or_insert_with(HashMap::new);
    if let Some(known) = cache.get(folder) {
        return known.clone();
    }
    super::watch::note_identity(folder);
    let real = fs::canonicalize(folder).ok();
    cache.insert(folder.to_path_buf(), real.clone());
    real
}

/// Where a repo-relative path leads, checked without reading it.
pub fn resolve(root: &Path, rel: &str) -> Result<PathBuf, Refusal> {
    // As written, whether or not it exists (`.GIT` is `.git` on a file system that ignores case); `resolve_entry`
    // checks the real path too.
    if in_git_folder(Path::new(rel)) {
        return Err(Refusal::GitFolder);
    }
    resolve_entry(root, in_canonical_folder(root, rel)?)
}

/// A repo-relative path with its folder made canonical (its last part may still be a symlink).
fn in_canonical_folder(root: &Path, rel: &str) -> Result<PathBuf, Refusal> {
    let joined = root.join(rel);
    let (Some(folder), Some(name)) = (joined.parent(), joined.file_name()) else {
        return Err(Refusal::NotFound);
    };
    Ok(canonical_folder(folder).ok_or(Refusal::NotFound)?.join(name))
}

/// [`resolve`] of `real` (a canonical folder joined with a name), from one `lstat` of it.
fn resolve_entry(root: &Path, real: PathBuf) -> Result<PathBuf, Refusal> {
    super::watch::note(&real);
    let (real, meta) = match fs::symlink_metadata(&real) {
        Ok(meta) if meta.file_type().is_symlink() => match fs::canonicalize(&real) {
            Ok(target) => {
                let meta = fs::metadata(&target).map_err(|e| Refusal::Io(e.to_string()))?;
                (target, meta)
            }
            Err(_) => return Err(Refusal::NotFound),
        },
        Ok(meta) => (real, meta),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(Refusal::NotFound),
        Err(e) => return Err(Refusal::Io(e.to_string())),
    };
    if !real.starts_with(root) {
        return Err(Refusal::OutsideRepository);
    }
    if real.strip_prefix(root).is_ok_and(in_git_folder) {
        return Err(Refusal::GitFolder);
    }
    if meta.is_dir() {
        return Err(Refusal::Directory);
    }
    if !meta.is_file() {
        return Err(Refusal::NotRegular);
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(Refusal::TooLarge(meta.len()));
    }
    Ok(real)
}

/// Reads a repo-relative file after [`resolve`] accepted it.
pub fn read(root: &Path, rel: &str) -> Result<Vec<u8>, Refusal> {
    read_resolved(&resolve(root, rel)?)
}

/// Reads a path [`resolve`] returned.
pub fn read_resolved(real: &Path) -> Result<Vec<u8>, Refusal> {
    read_with_metadata(real).map(|(bytes, _)| bytes)
}

/// Reads a path [`resolve`] returned with one `open`, one `fstat` and (as a rule) one `read` into a buffer sized
/// from the `fstat`; also returns that metadata, from which the index can tell the file unchanged since staged.
pub fn read_with_metadata(real: &Path) -> Result<(Vec<u8>, gix::index::fs::Metadata), Refusal> {
    let mut bytes = Vec::new();
    let admitted = read_into_admitted(real, &mut bytes, |_| true)?;
    #[allow(clippy::expect_used, reason = "`None` only for a size `admit` refuses, and it refuses none")]
    Ok((bytes, admitted.expect("every size is admitted")))
}

/// [`read_resolved`], reading only when `admit` accepts the file's size (the `fstat`'s, before a byte is read):
/// `Ok(None)` when it does not.
pub fn read_resolved_admitted(real: &Path, admit: impl FnOnce(u64) -> bool) -> Result<Option<Vec<u8>>, Refusal> {
    let mut bytes = Vec::new();
    Ok(read_into_admitted(real, &mut bytes, admit)?.map(|_| bytes))
}

/// [`read_resolved_admitted`] into `bytes` (emptied first), whose room a file read before may have left: the
/// analysis threads read every module into the buffer of one let go before it. Also returns the file's metadata, from
/// which the index can tell the file unchanged since staged.
pub fn read_into_admitted(
    real: &Path,
    bytes: &mut Vec<u8>,
    admit: impl FnOnce(u64) -> bool,
) -> Result<Option<gix::index::fs::Metadata>, Refusal> {
    use std::io::Read;
    let io = |e: std::io::Error| Refusal::Io(e.to_string());
    let file = super::folders::open(real).map_err(|error| {
        super::watch::note(real);
        io(error)
    })?;
    let metadata = gix::index::fs::Metadata::from_file(&file).map_err(io)?;
    super::watch::note_read(real, &metadata);
    if metadata.len() > MAX_FILE_BYTES {
        return Err(Refusal::TooLarge(metadata.len()));
    }
    if !admit(metadata.len()) {
        return Ok(None);
    }
    bytes.clear();
    bytes.reserve(metadata.len() as usize);
    // Stop at the size `fstat` gave: a file that changes while it is read gives one version or another, never a run
    // that does not end; `take` answers the end-of-file probe at that size without another `read`.
    file.take(metadata.len()).read_to_end(bytes).map_err(io)?;
    Ok(Some(metadata))
}

/// Does a repo-relative path exist inside the repository as a regular file?
pub fn is_file(root: &Path, rel: &str) -> bool {
    resolve(root, rel).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes_and_refuses_escapes() {
        assert_eq!(normalize("./a/../b/c.yaml").as_deref(), Some("b/c.yaml"));
        assert_eq!(normalize("config/../x.yaml").as_deref(), Some("x.yaml"));
        assert_eq!(normalize("../x.yaml"), None);
        assert_eq!(normalize("/etc/passwd"), None);
        assert_eq!(normalize("tools/x.ts").as_deref(), Some("tools/x.ts"));
        assert_eq!(normalize("tools//x.ts/").as_deref(), Some("tools/x.ts"));
        assert_eq!(normalize("").as_deref(), Some(""));
        assert_eq!(normalize("a/./b/..").as_deref(), Some("a"));
    }

    /// The one pass answers as splitting at `/` does, on every path of up to six bytes over the bytes that matter.
    #[test]
    fn the_one_pass_agrees_with_splitting() {
        let alphabet = [b'a', b'.', b'/', b'\\', b':'];
        let mut paths = vec![String::new()];
        for len in 1..=6 {
            let shorter: Vec<String> = paths.iter().filter(|p| p.len() == len - 1).cloned().collect();
            paths.extend(shorter.iter().flat_map(|p| alphabet.iter().map(move |&b| format!("{p}{}", b as char))));
        }
        for path in &paths {
            for strict in [false, true] {
                let parts_ok = path.split('/').all(|part| !matches!(part, "" | "." | ".."));
                let expected = parts_ok && !(strict && (path.contains('\\') || path.contains(':')));
                assert_eq!(is_plain(path, strict), expected, "{path:?} strict {strict}");
                if let Some((start, dot)) = plain_last_part(path, strict) {
                    let name = split_folder(path).1;
                    assert_eq!(&path[start..], name, "{path:?}");
                    assert_eq!(dot.map(|dot| dot - start), name.rfind('.'), "{path:?}");
                }
            }
        }
    }

    #[cfg(unix)]
    #[test]
    fn refuses_symlinks_out_of_the_root_and_fifos() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.yaml"), "s: 1").unwrap();
        let repo = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(repo.path()).unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret.yaml"), root.join("link.yaml")).unwrap();
        assert_eq!(read(&root, "link.yaml"), Err(Refusal::OutsideRepository));
        std::fs::create_dir(root.join("dir")).unwrap();
        assert_eq!(read(&root, "dir"), Err(Refusal::Directory));
        assert_eq!(read(&root, "none.yaml"), Err(Refusal::NotFound));
        let fifo = root.join("fifo");
        let status = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(status.success());
        assert_eq!(read(&root, "fifo"), Err(Refusal::NotRegular));
    }
}
