//! Where a module's imports lead: relative files inside the repository, Node
//! and Bun built-ins, and packages from `node_modules` beside or above the
//! module, as the runtime resolves them. Reads nothing outside the root.

use crate::catalog::{HARNESS_PACKAGES, MODULE_EXTENSIONS};
use crate::repo::checkout::Checkout;
use crate::repo::fs;
use std::collections::HashMap;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolution {
    /// A relative import found at this repo-relative path.
    File(String),
    /// `node:*`, a Node built-in, `bun`, `bun:*`.
    Builtin,
    /// A harness package (or a subpath of one), whether or not it is installed.
    Harness(String),
    /// A package found in `<dir>/node_modules/<name>` (repo-relative folder of the package), with the file the
    /// import loads when it could be told without following `exports`.
    Package { name: String, folder: String, entry: Option<String> },
    /// A relative import that does not resolve; the reason.
    MissingFile(String),
    /// Linting the index: a relative import found only in the work tree (not staged), at this path.
    Unstaged(String),
    /// A package no `node_modules` provides; `declared_in` is a `package.json` that lists it, if any.
    MissingPackage { name: String, declared_in: Option<String> },
    /// The package is installed in `folder`, but has no file for the specifier (a subpath, or a missing `main`).
    MissingEntry { specifier: String, folder: String },
}

const NODE_BUILTINS: &[&str] = &[
    "assert",
    "async_hooks",
    "buffer",
    "child_process",
    "cluster",
    "console",
    "constants",
    "crypto",
    "dgram",
    "diagnostics_channel",
    "dns",
    "domain",
    "events",
    "fs",
    "http",
    "http2",
    "https",
    "inspector",
    "module",
    "net",
    "os",
    "path",
    "perf_hooks",
    "process",
    "punycode",
    "querystring",
    "readline",
    "repl",
    "stream",
    "string_decoder",
    "sys",
    "timers",
    "tls",
    "trace_events",
    "tty",
    "url",
    "util",
    "v8",
    "vm",
    "wasi",
    "worker_threads",
    "zlib",
];

/// Resolves imports for many modules, remembering package.json files and folders it has read.
pub struct Resolver<'a> {
    checkout: &'a Checkout,
    manifests: HashMap<String, Option<serde_json::Value>>,
}

impl<'a> Resolver<'a> {
    pub fn new(checkout: &'a Checkout) -> Self {
        Resolver { checkout, manifests: HashMap::new() }
    }

    /// Resolves `specifier`, imported by the module at repo-relative `module`.
    pub fn resolve(&mut self, module: &str, specifier: &str) -> Resolution {
        let dir = parent(module);
        if specifier.starts_with("./") || specifier.starts_with("../") || specifier == "." || specifier == ".." {
            return self.relative(dir, specifier);
        }
        if specifier.starts_with('/') || specifier.contains("://") || specifier.starts_with("file:") {
            return Resolution::MissingFile("it is not a relative path inside the repository".into());
        }
        if specifier.starts_with("node:") || specifier == "bun" || specifier.starts_with("bun:") {
            return Resolution::Builtin;
        }
        let name = package_name(specifier);
        if NODE_BUILTINS.contains(&name) {
            return Resolution::Builtin;
        }
        if HARNESS_PACKAGES.contains(&name) {
            return Resolution::Harness(name.to_string());
        }
        self.package(dir, specifier, name)
    }

    fn relative(&self, dir: &str, specifier: &str) -> Resolution {
        let joined = if dir.is_empty() { specifier.to_string() } else { format!("{dir}/{specifier}") };
        let Some(target) = fs::normalize(&joined) else {
            return Resolution::MissingFile("it leads outside the repository".into());
        };
        for candidate in file_candidates(&target) {
            match self.checkout.resolve(&candidate) {
                Ok(_) => return Resolution::File(candidate),
                Err(fs::Refusal::OutsideRepository) => {
                    return Resolution::MissingFile("it resolves through a symlink to outside the repository".into());
                }
                Err(_) => {}
            }
        }
        match file_candidates(&target).find(|candidate| self.checkout.only_in_work_tree(candidate)) {
            Some(unstaged) => Resolution::Unstaged(unstaged),
            None => Resolution::MissingFile("no such file (tried the module extensions and `index.*`)".into()),
        }
    }

    fn package(&mut self, dir: &str, specifier: &str, name: &str) -> Resolution {
        let subpath = specifier[name.len()..].trim_start_matches('/');
        let (mut declared_in, mut installed) = (None, None);
        for folder in ancestors(dir) {
            let modules = join(folder, "node_modules");
            let package = join(&modules, name);
            if let Some(entry) = self.package_entry(&package, subpath) {
                return Resolution::Package { name: name.to_string(), folder: package, entry };
            }
            if installed.is_none() && self.checkout.is_dir(&package) {
                installed = Some(package);
            }
            if declared_in.is_none() && self.declares(folder, name) {
                declared_in = Some(join(folder, "package.json"));
            }
        }
        match installed {
            Some(folder) => Resolution::MissingEntry { specifier: specifier.to_string(), folder },
            None => Resolution::MissingPackage { name: name.to_string(), declared_in },
        }
    }

