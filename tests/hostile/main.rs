//! The hostile pull request: each test builds one attack in a temporary repository (from a generator, never from
//! megabytes of fixtures), runs the real binary on it and asserts what a stranger's pull request can and cannot
//! make beeuni-lint do (docs/security.md): the run ends with exit 0, 1 or 2 within the time and memory
//! bound, the attack gets its located finding, nothing outside the repository is read or written, and no raw
//! control byte reaches any output.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "tests, and their helpers beside them (which clippy's allow-in-tests does not cover), may unwrap, \
              expect and print"
)]
#![allow(unsafe_code, reason = "support.rs measures each run with libc's `wait4` and probes it with `kill`")]

#[path = "../it/common/mod.rs"]
mod common;
mod support;

mod access;
mod bounds;
mod confinement;
mod graph;
mod impact;
mod limits;
mod lsp;
mod names;
mod output;
mod policy;
mod projects;
mod regex;
mod trust;
