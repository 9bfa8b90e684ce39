"""Reading arena battles: FastChat's clean-battle form from CSV, JSONL, JSON or Parquet, or pair counts.

Each row names ``model_a``, ``model_b`` and ``winner`` (``model_a``, ``model_b``, ``tie`` or
``tie (bothbad)``); other columns are ignored. A bad row is an error naming file and row. A table
of counts per pair (``model_a``, ``model_b``, ``wins_a``, ``wins_b``, ``tie``, ``tie_bothbad``, as
Chatbot Arena's published counts) is read as :class:`~exactstats.BattleCounts` (:func:`read_arena`).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from .._validate import ExactStatsError
from ..arena import BattleCounts, checked_battles
from .tables import read_frame

COLUMNS = ("model_a", "model_b", "winner")


def read_arena(path: str | Path) -> list[tuple[str, str, str]] | BattleCounts:
    """Battles, or the counts of a pair-count table (the arena's statistics need only the counts); the file
    is read once, and its columns say which it is."""
    from .published import is_pair_counts_table, pair_counts

    path = Path(path)
    df = _frame(path)
    return pair_counts(df, str(path)) if is_pair_counts_table(df.columns) else _battles_from(df, path)


def read_battles(path: str | Path) -> list[tuple[str, str, str]]:
    path = Path(path)
    return _battles_from(_frame(path), path)


def _frame(path: Path) -> pd.DataFrame:
    return read_frame(path, "battles", text=True)


def _battles_from(df: pd.DataFrame, path: Path) -> list[tuple[str, str, str]]:
    missing = [c for c in COLUMNS if c not in df.columns]
    if missing:
        raise ExactStatsError(f"{path}: battles need columns {', '.join(COLUMNS)}; missing {', '.join(missing)}")
    if df.empty:
        raise ExactStatsError(f"{path}: no battles")
    line = 2 if path.suffix == ".csv" else 1
    null = df[list(COLUMNS)].isna().any(axis=1).to_numpy()
    if null.any():
        raise ExactStatsError(f"{path}, row {int(null.argmax()) + line}: empty model name or winner (null)")
    rows = df[list(COLUMNS)].astype(str).itertuples(index=False)
    return checked_battles(rows, where=lambda i: f"{path}, row {i + line}")
