//! `beeuni-lint.toml`: rule severities, path excludes, extra harness tool names, the Beeuni tools a project
//! leaves out on purpose, and more xcsh tool folders.
//!
//! The file is found at the project root or, failing that, in the nearest folder above it up to the git work
//! tree root (a monorepo may keep one config for every project). Every mistake in it is reported in one run,
//! each located and, for a misspelt key, rule id or level, with the name it is near.

use crate::diagnostic::Severity;
use crate::repo::fs::{self, Refusal};
use crate::source::escape::escape;
use crate::source::{SourceFile, Span};
use crate::suggest;
use globset::{Glob, GlobSet, GlobSetBuilder};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toml::de::DeTable;

pub const FILE_NAME: &str = "beeuni-lint.toml";

mod limits;
pub mod policy;
pub mod reference;
mod values;
use values::{excludes, levels, limits as analysis_limits, removed, strings, xcsh_paths};

const KEYS: [&str; 7] = ["harness-tools", "removed-beeuni-tools", "xcsh-paths", "rules", "paths", "limits", "policy"];
const PATHS_KEYS: [&str; 1] = ["exclude"];
const LIMITS_KEYS: [&str; 1] = ["module-bytes"];
const LEVELS: [&str; 4] = ["error", "warning", "info", "off"];

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
    /// The project root relative to the config's folder (`""` when the same): excludes match paths from there.
    exclude_prefix: String,
    /// `removed-beeuni-tools`: each name with the span of its entry in [`Config::file`].
    pub removed_beeuni_tools: Vec<(String, Span)>,
    /// The config as read, named relative to the git work tree root (findings may point into it).
    pub file: Option<SourceFile>,
    /// `xcsh-paths` (docs/spec/rules.md §6): folders relative to the config's folder, normalised.
    xcsh_paths: Vec<(String, Span)>,
    /// `[policy]` (docs/policy.md): the gains that need approval.
    pub policy: policy::Policy,
    /// `[limits] module-bytes`: the largest tool module or helper analysed (see [`Config::module_bytes`]).
    module_bytes: Option<u64>,
}

/// Where the config of a project is, and how to name it.
struct Found {
    path: PathBuf,
    shown: String,
    /// The project root relative to the config's folder.
    prefix: String,
}

impl Config {
    /// Reads the config: `explicit` when given (it must exist), else the nearest `beeuni-lint.toml` from the
    /// project `root` up to the work tree root `top`. A bad config is an error naming every mistake. A config inside
    /// the repository is read only as the repository's other files are (see [`crate::repo::fs::resolve`]): never
    /// through a symlink that leaves it, never from `.git`, never a FIFO or device; a refusal names the file and
    /// why, never what the link leads to.
    pub fn load(root: &Path, top: &Path, explicit: Option<&Path>) -> Result<Config, String> {
        let found = match explicit {
            // The usual way to say "no config" (a device, which a config otherwise may not be).
            Some(path) if path == Path::new("/dev/null") => return Ok(Config::default()),
            Some(path) => given(path, top)?,
            None => match discover(root, top)? {
                Some(found) => found,
                None => return Ok(Config::default()),
            },
        };
        // Its size is checked before a byte is read: a config past the limit is never read.
        let bytes = fs::read_resolved_admitted(&found.path, |len| len <= limits::MAX_BYTES)
            .map_err(|refusal| format!("cannot read the config `{}`: it {}", found.shown, refusal.describe()))?
            .ok_or_else(|| limits::too_large(&found.shown))?;
        let text = limits::text(bytes, &found.shown)?;
        let mut config = Config::parse(&text, &found.shown)?;
        config.exclude_prefix = found.prefix;
        Ok(config)
    }

