//! Runs the binary as the hostile suite needs: with its CPU time and peak memory measured by the kernel
//! (`wait4`'s resource usage of that one child) and its wall time by the clock, its outputs checked for raw control bytes, and a folder outside
//! the repository whose files must neither leak into the output nor change.

#![allow(dead_code)] // each attack file uses a part of these helpers

use std::io::{Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tempfile::TempDir;

pub use crate::common::{git, write};

/// Every attack must cost at most this CPU time (user + system, all of the run's threads). The bound is 2 s
/// on a release build; the test binary is a debug build (its dependencies at opt-level 1), measured at up to 4 times
/// slower here.
///
/// CPU time, not wall time: the work an attack makes the linter do is what it controls, and the kernel counts it
/// whatever else runs. The wall time of the same run is the machine's: on two cores shared with other builds, the
/// run that used 4.6-4.9 s of CPU took 8.1 to 21 s by the clock, and a wall-time bound failed on load alone.
pub const TIME_LIMIT: Duration = if cfg!(debug_assertions) { Duration::from_secs(8) } else { Duration::from_secs(2) };
/// A run waiting on something (a read that blocks, a sleep, a lock) uses no CPU, so [`TIME_LIMIT`] cannot see it:
/// this much larger wall-clock cap catches such a hang, far above what any load makes of a bounded run.
pub const WALL_LIMIT: Duration = Duration::from_secs(60);
/// And within this peak resident memory.
pub const MEMORY_LIMIT_BYTES: u64 = 200 * 1024 * 1024;
/// A run still going 5 s past [`WALL_LIMIT`] is killed, so that a hang fails its test (it is past the cap)
/// instead of hanging the suite.
const KILL_AFTER: Duration = WALL_LIMIT.saturating_add(Duration::from_secs(5));

/// What a run did, as the kernel measured it.
pub struct Outcome {
    /// The exit code; `None` when a signal ended the process (a crash).
    pub code: Option<i32>,
    pub signal: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// By the clock, from spawn to reaping.
    pub wall: Duration,
    /// User plus system time of the child (all its threads), from `wait4`.
    pub cpu: Duration,
    pub peak_rss_bytes: u64,
}

impl Outcome {
    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }

    /// The JSON report on standard output.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}\nstderr:\n{}", self.stdout(), self.stderr()))
    }

    /// Exit 0, 1 or 2, in time (see [`Outcome::assert_in_time`]), within [`MEMORY_LIMIT_BYTES`], with no raw
    /// control byte in either output.
    pub fn assert_bounded(&self, what: &str) -> &Self {
        // A hang killed by the watchdog ends by a signal: say it was a hang rather than a crash.
        self.assert_in_time(what);
        assert!(
            matches!(self.code, Some(0..=2)),
            "{what}: exit {:?}, signal {:?}\nstderr:\n{}",
            self.code,
            self.signal,
            tail(&self.stderr)
        );
        assert!(
            self.peak_rss_bytes <= MEMORY_LIMIT_BYTES,
            "{what}: peak memory {} MiB, more than {} MiB",
            self.peak_rss_bytes >> 20,
            MEMORY_LIMIT_BYTES >> 20
        );
        assert_no_control_bytes(&format!("{what}, stdout"), &self.stdout);
        assert_no_control_bytes(&format!("{what}, stderr"), &self.stderr);
        self
    }

    /// At most [`TIME_LIMIT`] of CPU time, and ended before [`WALL_LIMIT`] (no hang).
    pub fn assert_in_time(&self, what: &str) -> &Self {
        assert!(self.wall <= WALL_LIMIT, "{what}: hung: still running after {:?} (CPU {:?})", self.wall, self.cpu);
        assert!(
            self.cpu <= TIME_LIMIT,
            "{what}: used {:?} of CPU time, more than {TIME_LIMIT:?} (wall {:?})",
            self.cpu,
            self.wall
        );
        self
    }
}

fn tail(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let start = text.char_indices().rev().nth(4000).map_or(0, |(i, _)| i);
    text[start..].to_string()
}

/// No byte a terminal or GitHub's log would act on: C0 controls but `\n` and `\t` (a lone or CRLF `\r` included),
/// DEL, C1 controls, and the bidirectional overrides and isolates.
pub fn assert_no_control_bytes(what: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    for (line_number, line) in text.split('\n').enumerate() {
        if let Some(c) = line.chars().find(|&c| is_forbidden(c)) {
            panic!("{what}: raw control character U+{:04X} on line {}: {line:?}", c as u32, line_number + 1);
        }
    }
}

