"""The in-browser page: the exact core and the checker run in headless Chromium, offline, from files served on
127.0.0.1 (Pyodide's core runtime and a wheel of exactstats, installed beside the page by tools/browser.py)."""

import json
import shutil
import subprocess
import tempfile
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tools import browser

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
WIDGET = ROOT / "book" / "_static" / "try-widget.html"


class _Handler(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm",
                      ".mjs": "text/javascript", ".js": "text/javascript"}  # fmt: skip
    results: list = []

    def do_POST(self):  # noqa: N802 - the page posts its output here
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.results.append(json.loads(body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The page as the book serves it: book/try.html with the widget, _static/try.js, try/ with the runtime."""
    root = tmp_path_factory.mktemp("site")
    (root / "book").mkdir()
    (root / "_static").mkdir()
    page = f"<!doctype html><html><head><meta charset='utf-8'></head><body>{WIDGET.read_text()}</body></html>"
    (root / "book" / "try.html").write_text(page)
    shutil.copyfile(ROOT / "book" / "_static" / "try.js", root / "_static" / "try.js")
    browser.install(root, browser.fetch(ROOT / ".pyodide"))
    return root


def _run_page(site: Path) -> dict:
    _Handler.results = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Handler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/book/try.html?report"
    with tempfile.TemporaryDirectory() as profile:
        proc = subprocess.Popen(
            [CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
             "--no-first-run", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1", url],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            for _ in range(1800):  # up to three minutes: the runtime compiles its WebAssembly first
                if _Handler.results or proc.poll() is not None:
                    break
                threading.Event().wait(0.1)
        finally:
            proc.kill()
            proc.wait()
            server.shutdown()
    assert _Handler.results, "the page posted nothing within three minutes"
    return _Handler.results[0]


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium (make test installs it)")
def test_the_page_runs_the_exact_core_and_the_checker_offline(site):
    got = _run_page(site)
    assert "error" not in got, got
    lines = got["output"].splitlines()
    assert lines[0] == "7/10" and lines[1] == "2133/3125", lines  # es.pass_at_k(5, 2, 2); Condorcet
    assert lines[2] == "Exercise 1.1: close: give an exact fraction", lines
    assert lines[3].startswith("Exercise 1.1 for your-id: "), lines


def test_the_wheel_holds_every_module_and_its_record(tmp_path):
    import zipfile

    wheel = browser.build_wheel(tmp_path)
    names = zipfile.ZipFile(wheel).namelist()
    modules = sorted(
        p.relative_to(ROOT).as_posix() for p in (ROOT / "exactstats").rglob("*.py") if "__pycache__" not in p.parts
    )
    assert sorted(n for n in names if n.endswith(".py")) == modules
    assert any(n.endswith("dist-info/RECORD") for n in names)
    assert browser.build_wheel(tmp_path / "again").read_bytes() == wheel.read_bytes()  # the same bytes each time
