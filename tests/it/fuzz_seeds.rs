//! Every checked-in seed of the fuzz targets (`fuzz/seeds/TARGET`), and every crash they found, through the
//! targets' bodies (`beeuni_lint::fuzzing`): the corpora stay valid and a fixed crash stays fixed.

use std::path::Path;

fn seeds(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds").join(target);
    let mut seeds: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            let path = entry.unwrap().path();
            (path.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&path).unwrap())
        })
        .collect();
    seeds.sort();
    assert!(seeds.len() >= 10, "{target}: {} seeds", seeds.len());
    seeds
}

#[test]
fn module_seeds() {
    for (_, data) in seeds("module") {
        beeuni_lint::fuzzing::module(&data);
    }
}

#[test]
fn xcsh_seeds() {
    for (_, data) in seeds("xcsh") {
        beeuni_lint::fuzzing::xcsh(&data);
    }
}

#[test]
fn cache_seeds() {
    for (_, data) in seeds("cache") {
        beeuni_lint::fuzzing::cache(&data);
    }
}

#[test]
fn config_seeds() {
    for (_, data) in seeds("config") {
        beeuni_lint::fuzzing::config(&data);
    }
}

#[test]
fn manifest_seeds() {
    replay_in_projects("manifest", beeuni_lint::fuzzing::manifest);
}

#[test]
fn fix_seeds() {
    replay_in_projects("fix", beeuni_lint::fuzzing::fix);
}

/// Replays each seed of `target` in a fresh project folder of its own.
fn replay_in_projects(target: &str, run: fn(&std::path::Path, &[u8])) {
    for (name, data) in seeds(target) {
        let dir = tempfile::TempDir::new().unwrap();
        let root = dir.path().canonicalize().unwrap();
        eprintln!("{name}");
        run(&root, &data);
    }
}
