//! Hostile inputs: bounds.

#[allow(unused_imports)]
use crate::support::*;
