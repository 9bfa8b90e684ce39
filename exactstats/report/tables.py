"""One reader for the tabular files every command accepts: Parquet, JSON lines, JSON records and CSV.

Each caller names what the table should hold (``"battles"``, ``"pass@k samples"``), so an error says
which file could not be read as what. Files that need more than a table (lm-eval and Inspect logs,
scoring run folders) have their own readers in :mod:`exactstats.report.importers`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

from .._validate import ExactStatsError

__all__ = ["read_frame", "jsonl_records", "folder_setting", "ParquetMatrix"]


def folder_setting(path: str | Path | None, env: str, what: str) -> Path:
    """A data folder: ``path``, else the folder the environment variable ``env`` names; ``what`` says
    what the folder holds, for the errors."""
    import os

    chosen = path if path is not None else os.environ.get(env)
    if chosen is None:
        raise ExactStatsError(f"give the folder of {what}, or set {env} to it")
    folder = Path(chosen)
    if not folder.is_dir():
        raise ExactStatsError(f"{folder}: no such folder ({what})")
    return folder


def jsonl_records(path: Path) -> list[Any]:
    """Every non-blank line of a JSON-lines file, parsed; a bad line is an error naming its number."""
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            out.append(json.loads(line))
        except ValueError:
            raise ExactStatsError(f"{path}, line {number}: not a JSON object") from None
    return out


def read_frame(path: str | Path, what: str, text: bool = False) -> pd.DataFrame:
    """The table in ``path`` by its suffix (``.parquet``, ``.jsonl``, ``.json``; anything else as CSV).

    ``text=True`` reads CSV cells as written (a model named ``007`` stays ``007``, an empty cell is empty).
    """
    path = Path(path)
    if not path.exists():
        raise ExactStatsError(f"{path}: no such file")
    if path.is_dir():
        raise ExactStatsError(f"{path}: is a folder, not a table of {what}")
    if path.stat().st_size == 0:
        raise ExactStatsError(f"{path}: empty file")
    try:
        if path.suffix == ".parquet":
            return pd.read_parquet(path)
        if path.suffix == ".jsonl":
            return pd.DataFrame(jsonl_records(path))
        if path.suffix == ".json":
            return pd.DataFrame(json.loads(path.read_text(encoding="utf-8")))
        return pd.read_csv(path, dtype=str, keep_default_na=False) if text else pd.read_csv(path)
    except ExactStatsError:
        raise
    except RecursionError:
        raise ExactStatsError(f"{path}: JSON nested too deep") from None
    except Exception as exc:  # noqa: BLE001 - pandas, JSON and pyarrow each raise their own errors for a damaged file
        raise ExactStatsError(f"{path}: cannot read {what} ({' '.join(str(exc).split())[:160]})") from None


class ParquetMatrix:
    """A wide Parquet file (one row per model, one column per question, an optional ``model`` column) as a
    models x questions array that reads only the columns asked for: ``matrix[:, a:b]``.

    For :func:`exactstats.blocks.pair_counts`, which reads it a block of questions at a time.

    >>> import tempfile, numpy as np
    >>> path = Path(tempfile.mkdtemp()) / "m.parquet"
    >>> pd.DataFrame({"model": ["a", "b"], "q1": [1, 0], "q2": [1, 1]}).to_parquet(path)
    >>> matrix = ParquetMatrix(path)
    >>> matrix.shape, matrix.models, matrix[:, 1:2].tolist()
    ((2, 2), ['a', 'b'], [[1], [1]])
    """

    def __init__(self, path: str | Path) -> None:
        import pyarrow.parquet as pq

        self.path = Path(path)
        if not self.path.is_file():
            raise ExactStatsError(f"{str(self.path)!r}: no such file")
        meta = pq.ParquetFile(self.path)
        names = meta.schema_arrow.names
        self.columns = [c for c in names if c != "model"]
        self.models = (
            [str(m) for m in pq.read_table(self.path, columns=["model"]).column(0).to_pylist()]
            if "model" in names
            else [str(i) for i in range(meta.metadata.num_rows)]
        )
        self.shape = (meta.metadata.num_rows, len(self.columns))

    def __getitem__(self, key: Any) -> Any:
        import numpy as np
        import pyarrow.parquet as pq

        rows, cols = key
        if rows != slice(None) or not isinstance(cols, slice) or cols.step not in (None, 1):
            raise ExactStatsError("a ParquetMatrix is read as matrix[:, a:b] (every model, a range of questions)")
        chosen = self.columns[cols]
        table = pq.read_table(self.path, columns=chosen)  # only these columns are read from disk
        for name, column in zip(chosen, table.columns):
            if column.null_count:
                raise ExactStatsError(f"{str(self.path)!r}: question {name!r} has a missing cell")
        return np.column_stack([column.to_numpy() for column in table.columns])
