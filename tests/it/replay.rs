//! A run replayed from its record (`.beeuni-lint-cache/run.bin`): an unchanged project prints what the run before
//! printed without linting, and every change a run could see (a module's bytes, a file created where an import
//! looked, the index, the config, a package installed, the arguments) makes the next run lint again. And the
//! record holds every path the run touched, as `strace` sees it.

use crate::common::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

const RECORD: &str = ".beeuni-lint-cache/run.bin";
const MODULES: &str = ".beeuni-lint-cache/modules.bin";

/// A module that imports a helper and a package, neither there yet, and one that is fine.
const A: &str = "import { help } from './helper'\nimport pad from 'left-pad'\n\
                 export default { description: 'x', parameters: { type: 'object', properties: {} }, \
                 async execute() { return help() + pad('a', 2) } }\n";

/// A git repository with two modules, a `package.json` that declares `left-pad` and a `.gitignore` of
/// `node_modules/`, committed.
fn repository() -> tempfile::TempDir {
    let dir = project(&[
        ("beeuni.yaml", "tools:\n  web_search: beeuni:web_search\n  a: tools/a.ts\n  b: tools/b.ts\n"),
        ("tools/a.ts", A),
        ("tools/b.ts", MODULE),
        ("package.json", "{\"name\":\"p\",\"dependencies\":{\"left-pad\":\"1\"}}\n"),
        (".gitignore", "node_modules/\n"),
    ]);
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-qm", "one"]);
    dir
}

fn short(dir: &Path, args: &[&str]) -> String {
    let mut all = vec!["--format", "short"];
    all.extend_from_slice(args);
    run_in(dir, &all).stdout
}

/// Waits until what was just written is old enough for a record ([`beeuni_lint::cache::replay::RACY`]).
fn settle() {
    std::thread::sleep(beeuni_lint::cache::replay::RACY + Duration::from_millis(200));
}

/// A change to make, and a finding the run after it reports (`severity rule path:line`) that the run before did
/// not.
type Change = (&'static str, fn(&Path), &'static str);

const CHANGES: [Change; 6] = [
    (
        "a module's bytes, its size the same",
        |dir| replace(dir, "tools/b.ts", "execute()", "executx()"),
        "error module-execute tools/b.ts:1",
    ),
    (
        "a file made where an import looked",
        |dir| write(dir, "tools/helper.ts", HELPER),
        "info file-untracked tools/a.ts:1",
    ),
    (
        "the index (a module no longer tracked)",
        |dir| git(dir, &["rm", "-q", "--cached", "tools/b.ts"]),
        "info file-untracked beeuni.yaml:4",
    ),
    (
        "a config made",
        |dir| write(dir, "beeuni-lint.toml", b"[rules]\nmodule-package-not-installed = \"error\"\n"),
        "error module-package-not-installed tools/a.ts:2",
    ),
    (
        "a package installed (git ignores it)",
        |dir| {
            write(dir, "node_modules/left-pad/package.json", b"{\"name\":\"left-pad\",\"main\":\"index.js\"}\n");
            write(dir, "node_modules/left-pad/index.js", b"module.exports = (a) => a\n");
        },
        "warning module-package-untracked tools/a.ts:2",
    ),
    (
        "the manifest",
        |dir| replace(dir, "beeuni.yaml", "  b: tools/b.ts\n", "  b: tools/c.ts\n"),
        "error module-missing beeuni.yaml:4",
    ),
];

const HELPER: &[u8] = b"export const help = () => 'h'\n";

fn replace(dir: &Path, path: &str, from: &str, to: &str) {
    let text = std::fs::read_to_string(dir.join(path)).unwrap();
    assert!(text.contains(from), "{path} holds no {from:?}");
    write(dir, path, text.replacen(from, to, 1).as_bytes());
}

/// `severity rule path:line` of each finding of a short report.
fn findings(report: &str) -> BTreeSet<String> {
    report
        .lines()
        .filter_map(|line| {
            let (place, rest) = line.split_once(": ")?;
            let (severity, rest) = rest.split_once('[')?;
            let rule = rest.split_once(']')?.0;
            let (path, line) = place.rsplitn(3, ':').nth(2).zip(place.split(':').nth(1))?;
            Some(format!("{severity} {rule} {path}:{line}"))
        })
        .collect()
}

