//! Which lines of a file a change added or modified: Myers' line diff in linear space, without recursion.

use std::collections::HashMap;
use std::ops::Range;

/// Lines of `new` (1-based numbers) that a line diff from `old` to `new` marks as added or modified.
/// `old` of `None` (file added) means every line of `new`.
///
/// A line includes its `\n`, so a `\r` before it is part of the line (CRLF and LF versions of a line differ), and a
/// last line that gains or loses its newline counts as modified, as in `git diff`. Deleted lines mark nothing.
/// The diff is minimal: O((N+M)·D) time and O(N+M) space.
pub fn changed_lines(old: Option<&str>, new: &str) -> Vec<usize> {
    let new_lines: Vec<&str> = new.split_inclusive('\n').collect();
    let Some(old) = old else {
        return (1..=new_lines.len()).collect();
    };

    // Numbering distinct lines makes every later comparison an integer compare.
    let mut ids: HashMap<&str, usize> = HashMap::new();
    let old_ids = number(&mut ids, old.split_inclusive('\n'));
    let new_ids = number(&mut ids, new_lines.iter().copied());
    let mut in_old = vec![false; ids.len()];
    let mut in_new = vec![false; ids.len()];
    old_ids.iter().for_each(|&id| in_old[id] = true);
    new_ids.iter().for_each(|&id| in_new[id] = true);

    // A line only one side has can never be matched, so leaving it out keeps the LCS (the diff stays minimal) while
    // making D small even when most lines changed.
    let mut changed = vec![false; new_ids.len()];
    let old_kept: Vec<usize> = old_ids.into_iter().filter(|&id| in_new[id]).collect();
    let mut new_kept = Vec::new();
    let mut new_kept_at = Vec::new();
    for (at, &id) in new_ids.iter().enumerate() {
        if in_old[id] {
            new_kept.push(id);
            new_kept_at.push(at);
        } else {
            changed[at] = true;
        }
    }
    for kept in inserted(&old_kept, &new_kept) {
        changed[new_kept_at[kept]] = true;
    }
    changed.iter().enumerate().filter_map(|(at, &changed)| changed.then_some(at + 1)).collect()
}

/// The number of each line, the same for equal lines.
fn number<'a>(ids: &mut HashMap<&'a str, usize>, lines: impl Iterator<Item = &'a str>) -> Vec<usize> {
    lines
        .map(|line| {
            let next = ids.len();
            *ids.entry(line).or_insert(next)
        })
        .collect()
}

/// Indices into `b` that a shortest edit script from `a` to `b` inserts, in no particular order.
///
/// Myers' divide and conquer: strip the common prefix and suffix, find the middle snake of an optimal path, and
/// split there. An explicit work list replaces recursion.
fn inserted(a: &[usize], b: &[usize]) -> Vec<usize> {
    let max_d = (a.len() + b.len()).div_ceil(2) + 1;
    let mut forward = Diagonals::new(max_d);
    let mut backward = Diagonals::new(max_d);
    let mut result = Vec::new();
    let mut todo: Vec<(Range<usize>, Range<usize>)> = vec![(0..a.len(), 0..b.len())];
    while let Some((mut a_range, mut b_range)) = todo.pop() {
        let prefix = common_len(a[a_range.clone()].iter(), b[b_range.clone()].iter());
        a_range.start += prefix;
        b_range.start += prefix;
        let suffix = common_len(a[a_range.clone()].iter().rev(), b[b_range.clone()].iter().rev());
        a_range.end -= suffix;
        b_range.end -= suffix;
        if a_range.is_empty() || b_range.is_empty() {
            result.extend(b_range);
            continue;
        }
        let (a_part, b_part) = (&a[a_range.clone()], &b[b_range.clone()]);
        match middle_snake(a_part, b_part, &mut forward, &mut backward) {
            // Each half has a shorter edit script than the whole, so the work list runs dry.
            Some((x, y)) if (x, y) != (0, 0) && (x, y) != (a_part.len(), b_part.len()) => {
                todo.push((a_range.start..a_range.start + x, b_range.start..b_range.start + y));
                todo.push((a_range.start + x..a_range.end, b_range.start + y..b_range.end));
            }
            // Unreachable for a correct search; marking the whole range keeps the answer safe (a superset).
            _ => result.extend(b_range),
        }
    }
    result
}

