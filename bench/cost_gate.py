#!/usr/bin/env python3
"""The cost gate: instructions of `beeuni-lint` (check cold, warm and replayed, the hook, ls, agents, impact), against a committed baseline.

usage: bench/cost_gate.py [--binary target/release/beeuni-lint] [--baseline bench/cost-baseline.json] [--bless]

Run by `.ci/run` right after its release build. It generates the project the baseline names (bench/gen_project.py
--git, fixed size and seed, under a new folder of /tmp with a name of fixed length), then counts the instructions
the whole process executes (valgrind's callgrind, every thread) of
- cold: `check --no-cache`;
- replay: `check --cache-dir DIR`, with DIR filled by a run before it (its record written: the project settled
  for two seconds first) and nothing changed since: the run is replayed from its record;
- warm: the same after one module changed: the record does not hold, the module is analysed again and every
  other one comes from the cache (and no record is written: the module changed just now);
- hook: `check --staged` (the pre-commit hook's run), its cache filled by the run before;
- ls, agents: `ls` and `agents --json`;
- impact: `impact --base HEAD~1` once that module's change is committed;
each with one analysis thread (`RAYON_NUM_THREADS=1`, so that work stealing cannot move work between threads),
a fixed environment (no colour, no terminal, a home of its own, no system or user git configuration) and its
output to a file. Nothing is timed with a clock: a count is the same on a busy machine and an idle one.

It fails (exit 1) when either count exceeds the baseline by more than the baseline's tolerance (3 %), and says
so; a count below the baseline by more than the tolerance is reported, to be blessed so that the gain is kept.
`--bless` writes the counts measured into the baseline instead: commit that file on its own, and say in the
commit message why the cost moved (docs/development.md, "The cost gate").
"""
import argparse, json, os, re, shutil, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BASELINE = os.path.join(HERE, "cost-baseline.json")


