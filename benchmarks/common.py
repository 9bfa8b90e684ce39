"""Shared helpers: alternated timers (in-process and whole processes), the table of rows, formatting.

Fairness rules every group follows:

- ours and its reference are timed in turn within each round (A B A B ...), and each side's median
  is reported, so a change in the machine's load during the run lands on both sides alike;
- a command-line tool is timed as a whole process that writes its output, as a user runs it;
- a floor is the least work any tool must do for the same answer (reading the input, one product).
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROWS: list[dict] = []


def alternated(cases: dict[str, Callable[[], Any]], repeat: int = 5, min_time: float = 0.05) -> dict[str, float]:
    """Median seconds per call of each case; every round runs all cases in turn (after one warm-up call each).

    A round of one case loops until ``min_time`` has passed, so fast calls are timed over many repetitions.

    >>> t = alternated({"a": lambda: None, "b": lambda: sum(range(10))}, repeat=3, min_time=0.0)
    >>> sorted(t) == ["a", "b"] and all(v >= 0 for v in t.values())
    True
    """
    for fn in cases.values():
        fn()  # warm-up: imports, caches
    rounds: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(repeat):
        for name, fn in cases.items():
            calls, start = 0, time.perf_counter()
            while True:
                fn()
                calls += 1
                elapsed = time.perf_counter() - start
                if elapsed >= min_time:
                    break
            rounds[name].append(elapsed / calls)
    return {name: statistics.median(values) for name, values in rounds.items()}


def timeit(fn: Callable[[], Any], repeat: int = 5, min_time: float = 0.05) -> float:
    """Median seconds per call of one function (for rows without a peer in the same call)."""
    return alternated({"fn": fn}, repeat, min_time)["fn"]


# A process forked from a big one starts with the big one's pages, and Linux keeps that in the child's peak
# (ru_maxrss) even after exec: every child of a 2 GB benchmark process would report at least 2 GB. So each
# command is started by a small launcher process; the command's own peak is then its own, and the launcher
# times it from fork to exit and writes both numbers to a file.
LAUNCHER = """
import os, sys, time
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
elapsed = time.perf_counter() - start
with open(sys.argv[1], "w") as f:
    f.write(f"{elapsed} {usage.ru_maxrss * 1024}")
sys.exit(os.waitstatus_to_exitcode(status))
"""


def run_process(
    argv: Sequence[str], stdout: Path | None = None, env: dict[str, str] | None = None
) -> tuple[float, int]:
    """Wall seconds and peak resident memory (bytes) of one process, its standard output written to ``stdout``.

    The peak is the command's own, measured through a small launcher (see ``LAUNCHER``).
    """
    with (
        tempfile.TemporaryFile() as err,
        tempfile.NamedTemporaryFile("r") as report,
        open(stdout or os.devnull, "wb") as out,
    ):
        launcher = [sys.executable, "-S", "-c", LAUNCHER, report.name, shutil.which(argv[0]) or argv[0], *argv[1:]]
        code = subprocess.run(launcher, stdout=out, stderr=err, env=env).returncode
        if code != 0:
            err.seek(0)
            tail = err.read().decode(errors="replace").strip().splitlines()[-1:] or ["(no stderr)"]
            raise RuntimeError(f"{' '.join(argv[:3])} ... exited {code}: {tail[0][:200]}")
        elapsed, peak = report.read().split()
    return float(elapsed), int(peak)


def alternated_processes(
    cases: dict[str, tuple[Sequence[str], Path | None]], repeat: int = 3, env: dict[str, str] | None = None
) -> dict[str, tuple[float, int]]:
    """Median wall seconds and the largest peak memory of each command, the commands run in turn each round."""
    times: dict[str, list[float]] = {name: [] for name in cases}
    peaks: dict[str, int] = {name: 0 for name in cases}
    for _ in range(repeat):
        for name, (argv, out) in cases.items():
            seconds, peak = run_process(argv, out, env)
            times[name].append(seconds)
            peaks[name] = max(peaks[name], peak)
    return {name: (statistics.median(times[name]), peaks[name]) for name in cases}


def row(group: str, case: str, ours: str, t_ours: float, ref: str, t_ref: float, note: str = "") -> None:
    ROWS.append(
        {
            "group": group,
            "case": case,
            "ours": ours,
            "t_ours": t_ours,
            "ref": ref,
            "t_ref": t_ref,
            "ratio": t_ref / t_ours,
            "note": note,
        }
    )
    print(f"{group:12s} {case:40s} {ours} {fmt(t_ours)}  vs {ref} {fmt(t_ref)}  ratio {t_ref / t_ours:.3g}", flush=True)


def fmt(t: float) -> str:
    """Seconds, readably.

    >>> fmt(2.5e-5), fmt(0.0123), fmt(75.0)
    ('25.0 µs', '12.30 ms', '75.00 s')
    """
    return f"{t * 1e6:.1f} µs" if t < 1e-3 else (f"{t * 1e3:.2f} ms" if t < 1 else f"{t:.2f} s")


def fmt_bytes(n: float) -> str:
    """Bytes, readably.

    >>> fmt_bytes(3.5 * 2**30), fmt_bytes(200 * 2**20)
    ('3.5 GB', '200 MB')
    """
    return f"{n / 2**30:.1f} GB" if n >= 2**30 else f"{n / 2**20:.0f} MB"
