#!/usr/bin/env python3
"""Write a large Beeuni project that lints clean, for benchmarks.

usage: bench/gen_project.py OUT [--modules 2000] [--imports 50] [--agents 500]
                            [--helpers 20] [--seed 1] [--git]

The same arguments always give the same bytes. What it writes:
  tools/tool_NNNNN.ts       --modules tool modules: a plain default-export
                            object (description, JSON Schema parameters,
                            async execute(args, context)) that imports one
                            helper, two `node:` modules, every seventh the
                            package below, reads a key from `context.env`
                            and passes `context.signal` to `fetch`;
  lib/helperN.ts            --helpers helper files the modules share;
  node_modules/tinyfmt/     a small package, committed with the project;
  config/tools_NNN.yaml     --imports imported files; the tools are dealt
                            round-robin over `beeuni.yaml` and them;
  beeuni.yaml               the five hosted tools, its share of the tools,
                            and --agents agents in turn with a list, an
                            `exclude:` list, a block list and `tools: none`.
With --git, OUT becomes a repository with all of it in one commit, and an index git has
settled (rewritten after the files' second, so that their stat data vouches for them).
"""
import argparse
import pathlib
import random
import subprocess
import time

HOSTED = ("web_search", "image_search", "scrape_webpage", "memory", "show")
EXCLUDED = "[bash, write, edit, apply_patch, task]"


def module_text(index, helper, secret, window, uses_package):
    """One tool module; every line is there to exercise a part of the analysis."""
    name = f"tool_{index:05d}"
    lines = [
        f"// {name}: a generated tool module for benchmarks",
        "import { readFile } from 'node:fs/promises'",
        "import { join } from 'node:path'",
        f"import {{ describeEvent{helper} }} from '../lib/helper{helper}.ts'",
    ]
    if uses_package:
        lines.append("import { pad } from 'tinyfmt'")
    lines += [
        "",
        f"/** Record {index}: its state, who holds it, and recent events. */",
        "export default {",
        f"  description: 'Fetch record {index} by id and report its state, its holder and up to {window} recent events.',",
        "  parameters: {",
        "    type: 'object',",
        "    properties: {",
        f"      id: {{ type: 'string', description: 'Record id such as \"REC-{index}\"' }},",
        "      limit: { type: 'integer', description: 'Most events to return', minimum: 1, maximum: 100 },",
        "      history: { type: 'boolean', description: 'Include events older than a week' },",
        "    },",
        "    required: ['id'],",
        "  },",
        "  async execute(args, context) {",
        f"    const token = context.env.RECORDS_TOKEN_{secret}",
        f"    if (!token) throw new Error('RECORDS_TOKEN_{secret} is missing')",
        f"    const address = `https://records.example.net/api/{name}/${{encodeURIComponent(args.id)}}`",
        "    const reply = await fetch(address, { headers: { authorization: `Bearer ${token}` }, signal: context.signal })",
        "    if (!reply.ok) throw new Error(`record service said ${reply.status}`)",
        "    const record = await reply.json()",
        f"    const cached = await readFile(join(context.directory, 'cache', '{name}.json'), 'utf8').catch(() => '')",
        f"    const recent = (record.events ?? []).slice(0, args.limit ?? {window})",
        "    return {",
        "      id: args.id,",
        "      state: record.state,",
        "      holder: record.holder,",
        f"      events: recent.map(describeEvent{helper}),",
        "      cachedBytes: cached.length,",
    ]
    if uses_package:
        lines.append("      label: pad(args.id, 12),")
    lines += ["    }", "  },", "}", ""]
    return "\n".join(lines)


def helper_text(helper):
    return "\n".join([
        f"// helper {helper}: formatting the modules share",
        f"export function describeEvent{helper}(event: {{ at: string; kind: string; by?: string }}): string {{",
        "  const actor = event.by === undefined ? '' : ` (${event.by})`",
        "  return `${event.at}: ${event.kind}${actor}`",
        "}",
        "",
    ])


def agent_text(number, tools, rnd):
    """An agent in one of four forms, in turn."""
    head = f"  agent_{number:04d}:\n"
    form = number % 4
    if form == 0:
        chosen = ["read", "grep", "web_search"] + rnd.sample(tools, min(8, len(tools)))
        return head + f"    tools: [{', '.join(chosen)}]\n"
    if form == 1:
        return head + f"    tools:\n      exclude: {EXCLUDED}\n"
    if form == 2:
        chosen = ["read", "glob", "memory"] + rnd.sample(tools, min(3, len(tools)))
        return head + "    tools:\n" + "".join(f"      - {tool}\n" for tool in chosen)
    return head + "    tools: none\n"


def generate(out, modules, imports, agents, helpers, seed):
    rnd = random.Random(seed)
    files = {}
    for helper in range(helpers):
        files[f"lib/helper{helper}.ts"] = helper_text(helper)
    files["node_modules/tinyfmt/package.json"] = '{"name": "tinyfmt", "version": "1.0.0", "main": "index.js"}\n'
    files["node_modules/tinyfmt/index.js"] = "exports.pad = (text, width) => String(text).padStart(width)\n"
    tools = [f"tool_{index:05d}" for index in range(modules)]
    for index, tool in enumerate(tools):
        files[f"tools/{tool}.ts"] = module_text(index, index % max(helpers, 1), index % 13, 5 + index % 20,
                                                index % 7 == 0)
    # Share k of the tools goes to file k: 0 is beeuni.yaml, 1.. the imported files.
    shares = [tools[k::imports + 1] for k in range(imports + 1)]
    imported = [f"config/tools_{k:03d}.yaml" for k in range(imports)]
    for path, share in zip(imported, shares[1:]):
        files[path] = "# generated: part of the project's tools\ntools:\n" + "".join(
            f"  {tool}: tools/{tool}.ts\n" for tool in share)
    manifest = ["# generated project for benchmarks\n"]
    if imported:
        manifest += ["imports:\n"] + [f"  - {path}\n" for path in imported]
    manifest += ["tools:\n"] + [f"  {tool}: beeuni:{tool}\n" for tool in HOSTED]
    manifest += [f"  {tool}: tools/{tool}.ts\n" for tool in shares[0]]
    manifest += ["agents:\n"] + [agent_text(number, tools, rnd) for number in range(agents)]
    files["beeuni.yaml"] = "".join(manifest)
    for path, text in files.items():
        target = out / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)


def commit(out):
    def git(*args):
        subprocess.run(["git", *args], cwd=out, check=True, capture_output=True)
    git("init", "-q")
    git("add", "--all", "--force")
    git("-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-q", "-m", "generated project")
    # The files were written in the same second as the index, so git's stat data cannot vouch for them ("racily
    # clean"): every reader hashes them again until the index is rewritten later. `git status` a second on
    # rewrites it, as it does in a repository people work in, so warm runs measure a settled index.
    time.sleep(1.1)
    git("status", "--porcelain")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=pathlib.Path)
    parser.add_argument("--modules", type=int, default=2000)
    parser.add_argument("--imports", type=int, default=50)
    parser.add_argument("--agents", type=int, default=500)
    parser.add_argument("--helpers", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--git", action="store_true")
    args = parser.parse_args()
    generate(args.out, args.modules, args.imports, args.agents, args.helpers, args.seed)
    if args.git:
        commit(args.out)


if __name__ == "__main__":
    main()
