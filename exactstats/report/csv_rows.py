"""The rows of a small CSV the report reads itself (task scores, ratings): header, line numbers, cell counts."""

from __future__ import annotations

import csv
from pathlib import Path

from .._validate import ExactStatsError


def read_csv_rows(path: str) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """The header (names stripped) and every non-blank row with its line number; a row whose cell count
    differs from the header's is an error naming its line."""
    file = Path(path)
    if not file.is_file():
        raise ExactStatsError(f"{path}: no such file")
    with open(file, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    if not rows or not rows[0]:
        raise ExactStatsError(f"{path}: empty file")
    header = [h.strip() for h in rows[0]]
    body = []
    for line, row in enumerate(rows[1:], 2):
        if not any(c.strip() for c in row):
            continue
        if len(row) != len(header):
            raise ExactStatsError(f"{path}, line {line}: {len(row)} cells, but the header has {len(header)}")
        body.append((line, row))
    return header, body
