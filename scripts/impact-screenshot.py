#!/usr/bin/env python3
"""docs/images/impact-comment.png: the pull-request comment of `beeuni-lint impact`, as a reader sees it.

Copies examples/starter into a throwaway git repository, commits it, makes one change that shows several causes
(a Beeuni tool dropped, a tool listed, a `tools: none` agent given tools, a `secrets:` list, a tool module's
description and parameters changed), commits that, and runs the real binary as the Action's impact step does
(`impact --base <base> --format markdown --link-base <server>/<owner>/<repo>/blob/<sha>`). mdBook renders the
Markdown to HTML (the report uses nothing GitHub renders differently: headings, lists, code spans, links), which
goes into a page styled like a GitHub comment; headless Chromium measures the page's height, then shoots it at
900 px wide, 1x scale, cropped to the comment.

Usage: scripts/impact-screenshot.py [OUT]   (OUT default docs/images/impact-comment.png)
Needs: target/debug/beeuni-lint (`cargo build`; BEEUNI_LINT=path picks another binary), git, Chromium, and mdBook
0.5.4 where .ci/docs installs it (MDBOOK=path picks another). Nothing it makes outside OUT is kept.
"""

import html
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WIDTH = 900
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run",
         "--disable-component-update", "--disable-sync", "--hide-scrollbars"]
# A fixed author and date: the commits' ids, and so the links in the picture, are the same on every run.
GIT_ENV = {"GIT_AUTHOR_NAME": "Ada", "GIT_AUTHOR_EMAIL": "ada@example.com", "GIT_COMMITTER_NAME": "Ada",
           "GIT_COMMITTER_EMAIL": "ada@example.com", "GIT_AUTHOR_DATE": "2026-01-05T10:00:00Z",
           "GIT_COMMITTER_DATE": "2026-01-05T10:00:00Z", "GIT_CONFIG_GLOBAL": os.devnull,
           "GIT_CONFIG_NOSYSTEM": "1"}

# The change, as (file, text before, text after): each replacement must apply, so a change to the starter that
# moves these lines fails the script instead of shooting a smaller report.
CHANGE = [
    ("beeuni.yaml", "  memory: beeuni:memory\n", ""),
    ("beeuni.yaml", "    tools: [read, grep, web_search, lookup_order] # only these\n",
     "    tools: [read, grep, web_search, lookup_order, bash]\n    secrets: [ORDERS_API_KEY]\n"),
    ("beeuni.yaml", "    tools: none                                   # no tool\n", "    tools: [read, edit]\n"),
    ("tools/lookup_order.ts", "Returns its status and carrier.", "Returns its status and carrier; can refund it."),
    ("tools/lookup_order.ts", "      include_items: { type: 'boolean', description: 'Also list the items' },\n",
     "      include_items: { type: 'boolean', description: 'Also list the items' },\n"
     "      refund: { type: 'boolean', description: 'Refund the order' },\n"),
]

# GitHub's comment box and Markdown styles (Primer's light theme), in the fonts a Linux machine has.
PAGE = """<!doctype html><html><head><meta charset="utf-8"><style>
body { margin: 0; padding: 16px; background: #fff; color: #1f2328;
       font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", "Liberation Sans", Helvetica, Arial, sans-serif; }
.comment { border: 1px solid #d1d9e0; border-radius: 6px; }
.comment-header { background: #f6f8fa; border-bottom: 1px solid #d1d9e0; border-radius: 6px 6px 0 0;
                  padding: 8px 16px; color: #59636e; }
.comment-header b { color: #1f2328; }
.bot { border: 1px solid #d1d9e0; border-radius: 2em; padding: 0 7px; font-size: 12px; margin-left: 4px; }
.markdown-body { padding: 16px; overflow-wrap: break-word; }
.markdown-body > :first-child { margin-top: 0; }
h3 { font-size: 1.25em; font-weight: 600; line-height: 1.25; margin: 24px 0 16px; }
h3 a { color: inherit; text-decoration: none; }
p, ul { margin: 0 0 16px; }
ul { padding-left: 2em; }
ul ul { margin: 0; }
li + li, li > ul { margin-top: 0.25em; }
a { color: #0969da; text-decoration: none; }
code { font-family: ui-monospace, SFMono-Regular, "Liberation Mono", "DejaVu Sans Mono", monospace;
       font-size: 85%; background: rgba(129, 139, 152, 0.12); border-radius: 6px; padding: 0.2em 0.4em; }
a code { color: #0969da; }
</style></head><body><div class="comment" id="comment">
<div class="comment-header"><b>github-actions</b><span class="bot">bot</span> commented</div>
<div class="markdown-body">BODY</div></div></body></html>"""

