//! Reading the values of `beeuni-lint.toml`'s keys: each of the expected kind, every mistake added to the
//! config's errors, located.

use super::limits::MAX_LIST;
use super::{Errors, LEVELS, LIMITS_KEYS, Level, PATHS_KEYS};
use crate::catalog::BEEUNI_TOOLS;
use crate::diagnostic::Severity;
use crate::rules;
use crate::source::Span;
use crate::suggest;
use std::collections::BTreeMap;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

fn kind(value: &DeValue) -> &'static str {
    match value {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "a number",
        DeValue::Float(_) => "a number",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a date",
        DeValue::Array(_) => "a list",
        DeValue::Table(_) => "a table",
    }
}

/// A list of strings, each with its span; a wrong type is an error.
pub(super) fn xcsh_paths(value: &Spanned<DeValue>, errors: &mut Errors) -> Vec<(String, Span)> {
    let mut folders = Vec::new();
    for (folder, at) in spanned_strings(value, "xcsh-paths", errors) {
        match crate::repo::fs::normalize(&folder) {
            Some(normal) => folders.push((normal, at)),
            None => {
                errors.add(at.start(), format!("xcsh-paths: `{folder}` leaves the repository: give a folder inside it"))
            }
        }
    }
    folders
}

pub(super) fn spanned_strings(value: &Spanned<DeValue>, key: &str, errors: &mut Errors) -> Vec<(String, Span)> {
    let DeValue::Array(items) = value.get_ref() else {
        errors.add(value.span().start, format!("`{key}` must be a list of strings, not {}", kind(value.get_ref())));
        return Vec::new();
    };
    if items.len() > MAX_LIST {
        let message = format!("`{key}` holds {} entries, more than the {MAX_LIST} a list may hold", items.len());
        errors.add(value.span().start, message);
        return Vec::new();
    }
    let mut out = Vec::new();
    for item in items {
        match item.get_ref() {
            DeValue::String(s) => out.push((s.to_string(), Span::new(item.span().start, item.span().end))),
            other => errors.add(item.span().start, format!("`{key}` holds {}: it must hold strings", kind(other))),
        }
    }
    out
}

pub(super) fn strings(value: &Spanned<DeValue>, key: &str, errors: &mut Errors) -> Vec<String> {
    spanned_strings(value, key, errors).into_iter().map(|(s, _)| s).collect()
}

pub(super) fn removed(value: &Spanned<DeValue>, errors: &mut Errors) -> Vec<(String, Span)> {
    let names = spanned_strings(value, "removed-beeuni-tools", errors);
    for (name, span) in &names {
        if !BEEUNI_TOOLS.contains(&name.as_str()) {
            errors.unknown(span.start(), &format!("`{name}` is not a Beeuni tool"), name, &BEEUNI_TOOLS);
        }
    }
    names
}

fn table<'a, 'i>(value: &'a Spanned<DeValue<'i>>, key: &str, errors: &mut Errors) -> Option<&'a DeTable<'i>> {
    match value.get_ref() {
        DeValue::Table(table) => Some(table),
        other => {
            errors.add(value.span().start, format!("`{key}` must be a table (`[{key}]`), not {}", kind(other)));
            None
        }
    }
}

pub(super) fn levels(value: &Spanned<DeValue>, errors: &mut Errors) -> BTreeMap<String, Level> {
    let mut levels = BTreeMap::new();
    let Some(entries) = table(value, "rules", errors) else { return levels };
    for (id, level) in entries.iter() {
        let id_text = id.get_ref().as_ref();
        if rules::find(id_text).is_none() {
            errors.add_with(id.span().start, || {
                let hint = suggest::did_you_mean(id_text, rules::RULES.iter().map(|r| r.id))
                    .unwrap_or_else(|| "`beeuni-lint rules` lists the rule ids".to_string());
                format!("unknown rule `{id_text}` in [rules]: {hint}")
            });
            continue;
        }
        let DeValue::String(text) = level.get_ref() else {
            let message = format!(
                "the level of `{id_text}` must be a string (error, warning, info or off), not {}",
                kind(level.get_ref())
            );
            errors.add(level.span().start, message);
            continue;
        };
        let parsed = match text.as_ref() {
            "off" => Level::Off,
            "info" => Level::On(Severity::Info),
            "warning" => Level::On(Severity::Warning),
            "error" => Level::On(Severity::Error),
            other => {
                // `warn` is short for `warning`, not three edits away from it.
                let lower = other.to_ascii_lowercase();
                let prefix = LEVELS.iter().find(|l| lower.len() >= 2 && l.starts_with(&lower));
                let near = prefix
                    .map(|l| format!("did you mean `{l}`?"))
                    .or_else(|| suggest::did_you_mean(&lower, LEVELS))
                    .map(|h| format!(" ({h})"))
                    .unwrap_or_default();
                errors.add(
                    level.span().start,
                    format!("`{other}` is not a level: use error, warning, info or off{near}"),
                );
                continue;
            }
        };
        levels.insert(id_text.to_string(), parsed);
    }
    levels
}

pub(super) fn excludes(value: &Spanned<DeValue>, errors: &mut Errors) -> Vec<(String, usize)> {
    let mut globs = Vec::new();
    let Some(entries) = table(value, "paths", errors) else { return globs };
    for (key, value) in entries.iter() {
        match key.get_ref().as_ref() {
            "exclude" => {
                globs.extend(spanned_strings(value, "exclude", errors).into_iter().map(|(g, span)| (g, span.start())))
            }
            other => errors.unknown(key.span().start, &format!("unknown key `{other}` in [paths]"), other, &PATHS_KEYS),
        }
    }
    globs
}

/// `[limits]`: `module-bytes`, the largest tool module or helper analysed, a whole number of bytes from 1 up to the
/// size of a file read (32 MiB). `None` when it is not given (or wrong: an error says so).
pub(super) fn limits(value: &Spanned<DeValue>, errors: &mut Errors) -> Option<u64> {
    let entries = table(value, "limits", errors)?;
    let mut module_bytes = None;
    for (key, value) in entries.iter() {
        match key.get_ref().as_ref() {
            "module-bytes" => {
                let most = crate::repo::fs::MAX_FILE_BYTES;
                match value.get_ref() {
                    DeValue::Integer(number) => {
                        match u64::from_str_radix(&number.as_str().replace('_', ""), number.radix()) {
                            Ok(bytes) if (1..=most).contains(&bytes) => module_bytes = Some(bytes),
                            _ => errors.add(
                                value.span().start,
                                format!("`module-bytes` must be a number of bytes from 1 to {most} (32 MiB)"),
                            ),
                        }
                    }
                    other => errors.add(
                        value.span().start,
                        format!("`module-bytes` must be a number of bytes, not {}", kind(other)),
                    ),
                }
            }
            other => {
                errors.unknown(key.span().start, &format!("unknown key `{other}` in [limits]"), other, &LIMITS_KEYS)
            }
        }
    }
    module_bytes
}
