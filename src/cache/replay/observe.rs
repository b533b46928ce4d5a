//! What a path answers: its `lstat` data as a record holds it, looked at through a handle of its folder, or taken
//! from the `fstat` of the file when the run read it.

use crate::repo::watch::{Found, Look};
use std::path::Path;
use std::time::{Duration, SystemTime};

/// What a path answered: its `lstat` data (and, for a link looked at whole, its target's) as bytes to compare.
pub(super) struct Observed {
    bytes: [u8; OBSERVED],
    len: usize,
}

/// A link's `lstat` and its target's `stat`, each a present byte and eight numbers of eight bytes.
const OBSERVED: usize = 2 * (1 + 8 * 8);

impl Observed {
    pub(super) fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    fn push(&mut self, bytes: &[u8]) {
        self.bytes[self.len..self.len + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
    }
}

/// The folder of the path looked at last, and a handle of it: the paths come sorted, most of them in a few
/// folders, and an `lstat` by folder handle and name spares the kernel a lookup of every part of the path (git's
/// own are relative to the top of the work tree).
#[derive(Default)]
pub(super) struct Folder {
    #[cfg(target_os = "linux")]
    path: Vec<u8>,
    #[cfg(target_os = "linux")]
    handle: Option<rustix::fd::OwnedFd>,
}

impl Folder {
    /// `lstat` of `path` (`stat` when `follow`), through the handle of its folder when there is one: the same answer
    /// (the handle is the folder as `path`'s own lookup would reach it, links on the way followed).
    #[cfg(unix)]
    fn stat(&mut self, path: &Path, follow: bool) -> rustix::io::Result<rustix::fs::Stat> {
        #[cfg(target_os = "linux")]
        {
            use rustix::fs::{AtFlags, Mode, OFlags};
            use std::os::unix::ffi::OsStrExt;
            let bytes = path.as_os_str().as_bytes();
            if let Some(slash) = bytes.iter().rposition(|&b| b == b'/') {
                let (folder, name) = (&bytes[..slash.max(1)], &bytes[slash + 1..]);
                if !matches!(name, b"" | b"." | b"..") {
                    if self.path != folder {
                        self.path = folder.to_vec();
                        let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
                        self.handle = rustix::fs::open(std::ffi::OsStr::from_bytes(folder), flags, Mode::empty()).ok();
                    }
                    if let Some(handle) = &self.handle {
                        let flags = if follow { AtFlags::empty() } else { AtFlags::SYMLINK_NOFOLLOW };
                        return rustix::fs::statat(handle, std::ffi::OsStr::from_bytes(name), flags);
                    }
                }
            }
        }
        if follow { rustix::fs::stat(path) } else { rustix::fs::lstat(path) }
    }
}

/// What `path` answers to `lstat` (and, for a link looked at whole, what it leads to), with the latest change time
/// in it put in `changed`; `None` when it cannot be looked at (no permission), which no record holds.
#[cfg(unix)]
#[allow(clippy::unnecessary_cast, reason = "the types of `stat`'s fields differ from one platform to another")]
pub(super) fn observe_into(
    folder: &mut Folder,
    path: &Path,
    look: Look,
    changed: &mut Option<SystemTime>,
) -> Option<Observed> {
    use rustix::fs::{FileType, Stat};
    let mut out = Observed { bytes: [0; OBSERVED], len: 0 };
    let mut put = |out: &mut Observed, found: rustix::io::Result<Stat>| -> Option<bool> {
        let stat = match found {
            Ok(stat) => stat,
            // Not there, or a file where a folder on its way should be.
            Err(rustix::io::Errno::NOENT | rustix::io::Errno::NOTDIR) => {
                out.push(&[0]);
                return Some(false);
            }
            Err(_) => return None,
        };
        let kind = FileType::from_raw_mode(stat.st_mode as _);
        let times =
            ((stat.st_mtime as i64, stat.st_mtime_nsec as i64), (stat.st_ctime as i64, stat.st_ctime_nsec as i64));
        // A link is never changed, only made again, and the inode of one removed may come back for the new one at
        // once (ext4 gives it): its times tell, even where only which entry it is matters.
        let whole =
            (look == Look::Whole || kind == FileType::Symlink).then_some((stat.st_size as u64, times.0, times.1));
        put_entry(out, stat.st_dev as u64, stat.st_ino as u64, kind.as_raw_mode() as u32, whole, changed);
        Some(kind == FileType::Symlink)
    };
    // rustix's `lstat` and `stat`: the standard library's ask the kernel for more than this needs (`statx`).
    let link = put(&mut out, folder.stat(path, false))?;
    if link && look == Look::Whole {
        put(&mut out, folder.stat(path, true))?;
    }
    Some(out)
}

/// What a file the run read answered when it was opened, as [`observe_into`] puts it (a regular file).
pub(super) fn observed_read(found: &Found, changed: &mut Option<SystemTime>) -> Observed {
    /// `S_IFREG`.
    const REGULAR: u32 = 0o100_000;
    let mut out = Observed { bytes: [0; OBSERVED], len: 0 };
    let time = |(secs, nanos): (i64, u32)| (secs, i64::from(nanos));
    let whole = (found.size, time(found.modified), time(found.changed));
    put_entry(&mut out, found.dev, found.ino, REGULAR, Some(whole), changed);
    out
}

/// A file's size, and its modification and change times (`(seconds, nanoseconds)` since 1970).
type Whole = (u64, (i64, i64), (i64, i64));

/// One entry's answer: there, on which device, which inode, of what kind (`S_IFMT`'s bits of its mode) and, looked
/// at whole, its size and its modification and change times (a change of its mode changes the latter), the latest
/// of which goes in `changed`. Its permissions, owner and link count are not compared: a change of any changes its
/// change time.
fn put_entry(
    out: &mut Observed,
    dev: u64,
    ino: u64,
    mode: u32,
    whole: Option<Whole>,
    changed: &mut Option<SystemTime>,
) {
    out.push(&[1]);
    for n in [dev, ino, u64::from(mode & 0o170_000)] {
        out.push(&n.to_le_bytes());
    }
    if let Some((size, modified, change)) = whole {
        out.push(&size.to_le_bytes());
        for n in [modified.0, modified.1, change.0, change.1] {
            out.push(&n.to_le_bytes());
        }
        *changed = (*changed).max(Some(time(modified).max(time(change))));
    }
}

#[cfg(not(unix))]
pub(super) fn observe_into(
    _folder: &mut Folder,
    _path: &Path,
    _look: Look,
    _changed: &mut Option<SystemTime>,
) -> Option<Observed> {
    None
}

/// A file time, `(seconds, nanoseconds)` since 1970.
fn time((secs, nanos): (i64, i64)) -> SystemTime {
    let nanos = Duration::from_nanos(nanos.clamp(0, 999_999_999) as u64);
    match u64::try_from(secs) {
        Ok(secs) => SystemTime::UNIX_EPOCH + Duration::from_secs(secs) + nanos,
        // Before 1970: long before any run.
        Err(_) => SystemTime::UNIX_EPOCH,
    }
}
