"""A resumable run folder: settings and provenance in a manifest, rows in an append-only JSONL file.

Rows are appended and fsynced as each batch finishes, so a crash or Ctrl-C loses at
most the batch in flight. A torn last line (no newline) is cut off on resume, with a
notice, and never read as a row; a corrupt complete line or a repeated key is an error
that names the file and line. A rerun with other settings into the same folder is
refused, before any model is loaded. Used by ``scoring run`` (one row per question),
``scoring generate`` (one row per problem and sample) and ``scoring execute``.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any


class RunSettingsMismatch(RuntimeError):
    """The output folder holds a run with different settings."""


class CorruptRunFile(RuntimeError):
    """A row file holds a line that is not a complete JSON row, or a key twice."""


class RunFolder:
    """``folder/rows_name`` (JSONL rows, one key each) and ``folder/manifest_name`` (settings + provenance)."""

    def __init__(
        self,
        folder: Path,
        key: Callable[[dict[str, Any]], str],
        rows_name: str = "results.jsonl",
        manifest_name: str = "manifest.json",
        legacy_defaults: dict[str, Any] | None = None,
    ):
        self.folder = Path(folder)
        self.key = key
        self.rows_path = self.folder / rows_name
        self.manifest_path = self.folder / manifest_name
        self.legacy_defaults = dict(legacy_defaults or {})

    def manifest(self) -> dict[str, Any] | None:
        if not self.manifest_path.exists():
            return None
        try:
            manifest = json.loads(self.manifest_path.read_text(encoding="utf-8"))
        except (ValueError, RecursionError):  # JSON errors and non-UTF-8 bytes alike
            raise CorruptRunFile(f"{self.manifest_path}: not a JSON manifest (empty, cut off or not UTF-8)") from None
        if not isinstance(manifest, dict) or not isinstance(manifest.get("settings"), dict):
            raise CorruptRunFile(f"{self.manifest_path}: a manifest needs a 'settings' object")
        return manifest

    def recorded_settings(self) -> dict[str, Any] | None:
        m = self.manifest()
        return None if m is None else {**self.legacy_defaults, **m["settings"]}

    def check_settings(self, settings: dict[str, Any], ignore: Iterable[str] = ()) -> None:
        """Refuse when the folder's manifest records other settings (keys in ``ignore`` aside)."""
        old = self.recorded_settings()
        if old is None:
            return
        skip = set(ignore)
        diff = sorted(k for k in settings if k not in skip and old.get(k) != settings[k])
        if diff:
            detail = "; ".join(f"{k}: {old.get(k)!r} recorded, {settings[k]!r} now" for k in diff[:3])
            raise RunSettingsMismatch(
                f"{self.folder} holds a run with other settings ({', '.join(diff)}; {detail}"
                f"{'; ...' if len(diff) > 3 else ''}); use another --out"
            )

    def rows(self, repair: bool = False, notify: Callable[[str], None] | None = None) -> dict[str, dict[str, Any]]:
        """Complete rows by key. ``repair=True`` (a writer, before it appends) also cuts a torn last line."""
        return read_rows(self.rows_path, self.key, repair=repair, notify=notify)

    def append(self, rows: list[dict[str, Any]]) -> None:
        if not rows:
            return
        self.rows_path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.rows_path, "a", encoding="utf-8") as out:
            out.write("".join(json.dumps(r) + "\n" for r in rows))
            out.flush()
            os.fsync(out.fileno())

    def shard(self, rank: int) -> RunFolder:
        """The rows one process of a parallel run writes: ``shards/{rows stem}.rank{rank}.jsonl``."""
        return RunFolder(self.folder, self.key, f"shards/{self.rows_path.stem}.rank{rank}.jsonl")

    def merge_shards(self) -> int:
        """Append the shards' rows that the main file lacks (fsynced), then remove the shards; return how many."""
        paths = sorted((self.folder / "shards").glob(f"{self.rows_path.stem}.rank*.jsonl"))
        if not paths:
            return 0
        have = self.rows(repair=True)
        added = []
        for path in paths:
            for k, row in read_rows(path, self.key, repair=True).items():
                if k not in have:
                    have[k] = row
                    added.append(row)
        self.append(added)
        for path in paths:
            path.unlink()
        if not any((self.folder / "shards").iterdir()):
            (self.folder / "shards").rmdir()
        return len(added)

    def write_progress(self, manifest: dict[str, Any], wall_s: float, timed_rows: int) -> None:
        """The manifest of a run still going: not complete, with the wall time and rows timed so far."""
        self.write_manifest({**manifest, "complete": False, "wall_s_total": round(wall_s, 2), "timed_rows": timed_rows})

    def write_manifest(self, manifest: dict[str, Any]) -> None:
        """Written whole to a temporary file, then renamed: a crash never leaves half a manifest."""
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = self.manifest_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(manifest, indent=2))
        tmp.replace(self.manifest_path)


