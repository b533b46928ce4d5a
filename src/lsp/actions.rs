//! Code actions: each finding's fix (safe ones preferred, unsafe ones offered but not preferred), "ignore this
//! rule on this line" (the inline comment of docs/spec/interface.md, Ignoring), and "fix all safe fixes in this file".
//! A client that resolves code actions gets them without their edit, computed on `codeAction/resolve`. The
//! findings' fixes are those the fix stage let through (`fix::offer::verify_in`, when the project was linted).

use super::workspace::{Linted, Workspace};
use super::{Client, convert, ignore};
use crate::diagnostic::{Diagnostic, Edit, Fix, Safety};
use crate::source::escape::escape;
use crate::source::{FileId, Sources, Span};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CodeActionResponse, TextEdit, Uri, WorkspaceEdit,
};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::LazyLock;

pub static FIX_ALL_KIND: LazyLock<CodeActionKind> = LazyLock::new(|| CodeActionKind::new("source.fixAll.beeuni-lint"));

/// What a code action left to `codeAction/resolve` does.
#[derive(Serialize, Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
enum Kind {
    Fix,
    Ignore,
    FixAll,
}

/// A code action's `data`: enough to compute its edit later, if the buffer has not changed since.
#[derive(Serialize, Deserialize)]
struct Data {
    uri: Uri,
    version: i32,
    kind: Kind,
    /// The finding's index in the project's diagnostics (unused for `FixAll`).
    finding: usize,
}

pub fn actions(workspace: &Workspace, client: &Client, params: CodeActionParams) -> Option<CodeActionResponse> {
    let (doc, linted, file) = workspace.lookup(&params.text_document.uri)?;
    let source = linted.project.file(file);
    let start = convert::offset(&source.text, params.range.start);
    let end = convert::offset(&source.text, params.range.end);
    let wanted = |kind: &CodeActionKind| {
        params.context.only.as_ref().is_none_or(|only| {
            only.iter().any(|o| kind.as_str() == o.as_str() || kind.as_str().starts_with(&format!("{}.", o.as_str())))
        })
    };
    let mut out = Vec::new();
    let mut any_safe = false;
    for (index, finding) in linted.diagnostics.iter().enumerate().filter(|(_, d)| d.primary.file == file) {
        any_safe |= finding.fix.as_ref().is_some_and(|f| f.safety == Safety::Safe);
        let span = finding.primary.span;
        if span.start() > end || span.end() < start || !wanted(&CodeActionKind::QUICKFIX) {
            continue;
        }
        let shown = convert::diagnostic(source, finding, |_| None);
        if let Some(fix) = &finding.fix {
            let safe = fix.safety == Safety::Safe;
            let mut title = fix_title(linted, fix);
            if !safe {
                title.push_str(" (unsafe fix)");
            }
            out.push(CodeAction {
                title,
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![shown.clone()]),
                is_preferred: Some(safe),
                ..Default::default()
            });
            finish(workspace, client, linted, out.last_mut(), (doc.uri.clone(), doc.version, Kind::Fix, index));
        }
        out.push(CodeAction {
            title: format!("Ignore `{}` on this line", finding.rule),
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![shown]),
            is_preferred: Some(false),
            ..Default::default()
        });
        finish(workspace, client, linted, out.last_mut(), (doc.uri.clone(), doc.version, Kind::Ignore, index));
    }
    if any_safe && wanted(&FIX_ALL_KIND) {
        out.push(CodeAction {
            title: "Fix all safe fixes in this file".into(),
            kind: Some(FIX_ALL_KIND.clone()),
            ..Default::default()
        });
        finish(workspace, client, linted, out.last_mut(), (doc.uri.clone(), doc.version, Kind::FixAll, 0));
    }
    Some(out.into_iter().map(CodeActionOrCommand::CodeAction).collect())
}

/// Sets the action's edit now, or (for a client that resolves edits) the data to compute it on `resolve`.
fn finish(
    workspace: &Workspace,
    client: &Client,
    linted: &Linted,
    action: Option<&mut CodeAction>,
    (uri, version, kind, finding): (Uri, i32, Kind, usize),
) {
    let Some(action) = action else { return };
    if client.resolves_edits {
        action.data = serde_json::to_value(Data { uri, version, kind, finding }).ok();
    } else {
        action.edit = edit(workspace, linted, &uri, kind, finding);
    }
}

