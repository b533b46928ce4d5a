use super::site::{beeuni_loaded, in_module};
use crate::diagnostic::Diagnostic;
use crate::project::Project;

crate::rules::declare_rule! {
    /// A module reads a secret from `process.env` or `Bun.env`.
    ///
    /// ## What it checks
    /// `process.env.X`, `process.env['X']`, `Bun.env.X` or
    /// `const { X } = process.env`, in a declared module or a helper it loads,
    /// where X is a secret of the project (in some
    /// agent's `secrets:` list) or looks like one (ends in `_KEY`, `_TOKEN`,
    /// `_SECRET`, `_PASSWORD`, or contains `API_KEY`).
    ///
    /// ## Why
    /// A secret changed after the box started is in `context.env`, not in
    /// `process.env`; and `context.env` holds only the secrets the calling agent
    /// is granted.
    ///
    /// ## Example
    /// ```ts
    /// export default {
    ///   description: 'The weather now in a city',
    ///   parameters: { type: 'object', properties: { city: { type: 'string' } } },
    ///   async execute(args, context) {
    ///     const key = process.env.WEATHER_API_KEY
    ///     return key ? `sunny in ${args.city}` : 'no key'
    ///   },
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// export default {
    ///   description: 'The weather now in a city',
    ///   parameters: { type: 'object', properties: { city: { type: 'string' } } },
    ///   async execute(args, context) {
    ///     const key = context.env.WEATHER_API_KEY
    ///     return key ? `sunny in ${args.city}` : 'no key'
    ///   },
    /// }
    /// ```
    ///
    /// ## Fix
    /// Read `context.env.X` in `execute(args, context)`.
    id: "module-process-env",
    severity: Warning,
    category: Module,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    let secrets = project.secrets();
    for module in beeuni_loaded(project) {
        for read in &module.facts.env_reads {
            let name = read.name.as_str();
            if !secrets.contains(name) && !looks_secret(name) {
                continue;
            }
            let message = format!("`{}` reads the secret `{name}` from `{}`", project.module_path(module), read.via);
            let diagnostic = in_module(project, &RULE, module, read.span, message);
            out.push(diagnostic.help(format!(
                "read `context.env.{name}`: a secret changed after the box started is in `context.env`, not `process.env`"
            )));
        }
    }
}

fn looks_secret(name: &str) -> bool {
    ["_KEY", "_TOKEN", "_SECRET", "_PASSWORD"].iter().any(|end| name.ends_with(end)) || name.contains("API_KEY")
}
