"""From run folders to tables: long-format results and the models x questions 0/1 matrix."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import pandas as pd

from .run import MANIFEST, RESULTS, read_done


def load_run(run_dir: Path | str) -> pd.DataFrame:
    """Rows of one run folder as a DataFrame (complete rows only)."""
    run_dir = Path(run_dir)
    if not (run_dir / RESULTS).exists():
        raise FileNotFoundError(f"{run_dir}: no {RESULTS}")
    rows = list(read_done(run_dir / RESULTS).values())
    df = pd.DataFrame(rows)
    manifest = json.loads((run_dir / MANIFEST).read_text()) if (run_dir / MANIFEST).exists() else {}
    settings = manifest.get("settings", {})
    df["shuffle"] = settings.get("shuffle")
    df["shots_setting"] = settings.get("shots")
    return df


def long_table(run_dirs: Iterable[Path | str]) -> pd.DataFrame:
    frames = [load_run(d) for d in run_dirs]
    if not frames:
        raise ValueError("no run folders given")
    df = pd.concat(frames, ignore_index=True)
    dup = df.duplicated(["model", "question_id", "shuffle", "shots_setting"])
    if dup.any():
        row = df[dup].iloc[0]
        raise ValueError(f"question {row['question_id']} appears twice for model {row['model']} in the same condition")
    return df


def wide_matrix(long: pd.DataFrame, require_complete: bool = True) -> pd.DataFrame:
    """models x questions 0/1 matrix. With ``require_complete`` every model must have every question."""
    wide = long.pivot(index="model", columns="question_id", values="correct")
    if require_complete and wide.isna().any().any():
        missing = wide.isna().sum(axis=1)
        raise ValueError(
            "models are missing questions: " + ", ".join(f"{m}: {int(k)}" for m, k in missing.items() if k)
        )
    return wide.astype("int8")