def environment(home):
    """The only variables a measured run (and the generator's git) sees."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": home,
        "XDG_CONFIG_HOME": os.path.join(home, ".config"),
        "LANG": "C",
        "LC_ALL": "C",
        "NO_COLOR": "1",
        "TERM": "dumb",
        "GIT_CONFIG_NOSYSTEM": "1",
        "RAYON_NUM_THREADS": "1",
    }


def instructions(cmd, cwd, env, log):
    """The instructions `cmd` executes, all threads, as callgrind counts them (findings or none: exit 0 or 1)."""
    with open(log, "wb") as out:
        done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd], cwd=cwd,
                              env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.PIPE, text=True)
    if done.returncode not in (0, 1):
        sys.exit(f"cost gate: `{' '.join(cmd)}` exited {done.returncode} on {cwd}:\n{done.stderr}")
    found = re.search(r"Collected : (\d+)", done.stderr)
    if not found:
        sys.exit(f"cost gate: no instruction count in valgrind's output:\n{done.stderr}")
    return int(found.group(1))


# What a record needs: nothing it holds changed in the two seconds before the run that writes it
# (src/cache/replay.rs, RACY), with a margin.
SETTLE = 2.3


def measure(binary, project):
    """{"cold": N, "replay": N, "warm": N, "hook": N, "ls": N, "agents": N, "impact": N} for the project the baseline
    describes."""
    if shutil.which("valgrind") is None:
        sys.exit("cost gate: valgrind is not installed (apt-get install valgrind)")
    # A new folder of a fixed name length: the project's path is part of what a run copies and prints.
    scratch = tempfile.mkdtemp(prefix="beeuni-cost-", dir="/tmp" if os.path.isdir("/tmp") else None)
    try:
        home, cache, out = (os.path.join(scratch, name) for name in ("home", "cache", "project"))
        os.mkdir(home)
        env = environment(home)
        subprocess.run([sys.executable, os.path.join(HERE, "gen_project.py"), out, "--git",
                        "--modules", str(project["modules"]), "--imports", str(project["imports"]),
                        "--agents", str(project["agents"]), "--helpers", str(project["helpers"]),
                        "--seed", str(project["seed"])], env=env, check=True, stdout=subprocess.DEVNULL)
        check = [binary, "check", "--format", "short"]
        log = os.path.join(scratch, "output")
        counts = {"cold": instructions(check + ["--no-cache"], out, env, log)}
        time.sleep(SETTLE)
        fill = subprocess.run(check + ["--cache-dir", cache], cwd=out, env=env, capture_output=True)
        if fill.returncode not in (0, 1) or not os.path.exists(os.path.join(cache, "run.bin")):
            sys.exit(f"cost gate: the run that fills the cache exited {fill.returncode} or wrote no record:\n"
                     f"{fill.stderr.decode()}")
        counts["replay"] = instructions(check + ["--cache-dir", cache], out, env, log)
        with open(log, "rb") as replayed:
            if replayed.read() != fill.stdout:
                sys.exit("cost gate: the replayed run printed something else than the run it replays")
        # One module changed: its bytes (a comment at its end), so that it is analysed again.
        module = os.path.join(out, "tools", sorted(os.listdir(os.path.join(out, "tools")))[0])
        with open(module, "a") as f:
            f.write("// changed\n")
        counts["warm"] = instructions(check + ["--cache-dir", cache], out, env, log)
        # The hook's run: the index (which still holds the module as it was), its cache filled by the run before.
        hook = check + ["--staged", "--cache-dir", os.path.join(scratch, "hook-cache")]
        subprocess.run(hook, cwd=out, env=env, capture_output=True)
        counts["hook"] = instructions(hook, out, env, log)
        counts["ls"] = instructions([binary, "ls"], out, env, log)
        counts["agents"] = instructions([binary, "agents", "--json"], out, env, log)
        # The change committed, and compared with the commit before (no cache of the project's own: both sides
        # analysed).
        dated = dict(env, GIT_AUTHOR_DATE="2026-01-01T00:00:00Z", GIT_COMMITTER_DATE="2026-01-01T00:00:00Z")
        subprocess.run(["git", "-c", "user.name=gate", "-c", "user.email=gate@example.com", "commit", "-qam", "change"],
                       cwd=out, env=dated, check=True, stdout=subprocess.DEVNULL)
        counts["impact"] = instructions([binary, "impact", "--base", "HEAD~1", "--format", "json"], out, env, log)
        return counts
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "beeuni-lint"))
    ap.add_argument("--baseline", default=BASELINE)
    ap.add_argument("--bless", action="store_true", help="write the counts measured into the baseline")
    a = ap.parse_args()
    if not os.path.exists(a.binary):
        sys.exit(f"cost gate: {a.binary} is missing: run `cargo build --release --locked` first")
    with open(a.baseline) as f:
        baseline = json.load(f)
    counts = measure(os.path.abspath(a.binary), baseline["project"])
    if a.bless:
        baseline["instructions"] = counts
        with open(a.baseline, "w") as f:
            f.write(json.dumps(baseline, indent=2) + "\n")
        blessed = ", ".join(f"{name} {count:,}" for name, count in counts.items())
        print(f"cost gate: blessed {blessed} instructions into {os.path.relpath(a.baseline, ROOT)}: commit it, saying "
              "why the cost moved")
        return
    tolerance = baseline["tolerance"]
    failed = []
    for name, count in counts.items():
        base = baseline["instructions"].get(name)
        if base is None:
            print(f"cost gate: {name:<6} {count:>14,} instructions, not in the baseline: FAILED (bless it)")
            failed.append(name)
            continue
        change = count / base - 1
        verdict = "ok"
        if change > tolerance:
            verdict = f"FAILED: more than {tolerance:.0%} over the baseline"
            failed.append(name)
        elif change < -tolerance:
            verdict = "below the baseline: bless it (`bench/cost_gate.py --bless`) to keep the gain"
        print(f"cost gate: {name:<6} {count:>14,} instructions, baseline {base:>14,} ({change:+.2%}): {verdict}")
    if failed:
        print(f"cost gate: {' and '.join(failed)} cost more than the baseline allows. Find what costs "
              "(valgrind --tool=callgrind, callgrind_annotate) and win it back; or, when the cost is the price of "
              "a change worth it, run `bench/cost_gate.py --bless` and commit the baseline with the reason in the "
              "commit message (docs/development.md, \"The cost gate\").", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
