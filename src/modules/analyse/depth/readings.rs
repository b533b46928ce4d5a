//! Every reading of the text the scan cannot tell apart: a `/` after a `}`, after a word that is an operator or a
//! name, or after `++`/`--`, may divide or start a regular expression, and the two readings hide different text
//! (a quote in a regular expression read as a division starts a string to the end of the line; a division read as
//! a regular expression hides the text to the next `/`). Both are followed, token by token, the one behind first,
//! until they meet (the same place, the same state: one goes on, with the heavier stack) or one is read as a
//! regular expression the line ends first (the parser stops there). A text too deep in any reading is refused.

use super::{Scanner, TooDeep};

/// Readings followed at once; a text that keeps more apart is refused.
const MAX_READINGS: usize = 16;

/// Scans from `first` (the reading the scan's own guesses make, whose comments are kept) and every other reading
/// its ambiguous `/` open.
pub(super) fn follow(first: Scanner) -> (Option<TooDeep>, Vec<(usize, usize)>) {
    let mut readings = vec![first];
    let too_deep = run(&mut readings).err();
    (too_deep, std::mem::take(&mut readings[0].comments))
}

fn run(readings: &mut Vec<Scanner>) -> Result<(), TooDeep> {
    loop {
        // One reading (nearly always): no choosing, no meeting.
        if readings.len() == 1 {
            readings[0].run_to_ambiguous_slash()?;
        }
        let Some(k) = (0..readings.len()).min_by_key(|&k| readings[k].i) else { return Ok(()) };
        let reading = &mut readings[k];
        if reading.i >= reading.bytes.len() {
            return Ok(());
        }
        if reading.at_ambiguous_slash() {
            if readings.len() == MAX_READINGS {
                let at = readings[k].i;
                let message = format!(
                    "has {MAX_READINGS} places in a row where a `/` may divide or start a regular expression, more than beeuni-lint follows"
                );
                return Err(TooDeep { at, message });
            }
            let mut other = readings[k].clone();
            other.comments = Vec::new();
            other.regex_ok = !other.regex_ok;
            other.ambiguous = false;
            readings.push(other);
        }
        readings[k].step()?;
        if k > 0 && std::mem::take(&mut readings[k].unterminated) {
            readings.swap_remove(k);
            continue;
        }
        readings[0].unterminated = false;
        if let Some(j) = (0..readings.len()).find(|&j| j != k && same_place(&readings[j], &readings[k])) {
            meet(readings, j.min(k), j.max(k));
        }
    }
}

fn same_place(a: &Scanner, b: &Scanner) -> bool {
    a.i == b.i
        && a.regex_ok == b.regex_ok
        && a.unary_ok == b.unary_ok
        && a.after_control == b.after_control
        && a.after_end == b.after_end
        && a.ambiguous == b.ambiguous
}

/// Two readings met: the first (by index, so the scan's own reading stays first) goes on with the heavier stack.
fn meet(readings: &mut Vec<Scanner>, keep: usize, drop: usize) {
    let weight = |r: &Scanner| r.stack.last().map_or(0, |top| top.weight());
    if weight(&readings[drop]) > weight(&readings[keep]) {
        let stack = std::mem::take(&mut readings[drop].stack);
        readings[keep].stack = stack;
    }
    readings.swap_remove(drop);
}
