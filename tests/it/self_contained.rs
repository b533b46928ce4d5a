//! The repository stands alone: a user's clone has nothing beside it, so no
//! tracked file may read or link a path outside it.
//!
//! Four checks over every tracked file (`git ls-files`; without git, every
//! file but `target/` and `.git`):
//! - no file names the team's shared folder (beside the worktrees) or an absolute path
//!   of the machine it was written on, except the few that carry such a path
//!   as data on purpose ([`DATA`], each with its reason);
//! - every `include_str!`/`include_bytes!` in Rust resolves to a tracked file
//!   and no path is built by climbing out of `CARGO_MANIFEST_DIR`;
//! - every relative link in a Markdown file resolves to a tracked file or
//!   folder (and its anchor to a heading of that page);
//! - no file cites the platform's specification documents by name: the code
//!   cites the project's own, under docs/spec/.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

/// Files that carry an outside path as data, and why. Keep it short: a new
/// entry needs a reason a reviewer would accept.
const DATA: &[(&str, &str)] = &[];

/// What no other file may contain: the shared folder beside the team's
/// worktrees, and the machine's absolute paths. Each is put together here, so
/// that this file does not name them either and a search of the repository
/// for them finds nothing.
const OUTSIDE: &[&str] = &[concat!("..", "/", "shared"), concat!("..", "\\", "shared"), concat!("/", "work", "/")];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Repository-relative paths of the tracked files, with `/` separators.
fn tracked() -> BTreeSet<String> {
    let listed = Command::new("git").args(["ls-files", "-z"]).current_dir(root()).output();
    match listed {
        Ok(out) if out.status.success() && !out.stdout.is_empty() => String::from_utf8(out.stdout)
            .expect("UTF-8 paths")
            .split('\0')
            .filter(|path| !path.is_empty() && root().join(path).is_file())
            .map(str::to_owned)
            .collect(),
        _ => {
            let mut files = BTreeSet::new();
            walk(root(), &mut files);
            files
        }
    }
}

fn walk(dir: &Path, files: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let relative = path.strip_prefix(root()).unwrap().to_string_lossy().replace('\\', "/");
        if relative == "target" || relative == ".git" {
            continue;
        }
        if path.is_dir() {
            walk(&path, files);
        } else {
            files.insert(relative);
        }
    }
}

fn text(path: &str) -> Option<String> {
    String::from_utf8(std::fs::read(root().join(path)).ok()?).ok()
}

/// `base/target` with `.` and `..` resolved lexically; `None` when it climbs
/// above the repository root.
fn resolve(base: &str, target: &str) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    for component in Path::new(base).join(target).components() {
        match component {
            Component::Normal(part) => parts.push(part.to_string_lossy().into_owned()),
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::CurDir => {}
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(parts.join("/"))
}

fn folder(path: &str) -> String {
    Path::new(path).parent().map(PathBuf::from).unwrap_or_default().to_string_lossy().into_owned()
}

fn exists(files: &BTreeSet<String>, path: &str) -> bool {
    path.is_empty() || files.contains(path) || files.iter().any(|file| file.starts_with(&format!("{path}/")))
}

/// `(line, argument)` of every `name!("argument")` in a Rust source.
fn macro_paths<'t>(source: &'t str, name: &str) -> Vec<(usize, &'t str)> {
    let opening = format!("{name}!(\"");
    let mut found = Vec::new();
    for (number, line) in source.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find(&opening) {
            rest = &rest[at + opening.len()..];
            if let Some(end) = rest.find('"') {
                found.push((number + 1, &rest[..end]));
            }
        }
    }
    found
}

/// `(line, target)` of every inline Markdown link or image `[text](target)`.
fn markdown_links(source: &str) -> Vec<(usize, &str)> {
    let mut found = Vec::new();
    let mut fenced = false;
    for (number, line) in source.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if fenced {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            if let Some(end) = rest.find(')') {
                let target = rest[..end].split_whitespace().next().unwrap_or("");
                found.push((number + 1, target));
            }
        }
    }
    found
}

#[test]
fn no_file_names_a_path_outside_the_repository() {
    let files = tracked();
    assert!(files.contains("Cargo.toml"), "the file list is this repository's: {files:?}");
    let mut found = Vec::new();
    for path in files.iter().filter(|path| !DATA.iter().any(|(data, _)| data == path)) {
        let Some(source) = text(path) else { continue };
        for (number, line) in source.lines().enumerate() {
            for outside in OUTSIDE.iter().filter(|outside| line.contains(*outside)) {
                found.push(format!("{path}:{}: names `{outside}`: {}", number + 1, line.trim()));
            }
        }
    }
    assert!(found.is_empty(), "a clone has nothing outside the repository:\n{}", found.join("\n"));
}

/// The platform's specification documents, which live outside the repository: the code cites the project's own
/// specification (docs/spec/rules.md, docs/spec/interface.md) instead. Put together here, so that this file does
/// not name them either.
const OUTSIDE_DOCUMENTS: &[&str] =
    &[concat!("RULES", ".md"), concat!("INTERFACE", ".md"), concat!("HARNESS_TOOLS", ".md")];

