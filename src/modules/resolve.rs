//! Where a module's imports lead, as Bun resolves them: relative files inside
//! the repository, Node and Bun built-ins, `#name` through `package.json`
//! `imports`, aliases of `tsconfig.json`/`jsconfig.json` `paths`, and packages
//! from `node_modules` beside or above the module (their `exports` enforced).
//! Reads nothing outside the root.

mod aliases;
mod builtins;
mod json;
mod maps;
pub use maps::MAX_EXAMINED;
mod packages;
mod tsconfig;

use crate::catalog::{EXTENSION_ORDER, HARNESS_PACKAGES};
use crate::repo::checkout::Checkout;
use crate::repo::fs;
use builtins::{BUN_BUILTIN_PACKAGES, NODE_BUILTINS};
use json::Json;
use packages::{is_package_name, package_name};
use rustc_hash::FxHashMap;
use std::rc::Rc;
use std::sync::Arc;
use tsconfig::TsConfig;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolution {
    /// A relative import found at this repo-relative path.
    File(String),
    /// `node:*`, a Node built-in, `bun`, `bun:*`.
    Builtin,
    /// A harness package (or a subpath of one), whether or not it is installed.
    Harness(String),
    /// A package found in `<dir>/node_modules/<name>` (repo-relative folder of the package), with the file the
    /// import loads.
    Package { name: String, folder: String, entry: Option<String> },
    /// A relative import that does not resolve; the reason.
    MissingFile(String),
    /// Linting the index: a relative import found only in the work tree (not staged), at this path.
    Unstaged(String),
    /// A package no `node_modules` provides; `declared_in` is a `package.json` that lists it, if any.
    MissingPackage { name: String, declared_in: Option<String> },
    /// The package is installed in `folder`, but has no file for the specifier (a subpath, or a missing `main`).
    MissingEntry { specifier: String, folder: String },
    /// The package's `exports` does not export `subpath` (`.` or `./x`); `manifest` is its `package.json`.
    NotExported { subpath: String, manifest: String },
    /// A map in `file` too large to look the specifier up in (`map`: `"exports"` or `"imports"` of a
    /// `package.json`, `paths` of a `tsconfig.json`; see [`maps::MAX_EXAMINED`]): whether the import loads is not
    /// known.
    Unchecked { map: &'static str, file: String },
}

/// Resolves imports for many modules, remembering the `package.json` and `tsconfig.json` files it has read.
pub struct Resolver<'a> {
    checkout: &'a Checkout,
    manifests: FxHashMap<String, Option<Rc<Json>>>,
    /// The config that applies in a folder (the nearest at or above it), by folder.
    configs: FxHashMap<String, Option<Rc<TsConfig>>>,
    /// Each specifier's resolution from a folder (by folder, then specifier; without and with `require()`): modules
    /// of one folder import the same helpers and packages, and each would otherwise cost a look-up of every
    /// candidate file. Looked up without building a key. A folder's place in `resolved` is looked up once per module
    /// (see [`Folder`]), not once per import.
    folders: FxHashMap<String, usize>,
    resolved: Vec<(String, FxHashMap<String, ByRequire>)>,
    last_folder: Option<Folder>,
}

/// The folder of a module whose imports are being resolved (see [`Resolver::folder`]).
#[derive(Clone, Copy)]
pub struct Folder(usize);

/// A specifier's resolution without and with `require()` (as far as made).
type ByRequire = [Option<Arc<Resolution>>; 2];

impl<'a> Resolver<'a> {
    pub fn new(checkout: &'a Checkout) -> Self {
        Resolver {
            checkout,
            manifests: FxHashMap::default(),
            configs: FxHashMap::default(),
            folders: FxHashMap::default(),
            resolved: Vec::new(),
            last_folder: None,
        }
    }

    /// Resolves `specifier`, imported by the module at repo-relative `module` (with `require()` when `require`:
    /// `exports` conditions differ).
    pub fn resolve(&mut self, module: &str, specifier: &str, require: bool) -> Resolution {
        Resolution::clone(&self.resolve_shared(module, specifier, require))
    }

    /// [`Resolver::resolve`], shared with every other import of the same specifier from the same folder: each
    /// module keeps its resolutions to the end of the run, and most are the same few.
    pub fn resolve_shared(&mut self, module: &str, specifier: &str, require: bool) -> Arc<Resolution> {
        let folder = self.folder(module);
        self.resolve_in(folder, specifier, require)
    }

    /// The folder of the module at repo-relative `module`, to resolve its imports with [`Resolver::resolve_in`].
    pub fn folder(&mut self, module: &str) -> Folder {
        let dir = parent(module);
        // Modules come folder by folder, as manifests list them: most are in the folder of the one before.
        if let Some(last) = self.last_folder.filter(|last| self.resolved[last.0].0 == dir) {
            return last;
        }
        let at = match self.folders.get(dir) {
            Some(&at) => at,
            None => {
                self.resolved.push((dir.to_string(), FxHashMap::default()));
                self.folders.insert(dir.to_string(), self.resolved.len() - 1);
                self.resolved.len() - 1
            }
        };
        self.last_folder = Some(Folder(at));
        Folder(at)
    }

