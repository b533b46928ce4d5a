//! Files reached through a handle of their folder: the modules a run reads or looks at sit in a few folders, and a
//! path the kernel walks from `/` costs a lookup and a permission check per component. Each thread keeps a handle
//! (`O_PATH`) of each canonical folder it has used, and opens or `lstat`s a file there by its name alone (2,000
//! `lstat`s of files six components deep: 2.46 ms by absolute path, 1.92 ms by folder handle and name).
//!
//! A handle is the folder as it was when opened: like the canonical folders of [`super::fs`], the handles are kept
//! while the disk is taken as unchanged, and [`super::fs::forget_folders`] lets them go.

use crate::lookup::PositionTable;
use gix::index::entry::{Stat, stat::Time};
use std::path::Path;

/// git's stat data of `real` itself (a symlink is not followed): what the index compares to tell a file
/// unchanged since staged.
pub fn stat_no_follow(real: &Path) -> std::io::Result<Stat> {
    super::watch::note(real);
    imp::stat_no_follow(real)
}

/// Opens `real` for reading, as [`std::fs::File::open`] does. (Not noted for a replay: its one caller,
/// [`super::fs::read_into_admitted`], notes what it opened, or the path that would not open.)
pub fn open(real: &Path) -> std::io::Result<std::fs::File> {
    imp::open(real)
}

/// What a folder's listing says an entry is (without an `lstat`). `Other`: a symlink, a FIFO or device, or a kind
/// the file system does not tell in its listings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    File,
    Folder,
    Other,
}

/// A folder's entries by name (`.` and `..` aside); `None` when it cannot be listed whole.
pub fn list(folder: &Path) -> Option<Names> {
    super::watch::note(folder);
    let mut names = Names { bytes: Vec::new(), entries: Vec::new(), table: PositionTable::new(0, |_| &[]) };
    imp::entries(folder, |name, kind| {
        names.bytes.extend_from_slice(name);
        names.entries.push((u32::try_from(names.bytes.len()).ok()?, kind));
        Some(())
    })?;
    let Names { bytes, entries, .. } = &names;
    names.table = PositionTable::new(entries.len(), |at| name_at(bytes, entries, at));
    Some(names)
}

/// A folder's entries: their names one after the other in one buffer, found by a [`PositionTable`] of them. An
/// allocation, a UTF-8 check and a map entry per name were most of the cost of listing a folder of 20,000 modules.
/// A name that is not UTF-8 is kept as its bytes, and no name asked (a `&str`) can equal it.
pub struct Names {
    bytes: Vec<u8>,
    /// Where each name ends in `bytes` (it starts where the one before ends), and its kind.
    entries: Vec<(u32, Kind)>,
    table: PositionTable,
}

fn name_at<'n>(bytes: &'n [u8], entries: &[(u32, Kind)], at: usize) -> &'n [u8] {
    let start = at.checked_sub(1).map_or(0, |before| entries[before].0 as usize);
    bytes.get(start..entries[at].0 as usize).unwrap_or_default()
}

impl Names {
    /// What the entry `name` is, if there is one.
    pub fn get(&self, name: &str) -> Option<Kind> {
        let (bytes, entries) = (&self.bytes, &self.entries);
        let at = self.table.find(name.as_bytes(), |at| name_at(bytes, entries, at))?;
        Some(entries[at].1)
    }
}

/// Lets every thread's handles go when it next uses one (the disk may have changed).
pub fn forget() {
    imp::forget();
}

/// A time as git's index keeps it (seconds modulo 2^32); before 1970, or out of range, the zero time, as gix gives it.
fn git_time(secs: impl TryInto<u64>, nanos: impl TryInto<u32>) -> Time {
    match (secs.try_into(), nanos.try_into()) {
        // Truncation to 32 bits is on purpose: git keeps and compares the low bits.
        (Ok(secs), Ok(nsecs)) if nsecs < 1_000_000_000 => Time { secs: secs as u32, nsecs },
        _ => Time::default(),
    }
}

#[cfg(target_os = "linux")]
mod imp {
    use super::{Kind, Stat, git_time};
    use rustc_hash::FxHashMap;
    use rustix::fs::{AtFlags, FileType, Mode, OFlags};
    use std::cell::RefCell;
    use std::mem::MaybeUninit;
    use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;
    use std::sync::atomic::{AtomicU64, Ordering};

    /// Bumped by [`forget`]: a thread whose handles are of an older generation closes them first.
    static GENERATION: AtomicU64 = AtomicU64::new(0);

