//! The analysis threads: the pool that parses the manifest's YAML files and analyses modules, and the one
//! thread with the same large stack that runs a batch when the pool cannot start.

pub mod arena;

/// Parsing is recursive in oxc: deep (but accepted) nesting needs a deep stack.
pub const ANALYSIS_STACK: usize = 64 * 1024 * 1024;

/// The analysis threads (with large stacks: parsing is recursive in oxc), made once per process: every level of
/// the closure and the manifest's YAML files run on the same threads, which keep their parse allocators warm.
pub fn threads() -> Option<&'static rayon::ThreadPool> {
    static POOL: std::sync::OnceLock<Option<rayon::ThreadPool>> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        let builder = rayon::ThreadPoolBuilder::new().stack_size(ANALYSIS_STACK);
        builder.start_handler(|_| arena::reserve()).build().ok()
    })
    .as_ref()
}

/// Runs `f` on one thread with the analysis stack: `None` when no such thread could be started, or when it panicked
/// in a build where panics unwind (tests, debug builds): the release profile has `panic = "abort"`, which ends the
/// process where the panic happens.
pub fn on_one_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> Option<T> {
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new().stack_size(ANALYSIS_STACK).spawn_scoped(scope, f).ok()?;
        handle.join().ok()
    })
}
