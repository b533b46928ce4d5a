//! Hostile inputs: output.

#[allow(unused_imports)]
use crate::support::*;
