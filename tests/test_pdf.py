"""make pdf's check: the titles it looks for are the book's, and a PDF that lacks one is caught."""

import shutil

import pytest

from tools import pdf

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def test_pages_are_the_front_page_and_the_tables_of_contents():
    pages = pdf.pages()
    assert pages[0] == "index" and "claims" in pages and "teachers" in pages and len(set(pages)) == len(pages)
    assert all((pdf.ROOT / "book" / f"{name}.md").exists() for name in pages)
    assert pdf.titles()[pages.index("claims")] == "Checking published numbers"


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium (make test installs it)")
def test_a_printed_page_is_read_back_and_a_missing_title_named(tmp_path):
    titles = pdf.titles()
    html = tmp_path / "page.html"
    html.write_text("<html><body>" + "".join(f"<h1>{t}</h1>" for t in titles[1:]) + "</body></html>")
    out = tmp_path / "page.pdf"
    pdf.print_pdf(html, out)
    assert pdf.missing_titles(out) == [titles[0]]  # every title but the front page's