    /// [`Resolver::resolve_shared`] for a module in `folder`.
    pub fn resolve_in(&mut self, folder: Folder, specifier: &str, require: bool) -> Arc<Resolution> {
        let (dir, specifiers) = &self.resolved[folder.0];
        if let Some(known) = specifiers.get(specifier).and_then(|by_require| by_require[usize::from(require)].as_ref())
        {
            return Arc::clone(known);
        }
        let dir = dir.clone();
        let resolution = Arc::new(self.resolve_from(&dir, specifier, require));
        let specifiers = &mut self.resolved[folder.0].1;
        specifiers.entry(specifier.to_string()).or_default()[usize::from(require)] = Some(Arc::clone(&resolution));
        resolution
    }

    fn resolve_from(&mut self, dir: &str, specifier: &str, require: bool) -> Resolution {
        if specifier.starts_with("./") || specifier.starts_with("../") || specifier == "." || specifier == ".." {
            return self.relative(dir, specifier);
        }
        if specifier.starts_with('/') || specifier.contains("://") || specifier.starts_with("file:") {
            return Resolution::MissingFile("it is not a relative path inside the repository".into());
        }
        if specifier.starts_with("node:")
            || specifier == "bun"
            || specifier.starts_with("bun:")
            || BUN_BUILTIN_PACKAGES.contains(&specifier)
        {
            return Resolution::Builtin;
        }
        if specifier.starts_with('#') {
            return self.hash_import(dir, specifier, require);
        }
        // `Some(why)`: an alias matched but maps to no file.
        let alias = match self.alias(dir, specifier) {
            Some(Ok(found)) => return found,
            Some(Err(why)) => Some(why),
            None => None,
        };
        let name = package_name(specifier);
        if NODE_BUILTINS.contains(&name) {
            return Resolution::Builtin;
        }
        if HARNESS_PACKAGES.contains(&name) {
            return Resolution::Harness(name.to_string());
        }
        let config = self.config(dir).map(|c| c.path.clone());
        if !is_package_name(name) {
            let reason = match (alias, config) {
                (Some(tried), _) => tried,
                (None, Some(config)) => format!("it is not a package name, and no `paths` alias of `{config}` maps it"),
                (None, None) => "it is not a package name, and no `tsconfig.json` or `jsconfig.json` maps it".into(),
            };
            return Resolution::MissingFile(reason);
        }
        match (self.package(dir, specifier, name, require), alias) {
            // An alias that maps to no file falls back to `node_modules`; when that fails too, the alias is why.
            (Resolution::MissingPackage { .. }, Some(tried)) => Resolution::MissingFile(tried),
            (resolution, _) => resolution,
        }
    }

    fn relative(&mut self, dir: &str, specifier: &str) -> Resolution {
        let joined = if dir.is_empty() { specifier.to_string() } else { format!("{dir}/{specifier}") };
        let Some(target) = fs::normalize(&joined) else {
            return Resolution::MissingFile("it leads outside the repository".into());
        };
        match self.file(&target) {
            Ok(Some(file)) => Resolution::File(file),
            Err(reason) => Resolution::MissingFile(reason),
            Ok(None) => match file_candidates(&target).find(|candidate| self.checkout.only_in_work_tree(candidate)) {
                Some(unstaged) => Resolution::Unstaged(unstaged),
                None => Resolution::MissingFile("no such file (tried the module extensions and `index.*`)".into()),
            },
        }
    }

    /// The file a repo-relative target means (itself, with an extension, `index.*`, or the `module`/`main` of a
    /// folder's `package.json`, as Bun loads a folder); `Err` when it leads out.
    fn file(&mut self, target: &str) -> Result<Option<String>, String> {
        if let Some(found) = self.file_or_index(target)? {
            return Ok(Some(found));
        }
        let Some(manifest) = self.manifest(target) else {
            return Ok(None);
        };
        for field in ["module", "main"] {
            if let Some(main) = manifest.get(field).and_then(Json::as_str).and_then(|m| fs::normalize(&join(target, m)))
                && let Some(found) = self.file_or_index(&main)?
            {
                return Ok(Some(found));
            }
        }
        Ok(None)
    }

    fn file_or_index(&self, target: &str) -> Result<Option<String>, String> {
        for candidate in file_candidates(target) {
            match self.checkout.resolve_module(&candidate) {
                // Too large to read, but there: the modules stage says it was not analysed.
                Ok(_) | Err(fs::Refusal::TooLarge(_)) => return Ok(Some(candidate)),
                Err(refusal @ (fs::Refusal::OutsideRepository | fs::Refusal::GitFolder)) => {
                    return Err(format!("it {}", refusal.describe()));
                }
                Err(_) => {}
            }
        }
        Ok(None)
    }
}

