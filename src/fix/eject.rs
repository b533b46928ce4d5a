//! `beeuni-lint eject NAME (--from FILE | --template) [--force]` (docs/spec/rules.md §8): gives the project its own copy
//! of a Beeuni tool and points the tool's line at it, in the file that declares it, keeping every other byte.

use super::manifest::{Target, edited, load_for_edit, module_state, not_a_beeuni_tool, trailing_comment, write_all};
use super::transaction::Step;
use crate::catalog::{BEEUNI_TOOLS, is_beeuni, ui_arguments};
use crate::diagnostic::Edit;
use crate::error::Error;
use crate::manifest::tools::ToolValue;
use crate::project::TEMPLATE_MARKER;
use crate::source::Span;
use crate::source::escape::escape;
use crate::yaml::edit::{add_entries, line_break, requote, settable_value};
use std::path::{Path, PathBuf};

/// Where the module's bytes come from.
pub enum Source {
    /// A file the user got from `beeuni tools eject NAME`.
    From(PathBuf),
    /// The starter that `ejected-template` reports until it is filled in.
    Template,
}

/// Ejects `name` in the project that holds `path`; returns what to print. `Err`: refused (exit 2).
pub fn eject(path: &Path, name: &str, source: Option<Source>, force: bool) -> Result<String, Error> {
    if !is_beeuni(name) {
        return Err(Error::Edit(not_a_beeuni_tool(name, "eject")));
    }
    let Some(source) = source else {
        return Err(Error::Edit(format!(
            "eject needs the tool's source, which is not available offline: `beeuni tools eject {name}` gives it \
             (pass that file with `--from FILE`), or `--template` writes a starter to fill in"
        )));
    };
    let module = format!("tools/{name}.ts");
    let bytes = match &source {
        Source::From(file) => {
            // The user's file, but never through a link the repository holds that leads out of it.
            let real = crate::repo::given::follow(file, "--from").map_err(|refused| Error::Path(refused.0))?;
            std::fs::read(real).map_err(|e| Error::Path(format!("cannot read {}: {e}", file.display())))?
        }
        Source::Template => template(name).into_bytes(),
    };
    let (project, checkout) = load_for_edit(path)?;
    let decl = project.tools.iter().find(|d| d.name == name);
    if let Some(ToolValue::Module { path: Ok(other) }) = decl.map(|d| &d.value)
        && *other != module
        && !force
    {
        return Err(Error::Edit(format!(
            "`{name}` already points to another module, `{other}`: pass `--force` to eject anyway"
        )));
    }
    match module_state(&checkout, &module) {
        Target::Absent => {}
        Target::Clean if force => {}
        Target::Clean => return Err(Error::Edit(format!("`{module}` exists: pass `--force` to overwrite it"))),
        Target::Changed(why) => {
            let force_note = if force { " (`--force` never overwrites uncommitted changes)" } else { "" };
            return Err(Error::Edit(format!("`{module}` exists and {why}: commit or move it first{force_note}")));
        }
    }
    let comment = format!("# ejected from beeuni:{name}");
    let (file, edits, shown_line) = match decl {
        Some(decl) => {
            let source = project.file(decl.file);
            let value_span = settable_value(&source.text, decl.name_span().end(), decl.value_span()).ok_or_else(|| {
                Error::Edit(format!(
                    "the value of `{name}` in {} is a block scalar whose `|`/`>` line holds more than the indicator: write it as a plain value first",
                    source.path
                ))
            })?;
            let value = requote(source.slice(value_span), &module);
            // An empty value sits on its `:`: the path goes after it.
            let value = match decl.value_span().is_empty() {
                true => Edit {
                    file: decl.file,
                    span: Span::empty(decl.value_span().start() + 1),
                    content: format!(" {value}"),
                },
                false => Edit { file: decl.file, span: value_span, content: value },
            };
            let mut edits = vec![value];
            edits.push(match trailing_comment(&project, decl.file, decl.value_span().end()) {
                Some(old) => Edit { file: decl.file, span: old, content: comment.clone() },
                None => Edit {
                    file: decl.file,
                    span: Span::empty(eol_of(&source.text, decl)),
                    content: format!("  {comment}"),
                },
            });
            (decl.file, edits, None)
        }
        None => add_line(&project, name, &module, &comment).map_err(Error::Edit)?,
    };
    // The manifest's edit and the new module are one change: both are checked (the module's folder too) before
    // either is written, and the manifest is put back when the module cannot be written.
    let manifest = edited(&project, file, &edits)?;
    write_all(&project, &[Step::Replace(&manifest.path, manifest.text.as_bytes()), Step::Create(&module, &bytes)])?;
    // A new `tools:` key's first edited line is the key itself: the line set is the tool's, below it.
    let written = shown_line.unwrap_or(manifest.line);
    // The manifest's path is the repository's: it stays on its line.
    let shown = escape(&project.file(file).path).into_owned();
    let (what, first) = match source {
        Source::From(file) => {
            (format!("the source from {}, now the project's to change", file.display()), format!("Edit {module}."))
        }
        Source::Template => (
            "a starter to fill in: `execute` throws until you do".to_string(),
            format!("Fill in {module}, then delete its `{TEMPLATE_MARKER}` comment."),
        ),
    };
    let written = escape(&written);
    let mut out = format!("  ✓  Ejected {name}\n  wrote   {module} ({what})\n  set     {shown}: {written}\n\nNext:\n");
    out.push_str(&format!(
        "  1. {first} Keep the default export: {{ description, parameters, execute(args, context) }}.\n  \
         2. beeuni-lint\n  \
         3. git add {module} {shown} && git commit -m \"Own the {name} tool\"\n  \
         4. Open a change request: git push origin HEAD && beeuni cr open --title \"Own the {name} tool\"\n\
         Sessions load the copy after the change request merges.\n"
    ));
    Ok(out)
}