    #[derive(Default)]
    struct Handles {
        generation: u64,
        /// By canonical folder; `None` when it could not be opened (the file is then reached by its whole path).
        /// Keyed by the folder's bytes: a `Path` key hashes and compares component by component.
        folders: FxHashMap<Box<[u8]>, Option<OwnedFd>>,
    }

    thread_local! {
        static HANDLES: RefCell<Handles> = RefCell::default();
    }

    pub fn forget() {
        GENERATION.fetch_add(1, Ordering::Relaxed);
    }

    /// Calls `at` with a handle of `real`'s folder and its file name, or `whole` with `real` when there is none.
    fn in_folder<T>(
        real: &Path,
        at: impl FnOnce(BorrowedFd<'_>, &std::ffi::OsStr) -> T,
        whole: impl FnOnce(&Path) -> T,
    ) -> T {
        // Split at the last `/` by a byte search from the end (over the name only): `Path::parent` and `file_name`
        // parse the whole path into components, and with the `Path` key's hashing they cost ~1,000 instructions
        // per module, more than the rest of a warm module's `stat`. A canonical path is absolute and plain; any
        // other form (no `/`, a last part empty, `.` or `..`) is reached by its whole path.
        let bytes = real.as_os_str().as_bytes();
        let Some(slash) = bytes.iter().rposition(|&b| b == b'/') else { return whole(real) };
        // `/name` is in the root folder, `/`.
        let (folder, name) = (&bytes[..slash.max(1)], &bytes[slash + 1..]);
        if matches!(name, b"" | b"." | b"..") {
            return whole(real);
        }
        let name = std::ffi::OsStr::from_bytes(name);
        HANDLES.with(|handles| {
            let mut handles = handles.borrow_mut();
            let generation = GENERATION.load(Ordering::Relaxed);
            if handles.generation != generation {
                *handles = Handles { generation, folders: FxHashMap::default() };
            }
            let handle = match handles.folders.get(folder) {
                Some(handle) => handle,
                None => {
                    let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
                    let handle = rustix::fs::open(std::ffi::OsStr::from_bytes(folder), flags, Mode::empty()).ok();
                    handles.folders.entry(folder.into()).or_insert(handle)
                }
            };
            match handle {
                Some(handle) => at(handle.as_fd(), name),
                None => whole(real),
            }
        })
    }

    pub fn stat_no_follow(real: &Path) -> std::io::Result<Stat> {
        let stat = in_folder(
            real,
            |folder, name| rustix::fs::statat(folder, name, AtFlags::SYMLINK_NOFOLLOW),
            |real| rustix::fs::lstat(real),
        )?;
        Ok(Stat {
            mtime: git_time(stat.st_mtime, stat.st_mtime_nsec),
            ctime: git_time(stat.st_ctime, stat.st_ctime_nsec),
            // Truncated as git (and gix) truncate them: only the low bits are compared.
            dev: stat.st_dev as u32,
            ino: stat.st_ino as u32,
            uid: stat.st_uid,
            gid: stat.st_gid,
            size: stat.st_size as u32,
        })
    }

    /// Read with `getdents64` into one buffer, each name borrowed from it while `found` takes it (`std::fs::read_dir`
    /// allocates a copy of every name for its entry); `None` when the folder cannot be read whole or `found` says so.
    pub fn entries(folder: &Path, mut found: impl FnMut(&[u8], Kind) -> Option<()>) -> Option<()> {
        let handle =
            rustix::fs::open(folder, OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC, Mode::empty()).ok()?;
        let mut buffer = vec![MaybeUninit::<u8>::uninit(); 32 * 1024];
        let mut entries = rustix::fs::RawDir::new(&handle, &mut buffer);
        while let Some(entry) = entries.next() {
            let entry = entry.ok()?;
            let name = entry.file_name().to_bytes();
            if name == b"." || name == b".." {
                continue;
            }
            let kind = match entry.file_type() {
                FileType::RegularFile => Kind::File,
                FileType::Directory => Kind::Folder,
                _ => Kind::Other,
            };
            found(name, kind)?;
        }
        Some(())
    }

    pub fn open(real: &Path) -> std::io::Result<std::fs::File> {
        in_folder(
            real,
            |folder, name| {
                let file = rustix::fs::openat(folder, name, OFlags::RDONLY | OFlags::CLOEXEC, Mode::empty())?;
                Ok(std::fs::File::from(file))
            },
            |real| std::fs::File::open(real),
        )
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    use super::{Kind, Stat};
    use std::path::Path;

    pub fn forget() {}

    pub fn entries(folder: &Path, mut found: impl FnMut(&[u8], Kind) -> Option<()>) -> Option<()> {
        for entry in std::fs::read_dir(folder).ok()? {
            let entry = entry.ok()?;
            // A name that is not UTF-8 cannot be asked for (see [`super::Names`]).
            let Some(name) = entry.file_name().to_str().map(|name| name.as_bytes().to_vec()) else { continue };
            let kind = match entry.file_type().ok()? {
                kind if kind.is_file() => Kind::File,
                kind if kind.is_dir() => Kind::Folder,
                _ => Kind::Other,
            };
            found(&name, kind)?;
        }
        Some(())
    }

    pub fn stat_no_follow(real: &Path) -> std::io::Result<Stat> {
        let metadata = gix::index::fs::Metadata::from_path_no_follow(real)?;
        Stat::from_fs(&metadata).map_err(std::io::Error::other)
    }

    pub fn open(real: &Path) -> std::io::Result<std::fs::File> {
        std::fs::File::open(real)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_data_is_what_gix_reads_and_a_file_opens_through_its_folder() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir(root.join("tools")).unwrap();
        let file = root.join("tools/a.ts");
        std::fs::write(&file, "export {}\n").unwrap();
        let metadata = gix::index::fs::Metadata::from_path_no_follow(&file).unwrap();
        assert_eq!(stat_no_follow(&file).unwrap(), Stat::from_fs(&metadata).unwrap());
        assert_eq!(std::io::read_to_string(open(&file).unwrap()).unwrap(), "export {}\n");
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("a.ts", root.join("tools/link.ts")).unwrap();
            let link = gix::index::fs::Metadata::from_path_no_follow(&root.join("tools/link.ts")).unwrap();
            assert_eq!(stat_no_follow(&root.join("tools/link.ts")).unwrap(), Stat::from_fs(&link).unwrap());
        }
        assert!(stat_no_follow(&root.join("tools/none.ts")).is_err() && open(&root.join("none/a.ts")).is_err());
    }

    #[test]
    fn a_folder_replaced_is_seen_again_once_forgotten() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir(root.join("tools")).unwrap();
        std::fs::write(root.join("tools/a.ts"), "old").unwrap();
        assert_eq!(std::io::read_to_string(open(&root.join("tools/a.ts")).unwrap()).unwrap(), "old");
        std::fs::rename(root.join("tools"), root.join("was")).unwrap();
        std::fs::create_dir(root.join("tools")).unwrap();
        std::fs::write(root.join("tools/a.ts"), "new").unwrap();
        forget();
        assert_eq!(std::io::read_to_string(open(&root.join("tools/a.ts")).unwrap()).unwrap(), "new");
    }