pub fn is_forbidden(c: char) -> bool {
    (c.is_control() && !matches!(c, '\n' | '\t'))
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// No line of `text` (split as GitHub splits a log: at CR and at LF) starts a workflow command.
pub fn assert_no_workflow_command(what: &str, text: &str, allowed: &[&str]) {
    for line in text.split(['\r', '\n']) {
        let trimmed = line.trim_start();
        if trimmed.starts_with("::") && !allowed.iter().any(|a| trimmed.starts_with(a)) {
            panic!("{what}: a line starts a workflow command: {line:?}");
        }
    }
}

/// The binary at `dir` with `args`, standard input from `stdin`, measured.
pub fn run(dir: &Path, args: &[&str]) -> Outcome {
    run_with(dir, args, &[], None)
}

/// One measured run at a time: the suite's tests run in parallel, and a run timed while another takes the cores is
/// measured against the machine, not against its bound.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// [`run`] with environment variables and optional standard input.
pub fn run_with(dir: &Path, args: &[&str], env: &[(&str, &str)], stdin: Option<&[u8]>) -> Outcome {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_beeuni-lint"));
    cmd.current_dir(dir).args(args).env("NO_COLOR", "1").env_remove("GITHUB_STEP_SUMMARY");
    crate::common::isolate_git(&mut cmd);
    cmd.envs(env.iter().copied());
    measured(cmd, stdin)
}

/// Runs `cmd` alone (see [`ONE_AT_A_TIME`]), with `stdin` written to it, measured.
fn measured(mut cmd: Command, stdin: Option<&[u8]>) -> Outcome {
    // A test that failed while holding it leaves it poisoned: the next run is still measured alone.
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    cmd.stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() });
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let started = Instant::now();
    let mut child = cmd.spawn().expect("the binary starts");
    let pid = child.id() as libc::pid_t;
    let input = stdin.map(<[u8]>::to_vec);
    let mut child_stdin = child.stdin.take();
    let writer = std::thread::spawn(move || {
        if let (Some(mut pipe), Some(input)) = (child_stdin.take(), input) {
            // The server may stop reading (and exit) before all of it is written.
            let _ = pipe.write_all(&input);
        }
    });
    let mut out_pipe = child.stdout.take().expect("piped");
    let mut err_pipe = child.stderr.take().expect("piped");
    let out = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = out_pipe.read_to_end(&mut bytes);
        bytes
    });
    let err = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = err_pipe.read_to_end(&mut bytes);
        bytes
    });
    // The child's own peak memory is its image's high-water mark (`VmHWM`), read while it runs. `wait4`'s
    // `ru_maxrss` is no measure of it: std spawns with `posix_spawn` (CLONE_VM | CLONE_VFORK), and `exec` records
    // the peak of the memory it replaces, the test process's, shared by the parallel tests, into the child's.
    let watchdog = std::thread::spawn(move || {
        let deadline = Instant::now() + KILL_AFTER;
        let mut peak: Option<u64> = None;
        while Instant::now() < deadline {
            if let Some(hwm) = high_water_mark(pid) {
                peak = Some(peak.unwrap_or(0).max(hwm));
            }
            // SAFETY: signal 0 only asks whether the process exists; it is our child until reaped below.
            if unsafe { libc::kill(pid, 0) } != 0 {
                return peak;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        // SAFETY: as above; the child has outlived its deadline.
        unsafe { libc::kill(pid, libc::SIGKILL) };
        peak
    });
    let mut status: libc::c_int = 0;
    // SAFETY: an all-zero rusage is a valid value of that plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our own unreaped child; `status` and `usage` are valid for writes.
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let wall = started.elapsed();
    assert_eq!(reaped, pid, "wait4 on the child");
    let _ = writer.join();
    let polled = watchdog.join().expect("the watchdog");
    let status = std::process::ExitStatus::from_raw(status);
    // The child is reaped: `Child` must not wait for it again.
    std::mem::forget(child);
    Outcome {
        code: status.code(),
        signal: status.signal(),
        stdout: out.join().expect("stdout reader"),
        stderr: err.join().expect("stderr reader"),
        wall,
        cpu: time_of(usage.ru_utime) + time_of(usage.ru_stime),
        // A run that ended before the watchdog's first read (it reads at once, then every 2 ms) had no time to
        // touch the bound's 200 MiB (that takes tens of milliseconds): its peak is counted as nothing. Its
        // `ru_maxrss` is no measure: it holds the test process's own peak, which the tests' parsed reports raise
        // (a refused `ls` was once measured at the test process's 224 MiB).
        peak_rss_bytes: polled.unwrap_or(0),
    }
}

fn time_of(value: libc::timeval) -> Duration {
    Duration::new(value.tv_sec as u64, value.tv_usec as u32 * 1000)
}

/// `VmHWM` of a running process, in bytes; `None` once it has exited (a zombie has no memory to report).
fn high_water_mark(pid: libc::pid_t) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kib: u64 = line.trim_start_matches("VmHWM:").trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kib * 1024)
}

/// A temporary git repository (its work tree at `repo`) beside a folder outside it (`outside`) holding a secret
/// file, `secret.txt`, whose content [`Sandbox::assert_untouched`] looks for in outputs.
pub struct Sandbox {
    _dir: TempDir,
    pub repo: PathBuf,
    pub outside: PathBuf,
}

/// The secret's content: a run that prints it has read outside the repository.
pub const SECRET: &str = "OUTSIDE-SECRET-7f3a9c";

