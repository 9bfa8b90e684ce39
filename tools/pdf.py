"""``make pdf``: the book as one PDF for teachers who print. Headless Chromium prints every built page (the
front page, the chapters, the appendices, in the order of the book's tables of contents) with the theme's
print styles, after the page's scripts (figures, MathJax) have run; the pages are joined into one file,
which is then read back and checked to hold every page's title.

    python -m tools.pdf _build/html _build/exactstats-book.pdf
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def pages() -> list[str]:
    """The front page and every page of the book's tables of contents, in order (book/index.md)."""
    text = (ROOT / "book" / "index.md").read_text()
    return ["index"] + [
        line.strip()
        for block in re.findall(r"```\{toctree\}\n(.*?)```", text, flags=re.S)
        for line in block.splitlines()
        if line.strip() and not line.strip().startswith(":")
    ]


def titles() -> list[str]:
    return [_title(ROOT / "book" / f"{name}.md") for name in pages()]


def _title(page: Path) -> str:
    heading = next(line for line in page.read_text().splitlines() if line.startswith("# "))
    return heading[2:].strip()


def print_pdf(html: Path, pdf: Path) -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("make pdf needs Chromium (apt-get install chromium)")
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
             "--no-pdf-header-footer", "--virtual-time-budget=30000", f"--print-to-pdf={pdf}",
             html.resolve().as_uri()],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600,
        )  # fmt: skip


def print_book(site: Path, pdf: Path) -> int:
    """Every page printed and joined into ``pdf``; the number of PDF pages."""
    from pypdf import PdfWriter

    writer = PdfWriter()
    with tempfile.TemporaryDirectory() as folder:
        for name in pages():
            part = Path(folder) / f"{name}.pdf"
            print_pdf(site / "book" / f"{name}.html", part)
            writer.append(str(part))
        with open(pdf, "wb") as out:
            writer.write(out)
    return len(writer.pages)


def missing_titles(pdf: Path) -> list[str]:
    """The titles not found in the PDF's text (spaces and line breaks ignored, as PDF text comes in pieces;
    ligatures such as "ff" read as their letters)."""
    import unicodedata

    from pypdf import PdfReader

    def squeeze(text: str) -> str:
        return "".join(unicodedata.normalize("NFKC", text).split())

    text = squeeze("".join(page.extract_text() or "" for page in PdfReader(pdf).pages))
    return [t for t in titles() if squeeze(t) not in text]


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m tools.pdf BUILT_HTML_FOLDER OUT.pdf", file=sys.stderr)
        return 2
    site, pdf = Path(argv[0]), Path(argv[1])
    count = print_book(site, pdf)
    missing = missing_titles(pdf)
    if missing:
        print(f"{pdf}: missing {', '.join(missing)}", file=sys.stderr)
        return 1
    print(f"{pdf}: {count} pages, every one of the book's {len(pages())} pages' titles found in its text")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
