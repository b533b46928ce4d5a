//! Command-line definitions (clap) and nothing else.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(name = "beeuni-lint", version, about = "Lint a Beeuni project: beeuni.yaml, its imports and tool modules")]
// `args_override_self`: the last of a repeated option wins, so a pre-commit user's `args:` (appended to the hook's
// `entry: beeuni-lint --staged --min-severity warning`) can say `--min-severity info`.
#[command(args_conflicts_with_subcommands = true, args_override_self = true, after_help = EXIT_STATUS)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub check: CheckArgs,
}

/// Printed after `--help` (also `check --help`).
pub const EXIT_STATUS: &str = "Exit status:
  0  no finding at or above --fail-on (after --min-severity)
  1  at least one finding at or above --fail-on
  2  the run could not happen: a usage error, no beeuni.yaml, a bad config, an unreadable repository, a base
     revision that is not there, a manifest `ls`/`agents` cannot read; the message says what to do";

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Lint the project that holds PATH (the default command)
    #[command(after_help = EXIT_STATUS)]
    Check(CheckArgs),
    /// Print every tool a session gets, like `beeuni tools ls`
    Ls {
        /// Print JSON: { manifest, tools_key, tools: [{ name, kind, source }], removed }
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        view: ViewArgs,
    },
    /// Per agent and per harness: the tools it can call, and why
    Agents {
        /// Print JSON: [{ agent, harness, invalid?, tools: [{ name, source, why }], through_task?: [{ name, source, via }] }]
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        view: ViewArgs,
    },
    /// What a change does to what each agent can call: tools gained and lost (and why), secrets, `task` reach
    #[command(after_help = IMPACT_EXIT_STATUS)]
    Impact(ImpactArgs),
    /// Give the project its own copy of a Beeuni tool: tools/NAME.ts, and NAME's line pointed at it
    Eject {
        /// The Beeuni tool: web_search, image_search, scrape_webpage, memory or show
        name: String,
        /// The tool's source (what `beeuni tools eject NAME` writes), copied to tools/NAME.ts
        #[arg(long, value_name = "FILE", conflicts_with = "template")]
        from: Option<PathBuf>,
        /// Write a starter to fill in (reported by `ejected-template` until it is)
        #[arg(long)]
        template: bool,
        /// Overwrite tools/NAME.ts, or eject a tool that points to another module (never a file with
        /// uncommitted changes)
        #[arg(long)]
        force: bool,
    },
    /// Set NAME's line back to `NAME: beeuni:NAME`, and delete the ejected copy when that is safe
    Restore {
        /// The Beeuni tool
        name: String,
    },
    /// List every rule with its id, severity and summary
    Rules,
    /// Run the language server on standard input and output (for editors: see the README)
    Lsp,
    /// Print a JSON Schema (draft 2020-12) of beeuni.yaml, for editors
    Schema,
    /// Print one rule's documentation
    Explain {
        /// The rule id, e.g. unknown-excluded-tool
        rule: String,
    },
}