#[test]
fn no_file_cites_a_specification_outside_the_repository() {
    let mut found = Vec::new();
    for path in tracked() {
        let Some(source) = text(&path) else { continue };
        for (number, line) in source.lines().enumerate() {
            for document in OUTSIDE_DOCUMENTS.iter().filter(|document| line.contains(*document)) {
                found.push(format!("{path}:{}: cites `{document}`: {}", number + 1, line.trim()));
            }
        }
    }
    assert!(found.is_empty(), "cite docs/spec/ instead:\n{}", found.join("\n"));
}

#[test]
fn the_data_exemptions_are_still_needed() {
    let files = tracked();
    for (path, reason) in DATA {
        let source =
            text(path).unwrap_or_else(|| panic!("{path} (exempt because {reason}) is not a tracked text file"));
        assert!(
            OUTSIDE.iter().any(|outside| source.contains(outside)) && files.contains(*path),
            "{path} no longer names an outside path: drop it from DATA"
        );
    }
}

#[test]
fn rust_reads_files_only_inside_the_repository() {
    let files = tracked();
    let mut found = Vec::new();
    for path in files.iter().filter(|path| path.ends_with(".rs") && *path != "tests/it/self_contained.rs") {
        let Some(source) = text(path) else { continue };
        for name in ["include_str", "include_bytes"] {
            for (line, target) in macro_paths(&source, name) {
                match resolve(&folder(path), target) {
                    Some(inside) if files.contains(&inside) => {}
                    _ => found.push(format!("{path}:{line}: {name}!(\"{target}\") is not a tracked file")),
                }
            }
        }
        for (number, line) in source.lines().enumerate() {
            if let Some(at) = line.find("CARGO_MANIFEST_DIR")
                && (line[at..].contains("/..") || line[at..].contains("\"..\""))
            {
                found.push(format!("{path}:{}: climbs out of CARGO_MANIFEST_DIR: {}", number + 1, line.trim()));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn markdown_links_stay_inside_the_repository() {
    let files = tracked();
    let mut found = Vec::new();
    for path in files.iter().filter(|path| path.ends_with(".md") && !path.starts_with("tests/fixtures/")) {
        let Some(source) = text(path) else { continue };
        for (line, target) in markdown_links(&source) {
            let local = target.split('#').next().unwrap_or("");
            if target.contains("://") || target.starts_with("mailto:") || local.is_empty() {
                continue;
            }
            match resolve(&folder(path), local) {
                Some(inside) if exists(&files, &inside) => {}
                _ => found.push(format!("{path}:{line}: link `{target}` leads to no file of the repository")),
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// GitHub's anchor of a Markdown heading: lower case, spaces as `-`, other punctuation than `-` and `_` dropped.
fn anchor(heading: &str) -> String {
    let heading = heading.trim().to_lowercase();
    heading
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown file's headings (outside fenced code).
fn anchors(source: &str) -> BTreeSet<String> {
    let mut fenced = false;
    let mut found = BTreeSet::new();
    for line in source.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if !fenced && line.starts_with('#') {
            found.insert(anchor(line.trim_start_matches('#')));
        }
    }
    found
}

#[test]
fn markdown_anchors_are_headings_of_their_page() {
    let files = tracked();
    let mut found = Vec::new();
    for path in files.iter().filter(|path| path.ends_with(".md") && !path.starts_with("tests/fixtures/")) {
        let Some(source) = text(path) else { continue };
        for (line, target) in markdown_links(&source) {
            let Some((local, fragment)) = target.split_once('#') else { continue };
            if target.contains("://") {
                continue;
            }
            let page = if local.is_empty() { Some(path.clone()) } else { resolve(&folder(path), local) };
            let Some(page) = page.filter(|page| page.ends_with(".md")) else { continue };
            let headings = text(&page).map(|page| anchors(&page)).unwrap_or_default();
            if !headings.contains(fragment) {
                found.push(format!("{path}:{line}: link `{target}`: {page} has no heading #{fragment}"));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_checks_catch_what_they_are_for() {
    assert_eq!(anchor(" §4. Tool `modules`"), "4-tool-modules");
    assert!(anchors("# A\n```\n# not\n```\n## B c").into_iter().eq(["a", "b-c"]));
    assert_eq!(resolve("src/render", "../../tests/schemas/x.json").as_deref(), Some("tests/schemas/x.json"));
    assert_eq!(resolve("", "../outside/spec/SPEC.md"), None);
    assert_eq!(resolve("docs", "/etc/passwd"), None);
    let rust = "let s = include_str!(\"../../a.json\"); let t = include_bytes!(\"b\");";
    assert_eq!(macro_paths(rust, "include_str"), [(1, "../../a.json")]);
    assert_eq!(macro_paths(rust, "include_bytes"), [(1, "b")]);
    let markdown =
        "See [rules](../outside/spec/SPEC.md) and [x](https://e.x).\n```\n[no](skip)\n```\n![i](img.png \"t\")";
    assert_eq!(markdown_links(markdown), [(1, "../outside/spec/SPEC.md"), (1, "https://e.x"), (5, "img.png")]);
}