/// The end of the declaration's line (before its line break): where a new trailing comment goes.
fn eol_of(text: &str, decl: &crate::manifest::tools::ToolDecl) -> usize {
    let from = decl.value_span().end();
    let end = text[from..].find('\n').map_or(text.len(), |i| from + i);
    if end > from && text.as_bytes()[end - 1] == b'\r' { end - 1 } else { end }
}

/// A tool with no line gets one under the root file's `tools:` key; without any `tools:` key in the graph,
/// the root file gets one that also lists the other four, so that ejecting removes nothing. With the edits, the
/// line to show as set when it is not the first edited line (a new `tools:` key's entry, below the key).
fn add_line(
    project: &crate::project::Project,
    name: &str,
    module: &str,
    comment: &str,
) -> Result<(crate::source::FileId, Vec<Edit>, Option<String>), String> {
    let root = project.root_file().ok_or("no beeuni.yaml to edit")?;
    let doc = &project.graph.files[0].doc;
    let text = &project.file(root).text;
    let line = format!("{name}: {module}  {comment}");
    if let Some(key) = project.tools_keys.iter().find(|k| k.file == root) {
        let flow = doc.node(key.value).flow;
        // In a flow mapping the entry goes in without the comment, which ends the line it lands on instead:
        // `restore` reads the marker at the end of the value's line.
        let entry = if flow { format!("{name}: {module}") } else { line };
        let cannot =
            || format!("cannot add `{name}` to the `tools:` key of {}: write it by hand", project.file(root).path);
        let edit = add_entries(doc, text, root, key.key, key.value, &[entry]).ok_or_else(cannot)?;
        if !flow {
            return Ok((root, vec![edit], None));
        }
        let from = edit.span.end();
        let line_end = text[from..].find(['\r', '\n']).map_or(text.len(), |i| from + i);
        if doc.comments.iter().any(|c| (from..=line_end).contains(&c.span.start())) {
            return Err(format!(
                "the line of the flow mapping `tools:` in {} ends in a comment, where `{comment}` must go: write the entry by hand",
                project.file(root).path
            ));
        }
        let marker = Edit { file: root, span: Span::empty(line_end), content: format!("  {comment}") };
        return Ok((root, vec![edit, marker], None));
    }
    let mut lines = vec![line.clone()];
    if project.tools_keys.is_empty() {
        lines.extend(BEEUNI_TOOLS.iter().filter(|t| **t != name).map(|t| format!("{t}: beeuni:{t}")));
    }
    if doc.root.is_some_and(|top| doc.node(top).flow || doc.entries(top).is_none()) {
        return Err(format!("{} is not a block mapping: add the `tools:` key by hand", project.file(root).path));
    }
    let eol = line_break(text);
    let block: String = lines.iter().map(|l| format!("  {l}{eol}")).collect();
    // The key goes at the end of the file's one document: before its `...` end marker when it has one (after it,
    // the key would start a second document), else at the end of the file.
    let (at, lead) = match document_end(text) {
        Some(marker) => (marker, ""),
        None => (text.len(), if text.is_empty() || text.ends_with('\n') { "" } else { eol }),
    };
    let edit = Edit { file: root, span: Span::empty(at), content: format!("{lead}tools:{eol}{block}") };
    Ok((root, vec![edit], Some(line)))
}

/// The start of the line holding the document end marker (`...` at the start of a line, alone or before blanks
/// or a comment), if the text has one. The file parsed as one document, so the first such line ends it.
fn document_end(text: &str) -> Option<usize> {
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let bare = line.strip_prefix('\u{feff}').unwrap_or(line);
        if let Some(rest) = bare.strip_prefix("...")
            && (rest.is_empty() || rest.starts_with([' ', '\t', '\r', '\n']))
        {
            // After a byte order mark, which stays the file's first bytes.
            return Some(start + line.len() - bare.len());
        }
        start += line.len();
    }
    None
}

/// The starter `--template` writes: a plain tool object that satisfies section 4, keeps the arguments the web
/// UI reads for `show` and `memory`, and throws in `execute` until it is filled in.
pub fn template(name: &str) -> String {
    let properties: String = ui_arguments(name)
        .iter()
        .map(|arg| {
            format!("      {arg}: {{ type: 'string', description: 'TODO: describe `{arg}` (the web UI reads it)' }},\n")
        })
        .collect();
    format!(
        "// {TEMPLATE_MARKER}: fill in this module, then delete this line\n\
         // A starter for the Beeuni tool `{name}`, written by `beeuni-lint eject {name} --template`: the Beeuni\n\
         // source is not available offline (`beeuni tools eject {name}` gives it). Every agent calls this module\n\
         // in place of the hosted tool once the change merges.\n\
         export default {{\n  \
           description: 'TODO: say what {name} does and when the model should call it.',\n  \
           parameters: {{\n    \
             type: 'object',\n    \
             properties: {{\n{properties}    }},\n    \
             required: [],\n  \
           }},\n  \
           async execute(args, context) {{\n    \
             throw new Error('tools/{name}.ts is the starter `beeuni-lint eject --template` wrote: fill it in')\n  \
           }},\n\
         }}\n"
    )
}