#[test]
fn an_unchanged_project_is_replayed_and_each_change_is_linted() {
    // One repository a change, and one left alone; each linted once (the cache folder made), then all left to
    // settle together (a record holds no path changed in the two seconds before its run).
    let repositories: Vec<_> = (0..=CHANGES.len()).map(|_| repository()).collect();
    for dir in &repositories {
        short(dir.path(), &[]);
    }
    settle();
    for (at, dir) in repositories.iter().enumerate() {
        let dir = dir.path();
        let linted = short(dir, &[]);
        assert!(dir.join(RECORD).is_file(), "no record written");
        assert_eq!(linted, short(dir, &["--no-cache"]), "the recording run differs from a cold one");
        // Replayed: the module cache, gone, is not written again, and the output is the same.
        std::fs::remove_file(dir.join(MODULES)).unwrap();
        assert_eq!(short(dir, &[]), linted);
        assert!(!dir.join(MODULES).exists(), "an unchanged run linted again");
        // Other arguments are another run.
        assert_ne!(short(dir, &["--min-severity", "error"]), linted);
        assert!(dir.join(MODULES).exists(), "a run with other arguments was replayed");
        let Some((what, change, finding)) = CHANGES.get(at) else { continue };
        std::fs::remove_file(dir.join(MODULES)).unwrap();
        change(dir);
        let changed = short(dir, &[]);
        assert_eq!(changed, short(dir, &["--no-cache"]), "after {what}: not what a cold run reports");
        assert!(dir.join(MODULES).exists(), "after {what}: replayed");
        assert!(findings(&changed).contains(*finding), "after {what}: no {finding} in\n{changed}");
        assert!(!findings(&linted).contains(*finding), "{finding} before {what}");
    }
}

#[test]
fn a_replay_prints_the_same_in_every_format_and_exits_the_same() {
    let dir = repository();
    short(dir.path(), &[]);
    settle();
    for format in ["human", "json", "sarif", "gitlab", "junit"] {
        let first = run_in(dir.path(), &["--format", format, "--fail-on", "error"]);
        let again = run_in(dir.path(), &["--format", format, "--fail-on", "error"]);
        assert_eq!((first.code, &first.stdout), (again.code, &again.stdout), "{format}");
        assert_eq!(first.code, 1, "{format}: module-import-missing is an error");
    }
    // Quiet and clean: nothing printed, replayed as nothing.
    let quiet = ["--quiet", "--min-severity", "error", "--fail-on", "never"];
    let first = run_in(dir.path(), &quiet);
    assert_eq!(run_in(dir.path(), &quiet).stdout, first.stdout);
}

/// The paths a record holds, each with whether it is looked at whole (its layout: `src/cache/replay.rs`).
fn recorded(record: &[u8]) -> BTreeMap<PathBuf, bool> {
    use std::os::unix::ffi::OsStrExt;
    let number = |at: &mut usize| {
        let n = u64::from_le_bytes(record[*at..*at + 8].try_into().unwrap()) as usize;
        *at += 8;
        n
    };
    let header = record.iter().position(|&b| b == b'\n').unwrap() + 1;
    let mut at = header + record[header..].iter().position(|&b| b == b'\n').unwrap() + 1;
    assert_eq!(&record[at..at + 4], b"run\n");
    at += 4;
    at += number(&mut at) + 8;
    let (mut paths, mut last) = (BTreeMap::new(), Vec::new());
    for _ in 0..number(&mut at) {
        let shared = number(&mut at);
        let len = number(&mut at);
        last.truncate(shared);
        last.extend_from_slice(&record[at..at + len]);
        let whole = record[at + len] == 0;
        at += len + 1;
        at += number(&mut at);
        paths.insert(PathBuf::from(std::ffi::OsStr::from_bytes(&last)), whole);
    }
    assert_eq!(at, record.len());
    paths
}