fn common_len<'a>(a: impl Iterator<Item = &'a usize>, b: impl Iterator<Item = &'a usize>) -> usize {
    a.zip(b).take_while(|(a, b)| a == b).count()
}

/// The furthest x reached on each diagonal k = x - y, for k in -max_d..=max_d.
struct Diagonals {
    x: Vec<usize>,
    offset: isize,
}

impl Diagonals {
    fn new(max_d: usize) -> Self {
        Diagonals { x: vec![0; 2 * max_d + 3], offset: max_d as isize + 1 }
    }

    fn slot(&self, k: isize) -> usize {
        (k + self.offset) as usize
    }

    fn get(&self, k: isize) -> usize {
        self.x[self.slot(k)]
    }

    fn set(&mut self, k: isize, x: usize) {
        let slot = self.slot(k);
        self.x[slot] = x;
    }
}

/// A point (x, y) on a shortest edit path from (0, 0) to (a.len(), b.len()) with about half of the edits on each
/// side: the search runs forward from the start and backward from the end until the two frontiers overlap.
/// `a` and `b` are non-empty and differ in their first and last elements.
fn middle_snake(a: &[usize], b: &[usize], forward: &mut Diagonals, backward: &mut Diagonals) -> Option<(usize, usize)> {
    let (n, m) = (a.len(), b.len());
    let delta = n as isize - m as isize;
    let odd = delta % 2 != 0;
    forward.set(1, 0);
    backward.set(1, 0);
    let d_max = (n + m).div_ceil(2) as isize + 1;
    for d in 0..d_max {
        for k in (-d..=d).rev().step_by(2) {
            let mut x = if k == -d || (k != d && forward.get(k - 1) < forward.get(k + 1)) {
                forward.get(k + 1)
            } else {
                forward.get(k - 1) + 1
            };
            let mut y = (x as isize - k) as usize;
            let start = (x, y);
            while x < n && y < m && a[x] == b[y] {
                x += 1;
                y += 1;
            }
            forward.set(k, x);
            // Backward diagonal `delta - k` is forward diagonal `k`; it was searched with d - 1 edits.
            if odd && (k - delta).abs() < d && x + backward.get(delta - k) >= n {
                return Some(start);
            }
        }
        for k in (-d..=d).rev().step_by(2) {
            // Here x and y count elements from the ends of `a` and `b`.
            let mut x = if k == -d || (k != d && backward.get(k - 1) < backward.get(k + 1)) {
                backward.get(k + 1)
            } else {
                backward.get(k - 1) + 1
            };
            let mut y = (x as isize - k) as usize;
            while x < n && y < m && a[n - x - 1] == b[m - y - 1] {
                x += 1;
                y += 1;
            }
            backward.set(k, x);
            if !odd && (k - delta).abs() <= d && x + forward.get(delta - k) >= n {
                return Some((n - x, m - y));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn added_file_is_every_line() {
        assert_eq!(changed_lines(None, "a\nb\nc"), vec![1, 2, 3]);
        assert_eq!(changed_lines(None, ""), Vec::<usize>::new());
        assert_eq!(changed_lines(Some(""), "a\n"), vec![1]);
    }

    #[test]
    fn unchanged_file_is_nothing() {
        assert_eq!(changed_lines(Some("a\nb\n"), "a\nb\n"), Vec::<usize>::new());
        assert_eq!(changed_lines(Some(""), ""), Vec::<usize>::new());
    }

    #[test]
    fn inserted_lines() {
        assert_eq!(changed_lines(Some("a\nb\nc\n"), "a\nx\ny\nb\nc\n"), vec![2, 3]);
        assert_eq!(changed_lines(Some("a\nb\n"), "x\na\nb\ny\n"), vec![1, 4]);
    }

    #[test]
    fn modified_line() {
        assert_eq!(changed_lines(Some("a\nb\nc\n"), "a\nB\nc\n"), vec![2]);
    }

    #[test]
    fn deleted_lines_only_mark_nothing() {
        assert_eq!(changed_lines(Some("a\nb\nc\nd\n"), "a\nd\n"), Vec::<usize>::new());
        assert_eq!(changed_lines(Some("a\nb\n"), ""), Vec::<usize>::new());
    }

    #[test]
    fn crlf_is_part_of_the_line() {
        assert_eq!(changed_lines(Some("a\r\nb\r\nc\r\n"), "a\r\nb\nc\r\n"), vec![2]);
        assert_eq!(changed_lines(Some("a\nb\n"), "a\r\nb\r\n"), vec![1, 2]);
    }

    #[test]
    fn a_missing_final_newline_is_a_change_of_the_last_line() {
        assert_eq!(changed_lines(Some("a\nb"), "a\nb\n"), vec![2]);
        assert_eq!(changed_lines(Some("a\nb\n"), "a\nb\nc"), vec![3]);
    }

    #[test]
    fn repeated_lines_are_matched_minimally() {
        let old = "{\n}\n{\n}\n";
        let new = "{\n}\n{\nx\n}\n{\n}\n";
        assert_eq!(changed_lines(Some(old), new).len(), 3);
    }

    /// Longest common subsequence length, by dynamic programming.
    fn lcs(a: &[u8], b: &[u8]) -> usize {
        let mut table = vec![vec![0usize; b.len() + 1]; a.len() + 1];
        for i in (0..a.len()).rev() {
            for j in (0..b.len()).rev() {
                table[i][j] = if a[i] == b[j] { table[i + 1][j + 1] + 1 } else { table[i + 1][j].max(table[i][j + 1]) };
            }
        }
        table[0][0]
    }

    #[test]
    fn random_inputs_give_minimal_valid_diffs() {
        // A small linear congruential generator keeps the test deterministic without a dependency.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |bound: u64| {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            ((state >> 33) % bound) as usize
        };
        for _ in 0..20_000 {
            let (old_len, new_len, alphabet) = (next(10), next(10), 1 + next(4) as u64);
            let old: Vec<u8> = (0..old_len).map(|_| b'a' + next(alphabet) as u8).collect();
            let new: Vec<u8> = (0..new_len).map(|_| b'a' + next(alphabet) as u8).collect();
            let text = |lines: &[u8]| lines.iter().map(|&c| format!("{}\n", c as char)).collect::<String>();
            let changed = changed_lines(Some(&text(&old)), &text(&new));
            assert_eq!(changed.len(), new.len() - lcs(&old, &new), "{old:?} -> {new:?}: {changed:?}");
            // The unmarked lines of `new` must appear in `old` in the same order.
            let kept: Vec<u8> = (1..=new.len()).filter(|n| !changed.contains(n)).map(|n| new[n - 1]).collect();
            let mut rest = old.iter();
            assert!(kept.iter().all(|c| rest.any(|o| o == c)), "{old:?} -> {new:?}: {changed:?}");
        }
    }

    #[test]
    fn a_large_file_with_one_change_is_fast() {
        let old: String = (0..100_000).map(|n| format!("line {}\n", n % 1000)).collect();
        let mut lines: Vec<String> = old.lines().map(|line| format!("{line}\n")).collect();
        lines[50_000] = "changed\n".to_owned();
        lines.insert(70_000, "inserted\n".to_owned());
        let new: String = lines.concat();
        let start = std::time::Instant::now();
        assert_eq!(changed_lines(Some(&old), &new), vec![50_001, 70_001]);
        assert!(start.elapsed().as_secs() < 2, "took {:?}", start.elapsed());
    }

    #[test]
    fn many_scattered_changes_among_repeated_lines_stay_fast() {
        // Few distinct lines, so filtering out unique lines does not help; D is about 400.
        let old: String = (0..100_000).map(|n| format!("{}\n", ["{", "}", "", "x"][n % 4])).collect();
        let mut lines: Vec<String> = old.lines().map(|line| format!("{line}\n")).collect();
        for at in (0..100_000).step_by(500) {
            lines[at] = "y\n".to_owned();
        }
        let new: String = lines.concat();
        let start = std::time::Instant::now();
        assert_eq!(changed_lines(Some(&old), &new).len(), 200);
        assert!(start.elapsed().as_secs() < 5, "took {:?}", start.elapsed());
    }
}
