//! Where a module's text that was let go is read again (see [`crate::source::Text`]): the same checkout source it
//! was first read from.

use super::fs::{RealPath, read_resolved};
use super::git::GitRepo;
use crate::source::ReadAgain;
use gix::ObjectId;
use std::sync::Arc;

pub enum Reread {
    /// A work-tree file, as [`super::fs::resolve`] found it inside the repository (never a symlink out).
    Disk(RealPath),
    /// A git blob (a file of the index or of a commit's tree).
    Blob(Arc<GitRepo>, ObjectId),
}

impl ReadAgain for Reread {
    fn read_again(&self) -> Option<Vec<u8>> {
        match self {
            Reread::Disk(real) => read_resolved(&real.path()).ok(),
            Reread::Blob(git, id) => git.read_blob(*id).ok(),
        }
    }
}

impl std::fmt::Display for Reread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reread::Disk(real) => write!(f, "{}", real.path().display()),
            Reread::Blob(_, id) => write!(f, "blob {id}"),
        }
    }
}