/// The paths inside `root` that the syscalls in `strace -y` output name, whole (`openat(3</a/b>, "c", …)` is
/// `/a/b/c`), each with whether it was listed (`getdents64`).
fn touched(log: &str, root: &Path) -> BTreeMap<PathBuf, bool> {
    let mut paths = BTreeMap::new();
    for line in log.lines() {
        let Some((call, rest)) = line.split_once('(') else { continue };
        let call = call.rsplit(' ').next().unwrap_or(call);
        let args: Vec<&str> = rest.splitn(3, ", ").collect();
        let quoted = |arg: &str| arg.strip_prefix('"').and_then(|a| a.split('"').next()).map(str::to_string);
        let fd = |arg: &str| arg.split_once('<').and_then(|(_, p)| p.strip_suffix('>')).map(str::to_string);
        let path = match call {
            "getdents64" => args.first().and_then(|a| fd(a.trim_end_matches(')'))),
            "openat" | "newfstatat" | "statx" | "readlinkat" | "faccessat" | "faccessat2" => {
                let (Some(dir), Some(name)) = (args.first(), args.get(1).and_then(|a| quoted(a))) else { continue };
                if name.starts_with('/') {
                    Some(name)
                } else if let Some(dir) = fd(dir) {
                    Some(if name.is_empty() { dir } else { format!("{dir}/{name}") })
                } else {
                    continue;
                }
            }
            "open" | "stat" | "lstat" | "readlink" | "access" => args.first().and_then(|a| quoted(a)),
            _ => None,
        };
        if let Some(path) = path.map(PathBuf::from).filter(|path| path.starts_with(root)) {
            *paths.entry(path).or_default() |= call == "getdents64";
        }
    }
    paths
}

#[test]
fn the_record_holds_every_path_the_run_touched() {
    let strace = std::process::Command::new("strace").arg("-V").output();
    if !strace.is_ok_and(|out| out.status.success()) {
        eprintln!("SKIPPED: no strace on this machine, so the paths a run touches cannot be seen");
        return;
    }
    let dir = repository();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    // Everything a run can look at: a helper, an installed package, a tsconfig with paths, a folder link, a module
    // that is a link.
    write(&root, "tools/helper.ts", HELPER);
    write(&root, "node_modules/left-pad/package.json", b"{\"name\":\"left-pad\",\"main\":\"index.js\"}\n");
    write(&root, "node_modules/left-pad/index.js", b"module.exports = (a) => a\n");
    write(&root, "tsconfig.json", b"{\"compilerOptions\":{\"baseUrl\":\".\",\"paths\":{\"@lib/*\":[\"lib/*\"]}}}\n");
    write(&root, "lib/real/x.ts", b"export const x = 1\n");
    std::os::unix::fs::symlink("real", root.join("lib/linked")).unwrap();
    std::os::unix::fs::symlink("b.ts", root.join("tools/d.ts")).unwrap();
    write(&root, "tools/c.ts", b"import { x } from '@lib/linked/x'\nimport { help } from './helper'\nexport default { description: 'x', parameters: { type: 'object', properties: {} }, async execute() { return String(x) + help() } }\n");
    replace(&root, "beeuni.yaml", "  b: tools/b.ts\n", "  b: tools/b.ts\n  c: tools/c.ts\n  d: tools/d.ts\n");
    write(&root, "beeuni-lint.toml", b"[rules]\n");
    git(&root, &["add", "-A"]);
    short(&root, &[]);
    settle();
    let log = root.join("../strace.log");
    let binary = assert_cmd::cargo::cargo_bin("beeuni-lint");
    let mut cmd = std::process::Command::new("strace");
    cmd.args(["-f", "-qq", "-y", "-s", "4096", "-o"]).arg(&log).arg(&binary).args(["--format", "short"]);
    cmd.current_dir(&root).env("NO_COLOR", "1");
    isolate_git(&mut cmd);
    assert!(cmd.status().unwrap().code().is_some_and(|code| code <= 1));
    let recorded = recorded(&std::fs::read(root.join(RECORD)).expect("a record"));
    let cache = root.join(".beeuni-lint-cache");
    let missed: Vec<_> = touched(&std::fs::read_to_string(&log).unwrap(), &root)
        .into_iter()
        .filter(|(path, _)| !path.starts_with(&cache) && !path.starts_with(root.join(".git/objects")))
        .filter(|(path, listed)| match recorded.get(path) {
            // A folder listed is looked at whole: an entry made or removed changes it.
            Some(whole) => *listed && !whole,
            // A folder on the way to a path the record holds is looked at by that path's `lstat`.
            None => *listed || !recorded.keys().any(|r| r.starts_with(path) && r != path),
        })
        .collect();
    assert!(missed.is_empty(), "touched, not recorded: {missed:#?}");
    // The run read these; the record holds them.
    for path in ["tools/c.ts", "tools/helper.ts", "node_modules/left-pad/package.json", "tsconfig.json", ".git/index"] {
        assert!(recorded.contains_key(&root.join(path)), "{path} is not in the record");
    }
}

