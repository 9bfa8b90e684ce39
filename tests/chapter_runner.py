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


def run_isolated(chapter: str, env: dict[str, str]) -> dict:
    """Run a chapter (in a worker process) with ``env`` set; report what it glued, as text, or how it stopped.

    ``{"glued": {name: text}}`` when every cell ran; ``{"guard": where}`` when an assertion of the chapter or
    a ValueError of its prose helpers stopped it (a sentence refused to be false); ``{"crash": traceback}``
    for anything else.
    """
    import traceback

    os.environ.update(env)
    try:
        glued = run_chapter(chapter)
    except (AssertionError, ValueError) as exc:
        last = traceback.extract_tb(exc.__traceback__)[-1]  # a guard raises in a chapter cell or a prose helper
        if last.filename.startswith(f"{chapter}.md cell") or last.filename.endswith("prose.py"):
            return {"guard": f"{last.filename}:{last.lineno} {type(exc).__name__}: {exc}"[:400]}
        return {"crash": "".join(traceback.format_exception(exc))[-3000:]}
    except Exception as exc:  # noqa: BLE001 - any other failure is reported to the test, which fails on it
        return {"crash": "".join(traceback.format_exception(exc))[-3000:]}
    text = {}
    for name, value in glued.items():
        if isinstance(value, str | int | float):
            text[name] = value
        elif hasattr(value, "data") and isinstance(value.data, str):  # Markdown
            text[name] = value.data
    return {"glued": text}


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
