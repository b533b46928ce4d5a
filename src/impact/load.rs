//! Both sides of one project as full models: the head as `check --base` builds it (the work tree, or the index
//! with `--staged`), the base from git objects at the merge base, with the head's config (its harness tools), so
//! that only the change differs.

use super::{ProjectImpact, SideModel, compare};
use crate::cache::ModuleCache;
use crate::error::Error;
use crate::lint::{self, CheckOptions, Loaded};
use crate::project::{Project, ProjectInput};
use crate::repo::checkout::Side;
use crate::{access, discover, listing, modules};

/// Without `--base` or `--staged` there is nothing to compare.
pub const NEEDS_TWO_VERSIONS: &str =
    "`impact` compares two versions: add `--base REV` (or `--staged` for the commit being made)";

/// One project compared: what its base was, and the impact.
pub struct Compared {
    pub base: String,
    pub head: &'static str,
    pub impact: ProjectImpact,
}

/// Compares the project that holds `options.path` at `options.base`'s merge base (or HEAD with `--staged` alone)
/// with its head. `Err`: the run cannot happen (exit 2), as for `check --base`.
pub fn project(options: &CheckOptions) -> Result<Compared, Error> {
    project_judged(options, None)
}

/// [`project`], and with `Some(approved)` (`--policy`, `--approved`) the impact judged by the policy
/// ([`super::policy::judge`]).
pub fn project_judged(options: &CheckOptions, policy: Option<bool>) -> Result<Compared, Error> {
    let Loaded { project: head, checkout, config, sides, cache } = lint::load(options)?;
    // `lint::load` reads the two sides when `--base` or `--staged` asks for them.
    let Some(sides) = sides else {
        return Err(Error::Usage(NEEDS_TWO_VERSIONS.into()));
    };
    let base_checkout = checkout.at(sides.base);
    // The base's modules are found in the cache by their blob ids, as the head's are by theirs: most are the same
    // files, and the lint that ran before (the Action's, a hook's) has the facts of every one. Read, never written.
    let cache = cache.map(ModuleCache::read_only);
    let base = match (sides.base, discover::manifest(&base_checkout)) {
        (Side::Empty, _) | (_, Err(_) | Ok(Err(_))) => None,
        (_, Ok(Ok(manifest))) => Some(Project::build(ProjectInput {
            checkout: &base_checkout,
            manifest: Some(Ok(manifest)),
            xcsh_paths: Vec::new(),
            harness_tools: config.harness_tools.clone(),
            parsed: &modules::Reused::default(),
            cache: cache.as_ref(),
            keep_texts: false,
            module_bytes: config.module_bytes(),
        })),
    };
    // The comparison lists, per agent, tools and secrets that changed: both bounded (`access::MAX_ROWS`) first.
    for side in base.iter().chain(Some(&head)) {
        let agents = side.agents.len();
        let tools = access::universe(side).len();
        access::within_rows(agents, tools, "tools").map_err(|too_large| Error::Usage(too_large.to_string()))?;
        let secrets = side.secrets().len();
        access::within_rows(agents, secrets, "secrets").map_err(|too_large| Error::Usage(too_large.to_string()))?;
    }
    let name = if checkout.git_prefix.is_empty() { "." } else { checkout.git_prefix.as_str() };
    let mut impact = compare(name, &side(base.as_ref()), &side(Some(&head)))
        .map_err(|too_large| Error::Usage(too_large.to_string()))?;
    if let Some(approved) = policy {
        let manifest = head.sources.shown(crate::catalog::MANIFEST).to_string();
        let explicit = options.config.is_some();
        let verdict = super::policy::judge(&impact, &checkout, sides.base, &config, explicit, approved, &manifest);
        impact.policy = Some(verdict.map_err(Error::Config)?);
    }
    let head_name = if options.staged { "index" } else { "work tree" };
    Ok(Compared { base: sides.base_description, head: head_name, impact })
}

/// What `agents` would answer from: a model whose manifest it can read.
fn side(project: Option<&Project>) -> SideModel<'_> {
    match project {
        None => SideModel::Missing,
        Some(project) if project.misnamed_manifest.is_some() || project.graph.files.is_empty() => SideModel::Missing,
        Some(project) if !listing::unreadable(project).is_empty() => SideModel::Unreadable,
        Some(project) => SideModel::Read(project),
    }
}
