//! Hook mode: `--staged` without a PATH, as the pre-commit hook runs it.
//!
//! A commit may touch several projects of a monorepo (each folder whose
//! `beeuni.yaml` is in the index) or none. Hook mode lints every project that
//! holds a staged change (added, modified, deleted or renamed path below its
//! root: a commit that only deletes a module is checked too), plus the project
//! around the current folder, so that `beeuni-lint --staged` run by hand in a
//! project still lints it when nothing is staged.
//!
//! The same projects serve a run at the root of a monorepo ([`repository_projects`]): there, every project the
//! repository tracks is linted.

use crate::catalog::XCSH_TOOL_FOLDERS;
use crate::discover::{Discovered, MANIFEST};
use crate::repo::git::{GitRepo, GitSource};
use std::path::{Path, PathBuf};

/// The project roots to lint for the commit being made, as absolute paths, sorted (outer projects first).
///
/// With no project in the index at all, the answer is `start` alone: the ordinary run then says what is
/// missing (`no beeuni.yaml in the index: stage it …`, or `manifest-name` for a misnamed manifest).
pub fn staged_projects(start: &Path) -> Result<Vec<PathBuf>, crate::error::Error> {
    let Some(git) = GitRepo::discover(start).map_err(crate::error::Error::Git)? else {
        return Err(crate::error::Error::Usage(
            "`--staged` needs a git repository: run it inside one, or drop `--staged`".into(),
        ));
    };
    let roots = project_roots(&git.tracked());
    if roots.is_empty() {
        return Ok(vec![start.to_path_buf()]);
    }
    let changed = git.staged_paths().map_err(crate::error::Error::Git)?;
    let here = std::fs::canonicalize(start)
        .map_err(|e| crate::error::Error::Path(format!("cannot open `{}`: {e}", start.display())))?;
    let here = here.strip_prefix(git.root()).map(slashed).unwrap_or_default();
    let around = roots.iter().filter(|root| holds(root, &here)).max_by_key(|root| root.len());
    // The roots that hold a staged path: each path's folders looked up, where asking every root of every path was
    // roots times paths (a large commit in a large monorepo).
    let root_set: std::collections::HashSet<&str> = roots.iter().map(String::as_str).collect();
    let touched: std::collections::HashSet<&str> = changed
        .iter()
        .flat_map(|path| {
            let folders = path.match_indices('/').map(|(end, _)| &path[..end]);
            std::iter::once("").chain(folders).chain(std::iter::once(path.as_str()))
        })
        .filter(|folder| root_set.contains(folder))
        .collect();
    let selected = roots.iter().filter(|root| touched.contains(root.as_str()) || Some(*root) == around);
    Ok(selected.map(|root| git.root().join(root)).collect())
}

/// How many projects a run at a monorepo's root lints at most: each is a run of its own (its files checked, its
/// git facts looked up), so the repository must not decide how many there are. PATHs given lint any number.
pub const MAX_REPOSITORY_PROJECTS: usize = 10_000;

/// When `found` is the top of a git work tree with no `beeuni.yaml` there (nor, for `--staged`, in the index),
/// the projects the repository tracks, as absolute paths, sorted; `None` elsewhere, and when it tracks none or
/// only the top (an xcsh-only project, a misnamed manifest): the ordinary run then lints or explains it.
pub fn repository_projects(found: &Discovered, staged: bool) -> Option<Vec<PathBuf>> {
    let git = found.git.as_ref()?;
    let top_manifest =
        found.root.join(MANIFEST).is_file() || (staged && git.entry(GitSource::Index, MANIFEST).is_some());
    if found.start != git.root() || found.root != git.root() || top_manifest {
        return None;
    }
    let roots = project_roots(&git.tracked());
    (roots.iter().any(|root| !root.is_empty())).then(|| roots.iter().map(|root| git.root().join(root)).collect())
}

/// The folders (repo-relative, `""` for the top) that hold a project: every index path named `beeuni.yaml`, or
/// a misnamed manifest (`beeuni.yml`, another case) for which `manifest-name` has something to say.
fn project_roots(tracked: &[String]) -> Vec<String> {
    let mut roots: Vec<String> = tracked
        .iter()
        .filter_map(|path| {
            let (dir, name) = crate::repo::fs::split_folder(path);
            let lower = name.to_ascii_lowercase();
            (lower == MANIFEST || lower == "beeuni.yml").then(|| dir.to_owned())
        })
        .collect();
    // The xcsh tool folders are looked for at the project root (docs/spec/rules.md §6): at the top, without a manifest,
    // they make the repository root a project.
    if tracked
        .iter()
        .any(|path| XCSH_TOOL_FOLDERS.iter().any(|f| path.strip_prefix(f).is_some_and(|r| r.starts_with('/'))))
    {
        roots.push(String::new());
    }
    roots.sort_unstable();
    roots.dedup();
    roots
}

/// Does the project at `root` hold the repo-relative `path`?
fn holds(root: &str, path: &str) -> bool {
    root.is_empty() || path == root || path.strip_prefix(root).is_some_and(|rest| rest.starts_with('/'))
}

fn slashed(path: &Path) -> String {
    path.components().filter_map(|c| c.as_os_str().to_str()).collect::<Vec<_>>().join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_are_the_folders_of_manifests_in_the_index() {
        let tracked = ["apps/a/beeuni.yaml", "apps/a/tools/t.ts", "apps/b/Beeuni.yml", "beeuni.yaml", "docs/x.md"];
        let tracked: Vec<String> = tracked.iter().map(|p| p.to_string()).collect();
        assert_eq!(project_roots(&tracked), ["", "apps/a", "apps/b"]);
        let tracked = ["apps/a/beeuni.yaml", ".claude/tools/t.ts", "apps/b/.xcsh/tools/u.ts", ".xcsh/toolsx"];
        let tracked: Vec<String> = tracked.iter().map(|p| p.to_string()).collect();
        assert_eq!(project_roots(&tracked), ["", "apps/a"]);
    }

    #[test]
    fn a_project_holds_the_paths_below_its_root() {
        assert!(holds("", "anything/at/all"));
        assert!(holds("apps/a", "apps/a/tools/t.ts"));
        assert!(holds("apps/a", "apps/a"));
        assert!(!holds("apps/a", "apps/ab/beeuni.yaml"));
        assert!(!holds("apps/a", "apps"));
    }
}