    #[test]
    fn a_listing_tells_files_folders_and_the_rest_and_finds_no_other_name() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join("a.ts"), "").unwrap();
        std::fs::create_dir(root.join("sub")).unwrap();
        let names: Vec<String> = (0..300).map(|n| format!("m{n}.ts")).collect();
        for name in &names {
            std::fs::write(root.join(name), "").unwrap();
        }
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            std::os::unix::fs::symlink("a.ts", root.join("link.ts")).unwrap();
            std::fs::write(root.join(std::ffi::OsStr::from_bytes(b"bad\xff.ts")), "").unwrap();
        }
        let listed = list(root).unwrap();
        assert_eq!((listed.get("a.ts"), listed.get("sub")), (Some(Kind::File), Some(Kind::Folder)));
        assert!(names.iter().all(|name| listed.get(name) == Some(Kind::File)));
        assert_eq!(listed.get("link.ts"), cfg!(unix).then_some(Kind::Other));
        for absent in ["", ".", "..", "b.ts", "a.t", "a.tsx", "m300.ts", "bad\u{fffd}.ts", "bad"] {
            assert_eq!(listed.get(absent), None, "{absent}");
        }
        assert!(list(&root.join("none")).is_none());
    }

    #[test]
    fn git_times_are_kept_modulo_2_32_and_none_before_1970() {
        assert_eq!(git_time(5_000_000_000_i64, 7_u32), Time { secs: 705_032_704, nsecs: 7 });
        assert_eq!(git_time(-1_i64, 0_u32), Time::default());
        assert_eq!(git_time(1_i64, 1_000_000_000_u32), Time::default());
    }
}
