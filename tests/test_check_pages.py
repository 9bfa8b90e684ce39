"""The page check finds what it is for: a number broken across lines, a cut code line, a page too wide."""

import shutil

import pytest

from tests import check_pages

pytestmark = pytest.mark.skipif(
    not any(shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")), reason="no Chromium here"
)

PAGE = """<!doctype html><html><head><meta name="viewport" content="width=device-width"></head><body><main>
<section id="s">{body}</section></main></body></html>"""


def _site(tmp_path, body: str):
    (tmp_path / "book").mkdir()
    (tmp_path / "book" / "page.html").write_text(PAGE.format(body=body))
    return tmp_path


def test_a_clean_page_passes(tmp_path, capsys):
    site = _site(tmp_path, "<p>The gap is 3.72e-49 here.</p><table><tr><td>1.24e-49</td></tr></table><pre>x = 1</pre>")
    assert check_pages.main([str(site)]) == 0
    assert "0 defects" in capsys.readouterr().out


def test_squeezed_numbers_cut_code_and_wide_pages_are_found(tmp_path, capsys):
    body = (
        '<table style="width:3em"><tr><td style="overflow-wrap:anywhere;width:1em">3.72e-49</td></tr></table>'
        '<pre style="overflow:hidden;width:10em">' + "long_name = " * 20 + "</pre>"
        '<div style="width:3000px">wide</div>'
    )
    assert check_pages.main([str(_site(tmp_path, body))]) == 1
    out = capsys.readouterr().out
    assert "number broken across lines: 3.72e-49" in out
    assert "pre cut off" in out
    assert "page wider than the window" in out
