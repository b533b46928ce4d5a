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

/// What a user copies pins a `rev:` (pre-commit) and an action ref that exist: this version's tag once it is
/// tagged, else a full commit id of this repository's history. Every example names the same one.
#[test]
fn examples_pin_a_revision_that_exists() {
    let mut pins = Vec::new();
    let mut pages = vec!["README.md".to_string(), "examples/pre-commit-config.yaml".into()];
    pages.push("examples/github-workflow.yml".into());
    pages.push("examples/policy-workflow.yml".into());
    for entry in std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".md") {
            pages.push(format!("docs/{name}"));
        }
    }
    for page in &pages {
        for line in read(page).lines() {
            let pin =
                line.trim().strip_prefix("rev: ").or_else(|| line.split_once("uses: beeuni/beeuni-lint@").map(|p| p.1));
            if let Some(pin) = pin.and_then(|pin| pin.split_whitespace().next()) {
                pins.push((page.clone(), pin.to_string()));
            }
        }
    }
    for page in ["README.md", "examples/pre-commit-config.yaml", "examples/github-workflow.yml", "docs/pre-commit.md"] {
        assert!(pins.iter().any(|(p, _)| p == page), "{page} pins no revision");
    }
    let tag = format!("v{}", env!("CARGO_PKG_VERSION"));
    let first = &pins[0].1;
    for (page, pin) in &pins {
        assert_eq!(pin, first, "{page} pins another revision than README.md");
        let commit = pin.len() == 40 && pin.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase());
        assert!(commit || *pin == tag, "{page}: `{pin}` is neither a full commit id nor {tag}");
    }
    // In a full clone (not a packaged source tree, nor CI's shallow checkout), the revision is in the history.
    let git = |args: &[&str]| {
        std::process::Command::new("git").args(args).current_dir(env!("CARGO_MANIFEST_DIR")).output().ok()
    };
    let answer = |args: &[&str]| git(args).filter(|out| out.status.success()).map(|out| out.stdout);
    let full_clone = answer(&["rev-parse", "--is-shallow-repository"]).is_some_and(|out| out == b"false\n");
    if full_clone {
        let object = format!("{first}^{{commit}}");
        let found = git(&["cat-file", "-e", &object]).is_some_and(|out| out.status.success());
        assert!(found, "{first} is not a commit of this repository");
    }
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
