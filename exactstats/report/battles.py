"""Reading arena battles: FastChat's clean-battle form from CSV, JSONL, JSON or Parquet, or pair counts.

Each row names ``model_a``, ``model_b`` and ``winner`` (``model_a``, ``model_b``, ``tie`` or
``tie (bothbad)``); other columns are ignored. A bad row is an error naming file and row. A table
of counts per pair (``model_a``, ``model_b``, ``wins_a``, ``wins_b``, ``tie``, ``tie_bothbad``, as
Chatbot Arena's published counts) is read as :class:`~exactstats.BattleCounts` (:func:`read_arena_counts`, which tallies a battles file
into the same counts).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from .._validate import ExactStatsError
from ..arena import OUTCOMES, BattleCounts, battle_counts_from_pairs, checked_battles
from .tables import read_frame

COLUMNS = ("model_a", "model_b", "winner")


def read_arena_counts(path: str | Path) -> BattleCounts:
    """The counts of a battles file or of a pair-count table, without a tie rule applied (``"exclude"``:
    ties kept as ties). Battles are checked and tallied as columns, never one Python tuple per battle."""
    from .published import is_pair_counts_table, pair_counts

    path = Path(path)
    df = _frame(path)
    if is_pair_counts_table(df.columns):
        return pair_counts(df, str(path))
    a, b, outcome = _checked_columns(df, path)
    tally = pd.DataFrame({"a": a, "b": b, "o": outcome}).groupby(["a", "b", "o"], sort=False).size()
    cells = tally.unstack(fill_value=0).reindex(columns=[0, 1, 2], fill_value=0)
    pairs = [(x, y, int(wa), int(wb), int(t)) for (x, y), (wa, wb, t) in zip(cells.index, cells.to_numpy())]
    return battle_counts_from_pairs(pairs, "exclude")


def _checked_columns(df: pd.DataFrame, path: Path) -> tuple[pd.Series, pd.Series, pd.Series]:
    """The model columns and each battle's outcome (0: model_a won, 1: model_b, 2: a tie), every row checked
    at once; the first bad row is named by the same checks as :func:`~exactstats.checked_battles`."""
    _check_table(df, path)
    a, b, w = (df[c].astype(str) for c in COLUMNS)
    outcome = w.map(OUTCOMES)
    bad = (a.str.strip() == "") | (b.str.strip() == "") | (a == b) | outcome.isna()
    if bad.any():
        i = int(bad.to_numpy().argmax())
        checked_battles([(a.iloc[i], b.iloc[i], w.iloc[i])], where=lambda _: f"{path}, row {i + _first_row(path)}")
    return a, b, outcome.astype(int)


def read_battles(path: str | Path) -> list[tuple[str, str, str]]:
    path = Path(path)
    return _battles_from(_frame(path), path)


def _frame(path: Path) -> pd.DataFrame:
    return read_frame(path, "battles", text=True)


def _first_row(path: Path) -> int:
    return 2 if path.suffix == ".csv" else 1  # a CSV's header is its line 1


def _check_table(df: pd.DataFrame, path: Path) -> None:
    missing = [c for c in COLUMNS if c not in df.columns]
    if missing:
        raise ExactStatsError(f"{path}: battles need columns {', '.join(COLUMNS)}; missing {', '.join(missing)}")
    if df.empty:
        raise ExactStatsError(f"{path}: no battles")
    null = df[list(COLUMNS)].isna().any(axis=1).to_numpy()
    if null.any():
        raise ExactStatsError(f"{path}, row {int(null.argmax()) + _first_row(path)}: empty model name or winner (null)")


def _battles_from(df: pd.DataFrame, path: Path) -> list[tuple[str, str, str]]:
    _check_table(df, path)
    rows = df[list(COLUMNS)].astype(str).itertuples(index=False)
    line = _first_row(path)
    return checked_battles(rows, where=lambda i: f"{path}, row {i + line}")
