//! Bare specifiers as packages: the `node_modules` beside or above the module that installs one, and the file it
//! provides for a subpath (its `exports` enforced).

use super::json::Json;
use super::maps::{self, Mapped};
use super::{Resolution, Resolver, ancestors, join};
use crate::repo::fs;
use std::rc::Rc;

/// Where a package provides a subpath.
enum Entry {
    File(String),
    /// `exports` does not export the subpath.
    NotExported,
    /// Nothing provides it (no such file; `exports` maps it to a file that is not there).
    Missing,
    /// `exports` is too large to look the subpath up in.
    Unchecked,
}

impl Resolver<'_> {
    /// A bare specifier as a package: the first `node_modules` at or above `dir` that provides it; else the
    /// folder that installs it without the file asked for, or which `package.json` declares it.
    pub(super) fn package(&mut self, dir: &str, specifier: &str, name: &str, require: bool) -> Resolution {
        let subpath = specifier[name.len()..].trim_start_matches('/');
        let (mut declared_in, mut installed) = (None, None);
        for folder in ancestors(dir) {
            let modules = join(folder, "node_modules");
            let package = join(&modules, name);
            match self.package_entry(&package, subpath, require) {
                Some(Entry::File(entry)) => {
                    return Resolution::Package { name: name.to_string(), folder: package, entry: Some(entry) };
                }
                Some(Entry::NotExported) => {
                    let subpath = if subpath.is_empty() { ".".to_string() } else { format!("./{subpath}") };
                    return Resolution::NotExported { subpath, manifest: join(&package, "package.json") };
                }
                Some(Entry::Unchecked) => {
                    return Resolution::Unchecked { map: "\"exports\"", file: join(&package, "package.json") };
                }
                Some(Entry::Missing) => installed = installed.or(Some(package)),
                None => {}
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

    /// Where the package installed in `package` (a repo-relative folder, `None` when there is none) provides
    /// `subpath` (empty for the package itself): through `exports` when it has one, else as a file, or through
    /// `module`/`main` (Bun reads both, `module` first), or `index.*`.
    fn package_entry(&mut self, package: &str, subpath: &str, require: bool) -> Option<Entry> {
        let manifest = self.manifest(package);
        if manifest.is_none() && !self.checkout.is_dir(package) {
            return None;
        }
        let found = |resolver: &mut Self, target: &str| resolver.file(&fs::normalize(target)?).ok().flatten();
        if let Some(exports) = manifest.as_ref().and_then(|m| m.get("exports")) {
            let key = if subpath.is_empty() { ".".to_string() } else { format!("./{subpath}") };
            return Some(match maps::lookup(exports, &key, &maps::conditions(require)) {
                Mapped::Target(target) => found(self, &join(package, &target)).map_or(Entry::Missing, Entry::File),
                Mapped::NotDefined => Entry::NotExported,
                Mapped::TooLarge => Entry::Unchecked,
            });
        }
        if !subpath.is_empty() {
            return Some(found(self, &join(package, subpath)).map_or(Entry::Missing, Entry::File));
        }
        let field = |name: &str| manifest.as_ref().and_then(|m| m.get(name)).and_then(Json::as_str).map(str::to_string);
        let entry = [field("module"), field("main")]
            .into_iter()
            .flatten()
            .find_map(|main| found(self, &join(package, &main)))
            .or_else(|| found(self, &join(package, "index")));
        Some(entry.map_or(Entry::Missing, Entry::File))
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
    pub(super) fn manifest(&mut self, folder: &str) -> Option<Rc<Json>> {
        if let Some(known) = self.manifests.get(folder) {
            return known.clone();
        }
        let parsed = self.checkout.read(&join(folder, "package.json")).ok().and_then(|b| Json::parse(&b)).map(Rc::new);
        self.manifests.insert(folder.to_string(), parsed.clone());
        parsed
    }
}

/// Could `name` (from [`package_name`]) name an npm package? Not `@/x`, `@scope` alone, `~/x`, an empty name,
/// upper case, a leading `.` or `_`, or characters npm refuses: those are aliases or typos, never packages.
pub(super) fn is_package_name(name: &str) -> bool {
    let valid = |part: &str| {
        !part.is_empty()
            && !part.starts_with(['.', '_'])
            && part.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-._~".contains(&b))
    };
    match name.strip_prefix('@') {
        Some(scoped) => scoped.split_once('/').is_some_and(|(scope, name)| valid(scope) && valid(name)),
        None => valid(name) && !name.starts_with('~'),
    }
}

/// `@scope/name` or `name` of a bare specifier.
pub(super) fn package_name(specifier: &str) -> &str {
    let mut slashes = specifier.match_indices('/').map(|(i, _)| i);
    let end = if specifier.starts_with('@') { slashes.nth(1) } else { slashes.next() };
    &specifier[..end.unwrap_or(specifier.len())]
}
