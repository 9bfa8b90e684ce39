"""The report, the arena and the blockwise kernel at leaderboard scale, timed as a user meets them.

- report: ``exactstats report`` as a process writing its JSON or HTML, against a floor process that
  reads the same CSV with pandas and forms the all-pairs co-occurrence with one float32 product;
- arena: ``exactstats arena`` as a process on a battles file, against a floor process (pandas read,
  NumPy tally, a float Bradley-Terry fit) and FastChat's method (logistic regression over one row per
  battle, scikit-learn), each as a process;
- scale: the blockwise co-occurrence kernel on models x questions matrices up to 10,000 x 100,000, with
  its peak memory, each size in a fresh process.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import numpy as np

from benchmarks.common import alternated_processes, fmt, fmt_bytes, row, run_process

PY = sys.executable
GROWTH: list[str] = []  # growth tables, appended to BENCHMARKS.md

# --- floors, run as processes (the least work any tool must do for the same answer) ----------------------

REPORT_FLOOR = """
import sys, numpy as np, pandas as pd
frame = pd.read_csv(sys.argv[1])
if sys.argv[2] == "long":
    M = frame.pivot(index="model", columns="question_id", values="correct").to_numpy(np.float32)
else:
    M = frame.iloc[:, 1:].to_numpy(np.float32)
both = M @ M.T  # every pair's questions both got right: the discordant counts follow from it and the totals
print(float(both.sum()))
"""

ARENA_FLOOR = """
import sys, numpy as np, pandas as pd
frame = pd.read_csv(sys.argv[1])
codes, names = pd.factorize(pd.concat([frame.model_a, frame.model_b], ignore_index=True))
k = len(names)
a, b = codes[: len(frame)], codes[len(frame):]
score = frame.winner.map({"model_a": 1.0, "model_b": 0.0}).fillna(0.5).to_numpy()
W = np.bincount(a * k + b, weights=score, minlength=k * k).reshape(k, k)
W += np.bincount(b * k + a, weights=1 - score, minlength=k * k).reshape(k, k)
N = W + W.T
g = np.ones(k)
for _ in range(10_000):  # Zermelo / MM iterations to a fixed point
    new = W.sum(1) / (N / (g[:, None] + g[None, :])).sum(1)
    new /= np.exp(np.log(new).mean())
    if np.max(np.abs(np.log(new / g))) < 1e-10:
        break
    g = new
print(np.log(g)[:3])
"""

# FastChat's compute_mle_elo (fastchat/serve/monitor/elo_analysis.py), rewritten here from its method: pandas
# pivot tables of wins either way and of ties, each decisive win counted twice and each tie once for each side,
# two weighted design rows per ordered pair (+log 10 / -log 10), and an unpenalised weighted logistic regression
# without intercept (scikit-learn, tol 1e-6).
FASTCHAT = """
import sys, math, numpy as np, pandas as pd
from sklearn.linear_model import LogisticRegression
df = pd.read_csv(sys.argv[1])
models = sorted(set(df.model_a) | set(df.model_b))
def table(rows):
    return pd.pivot_table(rows, index="model_a", columns="model_b", aggfunc="size", fill_value=0).reindex(
        index=models, columns=models, fill_value=0)
a_win = table(df[df.winner == "model_a"])
b_win = table(df[df.winner == "model_b"])
tie = table(df[df.winner.str.startswith("tie")])
tie = tie + tie.T
win = (a_win * 2 + b_win.T * 2 + tie).to_numpy(float)
p = len(models)
X, Y, w = [], [], []
for i in range(p):
    for j in range(p):
        if i != j and (win[i, j] or win[j, i]):
            x = np.zeros(p)
            x[i], x[j] = math.log(10), -math.log(10)
            X += [x, x]
            Y += [1.0, 0.0]
            w += [win[i, j], win[j, i]]
