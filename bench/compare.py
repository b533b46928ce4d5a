#!/usr/bin/env python3
"""Benchmark: `beeuni-lint check` against a peer on the same generated project.

usage: bench/compare.py [--modules 2000] [--runs 15] [--peer "oxlint tools lib"] [--binary target/release/beeuni-lint]

Generates the project with bench/gen_project.py (once per size, under
/tmp), then alternates runs of beeuni-lint and the peer (so drift hits both
alike) and prints the medians, their ratio and beeuni-lint's peak memory.
The peer is looked up on PATH and in /tmp/oxl/node_modules/.bin (install it
with `npm install --prefix /tmp/oxl oxlint`).
"""
import argparse, os, resource, shlex, statistics, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def run(cmd, cwd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    elapsed = time.perf_counter() - start
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return elapsed, done.returncode, max(peak_kb, before.ru_maxrss)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--modules", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--peer", default="oxlint tools lib")
    ap.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "beeuni-lint"))
    a = ap.parse_args()
    project = f"/tmp/beeuni-bench-{a.modules}"
    if not os.path.exists(os.path.join(project, "beeuni.yaml")):
        gen = os.path.join(ROOT, "bench", "gen_project.py")
        subprocess.run([sys.executable, gen, project, "--modules", str(a.modules), "--git"], check=True)
    peer = shlex.split(a.peer)
    local = "/tmp/oxl/node_modules/.bin/" + peer[0]
    if os.path.exists(local):
        peer[0] = local
    ours, theirs = [], []
    peak = 0
    for _ in range(a.runs):
        elapsed, code, _ = run([a.binary, "--format", "short"], project)
        if code not in (0, 1):
            sys.exit(f"beeuni-lint exited {code}")
        ours.append(elapsed)
        elapsed, _, _ = run(peer, project)
        theirs.append(elapsed)
    # A separate measured run for our peak memory (RUSAGE_CHILDREN keeps the maximum of all children).
    peak = subprocess.run(["/usr/bin/time", "-f", "%M", a.binary, "--format", "short"], cwd=project,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True).stderr.strip().splitlines()[-1]
    m_ours, m_theirs = statistics.median(ours), statistics.median(theirs)
    print(f"project: {a.modules} modules ({project})")
    print(f"beeuni-lint check: median {m_ours * 1000:.1f} ms over {a.runs} runs; peak memory {peak} KB")
    print(f"{' '.join(shlex.split(a.peer))}: median {m_theirs * 1000:.1f} ms")
    print(f"ratio (beeuni-lint / peer): {m_ours / m_theirs:.2f}")


if __name__ == "__main__":
    main()
