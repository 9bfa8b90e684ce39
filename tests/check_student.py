"""After `make student`: no solution text may be anywhere in the student HTML output (pages, search index, files).

Usage: python -m tests.check_student _build/student/html
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from book._code.student import START

ROOT = Path(__file__).resolve().parents[1]


def solution_snippets() -> list[str]:
    """Distinctive lines from every solution in the sources: none of them may appear in the output
    (a line that the chapters also use outside their solutions is no evidence, and is left out)."""
    snippets, elsewhere = [], set()
    for md in sorted((ROOT / "book").glob("*.md")):
        inside = False
        for line in md.read_text().splitlines():
            if START.match(line):
                inside = True
            elif inside and "{solution-end}" in line:
                inside = False
            elif inside and len(line.strip()) > 30 and not line.lstrip().startswith(("```", ":")):
                snippets.append(line.strip())
            elif not inside:
                elsewhere.add(line.strip())
    return [s for s in snippets if s not in elsewhere]


def main(out: str) -> int:
    folder = Path(out)
    texts = {
        p: p.read_text(errors="replace")
        for p in folder.rglob("*")
        if p.suffix in {".html", ".js", ".txt", ".ipynb", ".md"}
    }
    problems = [f"{p}: solution markup" for p, t in texts.items() if re.search(r'class="[^"]*\bsolution\b', t)]
    # "download source" must work: every chapter's source is there, without its solutions (checked below)
    for md in sorted((ROOT / "book").glob("*.md")):
        copied = folder / "_sources" / "book" / md.name
        if not copied.exists() or not copied.read_text().strip():
            problems.append(f"{copied}: the chapter's source is missing (the download button would fail)")
    for snippet in solution_snippets():
        for p, t in texts.items():
            if snippet in t:
                problems.append(f"{p}: contains solution text {snippet[:60]!r}")
                break
    if problems:
        print("\n".join(problems[:20]), file=sys.stderr)
        return 1
    print(f"student edition clean: {len(texts)} files checked, no solution text")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
