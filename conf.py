"""Sphinx configuration for the exactstats book (chapters live in book/)."""

import hashlib
import importlib.util
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
# the shipped dataset the chapters load (es.load_panel); `make html` sets the same folder
os.environ.setdefault("EXACTSTATS_DATA_DIR", str(ROOT / "data"))

project = "exactstats"
author = "the exactstats authors"
copyright = "2026, the exactstats authors"
root_doc = "book/index"

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.mathjax",
    "sphinx_exercise",
    "sphinx_proof",
    "sphinx_togglebutton",
]

exclude_patterns = [
    "_build",
    ".venv",
    "README.md",
    "CONTRIBUTING.md",
    "BENCHMARKS.md",
    "data/**",
    "tests/**",
    "scoring/**",
    "exactstats/**",
    "benchmarks/**",
    ".pyodide/**",
    "tools/**",
    "**/.ipynb_checkpoints",
    ".pytest_cache",
    ".hypothesis",
]

html_theme = "sphinx_book_theme"
html_title = "exactstats: is the leaderboard gap real?"
# MathJax served from the build itself (the book must read offline): MathJax 2.7 as shipped
# in the jupyter-server-mathjax wheel, installed with --no-deps by the Makefile.
_MATHJAX = Path(importlib.util.find_spec("jupyter_server_mathjax").origin).parent / "static"
html_static_path = ["book/_static", str(_MATHJAX)]
mathjax_path = "MathJax.js?config=TeX-AMS-MML_HTMLorMML-full"
mathjax2_config = {  # MathJax 2 names for what myst-nb sets up for MathJax 3
    "tex2jax": {
        "inlineMath": [["\\(", "\\)"]],
        "displayMath": [["\\[", "\\]"]],
        "processRefs": False,
        "processEnvironments": False,
        "processClass": "tex2jax_process|mathjax_process|math|output_area",
        "ignoreClass": "tex2jax_ignore|mathjax_ignore",
    },
    # the wheel ships only the STIX-Web fonts
    "HTML-CSS": {"availableFonts": ["STIX-Web"], "preferredFont": "STIX-Web", "webFont": "STIX-Web", "imageFont": None},
}
html_js_files = ["plotly.min.js"]
html_css_files = ["tables.css"]
html_theme_options = {"show_toc_level": 2}

myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence"]
nb_execution_mode = "cache"
nb_execution_raise_on_error = True
nb_execution_timeout = 600
nb_execution_show_tb = True
nb_merge_streams = True
nb_render_markdown_format = "myst"  # proofs are rendered from exactstats.proofs as MyST directives
nb_execution_excludepatterns = []


def _source_hash() -> str:
    """Hash of the package and data sources: myst-nb's cache key covers only notebook code,
    so the cache folder is keyed by this to re-execute the book after a library change."""
    h = hashlib.sha256()
    for folder in ("exactstats", "scoring", "data", "book/_code"):
        base = ROOT / folder
        if not base.exists():
            continue
        for path in sorted(base.rglob("*")):
            if (
                path.is_file()
                and "__pycache__" not in path.parts
                and path.suffix in {".py", ".parquet", ".json", ".csv"}
            ):
                h.update(str(path.relative_to(ROOT)).encode())
                h.update(path.read_bytes())
    h.update(os.environ.get("EXACTSTATS_DATA_DIR", "").encode())
    return h.hexdigest()[:16]


nb_execution_cache_path = str(ROOT / "_build" / ".jupyter_cache" / _source_hash())

exercise_style = "solution_follow_exercise"
hide_solutions = False
autodoc_member_order = "bysource"
nitpicky = True
nitpick_ignore_regex = [(r"py:.*", r".*")]
suppress_warnings = ["mystnb.unknown_mime_type"]


def _copy_plotly(app):
    import shutil

    import plotly

    static = ROOT / "book" / "_static"
    static.mkdir(exist_ok=True)
    src = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
    dst = static / "plotly.min.js"
    if not dst.exists() or dst.stat().st_size != src.stat().st_size:
        shutil.copyfile(src, dst)


def _browser_python(app, exception):
    """The in-browser page's runtime and a wheel of the exact core, beside the built pages (tools/browser.py)."""
    if exception is None and app.builder.format == "html":
        from tools.browser import install

        install(Path(app.outdir), ROOT / ".pyodide" / "package")


def _sphinx_proof_parallel_fix(app):
    # sphinx-proof 0.4.0's domain lacks merge_domaindata, which breaks -j builds
    try:
        from sphinx_proof.domain import ProofDomain
    except ImportError:
        return
    if "merge_domaindata" not in ProofDomain.__dict__:
        ProofDomain.merge_domaindata = lambda self, docnames, otherdata: None


# The student edition (`make student`, sphinx-build -t student): solutions are taken out of each parsed
# document (book/_code/student.py), so no page or search index holds them, and the copied sources are cut.
STUDENT = "student" in tags  # noqa: F821 - `tags` is provided by Sphinx when it runs this file
if STUDENT:
    html_title += " (student edition)"
    html_show_sourcelink = False


def _student_sources(app, exception):
    """The student edition's "download source" gives each chapter as students see it: Sphinx copies the
    file from disk, solutions and all, so every copied source is rewritten from the stripped text."""
    if exception is not None:
        return
    from pathlib import Path

    from book._code.student import strip_solutions

    sources = Path(app.outdir) / "_sources"
    for copied in sources.rglob("*.md"):
        original = Path(app.srcdir) / copied.relative_to(sources)
        if original.exists():
            copied.write_text(strip_solutions(original.read_text(encoding="utf-8")), encoding="utf-8")


def _glued_tables(app, doctree):
    """A glued table (a `glue:figure` whose name starts with ``tbl-``) is numbered as a table: "Table 2.1"."""
    from docutils import nodes

    from book._code.tables import GluedTable

    for figure in list(doctree.findall(nodes.figure)):
        if any(name.startswith("tbl-") for name in figure.get("names", [])):
            figure.replace_self(GluedTable(figure.rawsource, *figure.children, **figure.attributes))


def setup(app):
    from book._code.tables import GluedTable, depart_glued_table, table_title, visit_glued_table

    app.connect("builder-inited", _copy_plotly)
    app.connect("build-finished", _browser_python)
    app.add_enumerable_node(GluedTable, "table", table_title, html=(visit_glued_table, depart_glued_table))
    app.connect("doctree-read", _glued_tables, priority=400)
    _sphinx_proof_parallel_fix(app)
    if STUDENT:
        from book._code.student import remove_solutions

        app.connect("doctree-read", remove_solutions, priority=900)  # after sphinx-exercise has built them
        app.connect("build-finished", _student_sources)


# Chapters are numbered (book/index.md), so figures, tables and exercises read "Exercise 3.2".
numfig = True
numfig_secnum_depth = 1