#[test]
fn a_monorepo_root_is_replayed_and_a_change_in_any_project_is_linted() {
    let dir = crate::monorepo_support::monorepo();
    let root = dir.path();
    write(root, "apps/other/beeuni.yaml", b"tools:\n  b: tools/b.ts\nagents:\n  helper:\n    tools: [grpe]\n");
    write(root, "apps/other/tools/b.ts", MODULE.as_bytes());
    git(root, &["add", "-A"]);
    short(root, &[]);
    settle();
    let linted = short(root, &[]);
    assert!(linted.contains("apps/other/beeuni.yaml:"), "{linted}");
    assert_eq!(linted, short(root, &["--no-cache"]));
    // The record is in the first project's cache folder; the second project's module cache is not written again.
    assert!(root.join("apps/agent").join(RECORD).is_file(), "no record");
    std::fs::remove_file(root.join("apps/other").join(MODULES)).unwrap();
    assert_eq!(short(root, &[]), linted);
    assert!(!root.join("apps/other").join(MODULES).exists(), "an unchanged monorepo linted again");
    replace(root, "apps/other/tools/b.ts", "execute()", "executx()");
    let changed = short(root, &[]);
    assert_eq!(changed, short(root, &["--no-cache"]));
    assert!(findings(&changed).contains("error module-execute apps/other/tools/b.ts:1"), "{changed}");
}

#[test]
fn a_git_config_include_and_a_link_made_again_are_seen() {
    // An include of the repository's config, empty when the run is recorded, then given `core.excludesFile`: the
    // untracked helper becomes an ignored one.
    let dir = repository();
    let root = dir.path();
    write(root, "tools/helper.ts", HELPER);
    write(root, ".git/inc", b"");
    git(root, &["config", "include.path", "inc"]);
    // A project reached through a link, its cache outside it.
    let outside = tempfile::tempdir().unwrap();
    let links = outside.path();
    write(links, "one/beeuni.yaml", b"tools:\n  a: tools/a.ts\n");
    write(links, "one/tools/a.ts", MODULE.as_bytes());
    write(links, "two/beeuni.yaml", b"tools:\n  a: tools/a.ts\n");
    write(links, "two/tools/a.ts", MODULE.replace("execute()", "executx()").as_bytes());
    std::os::unix::fs::symlink("one", links.join("current")).unwrap();
    let through_link = ["--cache-dir", "cache", "current"];
    short(root, &[]);
    short(links, &through_link);
    settle();
    let (linted, linked) = (short(root, &[]), short(links, &through_link));
    assert!(root.join(RECORD).is_file() && links.join("cache/run.bin").is_file(), "no record");
    assert!(findings(&linted).contains("info file-untracked tools/a.ts:1"), "{linted}");
    assert!(!linked.contains("module-execute"), "{linked}");

    write(root, ".git/ignored", b"tools/helper.ts\n");
    let ignored = root.join(".git/ignored");
    write(root, ".git/inc", format!("[core]\n\texcludesFile = {}\n", ignored.display()).as_bytes());
    let changed = short(root, &[]);
    assert_eq!(changed, short(root, &["--no-cache"]));
    assert!(findings(&changed).contains("error file-untracked tools/a.ts:1"), "{changed}");

    std::fs::remove_file(links.join("current")).unwrap();
    std::os::unix::fs::symlink("two", links.join("current")).unwrap();
    let changed = short(links, &through_link);
    assert!(findings(&changed).contains("error module-execute tools/a.ts:1"), "{changed}");
}
