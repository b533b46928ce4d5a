//! What a project tool's module tells the model about the tool: its `description` and its `parameters` schema,
//! compared across the two sides. The facts hold what the analysis read (the keys of `properties`); the text of
//! each field (as written, its white space aside) says whether it changed, and `required` is read from it by a
//! scan that runs once over it (no parser: nothing in it recurses).

use super::ModuleChange;
use crate::access::{self, Source};
use crate::modules::Module;
use crate::modules::facts::{DefaultExportKind, Field};
use crate::project::Project;
use crate::source::{FileId, Span};
use std::collections::{BTreeSet, HashMap};

/// The fields of a tool module, as read: each as its text without white space.
#[derive(Default)]
struct ToolFields {
    /// From the repository's root.
    module: String,
    /// The module's file, and where `description` and `parameters` start in it: their lines are worked out for
    /// the modules that changed only (a line table for every module cost `impact` a tenth of its instructions).
    file: Option<FileId>,
    description_start: Option<usize>,
    parameters_start: Option<usize>,
    description: Option<String>,
    parameters: Option<String>,
    properties: BTreeSet<String>,
    required: BTreeSet<String>,
}

/// The project tools of both sides whose module's `description` or `parameters` changed.
pub(super) fn changed(base: &Project, head: &Project) -> Vec<ModuleChange> {
    let (before, after) = (project_tools(base), project_tools(head));
    let before: HashMap<&str, &ToolFields> = before.iter().map(|(name, fields)| (name.as_str(), fields)).collect();
    let mut out = Vec::new();
    for (name, new) in &after {
        let Some(old) = before.get(name.as_str()) else { continue };
        let description_changed = old.description != new.description;
        let parameters_changed = old.parameters != new.parameters;
        if !description_changed && !parameters_changed {
            continue;
        }
        let minus = |a: &BTreeSet<String>, b: &BTreeSet<String>| a.difference(b).cloned().collect();
        out.push(ModuleChange {
            name: name.clone(),
            module: new.module.clone(),
            line: line(head, new, if description_changed { new.description_start } else { new.parameters_start }),
            url: None,
            description_changed,
            parameters_changed,
            properties_added: minus(&new.properties, &old.properties),
            properties_removed: minus(&old.properties, &new.properties),
            required_added: minus(&new.required, &old.required),
            required_removed: minus(&old.required, &new.required),
        });
    }
    out
}

/// Each project tool a session gets (as `agents` lists them), with its module's fields.
fn project_tools(project: &Project) -> Vec<(String, ToolFields)> {
    // The module of each declaration, found once (a lookup per tool would scan every module).
    let mut module_of: Vec<Option<&Module>> = vec![None; project.tools.len()];
    for module in &project.modules {
        for &index in module.declared_by.iter() {
            if let Some(slot) = module_of.get_mut(index) {
                *slot = Some(module);
            }
        }
    }
    access::universe(project)
        .into_iter()
        .filter(|(_, source)| *source == Source::Project)
        .filter_map(|(name, _)| {
            let index = project.first_declared(name)?;
            let fields = match module_of.get(index).copied().flatten() {
                Some(module) => fields(project, module),
                // Not read (a link out of the repository, a file that is gone): its path as declared.
                None => ToolFields {
                    module: project
                        .sources
                        .shown(project.tools.get(index).and_then(|d| d.module_path()).unwrap_or_default())
                        .to_string(),
                    ..ToolFields::default()
                },
            };
            Some((name.to_string(), fields))
        })
        .collect()
}

fn fields(project: &Project, module: &Module) -> ToolFields {
    let file = project.file(module.file);
    let mut out = ToolFields { module: file.shown.to_string(), ..ToolFields::default() };
    let Some(DefaultExportKind::Object(object)) = module.facts.default_export.as_ref().map(|d| &d.kind) else {
        return out;
    };
    let text = file.text.as_str();
    let text_of = |span: Span| {
        let text = text.get(span.range()).unwrap_or_default();
        text.split_whitespace().collect::<String>()
    };
    out.description = span_of(&object.description).map(text_of);
    out.parameters = span_of(&object.parameters).map(text_of);
    out.file = Some(module.file);
    out.description_start = span_of(&object.description).map(|span| span.start());
    out.parameters_start = span_of(&object.parameters).map(|span| span.start());
    if let Field::Found { value, span } = &object.parameters {
        out.properties = value.properties.iter().flat_map(|p| p.iter()).map(String::from).collect();
        out.required = required(text.get(span.range()).unwrap_or_default());
    }
    out
}

