//! What git knows about a checkout's work-tree files: tracked (as git sees a path through symlinks), unmodified,
//! ignored.

use super::{Checkout, Side};
use crate::repo::fs;
use crate::repo::git::{self, EntryKind, GitSource};

/// Symlinks followed on one path, so that a loop of links ends.
const MAX_LINK_HOPS: usize = 16;

impl Checkout {
    /// Is the file in the git index, as git sees a path through symlinks inside the repository: each symlink
    /// on the way tracked (git tracks a link as a link) and the file it reaches tracked? (`true` outside git.)
    pub fn is_tracked(&self, rel: &str) -> bool {
        self.untracked_part(rel).is_none()
    }

    /// The same for a folder: the links on the way tracked, and some file under the folder they reach.
    pub fn tracks_under(&self, rel_dir: &str) -> bool {
        let Some(git) = &self.git else { return true };
        if git.tracks_under(&self.git_path(rel_dir)) {
            return true;
        }
        let (links, real) = self.through_links(rel_dir);
        !links.is_empty()
            && links.iter().all(|link| git.is_tracked(&self.git_path(link)))
            && git.tracks_under(&self.git_path(&real))
    }

    /// What of `rel` git does not track, as the path `git add` takes: the first untracked symlink on the way,
    /// or the file the links reach (`git add` refuses a path "beyond a symbolic link"). `None` when tracked, and
    /// on the index's side when the index reaches it.
    pub fn untracked_part(&self, rel: &str) -> Option<String> {
        let git = self.git.as_ref()?;
        if git.is_tracked(&self.git_path(rel)) {
            return None;
        }
        // Linting the index, what it reaches through its own links is in the commit, whatever the work tree has
        // made of those links since.
        if self.is_index() && self.resolve(rel).is_ok() {
            return None;
        }
        let (links, real) = self.through_links(rel);
        match links.into_iter().find(|link| !git.is_tracked(&self.git_path(link))) {
            Some(link) => Some(link),
            None if git.is_tracked(&self.git_path(&real)) => None,
            None => Some(real),
        }
    }

    /// The work-tree symlinks inside the repository that `rel` goes through, in order, and the repo-relative
    /// path it reaches. A link that leaves the repository (or too many hops) ends the walk where it is.
    fn through_links(&self, rel: &str) -> (Vec<String>, String) {
        let mut links = Vec::new();
        let mut rest: Vec<String> = rel.split('/').rev().map(String::from).collect();
        let mut reached = String::new();
        while let Some(part) = rest.pop() {
            let here = if reached.is_empty() { part } else { format!("{reached}/{part}") };
            let target =
                (links.len() < MAX_LINK_HOPS).then(|| std::fs::read_link(self.root.join(&here)).ok()).flatten();
            let next = target.and_then(|target| {
                let target = target.to_str()?.to_string();
                let folder = fs::split_folder(&here).0;
                fs::normalize(&if folder.is_empty() { target } else { format!("{folder}/{target}") })
            });
            match next {
                Some(next) => {
                    links.push(here);
                    rest.extend(next.split('/').rev().map(String::from));
                    reached = String::new();
                }
                None => reached = here,
            }
        }
        (links, reached)
    }

    /// Does git report this work-tree file unmodified: tracked, and its bytes those of the index and of HEAD?
    /// (`false` outside git, on other sides, and for a file a pending fix rewrote.)
    pub fn is_unmodified(&self, rel: &str) -> bool {
        let (Side::WorkTree, Some(git)) = (self.side, &self.git) else { return false };
        if self.overlaid(rel).is_some() {
            return false;
        }
        let path = self.git_path(rel);
        let Some((index_id, EntryKind::File | EntryKind::Executable)) = git.entry(GitSource::Index, &path) else {
            return false;
        };
        let head = match git.head_base() {
            Ok(git::Base { source: Some(tree), .. }) => git.entry(tree, &path).map(|(id, _)| id),
            _ => None,
        };
        if head != Some(index_id) {
            return false;
        }
        if git.clean_index_id(&path, &self.root.join(rel)) == Some(index_id) {
            return true;
        }
        let Ok(bytes) = fs::read(&self.root, rel) else { return false };
        gix::objs::compute_hash(index_id.kind(), gix::objs::Kind::Blob, &bytes).is_ok_and(|hash| hash == index_id)
    }

    pub fn is_ignored(&self, rel: &str) -> bool {
        self.git.as_ref().is_some_and(|git| git.is_ignored(&self.git_path(rel), false))
    }
}