# Writes the comment's height into the DOM, which `--dump-dom` prints.
MEASURE = """<script>document.fonts.ready.then(() => {
  const box = document.getElementById("comment").getBoundingClientRect();
  document.body.insertAdjacentHTML("beforeend", `<pre id="height">${Math.ceil(box.bottom) + 16}</pre>`);
});</script>"""


def run(arguments, cwd=None, env=None):
    done = subprocess.run(arguments, cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False)
    if done.returncode != 0:
        sys.exit(f"impact-screenshot: {' '.join(map(str, arguments))} failed ({done.returncode}):\n{done.stderr}")
    return done.stdout


def report(binary, work):
    """The Markdown the Action's impact step would post for the change."""
    repository = work / "shop"
    shutil.copytree(ROOT / "examples" / "starter", repository)
    env = {**os.environ, **GIT_ENV}

    def git(*arguments):
        return run(["git", "-C", repository, *arguments], env=env)

    git("init", "-q", "-b", "main")
    git("add", "-A")
    git("commit", "-q", "-m", "Starter project")
    git("checkout", "-q", "-b", "more-tools")
    for file, before, after in CHANGE:
        path = repository / file
        text = path.read_text(encoding="utf-8")
        if before not in text:
            sys.exit(f"impact-screenshot: examples/starter/{file} no longer holds {before!r}: update CHANGE")
        path.write_text(text.replace(before, after, 1), encoding="utf-8")
    git("commit", "-q", "-a", "-m", "Give the researcher bash and the greeter edit")
    head = git("rev-parse", "HEAD").strip()
    return run([binary, "impact", "--base", "main", "--format", "markdown",
                "--link-base", f"https://github.com/acme/shop/blob/{head}"], cwd=repository)


def rendered(mdbook, markdown, work):
    """The report's HTML as mdBook renders it (the inside of the page's `<main>`)."""
    book = work / "book"
    book.mkdir()
    (book / "book.toml").write_text('[book]\ntitle = "impact"\nsrc = "."\n[output.html]\nsmart-punctuation = false\n',
                                    encoding="utf-8")
    (book / "SUMMARY.md").write_text("- [Impact](impact.md)\n", encoding="utf-8")
    (book / "impact.md").write_text(markdown, encoding="utf-8")
    run([mdbook, "build", book, "--dest-dir", work / "site"])
    page = (work / "site" / "impact.html").read_text(encoding="utf-8")
    found = re.search(r"<main>(.*)</main>", page, re.S)
    if found is None:
        sys.exit("impact-screenshot: mdBook's page has no <main>")
    return found.group(1)


def main():
    out = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else ROOT / "docs" / "images" / "impact-comment.png"
    binary = os.environ.get("BEEUNI_LINT", str(ROOT / "target" / "debug" / "beeuni-lint"))
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    mdbook = os.environ.get("MDBOOK", str(cache / "beeuni-lint-ci" / "mdbook-0.5.4" / "bin" / "mdbook"))
    chromium = next(filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None)
    for name, path in (("beeuni-lint (cargo build)", binary), ("mdBook (.ci/docs installs it)", mdbook),
                       ("Chromium", chromium)):
        if path is None or not Path(path).is_file():
            sys.exit(f"impact-screenshot: no {name} at {path}")
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        body = rendered(mdbook, report(binary, work), work)
        page = work / "comment.html"
        page.write_text(PAGE.replace("BODY", body), encoding="utf-8")
        measure = work / "measure.html"
        measure.write_text(PAGE.replace("BODY", body).replace("</body>", MEASURE + "</body>"), encoding="utf-8")
        dom = run([chromium, *FLAGS, f"--user-data-dir={work / 'profile-measure'}", f"--window-size={WIDTH},2000",
                   "--virtual-time-budget=5000", "--dump-dom", measure.as_uri()])
        found = re.search(r'<pre id="height">(\d+)</pre>', html.unescape(dom))
        if found is None:
            sys.exit("impact-screenshot: Chromium did not measure the comment")
        height = int(found.group(1))
        out.parent.mkdir(parents=True, exist_ok=True)
        run([chromium, *FLAGS, f"--user-data-dir={work / 'profile-shot'}", f"--window-size={WIDTH},{height}",
             "--force-device-scale-factor=1", f"--screenshot={out}", page.as_uri()])
    print(f"impact-screenshot: {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out} "
          f"({WIDTH}x{height}, {out.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
