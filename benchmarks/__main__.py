"""Run the benchmark suite and write BENCHMARKS.md (``make bench``; not part of ``make test``).

Every row reports the median of several timed runs and a ratio against a
reference or peer implementation timed in the same run on the same inputs.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from datetime import date
from math import comb
from pathlib import Path

import numpy as np

import exactstats as es
from benchmarks.common import ROWS, fmt, row, timeit

ROOT = Path(__file__).resolve().parents[1]

# --- 1. pass@k over a HumanEval-sized table ---------------------------------------------


def human_eval_estimator(n: int, c: int, k: int) -> float:
    if n - c < k:
        return 1.0
    return 1.0 - float(np.prod(1.0 - k / np.arange(n - c + 1, n + 1)))


def bench_passk() -> None:
    rng = np.random.default_rng(0)
    n = np.full(164, 200)
    c = rng.integers(0, 201, 164)
    table = list(zip(n.tolist(), c.tolist()))
    for k in (1, 10, 100):
        exact = timeit(lambda: es.mean_pass_at_k(table, k))
        twin = timeit(lambda: es.mean_pass_at_k_float(n, c, k))
        he = timeit(lambda: float(np.mean([human_eval_estimator(a, b, k) for a, b in table])))
        naive = timeit(lambda: float(np.mean([1 - comb(a - b, k) / comb(a, k) for a, b in table])))
        e = float(es.mean_pass_at_k(table, k))
        assert abs(es.mean_pass_at_k_float(n, c, k) - e) <= 1e-12 * e
        row("pass@k", f"164 tasks, n=200, k={k}: exact vs human-eval", "exact", exact, "human-eval product", he)
        row(
            "pass@k", f"164 tasks, n=200, k={k}: float twin vs human-eval", "float twin", twin, "human-eval product", he
        )
        row("pass@k", f"164 tasks, n=200, k={k}: exact vs naive comb ratio", "exact", exact, "float comb ratio", naive)


# --- 2. exact McNemar ------------------------------------------------------------------------


def bench_mcnemar() -> None:
    from statsmodels.stats.contingency_tables import mcnemar

    for m in (10**3, 10**5, 10**6):
        b, c = m // 2 - int(m**0.5), m // 2 + int(m**0.5)
        repeat = 3 if m >= 10**6 else 5
        ours = timeit(lambda: es.mcnemar_p_value(b, c), repeat=repeat, min_time=0.0 if m >= 10**6 else 0.05)
        ref = timeit(lambda: mcnemar([[0, b], [c, 0]], exact=True).pvalue, repeat=repeat)
        assert abs(float(es.mcnemar_p_value(b, c)) - mcnemar([[0, b], [c, 0]], exact=True).pvalue) < 1e-9
        row("McNemar", f"b + c = {m:,}", "exact (Fraction)", ours, "statsmodels exact=True (float)", ref)


# --- 3. Condorcet and plurality --------------------------------------------------------------


def bench_condorcet() -> None:
    from scipy import stats

    for k in (11, 101, 1001):
        ours = timeit(lambda: es.majority_probability("0.7", k), repeat=3)
        ref = timeit(lambda: stats.binom.sf(k // 2, k, 0.7), repeat=3)
        row("Condorcet", f"majority of k = {k:,}", "exact", ours, "scipy binom.sf (float)", ref)
    rng = np.random.default_rng(1)
    for k in (11, 101, 1001):
        acc = ["0.6"] * k
        ours = timeit(
            lambda: es.plurality_probability(acc), repeat=3 if k < 1001 else 1, min_time=0.0 if k >= 1001 else 0.05
        )

        def monte_carlo():  # the float peer: 10^4 simulated panels, ties broken at random (what the exact value credits)
            right = rng.random((10_000, k)) < 0.6
            picks = np.where(right, 0, rng.integers(1, 4, (10_000, k)))
            counts = np.stack([(picks == o).sum(axis=1) for o in range(4)], axis=1)
            return float(np.mean((counts + rng.random(counts.shape) * 0.5).argmax(axis=1) == 0))

        ref = timeit(monte_carlo, repeat=3 if k < 1001 else 1, min_time=0.0)
        row("plurality", f"independent voters, k = {k:,}, 4 options", "exact", ours, "Monte Carlo, 10^4 panels", ref)


# --- 4. rank stability ------------------------------------------------------------------------


def bench_stability() -> None:
    rng = np.random.default_rng(2)
    difficulty = rng.random(2000)
    C = (rng.random((8, 2000)) < np.clip(np.linspace(0.75, 0.55, 8)[:, None] + 0.4 * (0.5 - difficulty), 0, 1)).astype(
        int
    )
    top = int(np.argmax(C.sum(axis=1)))

    def loop(n):
        idx = rng.integers(0, 2000, size=(2000, n))
        scores = np.stack([row[idx].mean(axis=1) for row in C], axis=1)
        scores += rng.random(scores.shape) * 1e-9
        return float(np.mean(scores.argmax(axis=1) == top))

    patterns = len(np.unique(C.T, axis=0))
    for n in (30, 100, 500, 2000):
        ours = timeit(lambda: es.top_stays_top_float(C, n, draws=2000, seed=3), repeat=3)
        ref = timeit(lambda: loop(n), repeat=3)
        row(
            "stability",
            f"8 models x 2,000 q, 2,000 redraws, n = {n:,}",
            "patterns + matmul",
            ours,
            "per-model fancy indexing",
            ref,
            note=f"{patterns} distinct patterns",
        )
        floor = timeit(lambda: rng.integers(0, 2000, size=(2000, n), dtype=np.uint16), repeat=3)
        row(
            "stability",
            f"8 models x 2,000 q, 2,000 redraws, n = {n:,}",
            "patterns + matmul",
            ours,
            "floor: drawing the 2,000 x n indices alone",
            floor,
            note="no redraw can cost less than its random indices",
        )


# --- 5. exact power ---------------------------------------------------------------------------


def bench_power() -> None:
    for n in (500, 2000, 5000):
        ours = timeit(lambda: es.mcnemar_power(n, "0.11", "0.09"), repeat=3, min_time=0.0)
        ref = timeit(lambda: es.mcnemar_power_float(n, "0.11", "0.09"), repeat=3)
        row("power", f"exact McNemar power, n = {n:,}", "exact (integers)", ours, "SciPy float twin", ref)


# --- 7. the book ---------------------------------------------------------------------------------


def bench_book() -> None:
    env = {**os.environ}
    build = ROOT / "_build"
    subprocess.run(
        ["rm", "-rf", str(build / "html"), str(build / "doctrees"), str(build / ".jupyter_cache")], check=True
    )
    t0 = time.perf_counter()
    subprocess.run(["make", "-s", "html"], cwd=ROOT, env=env, check=True, capture_output=True)
    clean = time.perf_counter() - t0
    # a rebuild from the execution cache: the pages are rendered again, the notebooks are not re-run
    subprocess.run(["rm", "-rf", str(build / "html"), str(build / "doctrees")], check=True)
    t0 = time.perf_counter()
    subprocess.run(["make", "-s", "html"], cwd=ROOT, env=env, check=True, capture_output=True)
    cached = time.perf_counter() - t0
    row(
        "book", "make html: clean build vs rebuild from the execution cache", "from cache", cached, "clean build", clean
    )


# --- 8. the report at scale -------------------------------------------------------------------


def bench_report() -> None:
    """`exactstats report` against its floor: reading the CSV with pandas plus the discordance matrix product."""
    import tempfile

    import pandas as pd

    from exactstats.report.analysis import analyse
    from exactstats.report.importers import load_results

    rng = np.random.default_rng(5)
    q = 15_000
    difficulty = rng.random(q)
    times = []
    for k in (10, 50, 200):
        acc = np.linspace(0.8, 0.4, k)[:, None]
        C = (rng.random((k, q)) < np.clip(acc + 0.3 * (0.5 - difficulty), 0, 1)).astype(np.int8)
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "wide.csv"
            frame = pd.DataFrame(C, columns=[f"q{j}" for j in range(q)])
            frame.insert(0, "model", [f"m{i}" for i in range(k)])
            frame.to_csv(path, index=False)

            def floor():
                M = pd.read_csv(path).iloc[:, 1:].to_numpy(dtype=float)
                return M @ (1 - M).T

            ours = timeit(lambda: analyse(load_results([str(path)]), draws=1000), repeat=1, min_time=0.0)
            ref = timeit(floor, repeat=1, min_time=0.0)
        times.append(ours)
        row(
            "report",
            f"{k} models x {q:,} questions, 1,000 redraws",
            "load + analyse",
            ours,
            "floor: read_csv + discordance product",
            ref,
        )
    slope = np.polyfit(np.log([10, 50, 200]), np.log(times), 1)[0]
    NOTES.append(f"Report growth: time grows like models^{slope:.2f} from 10 to 200 models (15,000 questions).")


# --- 9. growth of the exact functions -------------------------------------------------------


def bench_growth() -> None:
    """Empirical growth exponent of each exact function: log-log slope of time against size."""
    cases = {
        "majority_probability(0.7, k)": ([1001, 4001, 16001], lambda k: es.majority_probability("0.7", k)),
        "mcnemar_p_value(m/2, m/2 - sqrt m)": (
            [10**4, 10**5, 10**6],
            lambda m: es.mcnemar_p_value(m // 2, m // 2 - int(m**0.5)),
        ),
        "pass_at_k(n, n/3, n/2)": ([10**3, 10**4, 10**5], lambda n: es.pass_at_k(n, n // 3, n // 2)),
        "mcnemar_power(n, 0.11, 0.09)": ([250, 1000, 4000], lambda n: es.mcnemar_power(n, "0.11", "0.09")),
    }
    for name, (sizes, fn) in cases.items():
        ts = [timeit(lambda s=s: fn(s), repeat=1, min_time=0.0) for s in sizes]
        slope = np.polyfit(np.log(sizes), np.log(ts), 1)[0]
        NOTES.append(
            f"`{name}`: time ~ size^{slope:.2f} (sizes {', '.join(f'{s:,}' for s in sizes)}; "
            f"{fmt(ts[0])} to {fmt(ts[-1])})."
        )


NOTES: list[str] = []
KEPT_ROWS: list[str] = []
KEPT_NOTES: list[str] = []


def keep_other_groups(path: Path, running: set[str]) -> None:
    """With --only, the previous file's rows of the groups not run now stay in the table (marked as such)."""
    if not path.exists():
        return
    text = path.read_text()
    if "## Growth" in text:  # growth notes of groups not run now stay too
        for line in text.split("## Growth", 1)[1].split("\n## ", 1)[0].splitlines():
            if line.startswith("- "):
                owner = "report" if line.startswith("- Report growth") else "growth"
                if owner not in running:
                    KEPT_NOTES.append(line[2:] if "(earlier run)" in line else line[2:] + " (earlier run)")
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and len(cells) >= 8 and cells[0] not in ("group", "---") and cells[0] not in running:
            KEPT_ROWS.append(
                line if "(earlier run)" in line else line.rstrip().rstrip("|").rstrip() + " (earlier run) |"
            )