/// The files a specifier may mean: itself, `.js` → `.ts`, then with each extension Bun tries, and `index.*`.
fn file_candidates(target: &str) -> impl Iterator<Item = String> + '_ {
    let typescript_twin = [("js", "ts"), ("mjs", "mts"), ("cjs", "cts")]
        .iter()
        .find_map(|(js, ts)| target.strip_suffix(&format!(".{js}")).map(|stem| format!("{stem}.{ts}")));
    std::iter::once(target.to_string())
        .chain(typescript_twin)
        .chain(EXTENSION_ORDER.iter().map(move |ext| format!("{target}.{ext}")))
        .chain(EXTENSION_ORDER.iter().map(move |ext| join(target, &format!("index.{ext}"))))
}

pub(super) fn parent(path: &str) -> &str {
    fs::split_folder(path).0
}

pub(super) fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() { name.to_string() } else { format!("{dir}/{name}") }
}

/// `a/b/c`, `a/b`, `a`, `` (the root).
fn ancestors(dir: &str) -> impl Iterator<Item = &str> {
    let mut next = Some(dir);
    std::iter::from_fn(move || {
        let current = next?;
        next = if current.is_empty() { None } else { Some(parent(current)) };
        Some(current)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_ancestors() {
        assert_eq!(package_name("zod"), "zod");
        assert_eq!(package_name("zod/v4"), "zod");
        assert_eq!(package_name("@opencode-ai/plugin/tool"), "@opencode-ai/plugin");
        assert_eq!(ancestors("a/b").collect::<Vec<_>>(), vec!["a/b", "a", ""]);
        assert_eq!(ancestors("").collect::<Vec<_>>(), vec![""]);
    }

    #[test]
    fn resolves_files_packages_and_builtins() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        let write = |rel: &str, text: &str| {
            let path = root.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write("tools/a.ts", "");
        write("lib/helper.ts", "");
        write("lib/util/index.ts", "");
        write("node_modules/zod/package.json", r#"{"name":"zod","main":"index.js"}"#);
        write("node_modules/zod/index.js", "");
        write("node_modules/@s/p/index.js", "");
        write("package.json", r#"{"dependencies":{"left-pad":"1"}}"#);
        let checkout = Checkout::work_tree(root.clone(), None, String::new());
        let mut resolver = Resolver::new(&checkout);
        assert_eq!(resolver.resolve("tools/a.ts", "../lib/helper.js", false), Resolution::File("lib/helper.ts".into()));
        assert_eq!(resolver.resolve("tools/a.ts", "../lib/helper", false), Resolution::File("lib/helper.ts".into()));
        assert_eq!(resolver.resolve("tools/a.ts", "../lib/util", false), Resolution::File("lib/util/index.ts".into()));
        assert!(matches!(resolver.resolve("tools/a.ts", "./nope", false), Resolution::MissingFile(_)));
        assert!(matches!(resolver.resolve("tools/a.ts", "../../x", false), Resolution::MissingFile(_)));
        assert_eq!(resolver.resolve("tools/a.ts", "node:fs", false), Resolution::Builtin);
        assert_eq!(resolver.resolve("tools/a.ts", "fs/promises", false), Resolution::Builtin);
        assert_eq!(resolver.resolve("tools/a.ts", "bun:sqlite", false), Resolution::Builtin);
        // Bun's own `node-fetch` and `ws` (not their other subpaths), and Node's internal modules.
        assert_eq!(resolver.resolve("tools/a.ts", "node-fetch", false), Resolution::Builtin);
        assert_eq!(resolver.resolve("tools/a.ts", "ws", true), Resolution::Builtin);
        assert_eq!(resolver.resolve("tools/a.ts", "_stream_readable", false), Resolution::Builtin);
        assert!(matches!(resolver.resolve("tools/a.ts", "ws/lib/sender", false), Resolution::MissingPackage { .. }));
        assert_eq!(
            resolver.resolve("tools/a.ts", "zod", false),
            Resolution::Package {
                name: "zod".into(),
                folder: "node_modules/zod".into(),
                entry: Some("node_modules/zod/index.js".into())
            }
        );
        assert!(matches!(resolver.resolve("tools/a.ts", "@s/p", false), Resolution::Package { .. }));
        assert_eq!(
            resolver.resolve("tools/a.ts", "left-pad", false),
            Resolution::MissingPackage { name: "left-pad".into(), declared_in: Some("package.json".into()) }
        );
        assert_eq!(
            resolver.resolve("tools/a.ts", "nothing", false),
            Resolution::MissingPackage { name: "nothing".into(), declared_in: None }
        );
        assert_eq!(
            resolver.resolve("tools/a.ts", "@opencode-ai/plugin/tool", false),
            Resolution::Harness("@opencode-ai/plugin".into())
        );
    }
}
