"""The resumable loop shared by ``scoring run``, ``generate`` and ``execute``.

A run folder (:class:`scoring.runfolder.RunFolder`) holds finished rows; the driver decides
what is left, writes each piece of new rows as it finishes (fsynced, so a kill loses at
most the piece in flight), draws the progress bar, checkpoints the wall time every
``CHECKPOINT_S`` seconds, and at the end merges the shards of a parallel run and works out
the timing fields of the manifest. What a row is, and how it is made, stays with the caller:
the driver only sees lists of rows.

Parallel runs (``accelerate launch``): each process takes every ``num_processes``-th unit of
work into its own shard; the main process merges the shards when all are done. Rows depend
only on their own inputs, so the merged folder equals a one-process run.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .runfolder import CHECKPOINT_S, RunFolder, previous_timing

__all__ = ["ResumableRun", "RunTiming"]


@dataclass(frozen=True)
class RunTiming:
    """What one call of :meth:`ResumableRun.finish` measured, for the manifest.

    ``new_rows``: rows this run added; ``wall_s``: its wall time; ``wall_s_total`` and
    ``timed_rows``: over every run into the folder whose time was recorded.
    """

    rows: dict[str, dict[str, Any]]
    new_rows: int
    wall_s: float
    wall_s_total: float
    timed_rows: int

    def fields(self) -> dict[str, Any]:
        """The manifest fields every kind of run records."""
        return {
            "rows": len(self.rows),
            "this_run_wall_s": round(self.wall_s, 2),
            "wall_s_total": self.wall_s_total,
            "timed_rows": self.timed_rows,
        }

    def rate(self) -> float | None:
        """Rows per second over the timed rows, or None when nothing was timed."""
        return round(self.timed_rows / self.wall_s_total, 4) if self.wall_s_total and self.timed_rows else None


class ResumableRun:
    """One pass over the work a run folder still lacks.

    >>> import tempfile, pathlib
    >>> from scoring.runfolder import RunFolder
    >>> folder = RunFolder(pathlib.Path(tempfile.mkdtemp()), key=lambda r: r["id"])
    >>> run = ResumableRun(folder)
    >>> done = run.start({"settings": {}})
    >>> run.work([[{"id": "a"}], [{"id": "b"}]], total=2, initial=0, desc="demo", unit="row", progress=False)
    >>> timing = run.finish()
    >>> sorted(timing.rows), timing.new_rows
    (['a', 'b'], 2)
    """

    def __init__(self, folder: RunFolder, parallel: Any = None, copied_rows: int = 0):
        self.folder = folder
        self.parallel = parallel
        self.rank: int = parallel.process_index if parallel is not None else 0
        self.world: int = parallel.num_processes if parallel is not None else 1
        self.main = self.rank == 0
        self.copied_rows = copied_rows
        self.out = folder
        self.rows_before = 0
        self.previous_wall, self.previous_timed = 0.0, 0
        self.manifest: dict[str, Any] = {}
        self._started = time.time()

    def start(self, manifest: dict[str, Any], before: Callable[[], None] | None = None) -> dict[str, dict[str, Any]]:
        """Merge leftover shards, record the run as going, and return the rows already done.

        ``before`` runs on the main process first (e.g. copying rows from other runs).
        """
        self.manifest = manifest
        previous = self.folder.manifest() or {}
        self.previous_wall, self.previous_timed = previous_timing(previous, self.copied_rows)
        if self.main:
            if before is not None:
                before()
            self.folder.merge_shards()  # rows left by an interrupted parallel run
            self.folder.write_progress(manifest, self.previous_wall, self.previous_timed)
        self._wait()
        done = self.folder.rows(repair=self.main)
        if self.world > 1:
            self.out = self.folder.shard(self.rank)
            done.update(self.out.rows(repair=True))
        self.rows_before = len(done)
        return done

    def share(self, todo: list[Any]) -> list[Any]:
        """This process's part of the work left."""
        return todo[self.rank :: self.world]

    def work(
        self,
        pieces: Iterable[list[dict[str, Any]]],
        *,
        total: int,
        initial: int,
        desc: str,
        unit: str,
        progress: bool = True,
        weight: Callable[[list[dict[str, Any]]], int] = lambda rows: 1,
    ) -> None:
        """Append each piece of rows as it comes, advancing the bar by ``weight(piece)``."""
        bar = None
        if progress:
            from tqdm import tqdm

            bar = tqdm(total=total, initial=initial, desc=desc, unit=unit, dynamic_ncols=True)
        self._started = checkpoint = time.time()
        added = 0
        for rows in pieces:
            self.out.append(rows)
            added += len(rows)
            if bar:
                bar.update(weight(rows))
            if self.world == 1 and time.time() - checkpoint >= CHECKPOINT_S:  # a kill loses at most this timing
                checkpoint = time.time()
                wall = self.previous_wall + checkpoint - self._started
                self.folder.write_progress(self.manifest, wall, self.previous_timed + added)
        if bar:
            bar.close()

    def finish(self) -> RunTiming | None:
        """Merge the shards and measure; None on a worker process (the main process writes the manifest)."""
        wall = time.time() - self._started
        self._wait()
        if not self.main:
            return None
        self.folder.merge_shards()
        rows = self.folder.rows()
        new = len(rows) - self.rows_before
        # copied rows and rows of killed runs are not timed; rows cut from the file since are not either
        timed = min(self.previous_timed + new, len(rows) - self.copied_rows)
        return RunTiming(rows, new, wall, round(self.previous_wall + wall, 2), timed)

    def _wait(self) -> None:
        if self.parallel is not None:
            self.parallel.wait_for_everyone()