FAILURES: list[str] = []


def write_markdown(path: Path, extra: str = "") -> None:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import scipy
    import sympy

    lines = [
        "# Benchmarks",
        "",
        f"Written by `make bench` on {date.today().isoformat()}: {os.cpu_count()} cores, {cpu}, Python {platform.python_version()}, "
        f"NumPy {np.__version__}, SciPy {scipy.__version__}, SymPy {sympy.__version__}. Medians of repeated runs; every ratio "
        "is reference time / our time, measured in the same run (above 1: ours is faster).",
        "",
        "| group | case | ours | time | reference | time | ratio | note |",
        "|---|---|---|---|---|---|---|---|",
    ]
    lines += KEPT_ROWS  # rows of groups not run this time (--only), kept from the previous file
    for r in ROWS:
        lines.append(
            f"| {r['group']} | {r['case']} | {r['ours']} | {fmt(r['t_ours'])} | {r['ref']} | {fmt(r['t_ref'])} | {r['ratio']:.3g} | {r['note']} |"
        )
    if NOTES or KEPT_NOTES:
        lines += ["", "## Growth", ""] + [f"- {n}" for n in KEPT_NOTES + NOTES]
    if FAILURES:
        lines += ["", "## Groups that failed in this run", ""] + [f"- {f}" for f in FAILURES]
    lines += ["", extra]
    path.write_text("\n".join(lines) + "\n")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    p.add_argument(
        "--only", nargs="*", help="groups to run: passk mcnemar condorcet stability power report growth scoring book"
    )
    p.add_argument("--out", default=str(ROOT / "BENCHMARKS.md"))
    args = p.parse_args(argv)
    groups = {
        "passk": bench_passk,
        "mcnemar": bench_mcnemar,
        "condorcet": bench_condorcet,
        "stability": bench_stability,
        "power": bench_power,
        "report": bench_report,
        "growth": bench_growth,
        "book": bench_book,
    }
    try:
        from benchmarks.scoring_bench import bench_scoring

        groups["scoring"] = bench_scoring
    except ImportError:
        pass
    extra = (ROOT / "benchmarks" / "NOTES.md").read_text() if (ROOT / "benchmarks" / "NOTES.md").exists() else ""
    if args.only:
        names = {
            "passk": "pass@k",
            "mcnemar": "McNemar",
            "condorcet": "Condorcet",
            "stability": "stability",
            "power": "power",
            "report": "report",
            "book": "book",
            "scoring": "scoring",
        }
        running = {names.get(g, g) for g in args.only} | ({"plurality"} if "condorcet" in args.only else set())
        keep_other_groups(Path(args.out), running)
    for name, fn in groups.items():
        if args.only and name not in args.only:
            continue
        try:
            fn()
        except Exception as exc:  # a failing group is reported; the others still run and are written
            FAILURES.append(f"{name}: {type(exc).__name__}: {' '.join(str(exc).split())[:200]}")
            print(f"group {name} failed: {exc}", file=sys.stderr)
        write_markdown(Path(args.out), extra)  # after every group: an abort later loses nothing
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
