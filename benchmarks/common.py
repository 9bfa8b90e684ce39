"""Shared helpers: the timer, the table of rows, formatting."""

from __future__ import annotations

import statistics
import time

ROWS: list[dict] = []


def timeit(fn, repeat: int = 5, min_time: float = 0.05) -> float:
    """Median seconds per call over `repeat` rounds, each round looping until min_time has passed."""
    fn()  # warm up
    rounds = []
    for _ in range(repeat):
        calls, start = 0, time.perf_counter()
        while True:
            fn()
            calls += 1
            elapsed = time.perf_counter() - start
            if elapsed >= min_time:
                break
        rounds.append(elapsed / calls)
    return statistics.median(rounds)


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
    return f"{t * 1e6:.1f} µs" if t < 1e-3 else (f"{t * 1e3:.2f} ms" if t < 1 else f"{t:.2f} s")
