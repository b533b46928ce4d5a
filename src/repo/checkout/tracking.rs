//! What git knows about a checkout's work-tree files: tracked (as git sees a path through symlinks), unmodified,
//! ignored; and how a finding words a file git does not track ([`Untracked`]).

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

    /// How git sees `rel` when it does not track it (`None` when it does, and outside git).
    pub fn untracked(&self, rel: &str) -> Option<Untracked> {
        self.untracked_part(rel).map(|part| self.untracked_through(rel, part))
    }

    /// How git sees `rel`, a file the side linted lacks (only in the work tree while the index is linted): what of
    /// it git does not track, or the file itself.
    pub fn unstaged(&self, rel: &str) -> Untracked {
        self.untracked_through(rel, self.untracked_part(rel).unwrap_or_else(|| rel.to_string()))
    }

    /// `rel`, of which git does not track `part` (the file, or a symlink on its way, or the file the links reach).
    fn untracked_through(&self, rel: &str, part: String) -> Untracked {
        let ignored = self.is_ignored(&part);
        let part = (part != rel).then(|| part.into_boxed_str());
        Untracked { part, ignored, staged: self.is_index() }
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
            let target = (links.len() < MAX_LINK_HOPS)
                .then(|| {
                    let path = self.root.join(&here);
                    crate::repo::watch::note(&path);
                    std::fs::read_link(path).ok()
                })
                .flatten();
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

/// A file git does not track, as a finding describes it: found once, when the model is built (each symlink on
/// its way read then), so that the rules read it from the model. Kept for every untracked file a project names
/// (all of them, in a repository nothing was committed to yet): a few bytes each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Untracked {
    /// What to `git add` when it is not the file itself (project-relative): the first untracked symlink on the
    /// way, or the file the links reach (`git add` refuses a path beyond a symbolic link).
    pub part: Option<Box<str>>,
    /// A `.gitignore` rule matches what to add: a plain `git add` refuses it.
    pub ignored: bool,
    /// The run lints the index (`--staged`): the commit being made lacks the file.
    pub staged: bool,
}

impl Untracked {
    /// An error (the file cannot be in the release or the commit as things stand), not a reminder.
    pub fn is_error(&self) -> bool {
        self.ignored || self.staged
    }

    /// The message and help of a finding on the untracked `rel` (project-relative; `git_prefix` is where the
    /// project lies in the repository), a `what` (`module`, `imported file`): said once here for every
    /// `file-untracked` finding, the manifest loader's unstaged imports included.
    pub fn wording(&self, rel: &str, git_prefix: &str, what: &str) -> (String, String) {
        // Named as git names it (relative to the work tree root), so the help's `git add` works from the top.
        let git_path = |rel: &str| if git_prefix.is_empty() { rel.to_string() } else { format!("{git_prefix}/{rel}") };
        let (path, part) = (git_path(rel), git_path(self.part.as_deref().unwrap_or(rel)));
        let subject = if part == path {
            format!("{what} `{path}`")
        } else if path.starts_with(&format!("{part}/")) {
            format!("{what} `{path}` goes through the symlink `{part}`, which")
        } else {
            format!("{what} `{path}` leads through a symlink to `{part}`, which")
        };
        let path = part;
        if self.ignored {
            (
                format!("{subject} is ignored by git: a config release contains only files Git tracks"),
                // A plain `git add` refuses an ignored path: say so, and give the command that works.
                format!(
                    "`{path}` is ignored by git (a `.gitignore` rule matches it), so a plain `git add` refuses it: remove that rule, or add it anyway with `git add -f {path}`"
                ),
            )
        } else if self.staged {
            (
                format!("{subject} is not staged: the commit being made does not contain it"),
                format!("run `git add {path}`"),
            )
        } else {
            (
                format!("{subject} is not tracked by git yet: a config release contains only files Git tracks"),
                format!("run `git add {path}`"),
            )
        }
    }
}
