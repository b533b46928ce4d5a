#!/usr/bin/env python3
"""How fast `beeuni-lint lsp` answers an edit, and whether its memory stays flat. A benchmark, not a test.

usage: bench/lsp.py [--modules 2000] [--edits 1000] [--bin target/dist/beeuni-lint] [--keep DIR]

Generates the project of `bench/gen_project.py --modules N --git`, starts the server, opens its
beeuni.yaml, then sends --edits `didChange` notifications, each changing one line (every other edit
puts a typo in an `exclude:` list, the next takes it out again, so the findings change too), and times
each from the notification to the `publishDiagnostics` of that version. Every 100 edits it reads the
server's resident memory. Between edits it runs `beeuni-lint check` on the same project now and then,
alternating, for the ratio of an edit to a whole run from the command line.
Build first: `cargo build --profile dist`.
"""
import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent


class Server:
    def __init__(self, binary, cwd):
        self.proc = subprocess.Popen([binary, "lsp"], cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 0

    def send(self, message):
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def read(self):
        length = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit("the server closed its output")
            line = line.strip()
            if not line:
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.proc.stdout.read(length))

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            message = self.read()
            if message.get("id") == self.next_id and "method" not in message:
                return message.get("result")

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def diagnostics(self, uri, version):
        while True:
            message = self.read()
            params = message.get("params", {})
            if message.get("method") == "textDocument/publishDiagnostics" and params.get("uri") == uri:
                if params.get("version") == version:
                    return params["diagnostics"]

    def rss_kib(self):
        with open(f"/proc/{self.proc.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modules", type=int, default=2000)
    parser.add_argument("--edits", type=int, default=1000)
    parser.add_argument("--bin", default=str(HERE.parent / "target/dist/beeuni-lint"))
    parser.add_argument("--keep", help="generate the project here and keep it")
    args = parser.parse_args()
    binary = os.path.abspath(args.bin)
    if not os.access(binary, os.X_OK):
        sys.exit(f"no binary at {binary}: run `cargo build --profile dist` first")

    work = pathlib.Path(args.keep or tempfile.mkdtemp(prefix="beeuni-lsp-bench-"))
    if not (work / "beeuni.yaml").exists():
        subprocess.run([sys.executable, str(HERE / "gen_project.py"), str(work), "--modules", str(args.modules), "--git"],
                       check=True, stdout=subprocess.DEVNULL)
    manifest = work / "beeuni.yaml"
    text = manifest.read_text()
    lines = text.split("\n")
    # The first `exclude:` list of an agent: where the typo goes.
    at = next(i for i, line in enumerate(lines) if "exclude: [" in line)
    uri = "file://" + str(manifest.resolve())

    server = Server(binary, work)
    server.request("initialize", {"processId": os.getpid(), "rootUri": None, "capabilities": {}})
    server.notify("initialized", {})
    start = time.perf_counter()
    server.notify("textDocument/didOpen",
                  {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}})
    first = server.diagnostics(uri, 1)
    opened_ms = (time.perf_counter() - start) * 1000
    if first:
        sys.exit(f"the generated project is not clean: {first[:3]}")

    edits, checks, memory = [], [], []
    for n in range(1, args.edits + 1):
        changed = list(lines)
        if n % 2:
            changed[at] = lines[at].replace("exclude: [", "exclude: [bsh, ")
        changed[at] += f"  # edit {n}"
        version = n + 1
        start = time.perf_counter()
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                 "contentChanges": [{"text": "\n".join(changed)}]})
        found = server.diagnostics(uri, version)
        edits.append((time.perf_counter() - start) * 1000)
        if len(found) != n % 2:
            sys.exit(f"edit {n}: expected {n % 2} finding(s), got {found}")
        if n % 100 == 0:
            memory.append((n, server.rss_kib()))
        if n % 50 == 25:
            start = time.perf_counter()
            subprocess.run([binary, "check", "--quiet", str(work)], stdout=subprocess.DEVNULL, check=False)
            checks.append((time.perf_counter() - start) * 1000)

    server.request("shutdown", None)
    server.notify("exit", None)
    server.proc.wait(timeout=5)

    median = statistics.median(edits)
    print(f"open (first full lint): {opened_ms:.1f} ms")
    print(f"didChange -> publishDiagnostics over {len(edits)} edits: median {median:.1f} ms, "
          f"p90 {statistics.quantiles(edits, n=10)[-1]:.1f} ms, max {max(edits):.1f} ms")
    if checks:
        check = statistics.median(checks)
        print(f"`beeuni-lint check` of the same project (alternating, {len(checks)} runs): median {check:.1f} ms")
        print(f"ratio (edit / check): {median / check:.2f}")
    print("resident memory (KiB) after edits: " + ", ".join(f"{n}: {kib}" for n, kib in memory))
    if memory:
        print(f"growth from edit {memory[0][0]} to {memory[-1][0]}: {memory[-1][1] - memory[0][1]} KiB")
    if not args.keep:
        subprocess.run(["rm", "-rf", str(work)], check=False)


if __name__ == "__main__":
    main()
