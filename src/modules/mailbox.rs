//! The way back from the analysis threads to the thread that takes the analyses in order ([`super::schedule`]):
//! the threads add each batch's outcome to a list, and that thread takes the list whole. It sleeps only when the
//! module it needs next is in no batch handed back yet, and only the batch that holds that module wakes it. Through
//! a channel (std's `mpsc`), every batch sent while it slept woke it, and sender and receiver took turns at the
//! channel's lock: nine in ten of the run's `futex` calls at 2,000 modules were the channel's.

use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

pub struct Mailbox<T> {
    state: Mutex<State<T>>,
    arrived: Condvar,
}

struct State<T> {
    ready: Vec<T>,
    /// The module the taking thread sleeps until, while it sleeps.
    wanted: Option<usize>,
    /// Whether what `wanted` waits for has come.
    woken: bool,
}

impl<T> Mailbox<T> {
    pub fn new() -> Self {
        Mailbox { state: Mutex::new(State { ready: Vec::new(), wanted: None, woken: false }), arrived: Condvar::new() }
    }

    fn lock(&self) -> MutexGuard<'_, State<T>> {
        // Nothing panics while the lock is held: the list is whole whatever a thread did after it let go.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Adds an outcome; `holds` says whether it is the one a sleeping taker waits for (given the module it wants).
    pub fn put(&self, outcome: T, holds: impl FnOnce(&T, usize) -> bool) {
        let mut state = self.lock();
        let wake = state.wanted.is_some_and(|wanted| holds(&outcome, wanted));
        state.ready.push(outcome);
        state.woken |= wake;
        drop(state);
        if wake {
            self.arrived.notify_one();
        }
    }

    /// Moves every outcome in so far to `into`, without waiting.
    pub fn take(&self, into: &mut Vec<T>) {
        into.append(&mut self.lock().ready);
    }

    /// Moves every outcome in so far to `into`; if there is none, first waits for the one that holds module
    /// `wanted`, which must be on its way (its batch handed over, its outcome not taken).
    pub fn take_waiting(&self, wanted: usize, into: &mut Vec<T>) {
        let mut state = self.lock();
        if state.ready.is_empty() {
            (state.wanted, state.woken) = (Some(wanted), false);
            while !state.woken {
                state = self.arrived.wait(state).unwrap_or_else(PoisonError::into_inner);
            }
            state.wanted = None;
        }
        into.append(&mut state.ready);
    }
}

#[cfg(test)]
mod tests {
    use super::Mailbox;
    use std::sync::Arc;

    /// A taker waiting for module 5 sleeps through a batch without it, wakes for the one that holds it, and takes
    /// both; outcomes in already are taken without waiting.
    #[test]
    fn the_taker_wakes_for_the_module_it_waits_for_only() {
        let mailbox: Arc<Mailbox<Vec<usize>>> = Arc::new(Mailbox::new());
        let holds = |batch: &Vec<usize>, wanted| batch.contains(&wanted);
        let taker = {
            let mailbox = Arc::clone(&mailbox);
            std::thread::spawn(move || {
                let mut into = Vec::new();
                mailbox.take_waiting(5, &mut into);
                into
            })
        };
        while mailbox.lock().wanted.is_none() {
            std::thread::yield_now();
        }
        mailbox.put(vec![1, 2], holds);
        let state = mailbox.lock();
        assert_eq!((state.wanted, state.woken, state.ready.len()), (Some(5), false, 1));
        drop(state);
        mailbox.put(vec![4, 5], holds);
        assert_eq!(taker.join().unwrap(), [vec![1, 2], vec![4, 5]]);
        assert_eq!(mailbox.lock().wanted, None);

        mailbox.put(vec![6], holds);
        let mut into = Vec::new();
        mailbox.take_waiting(9, &mut into);
        assert_eq!(into, [vec![6]]);
    }
}
