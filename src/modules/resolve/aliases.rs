//! The aliases a specifier may go through: `compilerOptions.paths` and `baseUrl` of the nearest
//! `tsconfig.json`/`jsconfig.json`, and `#name` through the `imports` of the nearest `package.json`.

use super::maps::{self, AliasMatch, Mapped};
use super::tsconfig::{self, TsConfig};
use super::{Resolution, Resolver, ancestors, join, parent};
use crate::repo::fs;
use std::rc::Rc;

impl Resolver<'_> {
    /// `compilerOptions.paths` (or `baseUrl`) of the config that applies in `dir`: `Some(Ok)` for a file found,
    /// `Some(Err(why))` for an alias that maps to no file, `None` when no alias matches.
    pub(super) fn alias(&mut self, dir: &str, specifier: &str) -> Option<Result<Resolution, String>> {
        let config = self.config(dir)?;
        match maps::match_alias(&config.paths, specifier) {
            AliasMatch::Matched(alias, targets) => {
                for target in targets.iter().filter_map(|t| fs::normalize(t)) {
                    if let Ok(Some(file)) = self.file(&target) {
                        return Some(Ok(Resolution::File(file)));
                    }
                }
                let tried = targets.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>().join(", ");
                let why = format!("the alias `{alias}` of `{}` maps it to no file (tried {tried})", config.path);
                return Some(Err(why));
            }
            AliasMatch::TooLarge => {
                let map = "`compilerOptions.paths`";
                return Some(Ok(Resolution::Unchecked { map, file: config.path.clone() }));
            }
            AliasMatch::NoMatch => {}
        }
        let base = config.base_url.as_deref()?;
        let target = fs::normalize(&join(base, specifier))?;
        match self.file(&target) {
            Ok(Some(file)) => Some(Ok(Resolution::File(file))),
            _ => None,
        }
    }

    /// The `tsconfig.json` (else `jsconfig.json`) nearest at or above `dir`, read once per folder.
    pub(super) fn config(&mut self, dir: &str) -> Option<Rc<TsConfig>> {
        if let Some(known) = self.configs.get(dir) {
            return known.clone();
        }
        let found = ["tsconfig.json", "jsconfig.json"]
            .iter()
            .map(|name| join(dir, name))
            .find(|path| self.checkout.is_file(path))
            .and_then(|path| tsconfig::load(self.checkout, &path).map(Rc::new));
        let found = match found {
            Some(config) => Some(config),
            None if dir.is_empty() => None,
            None => self.config(parent(dir)),
        };
        self.configs.insert(dir.to_string(), found.clone());
        found
    }

    /// `#name` through the `imports` of the nearest `package.json`.
    pub(super) fn hash_import(&mut self, dir: &str, specifier: &str, require: bool) -> Resolution {
        let Some(folder) = ancestors(dir).find(|folder| self.manifest(folder).is_some()) else {
            return Resolution::MissingFile(format!(
                "no `package.json` beside or above the module defines `{specifier}`"
            ));
        };
        let manifest_path = join(folder, "package.json");
        let not_defined =
            || Resolution::MissingFile(format!("`{specifier}` is not defined by \"imports\" in `{manifest_path}`"));
        let Some(manifest) = self.manifest(folder) else { return not_defined() };
        let Some(imports) = manifest.get("imports") else { return not_defined() };
        let target = match maps::lookup(imports, specifier, &maps::conditions(require)) {
            Mapped::Target(target) => target,
            Mapped::NotDefined => return not_defined(),
            Mapped::TooLarge => return Resolution::Unchecked { map: "\"imports\"", file: manifest_path },
        };
        if target.starts_with('#') {
            // Not a package: `"#a": "#a"` would be looked up again, and again.
            return Resolution::MissingFile(format!(
                "the alias `{specifier}` of `{manifest_path}` maps it to `{target}`, which is neither a `./` path nor a package"
            ));
        }
        if !target.starts_with("./") {
            // `"#fmt": "some-package/fmt"`: a package, looked up from the package's folder.
            return self.resolve(&join(folder, "package.json"), &target, require);
        }
        let file = fs::normalize(&join(folder, &target)).and_then(|t| self.file(&t).ok().flatten());
        match file {
            Some(file) => Resolution::File(file),
            None => Resolution::MissingFile(format!(
                "the alias `{specifier}` of `{manifest_path}` maps it to no file (tried `{}`)",
                join(folder, target.trim_start_matches("./"))
            )),
        }
    }
}