    /// Parses a config; `Err` lists every mistake, one a line, as `file:line:column: message`.
    pub fn parse(text: &str, shown: &str) -> Result<Config, String> {
        let source = SourceFile::new(shown.to_string(), text.to_string());
        let mut errors = Errors::default();
        let (table, syntax) = DeTable::parse_recoverable(text);
        for error in syntax {
            errors.add(error.span().map_or(0, |s| s.start), error.message().trim().to_string());
        }
        let mut config = Config::default();
        let mut globs = Vec::new();
        let mut policy_value = None;
        for (key, value) in table.get_ref().iter() {
            let at = key.span().start;
            match key.get_ref().as_ref() {
                "harness-tools" => config.harness_tools = strings(value, "harness-tools", &mut errors),
                "removed-beeuni-tools" => config.removed_beeuni_tools = removed(value, &mut errors),
                "xcsh-paths" => config.xcsh_paths = xcsh_paths(value, &mut errors),
                "rules" => config.levels = levels(value, &mut errors),
                "paths" => globs = excludes(value, &mut errors),
                "limits" => config.module_bytes = analysis_limits(value, &mut errors),
                // Read once `harness-tools` is known, whatever their order: the policy may name those tools.
                "policy" => policy_value = Some(value),
                other => errors.unknown(at, &format!("unknown key `{other}`"), other, &KEYS),
            }
        }
        if let Some(value) = policy_value {
            config.policy = policy::policy(value, &config.harness_tools, &mut errors);
        }
        if !globs.is_empty() {
            let mut builder = GlobSetBuilder::new();
            for (glob, at) in &globs {
                if glob.len() > limits::MAX_GLOB_BYTES {
                    let most = limits::MAX_GLOB_BYTES;
                    errors.add(
                        *at,
                        format!("this glob is {} bytes long, more than the {most} a glob may be", glob.len()),
                    );
                    continue;
                }
                match Glob::new(glob) {
                    Ok(parsed) => {
                        builder.add(parsed);
                    }
                    Err(e) => errors.add(*at, format!("`{glob}` is not a glob: {}", e.kind())),
                }
            }
            match builder.build() {
                Ok(set) => config.exclude = Some(set),
                Err(e) => errors.add(0, e.to_string()),
            }
        }
        if !errors.is_empty() {
            return Err(errors.render(&source));
        }
        config.file = Some(source);
        Ok(config)
    }

    /// The `xcsh-paths` folders inside the project, relative to its root (a config shared by the projects of a
    /// monorepo may name folders of another project: those are not this project's).
    pub fn xcsh_folders(&self) -> Vec<String> {
        let prefix = &self.exclude_prefix;
        self.xcsh_paths
            .iter()
            .filter_map(|(folder, _)| match folder.strip_prefix(prefix.as_str()) {
                _ if prefix.is_empty() => Some(folder.clone()),
                Some("") => Some(String::new()),
                Some(rest) => rest.strip_prefix('/').map(str::to_string),
                None => None,
            })
            .collect()
    }

    /// The largest tool module or helper analysed, in bytes: `[limits] module-bytes`, else
    /// [`crate::modules::MODULE_BYTES`] (2 MiB).
    pub fn module_bytes(&self) -> u64 {
        self.module_bytes.unwrap_or(crate::modules::MODULE_BYTES)
    }

    /// Is this project-relative path excluded by `[paths] exclude`?
    pub fn is_excluded(&self, path: &str) -> bool {
        let Some(set) = &self.exclude else { return false };
        if self.exclude_prefix.is_empty() {
            set.is_match(path)
        } else {
            set.is_match(format!("{}/{path}", self.exclude_prefix))
        }
    }
}

/// The nearest `beeuni-lint.toml` from `root` up to `top` (a folder of that name is no config).
fn discover(root: &Path, top: &Path) -> Result<Option<Found>, String> {
    let slashed = |p: &Path| p.components().filter_map(|c| c.as_os_str().to_str()).collect::<Vec<_>>().join("/");
    for dir in root.ancestors().take_while(|dir| dir.starts_with(top)) {
        let folder = dir.strip_prefix(top).map(slashed).unwrap_or_default();
        let shown = if folder.is_empty() { FILE_NAME.to_string() } else { format!("{folder}/{FILE_NAME}") };
        match fs::resolve(top, &shown) {
            Ok(path) => {
                let prefix = root.strip_prefix(dir).map(slashed).unwrap_or_default();
                return Ok(Some(Found { path, shown, prefix }));
            }
            Err(Refusal::NotFound | Refusal::Directory) => {}
            Err(refusal) => return Err(format!("the config `{shown}` {}: {REFUSED_HELP}", refusal.describe())),
        }
    }
    Ok(None)
}

