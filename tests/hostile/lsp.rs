//! Hostile inputs: lsp.

#[allow(unused_imports)]
use crate::support::*;
