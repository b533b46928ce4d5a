//! `beeuni-lint restore NAME` (docs/spec/rules.md §8): sets the tool's line back to `NAME: beeuni:NAME` (dropping the
//! eject comment) and deletes the ejected module only when that is certainly safe; otherwise keeps it and
//! says why.

use super::manifest::{Target, edited, load_for_edit, module_state, not_a_beeuni_tool, trailing_comment, write_all};
use super::transaction::Step;
use crate::catalog::{MODULE_EXTENSIONS, is_beeuni};
use crate::diagnostic::Edit;
use crate::error::Error;
use crate::manifest::tools::ToolValue;
use crate::manifest::tools::ejected_from;
use crate::modules::resolve::Resolution;
use crate::project::Project;
use crate::repo::checkout::Checkout;
use crate::source::Span;
use crate::source::escape::escape;
use crate::yaml::edit::{add_entries, requote, settable_value};
use std::path::Path;

/// Restores `name` in the project that holds `path`; returns what to print. `Err`: refused (exit 2).
pub fn restore(path: &Path, name: &str) -> Result<String, Error> {
    if !is_beeuni(name) {
        return Err(Error::Edit(not_a_beeuni_tool(name, "restore")));
    }
    let (project, checkout) = load_for_edit(path)?;
    let line = format!("{name}: beeuni:{name}");
    let Some(decl) = project.tools.iter().find(|d| d.name == name) else {
        let Some(key) = project.tools_keys.first() else {
            return Ok(format!("{name} is already the Beeuni tool: with no `tools:` key, sessions get all five\n"));
        };
        let doc = &project.graph.files[key.graph_index].doc;
        let edit =
            add_entries(doc, &project.file(key.file).text, key.file, key.key, key.value, &[line]).ok_or_else(|| {
                let path = &project.file(key.file).path;
                Error::Edit(format!("cannot add `{name}` to the `tools:` key of {path}: write it by hand"))
            })?;
        let manifest = edited(&project, key.file, &[edit])?;
        write_all(&project, &[Step::Replace(&manifest.path, manifest.text.as_bytes())])?;
        return Ok(report(&project, name, key.file, &manifest.line, None, None));
    };
    if decl.value == ToolValue::Beeuni(name.into()) {
        return Ok(format!("{name} is already the Beeuni tool (`{line}`): nothing to restore\n"));
    }
    let source = project.file(decl.file);
    let value_span = settable_value(&source.text, decl.name_span().end(), decl.value_span()).ok_or_else(|| {
        Error::Edit(format!(
            "the value of `{name}` in {} is a block scalar whose `|`/`>` line holds more than the indicator: write it as a plain value first",
            source.path
        ))
    })?;
    let mut edits = vec![Edit {
        file: decl.file,
        span: value_span,
        content: requote(source.slice(value_span), &format!("beeuni:{name}")),
    }];
    let comment = trailing_comment(&project, decl.file, decl.value_span().end());
    let ejected = comment.is_some_and(|c| ejected_from(&source.text[c.start() + 1..c.end()]) == Some(name));
    if let (true, Some(comment)) = (ejected, comment) {
        // The comment and the blanks before it go: the line reads as it did before the eject.
        let start = source.text[..comment.start()].trim_end_matches([' ', '\t']).len();
        edits.push(Edit {
            file: decl.file,
            span: Span::new(start.max(decl.value_span().end()), comment.end()),
            content: String::new(),
        });
    }
    let module = decl.module_path().map(str::to_string);
    let verdict = module.as_deref().map(|m| deletion(&project, &checkout, name, m, ejected));
    // The manifest's edit and the module's deletion are one change: both checked first, both done or neither.
    let manifest = edited(&project, decl.file, &edits)?;
    let mut steps = vec![Step::Replace(&manifest.path, manifest.text.as_bytes())];
    let deleted = match (&module, &verdict) {
        (Some(module), Some(Ok(()))) => Some(module.as_str()),
        _ => None,
    };
    steps.extend(deleted.map(Step::Delete));
    write_all(&project, &steps)?;
    let written = manifest.line;
    let kept = match (&module, verdict) {
        (Some(module), Some(Err(why))) => Some(format!("{module}: {why}")),
        _ => None,
    };
    Ok(report(&project, name, decl.file, &written, deleted, kept))
}

/// May restore delete the module? Only when the line carried `# ejected from beeuni:NAME`, the module is
/// `tools/NAME.<ext>`, nothing else declares or imports it, and git reports it unmodified.
fn deletion(project: &Project, checkout: &Checkout, name: &str, module: &str, ejected: bool) -> Result<(), String> {
    if !ejected {
        return Err(format!("the line did not say `# ejected from beeuni:{name}`, so the module may be your own"));
    }
    if !MODULE_EXTENSIONS.iter().any(|ext| module == format!("tools/{name}.{ext}")) {
        return Err(format!("it is not `tools/{name}.<ext>`, where eject writes"));
    }
    if let Some(other) = project.tools.iter().find(|d| d.name != name && d.module_path() == Some(module)) {
        return Err(format!("`{}` still uses it", other.name));
    }
    let imported = project.modules.iter().find(|m| {
        project.module_path(m) != module
            && m.resolutions().any(|r| matches!(r, Some(Resolution::File(p)) if p == module))
    });
    if let Some(importer) = imported {
        return Err(format!("`{}` imports it", project.module_path(importer)));
    }
    match module_state(checkout, module) {
        Target::Clean if checkout.in_git() => Ok(()),
        Target::Clean => Err("there is no git to tell whether it holds changes of yours".into()),
        Target::Absent => Err("it does not exist".into()),
        Target::Changed(why) => Err(format!("it {why}")),
    }
}

fn report(
    project: &Project,
    name: &str,
    file: crate::source::FileId,
    written: &str,
    deleted: Option<&str>,
    kept: Option<String>,
) -> String {
    // The paths are the repository's: each stays on its line.
    let shown = escape(&project.file(file).path);
    let mut out = format!("  ✓  Restored {name}\n  set     {shown}: {}\n", escape(written));
    if let Some(kept) = kept {
        out.push_str(&format!("  kept    {}\n", escape(&kept)));
    }
    let mut add = shown.to_string();
    if let Some(module) = deleted.map(escape) {
        out.push_str(&format!("  deleted {module}\n"));
        add = format!("-A {shown} {module}");
    }
    out.push_str(&format!(
        "\nNext:\n  1. beeuni-lint\n  2. git add {add} && git commit -m \"Use the Beeuni {name} tool again\"\n  \
         3. Open a change request: git push origin HEAD && beeuni cr open --title \"Use the Beeuni {name} tool again\"\n\
         Sessions get the Beeuni tool after the change request merges.\n"
    ));
    out
}