/// What to do about a config that is refused.
const REFUSED_HELP: &str = "beeuni-lint reads a config only from a regular file inside the repository";

/// `--config FILE`: inside the repository (followed part by part, see [`crate::repo::given`]) it is read as the
/// repository's files are; outside it, it is the user's own file.
fn given(path: &Path, top: &Path) -> Result<Found, String> {
    let shown = path.display().to_string();
    let real = crate::repo::given::follow(path, "--config").map_err(|refused| refused.0)?;
    let found = |path| Found { path, shown: shown.clone(), prefix: String::new() };
    let Ok(rel) = real.strip_prefix(top) else {
        crate::repo::watch::note(&real);
        return match std::fs::metadata(&real) {
            Ok(meta) if meta.is_file() => Ok(found(real)),
            Ok(_) => Err(format!("cannot read the config `{shown}`: it is not a regular file")),
            Err(e) => Err(format!("cannot read the config `{shown}`: {e}")),
        };
    };
    let rel = rel.to_str().ok_or_else(|| format!("cannot read the config `{shown}`: its path is not UTF-8"))?;
    match fs::resolve(top, rel) {
        Ok(real) => Ok(found(real)),
        Err(Refusal::NotFound) => Err(format!("cannot read the config `{shown}`: it does not exist")),
        Err(refusal) => Err(format!("the config `{shown}` {}: {REFUSED_HELP}", refusal.describe())),
    }
}

/// Every mistake of one config: (byte offset, message), up to [`limits::MAX_ERRORS`]; and how many more.
#[derive(Default)]
struct Errors(Vec<(usize, String)>, usize);

impl Errors {
    fn add(&mut self, at: usize, message: String) {
        self.add_with(at, || message);
    }

    /// Adds the message `message` makes, unless as many as are shown are there already (then it only counts:
    /// a hint costs a comparison with every rule id, and a config may hold thousands of mistakes).
    fn add_with(&mut self, at: usize, message: impl FnOnce() -> String) {
        if self.0.len() < limits::MAX_ERRORS {
            self.0.push((at, message()));
        } else {
            self.1 += 1;
        }
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// "unknown key `x`: did you mean `y`?" (or the list of valid names when none is near).
    fn unknown(&mut self, at: usize, what: &str, name: &str, known: &[&str]) {
        self.add_with(at, || Self::with_hint(what, name, known));
    }

    fn with_hint(what: &str, name: &str, known: &[&str]) -> String {
        let hint = match suggest::did_you_mean(name, known.iter().copied()) {
            Some(hint) => hint,
            None => {
                format!("expected one of {}", known.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", "))
            }
        };
        format!("{what}: {hint}")
    }