pub fn resolve(workspace: &Workspace, mut action: CodeAction) -> CodeAction {
    let data = action.data.clone().and_then(|d| serde_json::from_value::<Data>(d).ok());
    if let Some(data) = data
        && let Some((doc, linted, _)) = workspace.lookup(&data.uri)
        && doc.version == data.version
    {
        action.edit = edit(workspace, linted, &data.uri, data.kind, data.finding);
    }
    action
}

// `WorkspaceEdit` keys its changes by `Uri`, which hashes by its text; its inner cell caches a parse and never
// changes the text.
#[allow(clippy::mutable_key_type)]
fn edit(workspace: &Workspace, linted: &Linted, uri: &Uri, kind: Kind, finding: usize) -> Option<WorkspaceEdit> {
    let (_, _, file) = workspace.lookup(uri)?;
    let project = &linted.project;
    let edits: Vec<(FileId, Span, String)> = match kind {
        Kind::Fix => linted
            .diagnostics
            .get(finding)?
            .fix
            .as_ref()?
            .edits
            .iter()
            .map(|e| (e.file, e.span, e.content.clone()))
            .collect(),
        Kind::Ignore => {
            let finding = linted.diagnostics.get(finding)?;
            let (span, content) = ignore::comment(project, finding)?;
            vec![(finding.primary.file, span, content)]
        }
        Kind::FixAll => safe_fixes_of(&project.sources, &linted.diagnostics, file),
    };
    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    for (file, span, content) in edits {
        let source = project.file(file);
        let uri = workspace.uri_of(project, source)?;
        changes.entry(uri).or_default().push(TextEdit { range: convert::range(source, span), new_text: content });
    }
    Some(WorkspaceEdit { changes: Some(changes), ..Default::default() })
}

/// The edits of every safe fix of the file's findings that overlaps no fix taken before it and, applied with
/// them, passes the fix stage's checks (each fix passed them alone; together they must too).
fn safe_fixes_of(sources: &Sources, diagnostics: &[Diagnostic], file: FileId) -> Vec<(FileId, Span, String)> {
    let mut taken: Vec<Edit> = Vec::new();
    // One checker for the file's fixes: the file is parsed once as it is, and all the checks share one budget.
    let mut checker = crate::fix::offer::Checker::new(sources);
    let fixes = diagnostics
        .iter()
        .filter(|d| d.primary.file == file)
        .filter_map(|d| d.fix.as_ref())
        .filter(|f| f.safety == Safety::Safe);
    for fix in fixes {
        let overlaps = fix.edits.iter().any(|e| {
            taken.iter().any(|t| t.file == e.file && t.span.start() <= e.span.end() && e.span.start() <= t.span.end())
        });
        if overlaps {
            continue;
        }
        let with = Fix::new(Safety::Safe, taken.iter().chain(&fix.edits).cloned().collect());
        if checker.refuses(&with).is_none() {
            taken = with.edits;
        }
    }
    taken.into_iter().map(|e| (e.file, e.span, e.content)).collect()
}

/// "Replace `bsh` with `bash`", "Delete `x`", "Insert `y`"; "Apply the fix" when that would not be short. The
/// texts are the repository's: escaped.
fn fix_title(linted: &Linted, fix: &Fix) -> String {
    let short = |text: &str| text.len() <= 48 && !text.contains('\n');
    match fix.edits.as_slice() {
        [edit] => {
            let old = escape(linted.project.file(edit.file).slice(edit.span));
            let new = escape(&edit.content);
            let (old, new) = (old.as_ref(), new.as_ref());
            match (old.is_empty(), new.is_empty()) {
                (false, true) if short(old) => format!("Delete `{old}`"),
                (true, false) if short(new.trim()) => format!("Insert `{}`", new.trim()),
                (false, false) if short(old) && short(new) => format!("Replace `{old}` with `{new}`"),
                _ => "Apply the fix".into(),
            }
        }
        _ => "Apply the fix".into(),
    }
}