impl Sandbox {
    /// An empty git repository and the outside folder.
    pub fn new() -> Sandbox {
        let dir = TempDir::new().expect("temporary folder");
        let repo = dir.path().join("repo");
        let outside = dir.path().join("outside");
        std::fs::create_dir_all(&repo).expect("repo folder");
        std::fs::create_dir_all(&outside).expect("outside folder");
        std::fs::write(outside.join("secret.txt"), format!("{SECRET} = \"x\"\n[{SECRET}]\n")).expect("secret");
        git(&repo, &["init", "-q"]);
        Sandbox { _dir: dir, repo, outside }
    }

    /// Writes a file in the repository.
    pub fn file(&self, path: &str, bytes: impl AsRef<[u8]>) -> &Self {
        write(&self.repo, path, bytes.as_ref());
        self
    }

    /// A symlink at `path` in the repository pointing at `target` (as written: relative or absolute).
    pub fn link(&self, path: &str, target: impl AsRef<Path>) -> &Self {
        let at = self.repo.join(path);
        std::fs::create_dir_all(at.parent().expect("a parent")).expect("parent folder");
        std::os::unix::fs::symlink(target, at).expect("symlink");
        self
    }

    /// `git add -A && git commit`.
    pub fn commit(&self, message: &str) -> &Self {
        git(&self.repo, &["add", "-A"]);
        git(&self.repo, &["commit", "-q", "-m", message]);
        self
    }

    /// Runs the binary in the repository.
    pub fn run(&self, args: &[&str]) -> Outcome {
        run(&self.repo, args)
    }

    /// The outside folder holds what it held (only `secret.txt`, unchanged) and `outcome` never shows the secret.
    pub fn assert_untouched(&self, what: &str, outcome: &Outcome) {
        let mut names: Vec<String> = std::fs::read_dir(&self.outside)
            .expect("outside folder")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["secret.txt"], "{what}: something was written outside the repository");
        let secret = std::fs::read_to_string(self.outside.join("secret.txt")).expect("secret");
        assert!(secret.starts_with(SECRET), "{what}: the secret outside the repository changed");
        for (name, bytes) in [("stdout", &outcome.stdout), ("stderr", &outcome.stderr)] {
            assert!(
                !String::from_utf8_lossy(bytes).contains(SECRET),
                "{what}: {name} shows the content of a file outside the repository"
            );
        }
    }
}

/// A clean manifest: the five hosted tools and one agent.
pub const MANIFEST: &str = "tools:\n  web_search: beeuni:web_search\n  image_search: beeuni:image_search\n  scrape_webpage: beeuni:scrape_webpage\n  memory: beeuni:memory\n  show: beeuni:show\nagents:\n  helper:\n    tools: all\n";

/// A minimal valid tool module.
pub const MODULE: &str = crate::common::MODULE;

/// The findings of one rule in a JSON report.
pub fn of_rule<'r>(report: &'r serde_json::Value, rule: &str) -> Vec<&'r serde_json::Value> {
    report["diagnostics"].as_array().expect("diagnostics").iter().filter(|d| d["rule"] == rule).collect()
}

/// Rule, path, line and message of a finding.
pub fn assert_at(finding: &serde_json::Value, rule: &str, path: &str, line: u64, message: &str) {
    assert_eq!(
        (finding["rule"].as_str(), finding["path"].as_str(), finding["line"].as_u64(), finding["message"].as_str()),
        (Some(rule), Some(path), Some(line), Some(message)),
        "{finding:#}"
    );
}

/// The time bound measures what it says: a run that waits uses no CPU time (so only the wall cap can catch a hang),
/// and a run past either bound fails.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sleeping_run_uses_no_cpu_time_and_a_hang_fails_on_the_wall_cap() {
        let mut sleep = Command::new("sleep");
        sleep.arg("0.5");
        let slept = measured(sleep, None);
        assert!(slept.wall >= Duration::from_millis(500), "{:?}", slept.wall);
        assert!(slept.cpu < Duration::from_millis(100), "{:?}", slept.cpu);
        let hung = Outcome { wall: WALL_LIMIT + Duration::from_secs(5), ..slept };
        let failure = std::panic::catch_unwind(|| {
            hung.assert_bounded("a hang");
        })
        .expect_err("a hang passed");
        assert!(failure.downcast_ref::<String>().is_some_and(|message| message.contains("a hang: hung")));
    }

    #[test]
    fn a_run_busy_past_the_cpu_budget_fails_whatever_its_wall_time() {
        let busy = Outcome {
            code: Some(0),
            signal: None,
            stdout: Vec::new(),
            stderr: Vec::new(),
            wall: TIME_LIMIT / 2,
            cpu: TIME_LIMIT + Duration::from_millis(1),
            peak_rss_bytes: 0,
        };
        let failure = std::panic::catch_unwind(|| {
            busy.assert_bounded("busy");
        })
        .expect_err("the busy run passed");
        assert!(failure.downcast_ref::<String>().is_some_and(|message| message.contains("of CPU time")));
    }
}
