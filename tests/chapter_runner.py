"""Run a chapter's code cells in order, as the book build does, without Sphinx (for guard tests)."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def code_cells(chapter: str) -> list[str]:
    text = (ROOT / "book" / f"{chapter}.md").read_text()
    text = re.sub(r"```\{solution-start\}.*?```\{solution-end\}\n```", "", text, flags=re.S)  # exercises aside
    cells = re.findall(r"```\{code-cell\}[^\n]*\n(.*?)```", text, flags=re.S)
    return ["\n".join(line for line in c.splitlines() if not re.match(r":[\w-]+: ", line)) for c in cells]


def run_chapter(chapter: str, data_dir: Path | None = None) -> dict:
    """Execute every (non-solution) cell of ``book/{chapter}.md``; an assertion that fails propagates."""
    import myst_nb

    glued: dict = {}
    old_glue, old_cwd, old_env = myst_nb.glue, os.getcwd(), os.environ.get("EXACTSTATS_DATA_DIR")
    myst_nb.glue = lambda name, value, display=True: glued.__setitem__(name, value)
    if data_dir is not None:
        os.environ["EXACTSTATS_DATA_DIR"] = str(data_dir)
    sys.path.insert(0, str(ROOT / "book"))
    os.chdir(ROOT / "book")
    try:
        scope: dict = {"__name__": "__main__"}
        for i, cell in enumerate(code_cells(chapter)):
            exec(compile(cell, f"{chapter}.md cell {i}", "exec"), scope)
    finally:
        myst_nb.glue = old_glue
        os.chdir(old_cwd)
        sys.path.remove(str(ROOT / "book"))
        if old_env is None:
            os.environ.pop("EXACTSTATS_DATA_DIR", None)
        else:
            os.environ["EXACTSTATS_DATA_DIR"] = old_env
    return glued