    /// Where `package` (a repo-relative folder) provides `subpath` (empty for the package itself): `Some(Some(file))`
    /// for the file found, `Some(None)` when `package.json` `exports` (or `module`) maps it (not followed),
    /// `None` when the package does not provide it.
    fn package_entry(&mut self, package: &str, subpath: &str) -> Option<Option<String>> {
        let manifest = self.manifest(package);
        if manifest.is_none() && !self.checkout.is_dir(package) {
            return None;
        }
        let field = |name: &str| manifest.as_ref().and_then(|m| m.get(name));
        let found = |resolver: &Self, target: &str| {
            let target = fs::normalize(target)?;
            file_candidates(&target).find(|c| resolver.checkout.is_file(c))
        };
        if !subpath.is_empty() {
            return match found(self, &join(package, subpath)) {
                Some(file) => Some(Some(file)),
                None => field("exports").map(|_| None),
            };
        }
        let main = field("main").and_then(|m| m.as_str()).and_then(|main| found(self, &join(package, main)));
        let index = || {
            ["index.js", "index.ts", "index.mjs", "index.cjs", "index.json"]
                .iter()
                .map(|index| join(package, index))
                .find(|index| self.checkout.is_file(index))
        };
        match main.or_else(index) {
            Some(file) => Some(Some(file)),
            None => (field("exports").is_some() || field("module").is_some()).then_some(None),
        }
    }

    /// Does the `package.json` in `folder` declare `name` in any dependency list?
    fn declares(&mut self, folder: &str, name: &str) -> bool {
        let Some(manifest) = self.manifest(folder) else {
            return false;
        };
        ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"]
            .iter()
            .any(|list| manifest.get(list).and_then(|l| l.get(name)).is_some())
    }

    /// The parsed `package.json` of a repo-relative folder, read once.
    fn manifest(&mut self, folder: &str) -> Option<serde_json::Value> {
        if let Some(known) = self.manifests.get(folder) {
            return known.clone();
        }
        let parsed = self
            .checkout
            .read(&join(folder, "package.json"))
            .ok()
            .and_then(|bytes| serde_json::from_slice::<serde_json::Value>(&bytes).ok());
        self.manifests.insert(folder.to_string(), parsed.clone());
        parsed
    }
}

/// `@scope/name` or `name` of a bare specifier.
pub fn package_name(specifier: &str) -> &str {
    let mut slashes = specifier.match_indices('/').map(|(i, _)| i);
    let end = if specifier.starts_with('@') { slashes.nth(1) } else { slashes.next() };
    &specifier[..end.unwrap_or(specifier.len())]
}

/// The files a specifier may mean: itself, with each module extension, `.js` → `.ts`, and `index.*`.
fn file_candidates(target: &str) -> impl Iterator<Item = String> + '_ {
    let typescript_twin = [("js", "ts"), ("mjs", "mts"), ("cjs", "cts")]
        .iter()
        .find_map(|(js, ts)| target.strip_suffix(&format!(".{js}")).map(|stem| format!("{stem}.{ts}")));
    std::iter::once(target.to_string())
        .chain(typescript_twin)
        .chain(MODULE_EXTENSIONS.iter().map(move |ext| format!("{target}.{ext}")))
        .chain(MODULE_EXTENSIONS.iter().map(move |ext| join(target, &format!("index.{ext}"))))
}

fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(dir, _)| dir)
}

fn join(dir: &str, name: &str) -> String {
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
        assert_eq!(resolver.resolve("tools/a.ts", "../lib/helper.js"), Resolution::File("lib/helper.ts".into()));
        assert_eq!(resolver.resolve("tools/a.ts", "../lib/helper"), Resolution::File("lib/helper.ts".into()));
        assert_eq!(resolver.resolve("tools/a.ts", "../lib/util"), Resolution::File("lib/util/index.ts".into()));
        assert!(matches!(resolver.resolve("tools/a.ts", "./nope"), Resolution::MissingFile(_)));
        assert!(matches!(resolver.resolve("tools/a.ts", "../../x"), Resolution::MissingFile(_)));
        assert_eq!(resolver.resolve("tools/a.ts", "node:fs"), Resolution::Builtin);
        assert_eq!(resolver.resolve("tools/a.ts", "fs/promises"), Resolution::Builtin);
        assert_eq!(resolver.resolve("tools/a.ts", "bun:sqlite"), Resolution::Builtin);
        assert_eq!(
            resolver.resolve("tools/a.ts", "zod"),
            Resolution::Package {
                name: "zod".into(),
                folder: "node_modules/zod".into(),
                entry: Some("node_modules/zod/index.js".into())
            }
        );
        assert!(matches!(resolver.resolve("tools/a.ts", "@s/p"), Resolution::Package { .. }));
        assert_eq!(
            resolver.resolve("tools/a.ts", "left-pad"),
            Resolution::MissingPackage { name: "left-pad".into(), declared_in: Some("package.json".into()) }
        );
        assert_eq!(
            resolver.resolve("tools/a.ts", "nothing"),
            Resolution::MissingPackage { name: "nothing".into(), declared_in: None }
        );
        assert_eq!(
            resolver.resolve("tools/a.ts", "@opencode-ai/plugin/tool"),
            Resolution::Harness("@opencode-ai/plugin".into())
        );
    }
}
