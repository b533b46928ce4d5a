//! What a module may cost: its size is checked before it is read (oxc's tree of a module takes some 40 bytes a
//! byte of it), and a large one is parsed by one thread at a time, its arena given back after its turn, so that a
//! run's peak memory does not grow with the largest module of the repository nor with the threads.

use super::facts::{Collected, NotAnalysed};
use super::{Analysed, Body, analyse};
use crate::modules::facts::ModuleFacts;
use oxc_allocator::Allocator;
use std::cell::RefCell;

/// The largest tool module or helper analysed unless `[limits] module-bytes` says otherwise (2 MiB): a 30 MB module
/// took 1.1 to 1.4 GB (a 2 GB CI container dies of a few), and no real tool module is near this size. A larger one
/// is neither read nor parsed: `analysis-limit` says so.
pub const MODULE_BYTES: u64 = 2 << 20;

/// A module longer than this is parsed by one thread at a time ([`LARGE`]): the run's peak stays that of one module
/// at the limit and a few ordinary ones, however many threads there are.
const LARGE_BYTES: usize = 256 << 10;
/// Taken while a module over [`LARGE_BYTES`] is parsed and analysed.
static LARGE: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Analyses `text` with the thread's `allocator`, in its turn when it is large.
pub(super) fn analyse_in_turn(path: &str, text: &str, allocator: &RefCell<Allocator>) -> ModuleFacts {
    // A poisoned lock guards nothing but the turn: it is taken all the same.
    let turn = (text.len() > LARGE_BYTES).then(|| LARGE.lock().unwrap_or_else(|e| e.into_inner()));
    let facts = analyse::analyse(path, text, &mut allocator.borrow_mut());
    // The arena keeps the room a large module's tree took: given back before the turn passes, or each thread would
    // hold that of the largest module it parsed (ten modules of 2 MiB on two threads: 173 MiB, 101 without).
    if turn.is_some() {
        *allocator.borrow_mut() = Allocator::default();
    }
    facts
}

/// The facts of a module of `size` bytes, more than the `limit` of a module analysed: neither read nor parsed.
pub(super) fn too_large(size: u64, limit: u64) -> Analysed {
    let why = format!(
        "is {size} bytes, more than the {limit} bytes of a module beeuni-lint analyses (`module-bytes` of `[limits]` in beeuni-lint.toml)"
    );
    let not_analysed = Some(NotAnalysed { span: Default::default(), why });
    let facts = Collected { not_analysed, ..Default::default() }.into();
    (Body::Held(String::new()), Box::new(facts), None)
}