def read_rows(
    path: Path, key: Callable[[dict[str, Any]], str], repair: bool = False, notify: Callable[[str], None] | None = None
) -> dict[str, dict[str, Any]]:
    """Rows of a JSONL file by key; a torn trailing line is never read (and cut when ``repair``)."""
    path = Path(path)
    if not path.exists():
        return {}
    data = path.read_bytes()
    end = data.rfind(b"\n") + 1
    if end < len(data):
        if repair:
            with open(path, "r+b") as f:
                f.truncate(end)
            (notify or _stderr)(
                f"{path}: discarded a torn last line ({len(data) - end} bytes, "
                "an interrupted write); that row will be redone"
            )
    rows: dict[str, dict[str, Any]] = {}
    for lineno, line in enumerate(data[:end].splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            k = key(row)
        except (json.JSONDecodeError, UnicodeDecodeError, KeyError, TypeError) as exc:
            raise CorruptRunFile(
                f"{path}:{lineno}: not a complete row ({type(exc).__name__}); "
                "move the file aside or delete that line to go on"
            ) from None
        if k in rows:
            raise CorruptRunFile(f"{path}:{lineno}: row {k!r} appears twice")
        rows[k] = row
    return rows


def _stderr(message: str) -> None:
    print(message, file=sys.stderr)


# Timing. A run writes its wall time when it ends; one that is killed would write none, and its rows
# would later count as if they had cost nothing (the speed of a resumed run came out up to 12 times
# too high). So a single-process run also checkpoints its timing every CHECKPOINT_S seconds, and
# speeds are computed only over rows whose time was recorded ("timed_rows").
CHECKPOINT_S = 60.0


def previous_timing(previous: dict[str, Any], copied: int = 0) -> tuple[float, int]:
    """``(wall seconds, rows timed)`` recorded by earlier runs into this folder.

    Manifests written before ``timed_rows`` existed are read conservatively: where the last run's
    own wall time and rows are recorded, only they count (an earlier run may have been killed);
    no wall time covers no rows.

    >>> previous_timing({"wall_s_total": 10.0, "timed_rows": 20})
    (10.0, 20)
    >>> previous_timing({"wall_s_total": 0.0, "rows": 900})
    (0.0, 0)
    >>> previous_timing({"wall_s_total": 5.0, "this_run_wall_s": 5.0, "this_run_scored": 7, "rows": 50})
    (5.0, 7)
    """
    wall = float(previous.get("wall_s_total") or 0.0)
    if "timed_rows" in previous:
        return wall, int(previous["timed_rows"])
    if wall == 0:
        return 0.0, 0
    last = previous.get("this_run_scored", previous.get("this_run_samples"))
    last_wall = float(previous.get("this_run_wall_s") or 0.0)
    if last and last_wall:
        return last_wall, int(last)
    return wall, max(0, int(previous.get("rows") or 0) - copied)


def measured_rate(manifest: dict[str, Any]) -> float | None:
    """Rows per second over the spans of a run folder whose wall time was recorded, or None.

    >>> measured_rate({"wall_s_total": 100.0, "timed_rows": 50})
    0.5
    >>> measured_rate({"wall_s_total": 2143.69, "this_run_wall_s": 2143.69, "this_run_scored": 1006, "rows": 2000})
    0.4693
    """
    wall, timed = previous_timing(manifest, sum((manifest.get("rows_copied_from") or {}).values()))
    return round(timed / wall, 4) if wall and timed else None
