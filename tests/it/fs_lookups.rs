//! Work-tree look-ups answered from one listing per folder and one resolution per specifier give the findings
//! one `lstat` per path gave: a file's size is still taken from the disk, never from the git index.

use crate::common::*;

#[test]
fn a_tracked_module_grown_past_the_limit_since_staged_is_measured_on_disk() {
    let dir = project(&[("beeuni.yaml", "tools:\n  big: tools/big.ts\n  ok: tools/ok.ts\n"), ("tools/ok.ts", MODULE)]);
    write(dir.path(), "tools/big.ts", MODULE.as_bytes());
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-qm", "tools"]);
    // The index records the small file; the work tree now holds one over the limit.
    let big = std::fs::OpenOptions::new().write(true).open(dir.path().join("tools/big.ts")).unwrap();
    big.set_len(40 * 1024 * 1024).unwrap();
    let (_, report) = json_in(dir.path(), &["--no-cache"]);
    let message = "`tools/big.ts` is 41943040 bytes, more than the 33554432 bytes beeuni-lint reads: none of its checks \
                   were made";
    let found: Vec<_> = diagnostics(&report).iter().filter(|d| d["rule"] != "no-beeuni-tools").collect();
    assert_eq!(found.len(), 1, "{report:#}");
    assert_finding(found[0], &("analysis-limit", "warning", "tools/big.ts", 1, 1, message));
}

#[test]
fn modules_of_one_folder_share_resolutions_and_each_gets_its_own_finding() {
    let dir = project(&[
        ("beeuni.yaml", "tools:\n  a: tools/a.ts\n  b: tools/b.ts\n"),
        (
            "tools/a.ts",
            &format!("import {{ x }} from './helper';\nimport y from './gone';\nconsole.log(x, y);\n{MODULE}"),
        ),
        (
            "tools/b.ts",
            &format!("import {{ x }} from './helper';\nimport y from './gone';\nconsole.log(x, y);\n{MODULE}"),
        ),
        ("tools/helper.ts", "export const x = 1;\n"),
    ]);
    let (_, report) = json_in(dir.path(), &["--no-cache"]);
    let missing = of_rule(&report, "module-import-missing");
    let paths: Vec<_> = missing.iter().map(|d| (d["path"].as_str().unwrap(), d["line"].as_u64().unwrap())).collect();
    assert_eq!(paths, [("tools/a.ts", 2), ("tools/b.ts", 2)], "{report:#}");
}
