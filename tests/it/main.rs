//! The integration tests, in one binary: one module a former `tests/<name>.rs`, and the helpers they share
//! (`common`, `*_support`) as modules beside them. One binary links once, where one a file linked the library
//! and its dependencies fifty times; its tests share the harness's threads (`--test-threads`).
//!
//! The hostile suite (`tests/hostile/`) stays a binary of its own: it times and measures each run of the binary
//! against a bound, one run at a time, and a lock inside one process cannot keep the tests of this binary from
//! taking the cores meanwhile. Cargo runs test binaries one after the other, so there it runs alone.
//!
//! A new test file goes here as `tests/it/<name>.rs` with its `mod` line below; it reaches the helpers as
//! `crate::common`, `crate::change_support`, and so on.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "tests, and their helpers beside them (which clippy's allow-in-tests does not cover), may unwrap, \
              expect and print"
)]

mod action_support;
mod change_support;
mod common;
mod fix_support;
mod lsp_support;
mod modules_support;
mod monorepo_support;

mod action;
mod bad_input;
mod bun_runtime;
mod cache;
mod cache_trust;
mod change_base;
mod change_fixtures;
mod change_rules;
mod change_staged;
mod ci_reports;
mod cli;
mod cli_guides;
mod config_ignores;
mod config_reference;
mod docs_site;
mod eject_restore;
mod fix_behaviour;
mod fix_fixtures;
mod fix_property;
mod fix_variants;
mod fixture_reports;
mod fs_lookups;
mod fuzz_seeds;
mod git;
mod hook;
mod ignores_everywhere;
mod impact;
mod impact_causes;
mod impact_markdown;
mod layers;
mod layout;
mod lsp;
mod modules;
mod modules_bad;
mod modules_corpus;
mod modules_early;
mod modules_format;
mod modules_forms;
mod modules_git;
mod modules_helpers;
mod modules_imports;
mod modules_links;
mod modules_loaders;
mod modules_reads;
mod modules_real_code;
mod modules_resolution;
mod modules_shapes;
mod modules_syntax_corpus;
mod monorepo;
mod monorepo_root;
mod one_cause;
mod packaging;
mod pins;
mod policy;
mod readings_rev2;
mod readme_examples;
mod replay;
mod reports;
mod rule_examples;
mod rule_pages;
mod rules_agents;
mod rules_manifest;
mod rules_modules;
mod rules_readings;
mod self_contained;
mod snapshots;
mod views;
mod xcsh;
mod xcsh_loader;
mod xcsh_real_code;
mod yaml_strict;