/// What `ls` and `agents` read: the project, its config and the xcsh folders, as `check` reads them.
#[derive(Args, Debug, Clone)]
pub struct ViewArgs {
    /// A path inside the project (default: the current folder)
    #[arg(default_value = ".")]
    pub path: PathBuf,
    /// The config file (default: the nearest beeuni-lint.toml from the project root up to the repository root)
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Also read the xcsh custom tools in folder PATH (repeatable; `.xcsh/tools`, `.claude/tools` and
    /// `.codex/tools` are always read)
    #[arg(long, value_name = "PATH")]
    pub xcsh: Vec<PathBuf>,
}

/// Printed after `impact --help`.
pub const IMPACT_EXIT_STATUS: &str = "Exit status:
  0  compared (whether anything changed or not)
  1  with --policy: a guarded gain is not approved
  2  the run could not happen: a usage error, no beeuni.yaml, a bad config, a base revision that is not there";

#[derive(Args, Debug, Clone)]
pub struct ImpactArgs {
    /// A path inside the project (default: the current folder); several PATHs compare several projects, and the
    /// root of a git repository without beeuni.yaml stands for every project it tracks
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Compare with the merge base of REV and HEAD (a branch, tag, HEAD~1, a SHA, origin/main)
    #[arg(long, value_name = "REV")]
    pub base: Option<String>,
    /// Compare what the index holds (the commit being made), with HEAD (or with --base)
    #[arg(long)]
    pub staged: bool,
    /// Output format: human (a terminal), json (docs/impact.md), markdown (a pull-request comment)
    #[arg(long, value_enum, default_value_t = ImpactFormat::Human)]
    pub format: ImpactFormat,
    /// Link each cause and changed module to its line: URL is the commit's blob address,
    /// <server>/<owner>/<repo>/blob/<sha> (http or https); each link is URL/<path>#L<line>
    #[arg(long, value_name = "URL")]
    pub link_base: Option<String>,
    /// Judge the change by the [policy] of beeuni-lint.toml (docs/policy.md): mark each guarded gain, and exit 1
    /// when one is not approved (needs --base or --staged)
    #[arg(long)]
    pub policy: bool,
    /// With --policy: the guarded gains are approved (still listed, marked approved; no failure)
    #[arg(long, requires = "policy")]
    pub approved: bool,
    /// The config file (default: the nearest beeuni-lint.toml from the project root up to the repository root)
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImpactFormat {
    Human,
    Json,
    Markdown,
}

#[derive(Args, Debug, Clone)]
pub struct CheckArgs {
    /// A path inside the project to lint: its folder, or any file or folder in it; several PATHs lint several
    /// projects in one report, and the root of a git repository without beeuni.yaml stands for every project it
    /// tracks (default: the current folder; with --staged, every project the commit touches)
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Write the report to FILE instead of standard output
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Also write SARIF to FILE, whatever --format is (annotations and the code-scanning upload from one run)
    #[arg(long, value_name = "FILE")]
    pub sarif_file: Option<PathBuf>,
    /// The code-scanning category of the SARIF report (default: beeuni-lint/<project>); with several projects,
    /// each run's is CATEGORY/<project>
    #[arg(long, value_name = "CATEGORY")]
    pub sarif_category: Option<String>,
    /// Colour the human report: auto (a terminal, and NO_COLOR unset), always or never
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    pub color: Color,
    /// Exit 1 when a finding is at or above this severity
    #[arg(long, value_enum, default_value_t = FailOn::Warning)]
    pub fail_on: FailOn,
    /// Drop findings below this severity before anything else: neither shown nor counted for --fail-on
    #[arg(long, value_enum, default_value_t = MinSeverity::Info)]
    pub min_severity: MinSeverity,
    /// The config file (default: the nearest beeuni-lint.toml from the project root up to the repository root)
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Compare with the merge base of REV and HEAD (a branch, tag, HEAD~1, a SHA, origin/main): turns on the
    /// change-aware rules
    #[arg(long, value_name = "REV")]
    pub base: Option<String>,
    /// Lint what the index holds (the commit being made), compared with HEAD (or with --base)
    #[arg(long)]
    pub staged: bool,
    /// Keep the cache of module facts in DIR (default: .beeuni-lint-cache at the project root)
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
    /// Neither read nor write the cache: parse every module
    #[arg(long, conflicts_with = "cache_dir")]
    pub no_cache: bool,
    /// Report only findings on lines the change adds or modifies (needs --base or --staged)
    #[arg(long)]
    pub only_changed: bool,
    /// Report each gain the [policy] of beeuni-lint.toml guards as a policy-gain finding (needs --base or
    /// --staged; docs/policy.md)
    #[arg(long)]
    pub policy: bool,
    /// With --policy: the guarded gains are approved (reported at info, marked approved)
    #[arg(long, requires = "policy")]
    pub approved: bool,
    /// Print nothing when there is no finding
    #[arg(long, short)]
    pub quiet: bool,
    /// Apply the safe fixes to the work tree, then report what remains
    #[arg(long)]
    pub fix: bool,
    /// Also apply the unsafe fixes (implies --fix unless --diff is given)
    #[arg(long)]
    pub unsafe_fixes: bool,
    /// Print the fixes as a unified diff and write nothing (exit 1 when there is something to fix)
    #[arg(long)]
    pub diff: bool,
    /// Also check the xcsh custom tools in folder PATH (repeatable; `.xcsh/tools`, `.claude/tools` and
    /// `.codex/tools` are always checked)
    #[arg(long, value_name = "PATH")]
    pub xcsh: Vec<PathBuf>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Human,
    Short,
    Json,
    Sarif,
    Github,
    // GitLab Code Quality (`artifacts:reports:codequality`)
    Gitlab,
    // JUnit XML (`artifacts:reports:junit`, and most CI systems)
    Junit,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Color {
    Auto,
    Always,
    Never,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MinSeverity {
    Info,
    Warning,
    Error,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailOn {
    Error,
    Warning,
    Info,
    Never,
}
