//! The cache file's bytes as a run holds them: mapped (or read), and let go of behind the readers that have decoded
//! them.

use super::{Entry, ModuleCache};
use std::fs::File;
use std::ops::Range;
use std::path::Path;

impl ModuleCache {
    /// Lets go of the file's pages that only `entries` (hits of one batch, decoded) lie in, when they lie together
    /// (see [`super::store`]): no other entry is read from those pages again in this run. The pages they share with the
    /// entries before and after stay until the modules are taken ([`ModuleCache::taken`]).
    pub fn decoded<'e>(&self, entries: impl IntoIterator<Item = &'e Entry>) {
        let (mut low, mut high, mut bytes) = (usize::MAX, 0, 0);
        for entry in entries {
            if let Entry::Hit(range) = entry {
                (low, high, bytes) = (low.min(range.start), high.max(range.end), bytes + range.len());
            }
        }
        // Entries strewn over the file (a file another run laid out): their pages hold other entries too.
        if low < high && high - low <= bytes + 2 * PAGE {
            self.release(low..high);
        }
    }

    /// A module taken in the order named, with its entry: every entry before it in the file was decoded when the
    /// file is laid out in this run's order; the pages before it are let go in steps.
    pub fn taken(&self, entry: &Entry) {
        if let Entry::Hit(range) = entry {
            self.taken.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).reached(self, range.start);
        }
    }

    /// Lets go of the mapped pages that lie wholly inside `range` (those it shares stay): they are read again from
    /// the file should anything touch them (the file is never changed in place: see [`Bytes`]).
    fn release(&self, range: Range<usize>) {
        #[cfg(unix)]
        if let Bytes::Mapped(map) = &self.data
            && map.len() >= RELEASE_FROM
        {
            let (start, end) = (range.start.next_multiple_of(PAGE), range.end / PAGE * PAGE);
            if start < end {
                // SAFETY: the mapping is read-only and of a file never written in place: a page let go reads the
                // same bytes when touched again, so no borrow of the mapping sees them change.
                #[allow(unsafe_code, reason = "madvise(DONTNEED) of a read-only file mapping: see SAFETY")]
                let _ = unsafe { map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, start, end - start) };
            }
        }
        #[cfg(not(unix))]
        let _ = range;
    }
}

/// The size from which a file's pages are let go behind its readers ([`ModuleCache::release`]). A smaller file adds
/// little to the run's peak (2,000 modules: 0.74 MB), while each release is a system call that flushes the pages
/// from every core running the process's threads: 38 `madvise` calls on a warm run at 2,000 modules.
const RELEASE_FROM: usize = 4 * 1024 * 1024;

/// The granularity of [`ModuleCache::release`]: where pages are larger, the range is widened to whole pages and
/// its neighbours' bytes are read again from the file if they are touched.
pub(super) const PAGE: usize = 4096;

/// How far a reader that goes through the file in order has let go of the pages behind it.
#[derive(Default)]
pub(super) struct Behind {
    released: usize,
}

impl Behind {
    /// Let go of in steps: a call per module would cost a system call per module.
    const STEP: usize = 256 * 1024;

    /// The reader has reached `at`: everything before it is read.
    fn reached(&mut self, cache: &ModuleCache, at: usize) {
        // The table stays: it lies after every entry, and every lookup searches it.
        let from = self.released;
        if at >= from + Self::STEP {
            cache.release(from..at);
            self.released = at;
        }
    }
}

/// The cache file's bytes. Mapped where a mapping is safe to keep while the file is replaced: the file is
/// written only whole, to a temporary file renamed over it ([`super::store`]), so the pages this run maps stay those of
/// the file it opened. A run that uses a few entries of a large file reads only their pages, and the pages the
/// analysis threads decode are mapped by those threads, instead of the main thread copying the whole file first.
/// (On Windows a mapped file cannot be replaced: it is read.)
pub(super) enum Bytes {
    #[cfg(unix)]
    Mapped(memmap2::Mmap),
    Read(Vec<u8>),
}

impl Bytes {
    /// The file at `path` if it is a regular file; anything else (none yet, as on every cold run, a symbolic link,
    /// a FIFO, a folder) is a cache that holds nothing.
    pub(super) fn of(path: &Path) -> Bytes {
        let Some(file) = open_regular(path) else { return Bytes::Read(Vec::new()) };
        // SAFETY: see above: beeuni-lint never writes this file in place or truncates it. Bytes changed under the
        // mapping by another program read as damaged entries (checksums); a file another program cuts short while
        // a run reads it would stop the run, as it would git, which maps its index the same way.
        #[cfg(unix)]
        #[allow(unsafe_code, reason = "a file this program never writes in place, mapped: see SAFETY")]
        return unsafe { memmap2::Mmap::map(&file) }.map_or_else(|_| Bytes::Read(Vec::new()), Bytes::Mapped);
        #[cfg(not(unix))]
        {
            let mut bytes = Vec::new();
            let read = std::io::Read::read_to_end(&mut &file, &mut bytes);
            Bytes::Read(if read.is_ok() { bytes } else { Vec::new() })
        }
    }
}

/// `path` opened to read if it is a regular file: never through a symbolic link (`O_NOFOLLOW`: the link may lead
/// out of the repository), and without waiting should it be a FIFO (`O_NONBLOCK`: opening one to read otherwise
/// blocks until some process opens it to write, for ever); what it is, is told by the handle (`fstat`).
pub(super) fn open_regular(path: &Path) -> Option<File> {
    #[cfg(unix)]
    let file = {
        use rustix::fs::OFlags;
        use std::os::unix::fs::OpenOptionsExt;
        let flags = (OFlags::NOFOLLOW | OFlags::NONBLOCK).bits() as i32;
        File::options().read(true).custom_flags(flags).open(path).ok()?
    };
    // No FIFO to wait on; a link is told by its own metadata.
    #[cfg(not(unix))]
    let file = match std::fs::symlink_metadata(path) {
        Ok(metadata) if metadata.is_file() => File::open(path).ok()?,
        _ => return None,
    };
    file.metadata().ok()?.is_file().then_some(file)
}

impl std::ops::Deref for Bytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            #[cfg(unix)]
            Bytes::Mapped(map) => map,
            Bytes::Read(bytes) => bytes,
        }
    }
}