/// The 1-based line of the field that starts at `start` in the tool's module (1 when there is none).
fn line(project: &Project, fields: &ToolFields, start: Option<usize>) -> usize {
    match (fields.file, start) {
        (Some(file), Some(start)) => project.file(file).lines().position(start).line,
        _ => 1,
    }
}

fn span_of<T>(field: &Field<T>) -> Option<Span> {
    match field {
        Field::Missing => None,
        Field::Found { span, .. } | Field::Unanalyzable { span, .. } => Some(*span),
    }
}

/// The string elements of the `required` array of the schema `parameters: { … }` (the key at the schema's own
/// level, not a nested one's), read in one pass that counts brackets and skips strings and comments.
fn required(text: &str) -> BTreeSet<String> {
    let bytes = text.as_bytes();
    let (mut depth, mut at, mut out) = (0usize, 0usize, BTreeSet::new());
    // Depth 1 is inside the schema's braces (the text starts with the key `parameters:`).
    let mut in_required = false;
    while at < bytes.len() {
        match bytes[at] {
            b'{' | b'[' | b'(' => depth += 1,
            b'}' | b']' | b')' => {
                depth = depth.saturating_sub(1);
                in_required = in_required && depth >= 2;
            }
            b'/' if bytes.get(at + 1) == Some(&b'/') => at = find(bytes, at, b"\n"),
            b'/' if bytes.get(at + 1) == Some(&b'*') => at = find(bytes, at + 2, b"*/") + 1,
            quote @ (b'"' | b'\'' | b'`') => {
                let end = string_end(bytes, at, quote);
                let value = text.get(at + 1..end).unwrap_or_default();
                let closed = end < bytes.len();
                if closed && in_required && depth == 2 {
                    out.insert(value.to_string());
                } else if depth == 1 && value == "required" && is_key(bytes, end + 1) {
                    in_required = true;
                }
                at = end;
            }
            b'r' if depth == 1 && text[at..].starts_with("required") && !is_word(bytes, at.wrapping_sub(1)) => {
                let end = at + "required".len();
                if is_key(bytes, end) {
                    in_required = true;
                }
                at = end - 1;
            }
            _ => {}
        }
        at += 1;
    }
    out
}

/// Where `needle` starts at or after `from` (or the end).
fn find(bytes: &[u8], from: usize, needle: &[u8]) -> usize {
    (from..bytes.len()).find(|&i| bytes[i..].starts_with(needle)).unwrap_or(bytes.len())
}

/// The closing quote of the string that opens at `start` (or the end): a backslash escapes the next byte.
fn string_end(bytes: &[u8], start: usize, quote: u8) -> usize {
    let mut at = start + 1;
    while at < bytes.len() && bytes[at] != quote {
        at += if bytes[at] == b'\\' { 2 } else { 1 };
    }
    at.min(bytes.len())
}

/// Is the text from `at` (white space aside) a `:`, so that what came before was a key?
fn is_key(bytes: &[u8], at: usize) -> bool {
    bytes.get(at..).unwrap_or_default().iter().find(|b| !b.is_ascii_whitespace()) == Some(&b':')
}

fn is_word(bytes: &[u8], at: usize) -> bool {
    bytes.get(at).is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'$')
}

#[cfg(test)]
mod tests {
    use super::required;

    #[test]
    fn required_is_read_at_the_schema_level_only() {
        let text = "parameters: { type: 'object', properties: { a: { type: 'object', required: ['inner'] }, \
                    b: {} }, // required: ['comment']\n \"required\": [\"a\", 'b'] }";
        assert_eq!(required(text).into_iter().collect::<Vec<_>>(), ["a", "b"]);
        assert!(required("parameters: { required: [] }").is_empty());
        assert!(required("parameters: { notrequired: ['x'] }").is_empty());
        assert!(required("parameters: { required: ['unclosed").is_empty());
    }
}
