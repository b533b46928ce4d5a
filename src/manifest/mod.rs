//! The manifest graph and what it declares.

pub mod agents;
pub mod load;
pub mod tools;
