//! beeuni-lint: a linter for Beeuni agent projects.
//!
//! The pipeline runs one way ([`lint`]): discover the repository, load the manifest graph, build the
//! [`project::Project`] model once, run every rule over it, apply ignores and config, and hand the
//! [`report::Report`] to a renderer (or to the fix engine, which runs the pipeline again over its edits).
//!
//! ## Layers
//!
//! A module uses only the modules of layers below its own (a lower number); modules of one layer do not use each
//! other. `tests/it/layers.rs` reads this list and fails on any path (outside test code) that points up or sideways.
//!
//! 1. `catalog`, `lookup`, `pool`, `suggest`: leaves: the platform's names, a hash index, the analysis threads,
//!    near matches of a name
//! 2. `error`: why a run cannot happen, the library's one error type (its messages name the manifest)
//! 3. `repo`: the repository: reads that never leave it (every size bounded), git, checkouts
//! 4. `source`: files and their texts (held, or let go and read again from the repository), spans, escaping
//! 5. `diagnostic`: the finding every rule produces
//! 6. `report`, `yaml`: what a run hands to a renderer; the YAML tree with its spans and comments, and edits of a
//!    YAML text that keep its layout
//! 7. `cache`, `discover`: module facts and YAML trees by content; finding the project and its manifest
//! 8. `manifest`: the manifest graph (imports, agents, tool declarations), loaded file by file
//! 9. `modules`: tool modules read, analysed (on the pool, fed as the graph loads) and resolved
//! 10. `xcsh`: xcsh custom tools
//! 11. `project`: the model every rule reads, built once
//! 12. `rules`: each rule, a function of the model to findings
//! 13. `access`, `config`: what each agent can call; the config (rule levels, ignores, harness tools)
//! 14. `change`, `suppress`: a change's two sides; ignores and config applied to the findings
//! 15. `lint`: the pipeline, from options to a report
//! 16. `fix`, `render`: the fix engine (offers, rounds, eject and restore); the report's formats
//! 17. `hook`, `listing`, `lsp`, `schema`, `stats`: commands and views beside `check`
//! 18. `impact`: what a change does to what each agent can call (both sides' models, read as `agents` reads one)
//! 19. `fuzzing`: the fuzz targets' entry points

// The library's lints are the package's (the `[lints]` table of Cargo.toml, CONTRIBUTING.md): no `unsafe` but the
// documented blocks, each allowed where it stands with its reason; no `unwrap`/`expect` outside tests (clippy.toml)
// but where the line above proves it, allowed there with the reason; no printing (the binary prints; notes go
// through `cache::place::send_notes_to`).

pub mod access;
pub mod cache;
pub mod catalog;
pub mod change;
pub mod config;
pub mod diagnostic;
pub mod discover;
pub mod error;
pub mod fix;
#[doc(hidden)]
pub mod fuzzing;
pub mod hook;
pub mod impact;
pub mod lint;
pub mod listing;
pub mod lookup;
pub mod lsp;
pub mod manifest;
pub mod modules;
pub mod pool;
pub mod project;
pub mod render;
pub mod repo;
pub mod report;
pub mod rules;
pub mod schema;
pub mod source;
pub mod stats;
pub mod suggest;
pub mod suppress;
pub mod xcsh;
pub mod yaml;
