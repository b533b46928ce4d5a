//! Hostile inputs: regex.

#[allow(unused_imports)]
use crate::support::*;
