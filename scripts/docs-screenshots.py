#!/usr/bin/env python3
"""The documentation site as a browser shows it.

Opens the home page, the rules index, three rule pages, the Action page, the configuration reference and the two
widest pages (commands, limits) in headless Chromium at 1280 and 390 px wide, and fails when a page is wider than
the window, when something in the content column pushes past it, or when a table is wider than its column (part of
it out of sight). Code blocks that scroll sideways are counted, not failed. Then saves a screenshot of each page at
each width under target/docs-screenshots/ (DOCS_SCREENSHOTS=0 skips them, as CI does).

Usage: scripts/docs-screenshots.py [--all] [BOOK]   (BOOK: the built site, default target/book; .ci/docs builds
it). With --all, every page of the site is measured (and shot), not only those nine.

Needs Chromium (Debian: apt-get install chromium). Without it, prints one line and exits 0 when
DOCS_SCREENSHOTS_OPTIONAL=1 (as .ci/docs sets), else exits 1.
"""

import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PAGES = ["index", "rules/index", "rules/unknown-tool", "rules/module-parameters", "rules/xcsh-ui-guard",
         "github-action", "configuration", "commands", "limits"]
WIDTHS = [1280, 390]
HEIGHT = 1400
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run",
         "--disable-component-update", "--disable-sync", "--hide-scrollbars"]

# Run in a copy of each page, after its fonts load: what it finds goes to the harness page that frames it.
MEASURE = """<script>
document.fonts.ready.then(() => setTimeout(() => {
  const problems = [];
  const page = document.documentElement;
  if (page.scrollWidth > innerWidth) problems.push(`the page is ${page.scrollWidth}px wide in a ${innerWidth}px window`);
  const main = document.querySelector("main");
  if (main.scrollWidth > main.clientWidth + 1) problems.push(`the content is ${main.scrollWidth}px wide in its ${main.clientWidth}px column`);
  document.querySelectorAll("main .table-wrapper").forEach((wrapper, i) => {
    if (wrapper.scrollWidth > wrapper.clientWidth + 1) {
      const head = [...wrapper.querySelectorAll("th")].map((th) => th.textContent.trim()).join(" | ");
      problems.push(`table ${i + 1} (${head}) is ${wrapper.scrollWidth}px wide in ${wrapper.clientWidth}px`);
    }
  });
  const blocks = [...document.querySelectorAll("main pre")];
  const scrolls = (element) => element.scrollWidth > element.clientWidth + 1;
  const scrolling = blocks.filter((pre) => scrolls(pre) || [...pre.children].some(scrolls)).length;
  parent.postMessage({ page: PAGE, problems, blocks: blocks.length, scrolling }, "*");
}, 0));
</script>"""

# One browser start a width: the pages as frames of that width; the answers written into the DOM for --dump-dom.
HARNESS = """<!doctype html><meta charset="utf-8"><body style="margin:0">
<script>
const answers = {};
addEventListener("message", (event) => {
  answers[event.data.page] = event.data;
  if (Object.keys(answers).length === COUNT) {
    const report = document.createElement("pre");
    report.id = "layout-report";
    report.textContent = JSON.stringify(answers);
    document.body.append(report);
  }
});
</script>FRAMES</body>"""


def browser():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if found := shutil.which(name):
            return found
    return None


def measure(chromium, work, width, pages):
    frames = "".join(f'<iframe src="site/{page}.html.measure.html" width="{width}" height="{HEIGHT}" '
                     'style="border:0;display:block"></iframe>' for page in pages)
    harness = work / f"harness-{width}.html"
    harness.write_text(HARNESS.replace("COUNT", str(len(pages))).replace("FRAMES", frames), encoding="utf-8")
    run = subprocess.run([chromium, *FLAGS, f"--user-data-dir={work / f'profile-{width}'}",
                          f"--window-size={width + 40},{HEIGHT}", "--virtual-time-budget=20000", "--dump-dom",
                          harness.as_uri()], capture_output=True, text=True, timeout=600, check=False)
    found = re.search(r'<pre id="layout-report">(.*?)</pre>', run.stdout, re.S)
    return json.loads(html.unescape(found.group(1))) if found else {}


def main():
    root = Path(__file__).resolve().parent.parent
    arguments = [argument for argument in sys.argv[1:] if argument != "--all"]
    book = Path(arguments[0]).resolve() if arguments else root / "target" / "book"
    chromium = browser()
    if chromium is None:
        print("docs-screenshots: no Chromium on PATH, the site was not looked at in a browser")
        return 0 if os.environ.get("DOCS_SCREENSHOTS_OPTIONAL") == "1" else 1
    if not (book / "index.html").is_file():
        print(f"docs-screenshots: no built site at {book} (run .ci/docs)", file=sys.stderr)
        return 1
    pages = PAGES
    if "--all" in sys.argv[1:]:
        pages = sorted(str(path.relative_to(book).with_suffix("")) for path in book.rglob("*.html")
                       if path.name not in ("print.html", "toc.html", "404.html"))
    failed = False
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        shutil.copytree(book, work / "site")
        for page in pages:
            path = work / "site" / f"{page}.html"
            text = path.read_text(encoding="utf-8")
            script = MEASURE.replace("PAGE", json.dumps(page))
            Path(f"{path}.measure.html").write_text(text.replace("</body>", script + "</body>", 1), encoding="utf-8")
        for width in WIDTHS:
            answers = measure(chromium, work, width, pages)
            for page in pages:
                answer = answers.get(page)
                if answer is None:
                    print(f"FAILED: {page} at {width}px: no measurement")
                    failed = True
                    continue
                failed |= bool(answer["problems"])
                status = "FAILED" if answer["problems"] else "ok"
                print(f"{status}: {page} at {width}px ({answer['scrolling']} of {answer['blocks']} code blocks scroll)")
                for problem in answer["problems"]:
                    print(f"  {problem}")
        if os.environ.get("DOCS_SCREENSHOTS", "1") == "1":
            out = root / "target" / "docs-screenshots"
            shutil.rmtree(out, ignore_errors=True)
            out.mkdir(parents=True)
            for width in WIDTHS:
                for page in pages:
                    name = f"{page.replace('/', '-')}-{width}"
                    subprocess.run([chromium, *FLAGS, f"--user-data-dir={work / f'profile-{name}'}",
                                    f"--window-size={width},{HEIGHT}", f"--screenshot={out / name}.png",
                                    (work / "site" / f"{page}.html").as_uri()],
                                   capture_output=True, timeout=120, check=False)
            print(f"screenshots: {out}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
