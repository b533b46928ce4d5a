//! What ships agrees with itself: one repository URL everywhere, the version
//! and toolchain of Cargo.toml in the examples, workflows and Python package,
//! and the release assets named as the Action downloads them.

use std::path::Path;

const REPOSITORY: &str = "https://github.com/beeuni/beeuni-lint";

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

#[test]
fn one_repository_url_everywhere() {
    assert_eq!(env!("CARGO_PKG_REPOSITORY"), REPOSITORY);
    assert_eq!(beeuni_lint::render::sarif::INFORMATION_URI, REPOSITORY);
    let schema = beeuni_lint::schema::schema();
    assert!(schema["$id"].as_str().unwrap().starts_with(&format!("{REPOSITORY}/")), "{}", schema["$id"]);
    assert!(read("pyproject.toml").contains(&format!("Repository = \"{REPOSITORY}\"")));
    assert!(read("scripts/action/install.sh").contains(&format!("{REPOSITORY}/releases/download")));
    for file in ["README.md", "examples/pre-commit-config.yaml"] {
        assert!(read(file).contains(&format!("repo: {REPOSITORY}\n")), "{file}");
    }
    // No other GitHub home for the project.
    for file in ["README.md", "Cargo.toml", "pyproject.toml", "action.yml", "examples/github-workflow.yml"] {
        for line in read(file).lines().filter(|line| line.contains("github.com/") && line.contains("beeuni-lint")) {
            assert!(line.contains(REPOSITORY), "{file}: another URL for the repository: {line}");
        }
    }
}

#[test]
fn examples_name_this_version() {
    let tag = format!("v{}", env!("CARGO_PKG_VERSION"));
    assert!(read("examples/pre-commit-config.yaml").contains(&format!("rev: {tag}\n")));
    assert!(read("examples/github-workflow.yml").contains(&format!("uses: beeuni/beeuni-lint@{tag} ")));
    assert!(read("README.md").contains(&format!("rev: {tag}\n")));
}

#[test]
fn builds_use_the_toolchain_of_cargo_toml() {
    let toolchain = format!("\"{}\"", env!("CARGO_PKG_RUST_VERSION"));
    for file in [".github/workflows/ci.yml", ".github/workflows/release.yml", "action.yml"] {
        let text = read(file);
        let pins: Vec<&str> = text.lines().filter(|l| l.contains("toolchain:")).collect();
        assert!(!pins.is_empty(), "{file} sets no toolchain");
        for pin in pins {
            assert!(pin.trim_end().ends_with(&toolchain), "{file}: {pin} (Cargo.toml has {toolchain})");
        }
    }
}

#[test]
fn the_wheel_is_maturin_bin_bindings_named_as_the_crate() {
    let pyproject = read("pyproject.toml");
    assert!(pyproject.contains("[tool.maturin]\nbindings = \"bin\"\n"), "{pyproject}");
    assert!(pyproject.contains(&format!("name = \"{}\"\n", env!("CARGO_PKG_NAME"))));
    assert!(pyproject.contains("dynamic = [\"version\"]"), "the version comes from Cargo.toml");
}

#[test]
fn release_assets_are_named_as_the_action_downloads_them() {
    let release = read(".github/workflows/release.yml");
    let install = read("scripts/action/install.sh");
    assert!(release.contains("asset=\"beeuni-lint-$TARGET$EXE\""));
    assert!(install.contains("asset=\"beeuni-lint-$target$exe\""));
    for target in [
        "x86_64-unknown-linux-musl",
        "aarch64-unknown-linux-musl",
        "x86_64-apple-darwin",
        "aarch64-apple-darwin",
        "x86_64-pc-windows-msvc",
    ] {
        assert!(release.contains(&format!("target: {target}")), "release.yml builds no {target}");
        assert!(install.contains(&format!("target={target}")), "install.sh never asks for {target}");
    }
    assert!(release.contains("\"$asset.sha256\"") && release.contains("> COMMIT"), "sums and COMMIT are published");
}
