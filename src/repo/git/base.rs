//! The base of a change-aware run: the merge base of a revision and HEAD (`--base`), or HEAD itself (`--staged`).

use gix::ObjectId;
use gix::object::Kind;

use super::{GitRepo, GitSource, one_line};

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

    /// The commit `rev` names, peeling annotated tags.
    fn resolve_commit(&self, rev: &str, shallow: bool) -> Result<ObjectId, String> {
        let not_found = || {
            if shallow {
                format!(
                    "revision `{rev}` not found in this shallow clone: fetch it with the full history (`{}`), \
                     {CI_REMEDY}",
                    self.fetch_command(rev, true)
                )
            } else {
                self.not_found(rev)
            }
        };
        let id = match self.0.rev_parse_single(rev) {
            Ok(id) => id,
            Err(err) if is_ambiguous(&err) => {
                return Err(format!(
                    "revision `{rev}` is ambiguous: give more hexadecimal digits or a full reference name"
                ));
            }
            // Like git's "unknown revision": also `HEAD~3` past the first commit or a shallow boundary, or a spec
            // that does not parse. Only failures to read the repository are reported as such.
            Err(err) if err.is_not_found() || err.is_validation() => return Err(not_found()),
            Err(err) => return Err(format!("cannot resolve revision `{rev}`: {}", one_line(&err))),
        };
        // A full hexadecimal id resolves without looking at the object database.
        let object = match id.try_object() {
            Ok(Some(object)) => object,
            Ok(None) => return Err(not_found()),
            Err(err) => return Err(format!("cannot read revision `{rev}`: {}", one_line(&err))),
        };
        let object = match object.peel_tags_to_end() {
            Ok(object) => object,
            Err(err) if err.is_not_found() => return Err(not_found()),
            Err(err) => return Err(format!("cannot read revision `{rev}`: {}", one_line(&err))),
        };
        if object.kind != Kind::Commit {
            return Err(format!("revision `{rev}` names a {}, not a commit", object.kind));
        }
        Ok(object.id)
    }

    /// Why a revision of a complete clone is not there, and what to do: an ancestor past the first commit does
    /// not exist; a name near a branch or tag is a typo; anything else may need fetching, when there is a remote.
    fn not_found(&self, rev: &str) -> String {
        let (start, walk) = match rev.find(['~', '^']) {
            Some(at) if at > 0 => (&rev[..at], &rev[at..]),
            _ => (rev, ""),
        };
        if !walk.is_empty() && self.0.rev_parse_single(start).is_ok() {
            return format!(
                "revision `{rev}` does not exist: the history of `{start}` does not reach back that far (count the commits with `git log --oneline {start}`)"
            );
        }
        let names = self.ref_names();
        let near = crate::rules::names::near_matches(start, names.iter().map(String::as_str));
        if !near.is_empty() {
            let near: Vec<String> = near.iter().map(|name| format!("{name}{walk}")).collect();
            let near: Vec<&str> = near.iter().map(String::as_str).collect();
            return format!("revision `{rev}` not found: did you mean {}?", crate::rules::names::one_of(&near));
        }
        if self.0.remote_names().is_empty() {
            return format!(
                "revision `{rev}` not found: no branch, tag or commit of that name, and this repository has no remote to fetch it from"
            );
        }
        format!("revision `{rev}` not found: fetch it first (`{}`), {CI_REMEDY}", self.fetch_command(rev, false))
    }

    /// The short names of every branch, remote branch and tag (`main`, `origin/main`, `v1.0`).
    fn ref_names(&self) -> Vec<String> {
        let Ok(platform) = self.0.references() else { return Vec::new() };
        let Ok(all) = platform.all() else { return Vec::new() };
        let mut names: Vec<String> = all.filter_map(Result::ok).map(|r| r.name().shorten().to_string()).collect();
        names.sort();
        names.dedup();
        names
    }

    /// The `git fetch` that brings `rev` (and, if `unshallow`, all history behind it) into this repository.
    fn fetch_command(&self, rev: &str, unshallow: bool) -> String {
        let fetch = if unshallow { "git fetch --unshallow" } else { "git fetch" };
        let remotes: Vec<String> = self.0.remote_names().into_iter().map(|name| name.to_string()).collect();
        let tracking = rev.strip_prefix("refs/remotes/").unwrap_or(rev);
        for remote in &remotes {
            if let Some(branch) = tracking.strip_prefix(remote.as_str()).and_then(|rest| rest.strip_prefix('/'))
                && !branch.is_empty()
            {
                return format!("{fetch} {remote} {branch}");
            }
        }
        let remote = match remotes.iter().find(|name| *name == "origin").or(remotes.first()) {
            Some(remote) => remote.as_str(),
            None => "origin",
        };
        // A branch, tag or commit id can be fetched by name; `HEAD~3` and other expressions cannot.
        let plain = !rev.is_empty()
            && !rev.starts_with("HEAD")
            && !rev.contains(['~', '^', ':', '@', ' '])
            && !rev.contains("..");
        if plain { format!("{fetch} {remote} {rev}") } else { format!("{fetch} {remote}") }
    }
}

