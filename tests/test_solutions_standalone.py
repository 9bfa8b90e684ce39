"""Every exercise solution runs on its own: no variable and no import from a hidden cell.

Each solution's code cells are executed in a fresh, empty namespace; their own assertions check the answers.
"""

import re

import matplotlib
import pytest

from tests.conftest import ROOT

matplotlib.use("Agg")

SOLUTION = re.compile(r"```\{solution-start\} (\S+)\n(.*?)```\{solution-end\}", re.S)
CELL = re.compile(r"```\{code-cell\} ipython3\n(.*?)```", re.S)

SOLUTIONS = [
    (md.stem, m.group(1), CELL.findall(m.group(2)))
    for md in sorted((ROOT / "book").glob("*.md"))
    for m in SOLUTION.finditer(md.read_text())
]


def test_every_chapter_has_solutions():
    assert len(SOLUTIONS) >= 35


@pytest.mark.parametrize("chapter, label, cells", SOLUTIONS, ids=[s[1] for s in SOLUTIONS])
def test_solution_runs_on_its_own(chapter, label, cells, monkeypatch):
    monkeypatch.chdir(ROOT / "book")
    monkeypatch.syspath_prepend(str(ROOT / "book"))  # as the book's kernel, which runs in book/ and imports _code
    namespace: dict = {}
    for cell in cells:
        exec(cell, namespace)  # noqa: S102 - the book's own code
