//! The analysis threads' allocator arenas, opened in large steps instead of a page at a time.
//!
//! glibc gives each thread that allocates an arena of its own: a heap it extends by exactly what an allocation
//! lacks, with one `mprotect` per extension (the main thread's heap grows by `brk` with a 128 KiB pad; a thread's
//! heap ignores the pad). The analysis threads build or decode the facts kept to the end of the run, so their
//! heaps grow a page at a time: on a warm run, 518 `mprotect` calls at 2,000 modules and 5,025 at 20,000. When a
//! thread starts, [`reserve`] allocates its expected share in blocks just below the threshold at which glibc maps
//! a block of its own, and frees them: the heap is opened in 127 KiB steps, glibc remembers how far it was opened
//! (growing there again costs no call), and the pages, never written, are neither resident nor kept.

use std::sync::atomic::{AtomicUsize, Ordering};

/// What the analysis threads are expected to allocate in all (see [`expect`]).
static EXPECTED: AtomicUsize = AtomicUsize::new(0);

/// Reserved by each thread at least: what a cold run of a few hundred modules grows an arena by.
const AT_LEAST: usize = 1024 * 1024;
/// A heap of glibc holds 64 MiB; what is reserved stays well inside the first.
const AT_MOST: usize = 32 * 1024 * 1024;

/// The warm cache file's size: the threads' heaps grow by about four times its bytes as they decode its facts
/// (2,000 modules: a 0.8 MB file, 1.6 MB per thread; 20,000: 7.1 MB and about 14 MB); five, so that a thread
/// that decodes more than its half still finds its heap open. Threads that start later read it as they start;
/// threads already started (git's discovery reads the ignore rules on one, before the cache can be found) are
/// asked to open the rest of their share now, without waiting for them.
pub fn expect_decoding(file_bytes: usize) {
    EXPECTED.store(file_bytes.saturating_mul(5), Ordering::Relaxed);
    if let Some(pool) = super::threads() {
        pool.spawn_broadcast(|_| reserve());
    }
}

/// Opens this thread's arena for its share of what is expected, as far as it is not open yet (on an analysis
/// thread, as it starts and when [`expect_decoding`] learns more).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn reserve() {
    // Below the 128 KiB that `main` fixes as glibc's threshold for mapping a block apart (with room for the
    // chunk header and alignment).
    const BLOCK: usize = 127 * 1024;
    thread_local! {
        /// How much of this thread's arena is open already.
        static OPENED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }
    let share = (EXPECTED.load(Ordering::Relaxed) / rayon::current_num_threads().max(1)).clamp(AT_LEAST, AT_MOST);
    if share <= OPENED.get() {
        return;
    }
    OPENED.set(share);
    let blocks: Vec<Box<[std::mem::MaybeUninit<u8>]>> =
        (0..share / BLOCK).map(|_| std::hint::black_box(Box::new_uninit_slice(BLOCK))).collect();
    // Freed in the order allocated, they merge into one free chunk and then into the heap's top: one trim.
    drop(std::hint::black_box(blocks));
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn reserve() {}