/// A short id that matches several objects (or an object and a reference).
fn is_ambiguous(err: &gix::Error) -> bool {
    use gix::revision::spec::parse::Error;
    matches!(err.downcast_any_ref::<Error>(), Some(Error::AmbiguousPrefix { .. } | Error::AmbiguousRefAndObject { .. }))
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

    fn tree_of(dir: &Path, spec: &str) -> Option<GitSource> {
        Some(GitSource::Tree(rev_parse(dir, &format!("{spec}^{{tree}}"))))
    }

    /// main: m1 - m2 - m3, feature (checked out): forked at m2, then f1.
    fn forked(dir: &Path) {
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
    fn revisions_by_ancestry_tag_and_id() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        forked(dir);
        git(dir, &["tag", "-a", "-m", "annotated", "v1.0", "fork"]);
        let repo = open(dir);
        let fork = tree_of(dir, "fork");
        assert_eq!(repo.merge_base("HEAD~1").unwrap().source, fork);
        assert_eq!(repo.merge_base("fork").unwrap().source, fork);
        assert_eq!(repo.merge_base("v1.0").unwrap().source, fork, "annotated tags peel to their commit");
        let full = rev_parse(dir, "main").to_string();
        assert_eq!(repo.merge_base(&full).unwrap().source, fork);
        assert_eq!(repo.merge_base(&full[..10]).unwrap().source, fork);
        assert_eq!(repo.merge_base("HEAD").unwrap().source, tree_of(dir, "HEAD"));
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
    fn missing_revisions() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        forked(dir);
        let repo = open(dir);
        // No remote to fetch from: the name is simply not there.
        assert_eq!(
            repo.merge_base("develop").err().unwrap(),
            "revision `develop` not found: no branch, tag or commit of that name, and this repository has no remote \
             to fetch it from"
        );
        let absent = "1234567890123456789012345678901234567890";
        let err = repo.merge_base(absent).err().unwrap();
        assert!(err.starts_with(&format!("revision `{absent}` not found: ")), "{err}");
        let err = repo.merge_base("HEAD~10").err().unwrap();
        assert!(err.starts_with("revision `HEAD~10` does not exist: "), "{err}");
        let err = repo.merge_base("HEAD^{tree}").err().unwrap();
        assert_eq!(err, "revision `HEAD^{tree}` names a tree, not a commit");
        for err in [absent, "HEAD~10", "HEAD^{tree}", "main..feature"].map(|rev| repo.merge_base(rev).err().unwrap()) {
            assert!(!err.contains('\n'), "{err}");
        }
    }

    #[test]
    fn ambiguous_short_id() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        forked(dir);
        // Among 1,000 objects, two share their first four hex digits with near certainty.
        let blobs: Vec<String> = (0..1000).map(|n| format!("blob-{n}")).collect();
        for blob in &blobs {
            write(dir, blob, blob);
        }
        let out = std::process::Command::new("git")
            .args(["hash-object", "-w"])
            .args(&blobs)
            .current_dir(dir)
            .output()
            .unwrap();
        let mut ids: Vec<String> = String::from_utf8(out.stdout).unwrap().lines().map(str::to_owned).collect();
        ids.sort();
        let prefix =
            ids.windows(2).find(|pair| pair[0][..4] == pair[1][..4]).expect("a shared prefix")[0][..4].to_owned();
        assert_eq!(
            open(dir).merge_base(&prefix).err().unwrap(),
            format!("revision `{prefix}` is ambiguous: give more hexadecimal digits or a full reference name")
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
