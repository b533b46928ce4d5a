//! What the project targets share: a scratch project folder of this process, outside any git repository.
//! The targets' bodies are `beeuni_lint::fuzzing` (compiled by the normal build, seeds replayed by its tests).

use std::path::PathBuf;
use std::sync::OnceLock;

/// The scratch project folder, made on first use under the temporary folder.
pub fn scratch() -> &'static PathBuf {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let root = std::env::temp_dir().join(format!("beeuni-lint-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&root).expect("create the scratch project");
        std::fs::canonicalize(root).expect("canonical scratch root")
    })
}