lr = LogisticRegression(fit_intercept=False, penalty=None, tol=1e-6)
lr.fit(np.array(X), np.array(Y), sample_weight=np.array(w))
print(400 * lr.coef_[0][:3] + 1000)
"""


def _write_wide(path: Path, models: int, questions: int, rng: np.random.Generator) -> None:
    difficulty = rng.random(questions)
    acc = np.linspace(0.8, 0.4, models)[:, None]
    C = (rng.random((models, questions)) < np.clip(acc + 0.3 * (0.5 - difficulty), 0, 1)).astype(np.int8)
    with open(path, "w") as f:
        f.write("model," + ",".join(f"q{j}" for j in range(questions)) + "\n")
        for i, r in enumerate(C):
            f.write(f"m{i}," + ",".join(map(str, r.tolist())) + "\n")


def _write_long(path: Path, models: int, questions: int, rng: np.random.Generator) -> None:
    import pandas as pd

    acc = np.linspace(0.7, 0.69, models)
    frames = [
        pd.DataFrame(
            {"model": f"m{i}", "question_id": np.arange(questions), "correct": (rng.random(questions) < p).astype(int)}
        )
        for i, p in enumerate(acc)
    ]
    pd.concat(frames).to_csv(path, index=False)


REPORT_CASES = [  # (models, questions, layout, rounds)
    (10, 15_000, "wide", 3),
    (50, 15_000, "wide", 3),
    (200, 15_000, "wide", 3),
    (1_000, 15_000, "wide", 1),
    (200, 50_000, "wide", 1),
    (200, 150_000, "wide", 1),
    (2, 1_000_000, "long", 3),
]


def bench_report() -> None:
    """JSON report vs its floor, and HTML vs JSON, at every size; growth tables in models and questions."""
    rng = np.random.default_rng(5)
    by_size: dict[tuple[int, int], float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for models, questions, layout, rounds in REPORT_CASES:
            path = Path(tmp) / f"{layout}-{models}x{questions}.csv"
            (_write_long if layout == "long" else _write_wide)(path, models, questions, rng)
            cases = {
                "json": ([PY, "-m", "exactstats", "report", str(path), "--json"], Path(tmp) / "r.json"),
                "html": ([PY, "-m", "exactstats", "report", str(path), "--out", str(Path(tmp) / "r.html")], None),
                "floor": ([PY, "-c", REPORT_FLOOR, str(path), layout], None),
            }
            t = alternated_processes(cases, repeat=rounds)
            case = f"{models:,} models x {questions:,} questions ({layout} CSV)"
            (json_s, json_peak), (html_s, html_peak), (floor_s, _) = t["json"], t["html"], t["floor"]
            row(
                "report",
                case,
                "exactstats report --json",
                json_s,
                "floor: read_csv + float32 product",
                floor_s,
                note=f"peak {fmt_bytes(json_peak)}; median of {rounds}",
            )
            row(
                "report",
                case,
                "exactstats report --out r.html",
                html_s,
                "exactstats report --json",
                json_s,
                note=f"HTML peak {fmt_bytes(html_peak)}; median of {rounds}",
            )
            by_size[(models, questions)] = json_s
    GROWTH.append(
        _growth("report --json, 15,000 questions", "models", {m: by_size[(m, q)] for m, q in by_size if q == 15_000})
    )
    GROWTH.append(
        _growth("report --json, 200 models", "questions", {q: by_size[(m, q)] for m, q in by_size if m == 200})
    )


def _write_battles(path: Path, battles: int, models: int, rng: np.random.Generator) -> None:
    import pandas as pd

    strength = np.linspace(1.5, -1.5, models)
    a = rng.integers(0, models, battles)
    b = (a + rng.integers(1, models, battles)) % models  # never a model against itself
    p = 1 / (1 + np.exp(strength[b] - strength[a]))
    u = rng.random(battles)
    winner = np.where(u < 0.1, "tie", np.where(u < 0.1 + 0.9 * p, "model_a", "model_b"))
    names = np.array([f"model-{i:03d}" for i in range(models)])
    pd.DataFrame({"model_a": names[a], "model_b": names[b], "winner": winner}).to_csv(path, index=False)


ARENA_CASES = [  # (battles, models, rounds)
    (10_000, 20, 3),
    (100_000, 20, 3),
    (1_000_000, 20, 3),
    (1_000_000, 100, 3),
    (10_000_000, 100, 1),
]
BOOTSTRAP_CASE = (100_000, 20)  # (battles, models)


def bench_arena() -> None:
    """``exactstats arena`` (JSON, every check) vs the float floor and FastChat's fit, as processes."""
    try:
        import sklearn  # noqa: F401

        fastchat = True
    except ImportError:
        fastchat = False
    rng = np.random.default_rng(6)
    by_battles: dict[int, float] = {}
    by_models: dict[int, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for battles, models, rounds in ARENA_CASES:
            path = Path(tmp) / f"battles-{battles}-{models}.csv"
            _write_battles(path, battles, models, rng)
            cases = {
                "ours": ([PY, "-m", "exactstats", "arena", str(path), "--json"], Path(tmp) / "a.json"),
                "floor": ([PY, "-c", ARENA_FLOOR, str(path)], None),
            }
            if fastchat:
                cases["fastchat"] = ([PY, "-c", FASTCHAT, str(path)], None)
            t = alternated_processes(cases, repeat=rounds)
            case = f"{battles:,} battles, {models} models"
            ours, peak = t["ours"]
            row(
                "arena",
                case,
                "exactstats arena --json",
                ours,
                "floor: read_csv + tally + MM fit",
                t["floor"][0],
                note=f"peak {fmt_bytes(peak)}; median of {rounds}",
            )
            if "fastchat" in t:
                row(
                    "arena",
                    case,
                    "exactstats arena --json",
                    ours,
                    "FastChat's method (sklearn)",
                    t["fastchat"][0],
                    note=f"FastChat peak {fmt_bytes(t['fastchat'][1])}",
                )
            if models == 100:
                by_battles[battles] = ours
            if battles == 1_000_000:
                by_models[models] = ours
        # bootstrap from the counts: 100 multinomial redraws of the pair counts
        battles, models = BOOTSTRAP_CASE
        path = Path(tmp) / "bootstrap.csv"
        _write_battles(path, battles, models, rng)
        t = alternated_processes(
            {
                "boot": ([PY, "-m", "exactstats", "arena", str(path), "--json", "--bootstrap", "100"], None),
                "plain": ([PY, "-m", "exactstats", "arena", str(path), "--json"], None),
            },
            repeat=3,
        )
        row(
            "arena",
            f"{battles:,} battles, {models} models, 100 bootstrap draws",
            "--bootstrap 100",
            t["boot"][0],
            "no bootstrap",
            t["plain"][0],
            note="the cost of the bootstrap itself is the difference",
        )
    GROWTH.append(_growth("arena --json, 100 models", "battles", by_battles))
    GROWTH.append(_growth("arena --json, 1,000,000 battles", "models", by_models))


# a random 0/1 int8 matrix M (an array or a memory map), drawn in slabs: a float matrix of this size would not fit
FILL = """
for start in range(0, M.shape[0], 500):
    stop = min(M.shape[0], start + 500)
    M[start:stop] = rng.random((stop - start, M.shape[1]), dtype=np.float32) < 0.6
"""

KERNEL = (
    """
import sys, time, numpy as np
from exactstats._blockwise import co_occurrence
models, questions = int(sys.argv[1]), int(sys.argv[2])
rng = np.random.default_rng(0)
M = np.empty((models, questions), dtype=np.int8)
"""
    + FILL
    + """
t = time.perf_counter()
both = co_occurrence(M)
print(time.perf_counter() - t, int(both[0, 0]))
"""
)

SCALE_CASES = [(1_000, 15_000), (1_000, 100_000), (3_000, 100_000), (10_000, 100_000)]


def bench_scale() -> None:
    """All-pairs co-occurrence (the heart of the discordance matrix) in a fresh process per size, with memory."""
    lines = ["| models x questions | pairs | kernel | process peak memory |", "|---|---|---|---|"]
    for models, questions in SCALE_CASES:
        with tempfile.NamedTemporaryFile("w+", suffix=".txt") as out:
            total, peak = run_process([PY, "-c", KERNEL, str(models), str(questions)], Path(out.name))
            kernel = float(Path(out.name).read_text().split()[0])
        pairs = models * (models - 1) // 2
        lines.append(f"| {models:,} x {questions:,} | {pairs:,} | {fmt(kernel)} | {fmt_bytes(peak)} |")
        print(
            f"scale        {models} x {questions}: kernel {fmt(kernel)}, process {fmt(total)}, peak {fmt_bytes(peak)}"
        )
    GROWTH.append(
        "Blockwise co-occurrence (int8 input, float32 blocks, one fresh process per size):\n\n" + "\n".join(lines)
    )
    bench_dask(*DASK_CASE)


DASK = (
    """
import sys, time, numpy as np
from pathlib import Path
models, questions, folder = int(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
rng = np.random.default_rng(1)
M = np.lib.format.open_memmap(folder / "m.npy", mode="w+", dtype=np.int8, shape=(models, questions))
"""
    + FILL
    + """
M.flush()
del M
from dask.distributed import Client, LocalCluster
from exactstats.blocks import pair_counts, pair_counts_dask
t = time.perf_counter()
one = pair_counts(folder / "m.npy")  # memory-mapped, a block of questions at a time
single = time.perf_counter() - t
t = time.perf_counter()
with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster):
    started = time.perf_counter() - t
    t = time.perf_counter()
    two = pair_counts_dask(folder / "m.npy", models_per_tile=models // 2)  # each task maps its own blocks
    spread = time.perf_counter() - t
assert (one.both == two.both).all() and (one.right == two.right).all()
print(single, spread, started)
"""
)


DASK_CASE = (3_000, 100_000)  # (models, questions)


def bench_dask(models: int, questions: int) -> None:
    """The same counts from a memory-mapped .npy file: one process (pair_counts) vs two Dask worker processes."""
    with tempfile.TemporaryDirectory() as tmp, tempfile.NamedTemporaryFile("w+", suffix=".txt") as out:
        run_process([PY, "-c", DASK, str(models), str(questions), tmp], Path(out.name))
        single, spread, started = map(float, Path(out.name).read_text().split())
    row(
        "scale",
        f"{models:,} x {questions:,} from a memory-mapped .npy",
        "Dask, 2 worker processes",
        spread,
        "pair_counts, one process",
        single,
        note=f"same counts; starting the local cluster took {fmt(started)} more",
    )


def _growth(what: str, size_name: str, times: dict[int, float]) -> str:
    """A growth table and its log-log slope."""
    sizes = sorted(times)
    lines = [f"| {size_name} | time |", "|---|---|"] + [f"| {s:,} | {fmt(times[s])} |" for s in sizes]
    slope = ""
    if len(sizes) >= 2:
        k = np.polyfit(np.log(sizes), np.log([times[s] for s in sizes]), 1)[0]
        slope = f" Time grows like {size_name}^{k:.2f} over this range."
    return f"{what}, by {size_name}.{slope}\n\n" + "\n".join(lines)