    fn render(mut self, source: &SourceFile) -> String {
        self.0.sort();
        let mut lines: Vec<String> = self
            .0
            .iter()
            .map(|(at, message)| {
                let pos = source.position(*at);
                // A key or value of the file may hold any character: each mistake stays on its line.
                format!("{}:{}:{}: {}", escape(&source.path), pos.line, pos.column, escape(message))
            })
            .collect();
        if self.1 > 0 {
            lines.push(format!("{}: … and {} more mistakes: fix those above and run again", source.path, self.1));
        }
        lines.join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_levels_excludes_and_harness_tools() {
        let config = Config::parse(
            "harness-tools = [\"my_builtin\"]\nremoved-beeuni-tools = [\"show\"]\n[rules]\nunknown-tool = \"error\"\ntask-escalation = \"off\"\n[paths]\nexclude = [\"examples/**\"]\n",
            "beeuni-lint.toml",
        )
        .unwrap();
        assert_eq!(config.harness_tools, vec!["my_builtin"]);
        assert_eq!(config.levels["unknown-tool"], Level::On(Severity::Error));
        assert_eq!(config.levels["task-escalation"], Level::Off);
        assert_eq!(config.removed_beeuni_tools[0].0, "show");
        assert!(config.is_excluded("examples/a/beeuni.yaml"));
        let mut config = Config::parse("xcsh-paths = [\"./agent/tools/\", \"apps/b/tools\"]\n", "x").unwrap();
        assert_eq!(config.xcsh_folders(), ["agent/tools", "apps/b/tools"]);
        config.exclude_prefix = "apps/b".into();
        assert_eq!(config.xcsh_folders(), ["tools"]);
        let err = Config::parse("xcsh-paths = [\"../tools\"]\n", "beeuni-lint.toml").unwrap_err();
        assert_eq!(err, "beeuni-lint.toml:1:15: xcsh-paths: `../tools` leaves the repository: give a folder inside it");
        assert!(!config.is_excluded("beeuni.yaml"));
    }

    #[test]
    fn every_mistake_is_located_in_one_run() {
        let err = Config::parse(
            "harness-tool = []\nremoved-beeuni-tools = [\"imge_search\"]\n[rules]\nunknown-toll = \"error\"\nunknown-tool = \"loud\"\ntool-name = \"eror\"\n[paths]\nexclud = []\n",
            "apps/a/beeuni-lint.toml",
        )
        .unwrap_err();
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(
            lines,
            [
                "apps/a/beeuni-lint.toml:1:1: unknown key `harness-tool`: did you mean `harness-tools`?",
                "apps/a/beeuni-lint.toml:2:25: `imge_search` is not a Beeuni tool: did you mean `image_search`?",
                "apps/a/beeuni-lint.toml:4:1: unknown rule `unknown-toll` in [rules]: did you mean `unknown-tool`?",
                "apps/a/beeuni-lint.toml:5:16: `loud` is not a level: use error, warning, info or off",
                "apps/a/beeuni-lint.toml:6:13: `eror` is not a level: use error, warning, info or off (did you mean `error`?)",
                "apps/a/beeuni-lint.toml:8:1: unknown key `exclud` in [paths]: did you mean `exclude`?",
            ]
        );
        let err = Config::parse("[rules\n", "beeuni-lint.toml").unwrap_err();
        assert!(err.starts_with("beeuni-lint.toml:1:"), "{err}");
    }

    #[test]
    fn limits_set_the_module_bytes_within_the_file_limit() {
        assert_eq!(Config::parse("", "x").unwrap().module_bytes(), crate::modules::MODULE_BYTES);
        assert_eq!(Config::parse("[limits]\nmodule-bytes = 10_000\n", "x").unwrap().module_bytes(), 10_000);
        assert_eq!(Config::parse("[limits]\nmodule-bytes = 0x100\n", "x").unwrap().module_bytes(), 256);
        let err = Config::parse("[limits]\nmodule-bytes = 0\nmodule-bytes2 = 1\n", "beeuni-lint.toml").unwrap_err();
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(
            lines,
            [
                "beeuni-lint.toml:2:16: `module-bytes` must be a number of bytes from 1 to 33554432 (32 MiB)",
                "beeuni-lint.toml:3:1: unknown key `module-bytes2` in [limits]: did you mean `module-bytes`?",
            ]
        );
        let err = Config::parse("[limits]\nmodule-bytes = \"2 MiB\"\n", "beeuni-lint.toml").unwrap_err();
        assert_eq!(err, "beeuni-lint.toml:2:16: `module-bytes` must be a number of bytes, not a string");
        let err = Config::parse("limits = 3\n", "beeuni-lint.toml").unwrap_err();
        assert_eq!(err, "beeuni-lint.toml:1:10: `limits` must be a table (`[limits]`), not a number");
    }
}
