#!/usr/bin/env python3
"""Benchmark: what `--base` adds to a run, against `git diff --name-only BASE...HEAD`.

usage: bench/base_cost.py [--modules 20000] [--files 0] [--commits 1500] [--runs 15] [--binary target/dist/beeuni-lint]

Builds (once, under /tmp) a repository of bench/gen_project.py with
--modules files and --commits commits of history on `main` (git fast-import),
and a `feature` branch forked 300 commits back that deletes one Beeuni tool's
line. `--files N` adds N plain files (docs/page_NNNNN.md) to the first commit:
`--modules 50 --files 20000` is a repository of 20,000 files whose manifest is
of a usual size. Then alternates three commands and prints their median wall times:
`beeuni-lint`, `beeuni-lint --base main`, and `git diff --name-only
main...HEAD`; the cost of `--base` is the difference of the first two.
"""
import argparse, os, statistics, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def git(repo, *args, **kw):
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, **kw)


def build(repo, modules, files, commits):
    gen = os.path.join(ROOT, "bench", "gen_project.py")
    subprocess.run([sys.executable, gen, repo, "--modules", str(modules), "--agents", str(min(500, modules)), "--git"],
                   check=True)
    if files:
        os.makedirs(os.path.join(repo, "docs"), exist_ok=True)
        for i in range(files):
            with open(os.path.join(repo, "docs", f"page_{i:05d}.md"), "w") as page:
                page.write(f"# Page {i}\n")
        git(repo, "add", "-A")
        git(repo, "-c", "user.name=b", "-c", "user.email=b@e", "commit", "-qm", "docs")
    git(repo, "branch", "-M", "main")
    head = git(repo, "rev-parse", "HEAD", text=True).stdout.strip()
    stream = []
    for i in range(commits):
        note = f"note {i}\n".encode()
        message = f"commit {i}".encode()
        stream.append(f"commit refs/heads/main\nmark :{i + 1}\ncommitter b <b@e> {1700000000 + i} +0000\n".encode())
        stream.append(b"data %d\n%s\n" % (len(message), message))
        if i == 0:
            stream.append(f"from {head}\n".encode())
        stream.append(b"M 100644 inline notes.txt\ndata %d\n%s\n" % (len(note), note))
    git(repo, "fast-import", "--quiet", input=b"".join(stream))
    git(repo, "reset", "-q", "--hard", "main")
    git(repo, "checkout", "-q", "-b", "feature", "main~300")
    manifest = os.path.join(repo, "beeuni.yaml")
    text = open(manifest).read().replace("  image_search: beeuni:image_search\n", "")
    open(manifest, "w").write(text)
    git(repo, "-c", "user.name=b", "-c", "user.email=b@e", "commit", "-qam", "drop image_search")


def timed(cmd, cwd):
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--modules", type=int, default=20000)
    ap.add_argument("--files", type=int, default=0)
    ap.add_argument("--commits", type=int, default=1500)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--binary", default=os.path.join(ROOT, "target", "dist", "beeuni-lint"))
    a = ap.parse_args()
    repo = f"/tmp/beeuni-bench-history-{a.modules}-{a.files}-{a.commits}"
    if not os.path.exists(os.path.join(repo, ".git")):
        build(repo, a.modules, a.files, a.commits)
    # Stat data refreshed, as bench.py does: after a reboot or a copy every file would look modified (and be hashed).
    subprocess.run(["git", "-C", repo, "update-index", "-q", "--refresh"], check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    plain, based, diff = [], [], []
    for _ in range(a.runs):
        plain.append(timed([a.binary, "--format", "short"], repo))
        based.append(timed([a.binary, "--base", "main", "--format", "short"], repo))
        diff.append(timed(["git", "diff", "--name-only", "main...HEAD"], repo))
    p, b, d = (statistics.median(x) * 1000 for x in (plain, based, diff))
    print(f"repository: {a.modules} modules, {a.files} other files, {a.commits} commits of history ({repo})")
    print(f"beeuni-lint: {p:.1f} ms; with --base main: {b:.1f} ms; --base adds {b - p:.1f} ms")
    print(f"git diff --name-only main...HEAD: {d:.1f} ms")
    print(f"ratio (what --base adds / git diff): {(b - p) / d:.2f}")


if __name__ == "__main__":
    main()
