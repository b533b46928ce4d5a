//! The build id: a digest of the sources this build is made from (`src/`, the manifest and the lock file), compiled
//! in as `BEEUNI_LINT_BUILD_ID`. The warm cache derives the key of its entries' checksums from it (with the
//! version and the cache's format, see `src/cache/layout.rs`), so that a cache file another build wrote, or one
//! made by hand, does not validate. It is no secret: the same sources give the same id, and anyone holding the
//! binary can read it out; it is deterministic so that two builds of one source tree are the same binary.

#![allow(
    clippy::expect_used,
    clippy::print_stdout,
    reason = "a build script talks to cargo on standard output, and cargo always sets CARGO_MANIFEST_DIR"
)]

use std::hash::{DefaultHasher, Hasher};
use std::path::{Path, PathBuf};

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("Cargo.toml"), root.join("Cargo.lock")];
    collect(&root.join("src"), &mut files);
    files.sort();
    // Two halves of 64 bits, each a SipHash (std's, fixed keys) of every file's path and bytes after a different
    // first byte: 128 bits, enough that two different source trees do not share an id by chance.
    let mut halves = [DefaultHasher::new(), DefaultHasher::new()];
    halves[0].write_u8(0);
    halves[1].write_u8(1);
    for file in &files {
        let Ok(bytes) = std::fs::read(file) else { continue };
        let name = file.strip_prefix(&root).unwrap_or(file).to_string_lossy().replace('\\', "/");
        for half in &mut halves {
            half.write(name.as_bytes());
            half.write_usize(bytes.len());
            half.write(&bytes);
        }
    }
    println!("cargo:rustc-env=BEEUNI_LINT_BUILD_ID={:016x}{:016x}", halves[0].finish(), halves[1].finish());
    for watched in ["src", "Cargo.toml", "Cargo.lock", "build.rs"] {
        println!("cargo:rerun-if-changed={watched}");
    }
}

/// Every file under `dir` (links not followed).
fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        match entry.file_type() {
            Ok(kind) if kind.is_dir() => collect(&entry.path(), files),
            Ok(kind) if kind.is_file() => files.push(entry.path()),
            _ => {}
        }
    }
}
