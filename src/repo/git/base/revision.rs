//! The revision `--base` names, resolved to a commit; when it is not there, a one-line error that says why and
//! how to fetch it.

use gix::ObjectId;
use gix::object::Kind;

use super::{CI_REMEDY, Locked};
use crate::repo::git::one_line;

impl Locked<'_> {
    /// The commit `rev` names, peeling annotated tags.
    pub(super) fn resolve_commit(&self, rev: &str, shallow: bool) -> Result<ObjectId, String> {
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
        let near = crate::suggest::near_matches(start, names.iter().map(String::as_str));
        if !near.is_empty() {
            let near: Vec<String> = near.iter().map(|name| format!("{name}{walk}")).collect();
            let near: Vec<&str> = near.iter().map(String::as_str).collect();
            return format!("revision `{rev}` not found: did you mean {}?", crate::suggest::one_of(&near));
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
    pub(super) fn fetch_command(&self, rev: &str, unshallow: bool) -> String {
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
    use crate::repo::git::base::tests::{forked, tree_of};
    use crate::repo::git::tests::{git, open, rev_parse, write};

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
}
