//! Where files come from: safe reads inside the repository, and git through gix.

pub mod checkout;
pub mod folders;
pub mod fs;
pub mod git;
pub mod given;
pub mod watch;
