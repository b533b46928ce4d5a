//! Which files of an xcsh tool folder the loader takes as tools, as its providers glob them (docs/spec/rules.md §6, as
//! settled by the real-loaders issue): the native provider (`.xcsh/tools/`) takes `*.ts` and `*.js`, reads
//! `json`, `md`, `sh`, `bash` and `py` files as metadata, and takes `<dir>/index.ts` as the tool `<dir>`; the
//! Codex provider (`.codex/tools/`) takes `*.ts` and `*.js`; the Claude provider (`.claude/tools/`) hands every
//! file to the loader, which imports it. Any other file in the native or Codex folder (a `.mjs` helper, a
//! `.cjs` one) is loaded only when a tool imports it: a helper, never a tool.

use crate::catalog::{XCSH_MODULE_EXTENSIONS, XCSH_TOOL_FOLDERS};
use crate::repo::checkout::{Checkout, Resolved};
use crate::repo::fs::Refusal;
use crate::source::{FileId, SourceFile, Sources};
use std::collections::HashSet;

/// The xcsh tool files found, before analysis.
#[derive(Default)]
pub struct Found {
    pub folders: Vec<String>,
    /// Each tool file (project-relative) with where it leads, and the index of its folder.
    pub files: Vec<(String, Result<Resolved, Refusal>, usize)>,
    /// Metadata files the providers read (never loaded as a tool).
    pub metadata: Vec<FileId>,
    /// Files the loader imports as tools that are no module (`.claude/tools/NOTES.txt`): each fails at load.
    pub not_modules: Vec<FileId>,
}

/// How a provider globs its tool folder.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Provider {
    /// `.xcsh/tools/`.
    Native,
    /// `.claude/tools/`: every file.
    Claude,
    /// `.codex/tools/`.
    Codex,
    /// A folder of `--xcsh` or `xcsh-paths`: every module, as the loader imports each path it is given.
    Configured,
}

/// What the loader makes of one file of a tool folder.
#[derive(Debug, PartialEq, Eq)]
enum Kind {
    Tool,
    Metadata,
    /// Imported as a tool, but no module: fails at load.
    NotModule,
    /// Not taken by the provider: a helper at most.
    Skipped,
}

fn provider(folder: &str) -> Provider {
    match folder {
        ".xcsh/tools" => Provider::Native,
        ".claude/tools" => Provider::Claude,
        ".codex/tools" => Provider::Codex,
        _ => Provider::Configured,
    }
}

/// The kind of the file `name` in a folder of `provider`.
fn kind(provider: Provider, name: &str) -> Kind {
    // Hidden files are no tools of any provider (`.DS_Store`, `.eslintrc.js`).
    if name.starts_with('.') {
        return Kind::Skipped;
    }
    let ext = name.rsplit_once('.').map_or("", |(_, ext)| ext);
    // A declaration file holds no code: nothing to import there.
    let declaration = name.ends_with(".d.ts") || name.ends_with(".d.mts") || name.ends_with(".d.cts");
    let module = XCSH_MODULE_EXTENSIONS.contains(&ext);
    match provider {
        Provider::Native | Provider::Codex if declaration => Kind::Skipped,
        Provider::Native | Provider::Codex if matches!(ext, "ts" | "js") => Kind::Tool,
        Provider::Native if matches!(ext, "json" | "md" | "sh" | "bash" | "py") => Kind::Metadata,
        Provider::Native | Provider::Codex => Kind::Skipped,
        Provider::Claude | Provider::Configured if declaration => Kind::Skipped,
        Provider::Claude | Provider::Configured if module => Kind::Tool,
        Provider::Claude | Provider::Configured if matches!(ext, "json" | "md") => Kind::Metadata,
        Provider::Claude => Kind::NotModule,
        Provider::Configured => Kind::Skipped,
    }
}

/// Does the project have an xcsh tool folder (or were some given)? Then it is linted without a `beeuni.yaml`.
pub fn has_tool_folders(checkout: &Checkout, extra: &[String]) -> bool {
    !extra.is_empty() || XCSH_TOOL_FOLDERS.iter().any(|folder| checkout.is_dir(folder))
}

/// Finds the xcsh tool files. `extra`: project-relative folders from `--xcsh` and `xcsh-paths`.
pub fn discover(checkout: &Checkout, extra: &[String], sources: &mut Sources) -> Found {
    let mut found = Found::default();
    for folder in XCSH_TOOL_FOLDERS.iter().map(|f| f.to_string()).chain(extra.iter().cloned()) {
        if !found.folders.contains(&folder) {
            found.folders.push(folder);
        }
    }
    let mut seen: HashSet<Resolved> = HashSet::new();
    for (index, folder) in found.folders.iter().enumerate() {
        let provider = provider(folder);
        for name in checkout.list_dir(folder) {
            let path = if folder.is_empty() { name.clone() } else { format!("{folder}/{name}") };
            let mut resolved = checkout.resolve(&path);
            let path = match (&resolved, kind(provider, &name)) {
                // The native provider takes `<dir>/index.ts` as the tool `<dir>`.
                (Err(Refusal::Directory), _) if provider == Provider::Native && !name.starts_with('.') => {
                    let index = format!("{path}/index.ts");
                    resolved = checkout.resolve(&index);
                    if matches!(resolved, Err(Refusal::Directory | Refusal::NotFound)) {
                        continue;
                    }
                    index
                }
                (Err(Refusal::Directory), _) | (_, Kind::Skipped) => continue,
                (_, Kind::Metadata) => {
                    if let Ok(bytes) = checkout.read(&path) {
                        let text = String::from_utf8_lossy(&bytes).into_owned();
                        found.metadata.push(sources.add(SourceFile::new(path, text)));
                    }
                    continue;
                }
                (_, Kind::NotModule) => {
                    // Never read: its finding is about the file, not its bytes (which may be anything, of any
                    // size), so it points at an empty line 1.
                    found.not_modules.push(sources.add(SourceFile::new(path, String::new())));
                    continue;
                }
                (_, Kind::Tool) => path,
            };
            // "Duplicate resolved paths are deduplicated": a symlinked copy is the same tool.
            if let Ok(target) = &resolved
                && !seen.insert(target.clone())
            {
                continue;
            }
            found.files.push((path, resolved, index));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::{Kind, Provider, kind};

    #[test]
    fn each_provider_globs_its_folder() {
        let kinds = |provider| {
            ["a.ts", "a.js", "a.mjs", "a.cjs", "a.mts", "a.tsx", "a.md", "a.json", "a.sh", "a.py", "NOTES.txt"]
                .map(|name| kind(provider, name))
        };
        use Kind::*;
        let native = [Tool, Tool, Skipped, Skipped, Skipped, Skipped, Metadata, Metadata, Metadata, Metadata, Skipped];
        assert_eq!(kinds(Provider::Native), native);
        let codex = [Tool, Tool, Skipped, Skipped, Skipped, Skipped, Skipped, Skipped, Skipped, Skipped, Skipped];
        assert_eq!(kinds(Provider::Codex), codex);
        let claude = [Tool, Tool, Tool, Tool, Tool, Tool, Metadata, Metadata, NotModule, NotModule, NotModule];
        assert_eq!(kinds(Provider::Claude), claude);
        assert_eq!(kind(Provider::Claude, "types.d.ts"), Skipped);
        assert_eq!(kind(Provider::Claude, ".DS_Store"), Skipped);
        assert_eq!(kind(Provider::Configured, "a.mjs"), Tool);
    }
}
