use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::manifest::load::ProblemKind;
use crate::modules::resolve::Resolution;
use crate::project::Project;
use crate::repo::checkout::Untracked;
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
    /// ## Use instead
    /// ```sh
    /// git add tools/lookup_order.ts
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
    let tracking = &project.tracking;
    if !tracking.in_git {
        return;
    }
    for manifest in &project.graph.files {
        let Some(untracked) = tracking.untracked(&project.file(manifest.file).path) else {
            continue;
        };
        let at = manifest
            .imported_by
            .clone()
            .unwrap_or_else(|| Label::new(manifest.file, project.file(manifest.file).line_span(0)));
        out.push(finding(project, untracked, &project.file(manifest.file).path, at, "file"));
    }
    for decl in &project.tools {
        // A module too large to read exists all the same, and a release needs it tracked like any other.
        let (Some(path), Some(Ok(_) | Err(Refusal::TooLarge(_)))) = (decl.module_path(), &decl.module) else {
            continue;
        };
        if let Some(untracked) = tracking.untracked(path) {
            out.push(finding(project, untracked, path, Label::new(decl.file, decl.entry()), "module"));
        }
    }
    for module in project.xcsh.modules.iter().filter(|m| !m.declared) {
        if let Some(untracked) = tracking.untracked(&module.path) {
            let at = Label::new(module.file, project.file(module.file).line_span(0));
            out.push(finding(project, untracked, &module.path, at, "xcsh tool"));
        }
    }
    for module in &project.modules {
        for (import, resolution) in module.facts.imports.iter().zip(module.resolutions()) {
            // A file only the work tree has (linting the index) is untracked as a rule; another when git says so.
            let Some(Resolution::File(path) | Resolution::Unstaged(path)) = resolution else { continue };
            let Some(untracked) = tracking.untracked(path) else { continue };
            let diagnostic = finding(project, untracked, path, Label::new(module.file, import.span), "imported file");
            // In a helper, say which tools load it (a declared module's import speaks for itself).
            let loaders = if module.is_declared() { Vec::new() } else { origins(project, module) };
            out.push(loaders.into_iter().fold(diagnostic, Diagnostic::related));
        }
    }
    for (index, instead) in project.missing_modules() {
        let decl = &project.tools[index];
        let Some(path) = decl.module_path() else { continue };
        if let (true, Some(untracked)) = (instead.unstaged, tracking.untracked(path)) {
            out.push(finding(project, untracked, path, Label::new(decl.file, decl.entry()), "module"));
        }
    }
    for problem in project.graph.problems.iter().filter(|p| p.kind == ProblemKind::Unstaged) {
        let diagnostic = RULE.diagnostic_with(Severity::Error, problem.at.clone(), problem.message.clone());
        out.push(diagnostic.maybe_help(problem.help.clone()));
    }
}

/// The finding for the untracked file `path`, a `what` (`module`, `imported file`) referenced at `at`.
fn finding(project: &Project, untracked: &Untracked, path: &str, at: Label, what: &str) -> Diagnostic {
    let severity = if untracked.is_error() { Severity::Error } else { Severity::Info };
    let (message, help) = untracked.wording(path, project.sources.prefix(), what);
    RULE.diagnostic_with(severity, at, message).help(help)
}
