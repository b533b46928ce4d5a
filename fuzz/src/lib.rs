//! What the fuzz targets share: a scratch project on disk built from one fuzz input, and the big stack the
//! linter's analysis threads have.

use std::path::{Path, PathBuf};

/// The files one input fills, in order; the input's parts are split at NUL bytes (text files hold none).
/// `beeuni.yaml` imports the other YAML files and declares the module in the seeds.
pub const FILES: [&str; 4] = ["beeuni.yaml", "a.yaml", "b/c.yaml", "tools/t.ts"];

/// The stack the linter gives its analysis threads (`ANALYSIS_STACK` in `src/modules/mod.rs`).
const ANALYSIS_STACK: usize = 64 * 1024 * 1024;

/// Runs `f` on a thread with the analysis stack, as the linter does.
pub fn on_analysis_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new().stack_size(ANALYSIS_STACK).spawn_scoped(scope, f);
        match handle.expect("spawn an analysis thread").join() {
            Ok(value) => value,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// A project folder of this process under the temporary folder, outside any git repository.
pub struct Scratch {
    pub root: PathBuf,
}

impl Scratch {
    pub fn new() -> Self {
        let root = std::env::temp_dir().join(format!("beeuni-lint-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(root.join("b")).expect("create the scratch project");
        std::fs::create_dir_all(root.join("tools")).expect("create the scratch project");
        let root = std::fs::canonicalize(root).expect("canonical scratch root");
        Scratch { root }
    }

    /// Writes the input's parts as the project's files (a part the input lacks is removed).
    /// `None` when a part is not UTF-8: the loaders' handling of bad bytes is covered by the test suite.
    pub fn fill(&self, data: &[u8]) -> Option<()> {
        let mut parts = data.split(|&b| b == 0);
        for name in FILES {
            let path = self.root.join(name);
            match parts.next() {
                Some(part) => {
                    std::str::from_utf8(part).ok()?;
                    std::fs::write(&path, part).expect("write a scratch file");
                }
                None => remove(&path),
            }
        }
        Some(())
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }
}

impl Default for Scratch {
    fn default() -> Self {
        Self::new()
    }
}

fn remove(path: &Path) {
    match std::fs::remove_file(path) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => panic!("remove {}: {e}", path.display()),
    }
}
