//! The `tools:` declarations of the graph and the selection rule.

use super::load::{Graph, non_relative_reason};
use crate::catalog::{BEEUNI_TOOLS, MODULE_EXTENSIONS};
use crate::repo::checkout::{Checkout, Indexed, Resolved};
use crate::repo::fs::{self, Refusal};
use crate::source::{FileId, Span};
use crate::yaml::{Document, NodeId};

/// A `tools:` key of one file of the graph.
#[derive(Debug)]
pub struct ToolsKey {
    pub file: FileId,
    pub key: Span,
    /// The key's value node (a mapping, null, or something `manifest-shape` reports).
    pub value: NodeId,
    pub graph_index: usize,
}

/// A name or path of a declaration: inline up to 24 bytes (most are), and every declaration is kept to the end
/// of the run.
pub type Name = compact_str::CompactString;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolValue {
    /// `beeuni:<target>`
    Beeuni(Name),
    /// Any other string: a module path when `path` is `Ok` (normalised), else why it is not one.
    Module { path: Result<Name, String> },
    /// Not a string: what it is instead.
    NotString(&'static str),
}

/// A declaration under `tools:`. Every one is kept to the end of the run (20,000 at the 20k bench): its entry's
/// span is made from its name's and value's when asked, 112 bytes a declaration where three spans took 120.
#[derive(Debug)]
pub struct ToolDecl {
    pub name: Name,
    pub file: FileId,
    name_span: Span,
    value_span: Span,
    pub value: ToolValue,
    /// For a valid module path: where it leads (`Ok`) or why it cannot be read.
    pub module: Option<Result<Resolved, Refusal>>,
}

impl ToolDecl {
    /// The key (the tool's name).
    pub fn name_span(&self) -> Span {
        self.name_span
    }

    /// The value.
    pub fn value_span(&self) -> Span {
        self.value_span
    }

    /// `name: value`, from the key's start to the value's end (one past an empty value's place, so that it is not
    /// empty).
    pub fn entry(&self) -> Span {
        let value = self.value_span();
        let end = if value.is_empty() { value.end() + 1 } else { value.end() };
        Span::new(self.name_span.start(), end)
    }

    pub fn is_beeuni_name(&self) -> bool {
        BEEUNI_TOOLS.contains(&self.name.as_str())
    }

    /// The module path, when the value is a valid one.
    pub fn module_path(&self) -> Option<&str> {
        match &self.value {
            ToolValue::Module { path: Ok(path) } => Some(path.as_str()),
            _ => None,
        }
    }

    /// Does this declaration load the Beeuni tool of its name (as itself or replaced by a module)?
    pub fn loads_beeuni(&self) -> bool {
        self.is_beeuni_name()
            && match &self.value {
                ToolValue::Beeuni(target) => *target == self.name,
                ToolValue::Module { path } => path.is_ok(),
                ToolValue::NotString(_) => false,
            }
    }
}

/// Why a string is not a module path, or its normalised form.
pub fn check_module_path(raw: &str) -> Result<Name, String> {
    // The form nearly every declaration has, in one pass; anything else (and every error) step by step.
    if let Some(extension) = plain_extension(raw)
        && MODULE_EXTENSIONS.contains(&extension)
        && !raw.ends_with(".d.ts")
    {
        return Ok(Name::from(raw));
    }
    check_step_by_step(raw)
}

/// The extension (`""` for none) of a relative path without a scheme, drive letter or leading `~`, in normal form
/// ([`fs::is_plain`]'s one pass over its bytes, where the steps of [`check_step_by_step`] take one each); `None` for
/// any other path.
fn plain_extension(raw: &str) -> Option<&str> {
    if raw.starts_with('~') {
        return None;
    }
    let (name, dot) = fs::plain_last_part(raw, true)?;
    // As [`extension`]: a leading dot starts a hidden file's name, not an extension.
    Some(dot.filter(|&dot| dot > name).map_or("", |dot| &raw[dot + 1..]))
}

fn check_step_by_step(raw: &str) -> Result<Name, String> {
    if let Some(reason) = non_relative_reason(raw) {
        return Err(format!("`{raw}` {reason}"));
    }
    if raw.ends_with('/') {
        return Err(format!("`{raw}` ends in `/`: it names a folder, not a module"));
    }
    let Some(path) = fs::normalized(raw) else {
        return Err(format!("`{raw}` escapes the repository"));
    };
    if path.ends_with(".d.ts") {
        return Err(format!("`{raw}` is a declaration file, which has no runtime code"));
    }
    let extension = extension(&path);
    if !MODULE_EXTENSIONS.contains(&extension) {
        return Err(match extension {
            "" => format!("`{raw}` has no extension"),
            other => format!("`{raw}` ends in `.{other}`"),
        });
    }
    Ok(Name::from(path))
}

/// What `Path::extension` gives for a normalised path (`""` for none), by a byte search: this runs per declaration.
fn extension(path: &str) -> &str {
    let (_, name) = fs::split_folder(path);
    match name.as_bytes().iter().rposition(|&b| b == b'.') {
        // A leading dot starts a hidden file's name, not an extension.
        Some(dot) if dot > 0 => &name[dot + 1..],
        _ => "",
    }
}

/// The keys and declarations of every file of the graph, collected file by file ([`collect_file`]), as they are
/// kept.
pub fn collected(mut keys: Vec<ToolsKey>, mut decls: Vec<ToolDecl>) -> (Vec<ToolsKey>, Vec<ToolDecl>) {
    // Kept to the end of the run: a list grown by doubling would hold up to twice what it needs (at 20,000
    // declarations, 2 MB of a 5.5 MB list).
    decls.shrink_to_fit();
    keys.shrink_to_fit();
    (keys, decls)
}

/// The `tools:` keys and declarations of one file of the graph.
pub fn collect_file(
    graph: &Graph,
    graph_index: usize,
    checkout: Option<&Checkout>,
    keys: &mut Vec<ToolsKey>,
    decls: &mut Vec<ToolDecl>,
    indexed: &mut Vec<Indexed>,
) {
    let manifest = &graph.files[graph_index];
    let doc = &manifest.doc;
    let Some(top) = doc.root else { return };
    let Some(entries) = doc.entries(top) else { return };
    for entry in entries.iter().filter(|e| doc.scalar(e.key) == Some("tools")) {
        keys.push(ToolsKey { file: manifest.file, key: doc.node(entry.key).span, value: entry.value, graph_index });
        for tool in doc.entries(entry.value).unwrap_or_default() {
            if let Some((decl, found)) = declaration(doc, manifest.file, tool.key, tool.value, checkout) {
                decls.push(decl);
                indexed.push(found);
            }
        }
    }
}

fn declaration(
    doc: &Document,
    file: FileId,
    key: NodeId,
    value: NodeId,
    checkout: Option<&Checkout>,
) -> Option<(ToolDecl, Indexed)> {
    let name = Name::from(doc.scalar(key)?);
    let name_span = doc.node(key).span;
    let value_span = doc.node(value).span;
    let value = match doc.str(value) {
        Some(text) => match text.strip_prefix("beeuni:") {
            Some(target) => ToolValue::Beeuni(Name::from(target)),
            None => ToolValue::Module { path: check_module_path(text) },
        },
        None => ToolValue::NotString(doc.describe(value)),
    };
    let (module, indexed) = match (&value, checkout) {
        (ToolValue::Module { path: Ok(path) }, Some(checkout)) => {
            let (resolved, indexed) = checkout.resolve_module_indexed(path);
            (Some(resolved), indexed)
        }
        _ => (None, None),
    };
    let decl = ToolDecl { name, file, name_span, value_span, value, module };
    Some((decl, indexed))
}

/// The tool an eject comment names, if `comment` (the text after `#`) is one: the
/// `# ejected from beeuni:NAME` that `eject` writes, which the `eject-comment` rule checks and `restore` requires.
pub fn ejected_from(comment: &str) -> Option<&str> {
    let name = comment.trim().strip_prefix("ejected from beeuni:")?;
    Some(name.split_whitespace().next().unwrap_or(name))
}

/// The selection rule: which Beeuni tools sessions get, in canonical order.
pub fn loaded_beeuni(keys: &[ToolsKey], decls: &[ToolDecl]) -> Vec<&'static str> {
    if keys.is_empty() {
        return BEEUNI_TOOLS.to_vec();
    }
    BEEUNI_TOOLS.iter().copied().filter(|name| decls.iter().any(|d| d.name == *name && d.loads_beeuni())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn module_paths() {
        assert_eq!(check_module_path("./tools/x.ts"), Ok("tools/x.ts".into()));
        assert_eq!(check_module_path("tools/x.mjs"), Ok("tools/x.mjs".into()));
        assert!(check_module_path("tools/x.tsx").is_err());
        assert!(check_module_path("tools/x.d.ts").is_err());
        assert!(check_module_path("/abs/x.ts").is_err());
        assert!(check_module_path("~/x.ts").is_err());
        assert!(check_module_path("https://x.example/x.ts").is_err());
        assert!(check_module_path("C:/x.ts").is_err());
        assert!(check_module_path("tools\\x.ts").is_err());
        assert!(check_module_path("../x.ts").is_err());
        assert!(check_module_path("web_search").is_err());
        assert_eq!(
            check_module_path("tools/x.ts/"),
            Err("`tools/x.ts/` ends in `/`: it names a folder, not a module".into())
        );
        assert_eq!(check_module_path("tools/.ts"), Err("`tools/.ts` has no extension".into()));
        assert_eq!(check_module_path("tools/x."), Err("`tools/x.` has no extension".into()));
        assert_eq!(check_module_path("tools/x.json"), Err("`tools/x.json` ends in `.json`".into()));
        assert_eq!(check_module_path("a.b/x"), Err("`a.b/x` has no extension".into()));
        assert_eq!(check_module_path("tools/..x.ts"), Ok("tools/..x.ts".into()));
    }

    /// The one-pass check accepts only what the steps accept, as they normalise it.
    #[test]
    fn one_pass_agrees_with_the_steps() {
        let paths = [
            "tools/x.ts",
            "./tools/x.ts",
            "tools/./x.ts",
            "tools//x.ts",
            "tools/x.ts/",
            "/x.ts",
            "~/x.ts",
            "~x.ts",
            "x~.ts",
            "C:/x.ts",
            "a:b/x.ts",
            "tools/a:b.ts",
            "tools\\x.ts",
            "../x.ts",
            "a/../x.ts",
            "a/..x.ts",
            "a/.x.ts",
            ".ts",
            "x.d.ts",
            "x.tsx",
            "x.",
            "x",
            "",
            ".",
            "..",
            "a/.",
            "a/..",
            "a.b/x",
            "a.b/x.mjs",
            "https://x.example/x.ts",
            "tools/x.cts",
        ];
        for path in paths {
            if let Some(extension) = plain_extension(path) {
                assert_eq!(extension, super::extension(path), "{path}");
                assert_eq!(fs::normalize(path).as_deref(), Some(path), "{path}");
                assert_eq!(non_relative_reason(path), None, "{path}");
            }
            let fast =
                plain_extension(path).is_some_and(|e| MODULE_EXTENSIONS.contains(&e) && !path.ends_with(".d.ts"));
            if fast {
                assert_eq!(check_step_by_step(path), Ok(Name::from(path)), "{path}");
            }
        }
        assert_eq!(plain_extension("tools/x.ts"), Some("ts"));
        assert_eq!(plain_extension("a.b/x"), Some(""));
        assert_eq!(plain_extension("a/.x"), Some(""));
        assert_eq!(plain_extension("./x.ts"), None);
    }

    /// The byte search gives what `Path::extension` does.
    #[test]
    fn extensions_as_path_gives_them() {
        for path in ["", "x", "x.ts", ".ts", "a/.ts", "a/x.", "a.b/x", "a/..x.ts", "a/x.d.ts", "x.tar.gz"] {
            let std = Path::new(path).extension().and_then(|e| e.to_str()).unwrap_or("");
            assert_eq!(extension(path), std, "{path}");
        }
    }
}
