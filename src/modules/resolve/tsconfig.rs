//! `compilerOptions.paths` and `baseUrl` of the nearest `tsconfig.json` or `jsconfig.json`, which Bun applies
//! before it looks for a package.

use super::json::Json;
use super::{join, parent};
use crate::repo::checkout::Checkout;
use crate::repo::fs;

/// `extends` hops followed, so that a cycle ends.
const MAX_EXTENDS: usize = 4;

#[derive(Debug, Default)]
pub struct TsConfig {
    /// Repo-relative path of the config file (for messages).
    pub path: String,
    /// Repo-relative folder bare specifiers are also looked up in (`baseUrl`), if set.
    pub base_url: Option<String>,
    /// The aliases, in file order, with their targets as repo-relative paths (resolved against `baseUrl`, or
    /// the folder of the config that holds `paths`).
    pub paths: Vec<(String, Vec<String>)>,
}

/// Reads the config file at repo-relative `path` (following relative `extends` inside the repository).
pub fn load(checkout: &Checkout, path: &str) -> Option<TsConfig> {
    let mut config = TsConfig { path: path.to_string(), ..TsConfig::default() };
    let (mut base_url, mut paths) = (None, None);
    let mut current = path.to_string();
    for _ in 0..=MAX_EXTENDS {
        let json = Json::parse_jsonc(&checkout.read(&current).ok()?)?;
        let folder = parent(&current).to_string();
        let options = json.get("compilerOptions");
        if base_url.is_none()
            && let Some(url) = options.and_then(|o| o.get("baseUrl")).and_then(Json::as_str)
        {
            base_url = fs::normalize(&join(&folder, url));
        }
        if paths.is_none()
            && let Some(Json::Object(entries)) = options.and_then(|o| o.get("paths"))
        {
            paths = Some((entries.clone(), folder.clone()));
        }
        let next = json.get("extends").and_then(Json::as_str).filter(|e| e.starts_with("./") || e.starts_with("../"));
        let Some(next) = next.and_then(|e| fs::normalize(&join(&folder, e))) else { break };
        current = if next.ends_with(".json") { next } else { format!("{next}.json") };
    }
    if let Some((entries, folder)) = paths {
        // Targets are relative to `baseUrl` when set, else to the config that holds `paths`.
        let base = base_url.clone().unwrap_or(folder);
        config.paths = entries
            .into_iter()
            .map(|(alias, targets)| {
                let targets = match targets {
                    Json::Array(items) => items.iter().filter_map(Json::as_str).map(|t| join(&base, t)).collect(),
                    _ => Vec::new(),
                };
                (alias, targets)
            })
            .collect();
    }
    config.base_url = base_url;
    Some(config)
}
