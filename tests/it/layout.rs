//! The layout of the integration tests holds: every one is a module of this binary. A file left in `tests/` would
//! build a binary of its own (and link everything again); a file of `tests/it/` without its `mod` line in
//! main.rs would not be compiled at all, and its tests would silently never run.

use std::path::Path;

#[test]
fn every_test_file_is_a_module_of_this_binary() {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let main = std::fs::read_to_string(tests.join("it/main.rs")).unwrap();
    let mut found = Vec::new();
    for entry in std::fs::read_dir(&tests).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".rs") {
            found.push(format!(
                "tests/{name} is a test binary of its own: `git mv` it into tests/it/ (CONTRIBUTING.md)"
            ));
        }
    }
    for entry in std::fs::read_dir(tests.join("it")).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().into_string().unwrap();
        let module = if entry.file_type().unwrap().is_dir() {
            entry.path().join("mod.rs").is_file().then_some(name.as_str())
        } else {
            name.strip_suffix(".rs").filter(|stem| *stem != "main")
        };
        if let Some(module) = module
            && !main.lines().any(|line| line == format!("mod {module};"))
        {
            found.push(format!("tests/it/{name} has no `mod {module};` in tests/it/main.rs: its tests never run"));
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}
