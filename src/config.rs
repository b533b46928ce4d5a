//! `beeuni-lint.toml`: rule severities, path excludes and extra harness tool names.

use crate::diagnostic::Severity;
use crate::rules;
use crate::source::SourceFile;
use globset::{Glob, GlobSet, GlobSetBuilder};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;
use toml::Spanned;

pub const FILE_NAME: &str = "beeuni-lint.toml";

/// A rule's configured level: a severity, or off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Off,
    On(Severity),
}

#[derive(Debug, Default)]
pub struct Config {
    pub harness_tools: Vec<String>,
    pub levels: BTreeMap<String, Level>,
    pub exclude: Option<GlobSet>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    #[serde(rename = "harness-tools", default)]
    harness_tools: Vec<String>,
    #[serde(default)]
    rules: BTreeMap<Spanned<String>, Spanned<String>>,
    #[serde(default)]
    paths: RawPaths,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawPaths {
    #[serde(default)]
    exclude: Vec<Spanned<String>>,
}

impl Config {
    /// Reads the config: `explicit` when given (it must exist), else `beeuni-lint.toml` at the root if present.
    /// A bad config is an error naming the file, line and column.
    pub fn load(root: &Path, explicit: Option<&Path>) -> Result<Config, String> {
        let (path, shown) = match explicit {
            Some(path) => (path.to_path_buf(), path.display().to_string()),
            None => {
                let path = root.join(FILE_NAME);
                if !path.is_file() {
                    return Ok(Config::default());
                }
                (path, FILE_NAME.to_string())
            }
        };
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{shown}: cannot read the config: {e}"))?;
        Config::parse(&text, &shown)
    }

    pub fn parse(text: &str, shown: &str) -> Result<Config, String> {
        let source = SourceFile::new(shown.to_string(), text.to_string());
        let located = |at: usize, message: String| {
            let pos = source.position(at);
            format!("{shown}:{}:{}: {message}", pos.line, pos.column)
        };
        let raw: RawConfig = toml::from_str(text).map_err(|e| {
            let at = e.span().map_or(0, |s| s.start);
            located(at, e.message().trim().to_string())
        })?;
        let mut levels = BTreeMap::new();
        for (id, level) in raw.rules {
            if rules::find(id.get_ref()).is_none() {
                return Err(located(id.span().start, format!("unknown rule `{}` in [rules]", id.get_ref())));
            }
            let parsed = match level.get_ref().as_str() {
                "off" => Level::Off,
                "info" => Level::On(Severity::Info),
                "warning" => Level::On(Severity::Warning),
                "error" => Level::On(Severity::Error),
                other => {
                    let message = format!("`{other}` is not a level: use error, warning, info or off");
                    return Err(located(level.span().start, message));
                }
            };
            levels.insert(id.into_inner(), parsed);
        }
        let exclude = if raw.paths.exclude.is_empty() {
            None
        } else {
            let mut builder = GlobSetBuilder::new();
            for glob in &raw.paths.exclude {
                let parsed = Glob::new(glob.get_ref()).map_err(|e| located(glob.span().start, e.to_string()))?;
                builder.add(parsed);
            }
            Some(builder.build().map_err(|e| format!("{shown}: {e}"))?)
        };
        Ok(Config { harness_tools: raw.harness_tools, levels, exclude })
    }

    pub fn is_excluded(&self, path: &str) -> bool {
        self.exclude.as_ref().is_some_and(|set| set.is_match(path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_levels_excludes_and_harness_tools() {
        let config = Config::parse(
            "harness-tools = [\"my_builtin\"]\n[rules]\nunknown-tool = \"error\"\ntask-escalation = \"off\"\n[paths]\nexclude = [\"examples/**\"]\n",
            "beeuni-lint.toml",
        )
        .unwrap();
        assert_eq!(config.harness_tools, vec!["my_builtin"]);
        assert_eq!(config.levels["unknown-tool"], Level::On(Severity::Error));
        assert_eq!(config.levels["task-escalation"], Level::Off);
        assert!(config.is_excluded("examples/a/beeuni.yaml"));
        assert!(!config.is_excluded("beeuni.yaml"));
    }

    #[test]
    fn bad_configs_are_located() {
        let err = Config::parse("[rules]\nunknown-toll = \"error\"\n", "beeuni-lint.toml").unwrap_err();
        assert_eq!(err, "beeuni-lint.toml:2:1: unknown rule `unknown-toll` in [rules]");
        let err = Config::parse("[rules]\nunknown-tool = \"loud\"\n", "beeuni-lint.toml").unwrap_err();
        assert!(err.starts_with("beeuni-lint.toml:2:16: `loud` is not a level"), "{err}");
        let err = Config::parse("[rulez]\n", "beeuni-lint.toml").unwrap_err();
        assert!(err.starts_with("beeuni-lint.toml:1:"), "{err}");
        let err = Config::parse("[rules\n", "beeuni-lint.toml").unwrap_err();
        assert!(err.starts_with("beeuni-lint.toml:1:"), "{err}");
    }
}
