//! The base of a change-aware run: the merge base of a revision and HEAD (`--base`), or HEAD itself (`--staged`).

use gix::ObjectId;

use super::{GitRepo, GitSource, one_line};

mod revision;

/// The resolved base of a change-aware run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Base {
    /// The tree to read the base files from; None when the base is empty (unborn HEAD).
    pub source: Option<GitSource>,
    /// For messages, e.g. "merge base 1a2b3c4 of origin/main and HEAD", "HEAD (1a2b3c4)" or "nothing: HEAD is unborn".
    pub description: String,
}

/// What every "the history is not here" message ends with.
const CI_REMEDY: &str = "or in GitHub Actions check out with `fetch-depth: 0`";

impl GitRepo {
    /// The merge base of `rev` and HEAD, as a tree: what `git diff REV...HEAD` compares against.
    pub fn merge_base(&self, rev: &str) -> Result<Base, String> {
        Locked(&self.repo()).merge_base(rev)
    }

    /// HEAD's tree, or an empty base on an unborn HEAD (for `--staged` without `--base`).
    pub fn head_base(&self) -> Result<Base, String> {
        Locked(&self.repo()).head_base()
    }
}

/// The repository, locked for one question about history (which asks it several things in turn).
struct Locked<'a>(&'a gix::Repository);

