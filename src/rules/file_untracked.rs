use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::manifest::load::ProblemKind;
use crate::modules::resolve::Resolution;
use crate::project::Project;
use crate::repo::checkout::Checkout;
use crate::repo::fs::Refusal;
use crate::rules::site::origins;

crate::rules::declare_rule! {
    /// A file of the graph, or a declared module, is not in the git index.
    ///
    /// ## What it checks
    /// Every file of the manifest graph, every declared module that exists, every
    /// xcsh custom tool, and every file a module imports relatively must be
    /// tracked by git. Error when
    /// git ignores the file (a plain `git add` will never add it) or when linting
    /// the index (`--staged`: the commit will not contain it); info when it is
    /// merely not added yet. The finding points at the entry that references the
    /// file: the import item, the tools entry, or the module's import statement.
    /// Outside git the rule is skipped.
    ///
    /// ## Why
    /// A config release contains only the files Git tracks: an untracked module
    /// is skipped at load, an untracked import drops what it declares.
    ///
    /// ## Example
    /// ```yaml
    /// tools:
    ///   lookup_order: tools/lookup_order.ts   # not yet `git add`ed
    /// ```
    ///
    /// ## Fix
    /// `git add` the file (and, when it is ignored, remove the ignore rule).
    id: "file-untracked",
    severity: Error,
    category: Manifest,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    let checkout = &project.checkout;
    if !checkout.in_git() {
        return;
    }
    for manifest in &project.graph.files {
        let path = &project.file(manifest.file).path;
        if checkout.is_tracked(path) {
            continue;
        }
        let at = manifest
            .imported_by
            .clone()
            .unwrap_or_else(|| Label::new(manifest.file, project.file(manifest.file).line_span(0)));
        out.push(untracked(project, path, at, "file"));
    }
    for decl in &project.tools {
        // A module too large to read exists all the same, and a release needs it tracked like any other.
        let (Some(path), Some(Ok(_) | Err(Refusal::TooLarge(_)))) = (decl.module_path(), &decl.module) else {
            continue;
        };
        if !checkout.is_tracked(path) {
            out.push(untracked(project, path, Label::new(decl.file, decl.entry()), "module"));
        }
    }
    for module in project.xcsh.modules.iter().filter(|m| !m.declared) {
        let path = &module.path;
        if !checkout.is_tracked(path) {
            let at = Label::new(module.file, project.file(module.file).line_span(0));
            out.push(untracked(project, path, at, "xcsh tool"));
        }
    }
    // Modules import the same few helpers: each is looked up in the index once. The resolver hands out one
    // resolution per specifier and folder, so one is known again by its address (hashing its path cost more).
    let mut tracked: rustc_hash::FxHashMap<usize, bool> = rustc_hash::FxHashMap::default();
    let mut is_tracked = |resolution: &Resolution, path: &str| {
        *tracked.entry(std::ptr::from_ref(resolution) as usize).or_insert_with(|| checkout.is_tracked(path))
    };
    for module in &project.modules {
        for (import, resolution) in module.facts.imports.iter().zip(module.resolutions()) {
            let path = match resolution {
                Some(found @ Resolution::File(path)) if !is_tracked(found, path) => path,
                Some(Resolution::Unstaged(path)) => path,
                _ => continue,
            };
            let diagnostic = untracked(project, path, Label::new(module.file, import.span), "imported file");
            // In a helper, say which tools load it (a declared module's import speaks for itself).
            let loaders = if module.is_declared() { Vec::new() } else { origins(project, module) };
            out.push(loaders.into_iter().fold(diagnostic, Diagnostic::related));
        }
    }
    for (index, instead) in project.missing_modules() {
        let decl = &project.tools[index];
        let Some(path) = decl.module_path() else { continue };
        if instead.unstaged {
            out.push(untracked(project, path, Label::new(decl.file, decl.entry()), "module"));
        }
    }
    for problem in project.graph.problems.iter().filter(|p| p.kind == ProblemKind::Unstaged) {
        let diagnostic = Diagnostic::new(RULE.id, Severity::Error, problem.at.clone(), problem.message.clone());
        out.push(diagnostic.maybe_help(problem.help.clone()));
    }
}

/// The finding for one untracked file referenced at `at`.
pub fn untracked(project: &Project, path: &str, at: Label, what: &str) -> Diagnostic {
    let (severity, message, help) = wording(&project.checkout, path, what);
    Diagnostic::new(RULE.id, severity, at, message).help(help)
}

/// The severity, message and help for the untracked file `path`, a `what` (`module`, `imported file`): said once
/// here for every finding of the rule, the loader's unstaged imports included.
pub fn wording(checkout: &Checkout, path: &str, what: &str) -> (Severity, String, String) {
    // Through a symlink, what to add is the untracked link or the file it reaches: `git add` refuses a path
    // beyond a symbolic link.
    let part = checkout.untracked_part(path).unwrap_or_else(|| path.to_string());
    let ignored = checkout.is_ignored(&part);
    // Named as git names it (relative to the work tree root), so the help's `git add` works from the top.
    let (path, part) = (&checkout.git_path(path), &checkout.git_path(&part));
    let subject = if part == path {
        format!("{what} `{path}`")
    } else if path.starts_with(&format!("{part}/")) {
        format!("{what} `{path}` goes through the symlink `{part}`, which")
    } else {
        format!("{what} `{path}` leads through a symlink to `{part}`, which")
    };
    let path = part;
    if ignored {
        (
            Severity::Error,
            format!("{subject} is ignored by git: a config release contains only files Git tracks"),
            // A plain `git add` refuses an ignored path: say so, and give the command that works.
            format!(
                "`{path}` is ignored by git (a `.gitignore` rule matches it), so a plain `git add` refuses it: remove that rule, or add it anyway with `git add -f {path}`"
            ),
        )
    } else if checkout.is_index() {
        (
            Severity::Error,
            format!("{subject} is not staged: the commit being made does not contain it"),
            format!("run `git add {path}`"),
        )
    } else {
        (
            Severity::Info,
            format!("{subject} is not tracked by git yet: a config release contains only files Git tracks"),
            format!("run `git add {path}`"),
        )
    }
}
