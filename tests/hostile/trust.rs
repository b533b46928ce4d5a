//! Hostile inputs: trust.

#[allow(unused_imports)]
use crate::support::*;