impl Locked<'_> {
    /// The merge base of `rev` and HEAD, as a tree: what `git diff REV...HEAD` compares against.
    ///
    /// Errors are one line, name the revision and say what to do: the revision is not found (not fetched), the
    /// clone is too shallow to hold the merge base, the histories are unrelated, or HEAD has no commit yet.
    fn merge_base(&self, rev: &str) -> Result<Base, String> {
        let Some(head) = self.head_commit()? else {
            return Err(format!("HEAD has no commit yet: there is nothing to compare `{rev}` with"));
        };
        // Without a readable `shallow` file the clone is complete as far as git itself is concerned.
        let shallow = self.0.is_shallow().unwrap_or(false);
        let other = self.resolve_commit(rev, shallow)?;
        // gix skips parents that are missing (beyond a shallow boundary), so a cut history gives None, not Err.
        // Unlike git, it does not stop at the boundary when the parents are present anyway (fetched through another
        // ref): the merge base it then finds is a true common ancestor where git would find none.
        let base = match self.0.merge_base(other, head) {
            Ok(Some(base)) => base.detach(),
            Ok(None) if shallow => {
                return Err(format!(
                    "no merge base of `{rev}` and HEAD in this shallow clone: fetch the full history (`{}`), \
                     {CI_REMEDY}",
                    self.fetch_command(rev, true)
                ));
            }
            Ok(None) => {
                return Err(format!(
                    "`{rev}` and HEAD have no common ancestor (unrelated histories): choose a base revision that \
                     shares history with HEAD"
                ));
            }
            Err(err) => {
                let shallow_note = if shallow { " (this is a shallow clone)" } else { "" };
                return Err(format!(
                    "cannot find the merge base of `{rev}` and HEAD{shallow_note}: {}: fetch the full history (`{}`), \
                     {CI_REMEDY}",
                    one_line(&err),
                    self.fetch_command(rev, true)
                ));
            }
        };
        Ok(Base {
            source: Some(GitSource::Tree(self.tree_of(base)?)),
            description: format!("merge base {} of {rev} and HEAD", base.to_hex_with_len(7)),
        })
    }

    fn head_base(&self) -> Result<Base, String> {
        Ok(match self.head_commit()? {
            Some(head) => Base {
                source: Some(GitSource::Tree(self.tree_of(head)?)),
                description: format!("HEAD ({})", head.to_hex_with_len(7)),
            },
            None => Base { source: None, description: "nothing: HEAD is unborn".to_owned() },
        })
    }

    /// HEAD's commit (also when detached), or None when HEAD names a branch without commits yet.
    fn head_commit(&self) -> Result<Option<ObjectId>, String> {
        let mut head = self.0.head().map_err(|err| format!("cannot read HEAD: {}", one_line(&err)))?;
        if head.is_unborn() {
            return Ok(None);
        }
        let commit =
            head.peel_to_commit().map_err(|err| format!("cannot read the commit at HEAD: {}", one_line(&err)))?;
        Ok(Some(commit.id))
    }

    fn tree_of(&self, commit: ObjectId) -> Result<ObjectId, String> {
        self.0
            .find_commit(commit)
            .and_then(|commit| commit.tree_id())
            .map(|tree| tree.detach())
            .map_err(|err| format!("cannot read commit {commit}: {}", one_line(&err)))
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{commit_all, git, init, open, rev_parse, write};
    use super::*;
    use std::path::Path;

    fn commit(dir: &Path, rel: &str, content: &str) {
        write(dir, rel, content);
        commit_all(dir);
    }

    pub(super) fn tree_of(dir: &Path, spec: &str) -> Option<GitSource> {
        Some(GitSource::Tree(rev_parse(dir, &format!("{spec}^{{tree}}"))))
    }

    /// main: m1 - m2 - m3, feature (checked out): forked at m2, then f1.
    pub(super) fn forked(dir: &Path) {
        init(dir);
        commit(dir, "beeuni.yaml", "v1\n");
        commit(dir, "beeuni.yaml", "v2\n");
        git(dir, &["tag", "fork"]);
        git(dir, &["checkout", "-q", "-b", "feature"]);
        commit(dir, "beeuni.yaml", "feature\n");
        git(dir, &["checkout", "-q", "main"]);
        commit(dir, "beeuni.yaml", "main moved on\n");
        git(dir, &["checkout", "-q", "feature"]);
    }

    #[test]
    fn merge_base_when_the_base_branch_moved_on() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        forked(dir);
        let repo = open(dir);
        let base = repo.merge_base("main").unwrap();
        assert_eq!(base.source, tree_of(dir, "fork"));
        assert_ne!(base.source, tree_of(dir, "main"));
        let fork = rev_parse(dir, "fork").to_hex_with_len(7).to_string();
        assert_eq!(base.description, format!("merge base {fork} of main and HEAD"));
    }

    #[test]
    fn remote_tracking_branch_of_a_clone() {
        let tmp = tempfile::tempdir().unwrap();
        let upstream = tmp.path().join("upstream");
        std::fs::create_dir(&upstream).unwrap();
        init(&upstream);
        commit(&upstream, "beeuni.yaml", "v1\n");
        git(tmp.path(), &["clone", "-q", "upstream", "clone"]);
        let clone = tmp.path().join("clone");
        git(&clone, &["checkout", "-q", "-b", "feature"]);
        commit(&clone, "beeuni.yaml", "feature\n");
        commit(&upstream, "beeuni.yaml", "v2\n");
        git(&clone, &["fetch", "-q"]);

        let repo = open(&clone);
        let base = repo.merge_base("origin/main").unwrap();
        assert_eq!(base.source, tree_of(&clone, "main"));
        assert!(base.description.ends_with(" of origin/main and HEAD"), "{}", base.description);
        assert_eq!(
            repo.merge_base("origin/nope").err().unwrap(),
            "revision `origin/nope` not found: fetch it first (`git fetch origin nope`), or in GitHub Actions check \
             out with `fetch-depth: 0`"
        );
        assert_eq!(
            repo.merge_base("refs/remotes/origin/release/2.x").err().unwrap(),
            "revision `refs/remotes/origin/release/2.x` not found: fetch it first (`git fetch origin release/2.x`), \
             or in GitHub Actions check out with `fetch-depth: 0`"
        );
    }

    #[test]
    fn shallow_clone_without_the_merge_base() {
        let tmp = tempfile::tempdir().unwrap();
        let upstream = tmp.path().join("upstream");
        std::fs::create_dir(&upstream).unwrap();
        forked(&upstream);
        let url = format!("file://{}", upstream.display());
        git(
            tmp.path(),
            &["clone", "-q", "--depth", "1", "--no-single-branch", "--no-tags", "-b", "feature", &url, "all"],
        );
        git(tmp.path(), &["clone", "-q", "--depth", "1", "-b", "feature", &url, "single"]);

        let all = open(&tmp.path().join("all"));
        let err = all.merge_base("origin/main").err().unwrap();
        assert_eq!(
            err,
            "no merge base of `origin/main` and HEAD in this shallow clone: fetch the full history \
             (`git fetch --unshallow origin main`), or in GitHub Actions check out with `fetch-depth: 0`"
        );
        let err = all.merge_base("HEAD~1").err().unwrap();
        assert!(err.starts_with("revision `HEAD~1` not found in this shallow clone: "), "{err}");
        assert!(err.contains("`git fetch --unshallow origin`"), "{err}");

        let single = open(&tmp.path().join("single"));
        assert_eq!(
            single.merge_base("origin/main").err().unwrap(),
            "revision `origin/main` not found in this shallow clone: fetch it with the full history \
             (`git fetch --unshallow origin main`), or in GitHub Actions check out with `fetch-depth: 0`"
        );
        assert_eq!(single.merge_base("HEAD").unwrap().source, tree_of(&tmp.path().join("single"), "HEAD"));
    }

    #[test]
    fn unrelated_histories() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        init(dir);
        commit(dir, "a.txt", "a");
        git(dir, &["checkout", "-q", "--orphan", "other"]);
        commit(dir, "b.txt", "b");
        assert_eq!(
            open(dir).merge_base("main").err().unwrap(),
            "`main` and HEAD have no common ancestor (unrelated histories): choose a base revision that shares \
             history with HEAD"
        );
    }

    #[test]
    fn unborn_head() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        init(dir);
        write(dir, "a.txt", "a");
        git(dir, &["add", "a.txt"]);
        let repo = open(dir);
        assert_eq!(repo.head_base().unwrap(), Base { source: None, description: "nothing: HEAD is unborn".to_owned() });
        assert_eq!(
            repo.merge_base("origin/main").err().unwrap(),
            "HEAD has no commit yet: there is nothing to compare `origin/main` with"
        );
    }

    #[test]
    fn head_base_and_detached_head() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        forked(dir);
        let head = open(dir).head_base().unwrap();
        assert_eq!(head.source, tree_of(dir, "feature"));
        let short = rev_parse(dir, "feature").to_hex_with_len(7).to_string();
        assert_eq!(head.description, format!("HEAD ({short})"));

        git(dir, &["checkout", "-q", "--detach", "main"]);
        let repo = open(dir);
        assert_eq!(repo.head_base().unwrap().source, tree_of(dir, "main"));
        assert_eq!(repo.merge_base("feature").unwrap().source, tree_of(dir, "fork"));
    }
}
