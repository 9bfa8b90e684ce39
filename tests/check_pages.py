"""Read every built page in headless Chromium at 1280 px and at 390 px (a phone) and report what a reader
would see cut: a number broken across lines, a table cell or code block whose content is wider than its
box and is not scrolled inside its own box, a page wider than the window.

    python -m tests.check_pages _build/html            # exit 1 and one line per defect, if any

The pages are copied to a temporary folder with a small script appended that measures the laid-out page
(Range.getClientRects for every number, scrollWidth against clientWidth for cells and code) and writes
its findings into the page, which Chromium's ``--dump-dom`` then prints.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

WIDTHS = (1280, 390)
MARK = "exactstats-page-audit"

AUDIT_JS = r"""
<script>
window.addEventListener("load", () => setTimeout(() => {
  const found = [];
  try {
  const where = (el) => (el.closest("section[id]") || {id: "?"}).id;
  // 1. a number split over two lines (in text, tables, code and output alike)
  const walker = document.createTreeWalker(document.querySelector("main") || document.body, NodeFilter.SHOW_TEXT);
  // a number standing alone (not the digits inside a name such as gemma3-270m)
  const number = /(?<![\w.\-−])[-−]?\d[\d,]*(\.\d+)?(e[-+]?\d+)?%?(?![\w])/g;
  let node;
  while ((node = walker.nextNode())) {
    const el = node.parentElement;
    if (!el || el.closest("script, style, .MathJax, mjx-container, .toggle-hidden, details:not([open])")) continue;
    if (el.offsetParent === null) continue;  // not displayed (a closed dropdown)
    let m;
    while ((m = number.exec(node.data))) {
      if (m[0].length < 2) continue;
      const r = document.createRange();
      r.setStart(node, m.index);
      r.setEnd(node, m.index + m[0].length);
      const tops = new Set([...r.getClientRects()].filter(b => b.width > 0).map(b => Math.round(b.top)));
      if (tops.size > 1) {
        const around = node.data.slice(Math.max(0, m.index - 25), m.index + m[0].length + 25).replace(/\s+/g, " ");
        found.push(`number broken across lines: ${m[0]} in <${el.tagName.toLowerCase()}> "${around}" (in #${where(el)})`);
      }
    }
  }
  // 2. a table cell or a code block wider than its box, unless a box around it scrolls sideways
  const scrolls = (el) => {
    for (let p = el; p && p !== document.body; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if ((o === "auto" || o === "scroll") && p.clientWidth > 0) return true;
    }
    return false;
  };
  for (const el of document.querySelectorAll("main td, main th, main pre")) {
    if (el.offsetParent === null) continue;
    if (el.scrollWidth > el.clientWidth + 2 && !scrolls(el)) {
      found.push(`${el.tagName.toLowerCase()} cut off: ${el.textContent.trim().slice(0, 50)} (in #${where(el)})`);
    }
  }
  // 3. the page itself wider than the window
  if (document.documentElement.scrollWidth > window.innerWidth + 2) {
    found.push(`page wider than the window: ${document.documentElement.scrollWidth} px`);
  }
  } catch (err) { found.push(`the audit failed: ${err}`); }
  const out = document.createElement("pre");
  out.id = "__MARK__";
  out.textContent = JSON.stringify(found);
  document.body.appendChild(out);
}, 500));
</script>
""".replace("__MARK__", MARK)


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    raise SystemExit("check_pages: no Chromium found (apt-get install chromium)")


def audit(page: Path, width: int, browser: str) -> list[str]:
    command = [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        f"--window-size={width},900",
        "--virtual-time-budget=8000",
        "--dump-dom",
        page.as_uri(),
    ]
    dom = subprocess.run(command, capture_output=True, text=True, timeout=120).stdout
    m = re.search(rf'<pre id="{MARK}"[^>]*>(.*?)</pre>', dom, re.S)
    if not m:
        return ["the page audit did not run (no result in the page)"]
    return json.loads(m.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&").replace("&quot;", '"'))


def main(argv: list[str]) -> int:
    site = Path(argv[0] if argv else "_build/html")
    browser = chromium()
    defects = []
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "site"
        shutil.copytree(site, copy)
        pages = sorted((copy / "book").glob("*.html"))
        for page in pages:
            text = page.read_text()
            page.write_text(text.replace("</body>", AUDIT_JS + "</body>"))
        from concurrent.futures import ThreadPoolExecutor

        jobs = [(page, width) for page in pages for width in WIDTHS]
        with ThreadPoolExecutor(2) as pool:
            results = pool.map(lambda job: audit(job[0], job[1], browser), jobs)
            for (page, width), found in zip(jobs, results):
                defects += [f"{page.name} at {width} px: {d}" for d in found]
    for d in defects:
        print(d)
    print(f"check_pages: {len(pages)} pages at {', '.join(map(str, WIDTHS))} px, {len(defects)} defects")
    return 1 if defects else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
