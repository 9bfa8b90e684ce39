"""Audit published evaluation numbers: which counts, conventions and methods could have printed them.

A printed score stands for every value within half a unit of its last digit, so with a known
number of questions ``n`` it pins the count of right answers to a few integers
(:func:`counts_printing_as`). Every number derived from the count can then be checked exactly
against each count it allows: a standard error against the two usual conventions, ``n`` and
``n - 1`` (:func:`stderr_conventions`, exact by squaring), an interval against the usual methods
(:func:`interval_methods`), and a claimed order of two models against the most favourable data
the two scores allow (:func:`best_case_p_value`: no paired test can do better). The checks return
plain values; :func:`audit_rows` turns a table of published rows into findings, each with a
severity (``error``: no count, convention or method reproduces the number; ``warning``: only an
unusual one does, or the claim cannot hold for the data; ``note``) and the computation behind it.

>>> counts_printing_as("0.8613", 1319)          # 1136 right of 1319, and no other count
range(1136, 1137)
>>> len(counts_printing_as("0.8612", 1319))     # no count of 1319 prints so: a wrong score or n
0
>>> stderr_conventions("0.0095", 1136, 1319)
['n', 'n - 1']
>>> best_case_p_value(3, 0)     # three more right answers: at best three discordant questions, all one way
Fraction(1, 4)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ._validate import ExactStatsError, as_int, as_probability

__all__ = [
    "SEVERITIES",
    "rounding_interval",
    "counts_printing_as",
    "stderr_conventions",
    "interval_methods",
    "best_case_p_value",
    "AuditRow",
    "Finding",
    "audit_rows",
]

SEVERITIES = ("error", "warning", "note")
WALD_CHECKED_UP_TO = 2000  # a printed Wald interval's exact coverage is computed up to this many questions
WALD_SHORTFALL = Fraction(1, 100)  # a warning when its coverage near the printed score falls a point or more short


def rounding_interval(printed: str) -> tuple[Fraction, Fraction]:
    """Every exact value that prints as ``printed``: half a unit in its last digit either side.

    >>> rounding_interval("0.86")
    (Fraction(171, 200), Fraction(173, 200))
    """
    text = str(printed).strip().rstrip("%")
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise ExactStatsError(f"printed must be a decimal number such as 0.8612, got {printed!r}") from None
    decimals = len(text.split(".")[1]) if "." in text else 0
    half = Fraction(1, 2 * 10**decimals)
    return value - half, value + half


def counts_printing_as(printed: str, n: int, percent: bool = False) -> range:
    """Every count ``k`` of ``n`` whose share ``k / n`` (times 100 with ``percent``) prints as ``printed``.

    An empty range means no count does: the score, ``n`` or the rounding is wrong.

    >>> counts_printing_as("71.2", 1500, percent=True)
    range(1068, 1069)
    """
    n = as_int(n, "n", minimum=1)
    lo, hi = rounding_interval(printed)
    if percent:
        lo, hi = lo / 100, hi / 100
    first, last = max(0, math.ceil(lo * n)), min(n, math.floor(hi * n))
    return range(first, max(first, last + 1))


def _squared_in(printed: str, square: Fraction) -> bool:
    lo, hi = rounding_interval(printed)
    floor = lo if lo > 0 else Fraction(0)
    return floor**2 <= square <= hi**2


def stderr_conventions(printed: str, k: int, n: int) -> list[str]:
    """Which conventions print a standard error of ``k / n`` as ``printed``: ``"n"`` for
    ``sqrt(p(1 - p) / n)``, ``"n - 1"`` for ``sqrt(p(1 - p) / (n - 1))`` (the sample variance, as lm-eval).
    Decided exactly, by comparing squares.

    >>> stderr_conventions("0.000", 1136, 1319), stderr_conventions("0.0", 1136, 1319)  # "0.0" allows 0.0095
    ([], ['n', 'n - 1'])
    """
    n = as_int(n, "n", minimum=1)
    k = as_int(k, "k", minimum=0, maximum=n)
    p = Fraction(k, n)
    found = ["n"] if _squared_in(printed, p * (1 - p) / n) else []
    if n > 1 and _squared_in(printed, p * (1 - p) / (n - 1)):
        found.append("n - 1")
    return found


def interval_methods(low: str, high: str, k: int, n: int, confidence: Any = "0.95") -> list[str]:
    """Methods whose interval from ``k`` right of ``n`` prints with the ends ``low`` and ``high``: ``"wald"``,
    ``"t"`` (Student's t on n - 1 degrees of freedom with the sample variance, as a mean of 0/1 scores),
    ``"wilson"``, ``"clopper-pearson"`` and ``"agresti-coull"``, at ``confidence``. Their ends involve a
    normal or beta quantile, so they are computed in floats; an end within 1e-12 of the rounding interval
    counts as printing so.

    >>> interval_methods("0.3968", "0.8922", 7, 10), interval_methods("0.3475", "0.9333", 7, 10)
    (['wilson'], ['clopper-pearson'])
    """
    from .errorbars import clopper_pearson_interval_float, clt_interval_float, wilson_interval_float, z_value_float

    n = as_int(n, "n", minimum=1)
    k = as_int(k, "k", minimum=0, maximum=n)
    level = as_probability(confidence, "confidence", open_low=True, open_high=True)
    z = z_value_float(level)
    centre = (k + z * z / 2) / (n + z * z)
    half = z * math.sqrt(centre * (1 - centre) / (n + z * z))
    t_half = _t_quantile(level, n) * math.sqrt(k * (n - k) / n / n / (n - 1)) if n > 1 else math.inf
    candidates = {
        "wald": tuple(clt_interval_float(k, n, level)),
        "t": (k / n - t_half, k / n + t_half),
        "wilson": tuple(wilson_interval_float(k, n, level)),
        "clopper-pearson": tuple(clopper_pearson_interval_float(k, n, level)),
        "agresti-coull": (centre - half, centre + half),
    }
    ends = [rounding_interval(low), rounding_interval(high)]
    return [
        name
        for name, values in candidates.items()
        if all(float(lo) - 1e-12 <= v <= float(hi) + 1e-12 for v, (lo, hi) in zip(values, ends))
    ]


def _t_quantile(level: Fraction, n: int) -> float:
    from scipy.stats import t

    return float(t.ppf((1 + float(level)) / 2, n - 1))


def best_case_p_value(k_better: int, k_worse: int) -> Fraction:
    """The smallest exact McNemar p-value any paired data can give two models with ``k_better`` and
    ``k_worse`` right answers on the same questions: every discordant question favours the better model,
    ``d = k_better - k_worse`` of them, so ``p = min(1, 2 / 2^d)``. A larger split of discordant questions,
    with the same difference, only raises the p-value (checked by enumeration in the tests).

    >>> best_case_p_value(1000, 995)
    Fraction(1, 16)
    """
    better = as_int(k_better, "k_better", minimum=0)
    worse = as_int(k_worse, "k_worse", minimum=0)
    d = abs(better - worse)
    return min(Fraction(1), Fraction(2, 2**d)) if d else Fraction(1)


@dataclass
class AuditRow:
    """One published result: a name and its printed score, and what else was printed with it (as text)."""

    name: str
    score: str
    n: int | None = None
    stderr: str | None = None
    ci_low: str | None = None
    ci_high: str | None = None
    ci_level: str = "0.95"
    percent: bool = False  # the score (and stderr, interval) printed in percent
    k: int | None = None  # pass@k: the k of the score, with samples per problem below
    samples: int | None = None
    right: int | None = None  # the count of right answers, where per-sample results give it exactly


@dataclass
class Finding:
    """What one check found about one row: a severity, the check, what it means and how it was computed."""

    severity: str
    row: str
    check: str
    message: str
    computation: str = ""


@dataclass
class _Context:
    findings: list[Finding] = field(default_factory=list)

    def add(self, severity: str, row: str, check: str, message: str, computation: str = "") -> None:
        self.findings.append(Finding(severity, row, check, message, computation))


def audit_rows(rows: list[AuditRow], alpha: Any = "0.05") -> list[Finding]:
    """Every check on every row, then on the ranking the scores claim (best first).

    >>> found = audit_rows([AuditRow("a", "0.86", n=1319, stderr="0.000")])
    >>> [(f.severity, f.check) for f in found]
    [('error', 'stderr')]
    """
    level = as_probability(alpha, "alpha", open_low=True, open_high=True)
    ctx = _Context()
    shares = [_in_shares(row) for row in rows]
    counts: dict[str, range] = {}
    for row in shares:
        if row.k is not None:
            _check_pass_at_k(ctx, row, shares)
            continue
        allowed = _check_counts(ctx, row)
        if allowed is not None:
            counts[row.name] = allowed
            _check_stderr(ctx, row, allowed)
            _check_interval(ctx, row, allowed)
    ranked = sorted((r for r in shares if r.name in counts), key=lambda r: -Fraction(r.score))
    _check_ranking(ctx, ranked, counts, level)
    return ctx.findings


def _in_shares(row: AuditRow) -> AuditRow:
    """A row printed in percent, as the shares it stands for (12.3 -> 0.123, keeping its precision)."""
    if not row.percent:
        return row

    def share(text: str | None) -> str | None:
        if text is None:
            return None
        digits = len(text.rstrip("%").split(".")[1]) + 2 if "." in text else 2
        return f"{Decimal(text.rstrip('%')) / 100:.{digits}f}"  # exact: a decimal over 100 is a decimal

    return replace(
        row, score=share(row.score) or "", stderr=share(row.stderr), ci_low=share(row.ci_low),
        ci_high=share(row.ci_high), percent=False,
    )  # fmt: skip


def _check_counts(ctx: _Context, row: AuditRow) -> range | None:
    if row.n is None:
        if row.stderr is not None or row.ci_low is not None:
            ctx.add("note", row.name, "counts", "no number of questions given: the stderr and interval are not checked")
        return None
    allowed = counts_printing_as(row.score, row.n)
    if row.right is not None:  # the samples say exactly how many were right
        if row.right not in allowed:
            ctx.add(
                "error", row.name, "counts", f"the score {row.score} is not the samples' {row.right} of {row.n}",
                f"{row.right}/{row.n} = {float(Fraction(row.right, row.n)):.12f}",
            )  # fmt: skip
            return None
        return range(row.right, row.right + 1)
    if not allowed:
        lo, hi = rounding_interval(row.score)
        shown = f"k/n in [{lo}, {hi}] for an integer k, n = {row.n}"
        ctx.add("error", row.name, "counts", f"no count of {row.n} questions prints as {row.score}", shown)
        return None
    return allowed


def _check_stderr(ctx: _Context, row: AuditRow, allowed: range) -> None:
    if row.stderr is None or row.n is None:
        return
    conventions = sorted({c for k in _sample(allowed) for c in stderr_conventions(row.stderr, k, row.n)})
    if not conventions and Fraction(row.stderr) == 0 and allowed.start > 0 and allowed.stop - 1 < row.n:
        ctx.add(
            "error", row.name, "stderr", f"a stderr of {row.stderr} at a score of {row.score}, inside (0, 1): "
            "no convention gives it", f"counts {allowed.start}..{allowed.stop - 1} of {row.n}, none 0 or n",
        )  # fmt: skip
    elif not conventions:
        ctx.add(
            "warning",
            row.name,
            "stderr",
            f"stderr {row.stderr} matches neither sqrt(p(1-p)/n) nor sqrt(p(1-p)/(n-1)) for any allowed count"
            + _other_conventions(row.stderr, allowed, row.n),
            f"counts {allowed.start}..{allowed.stop - 1} of {row.n}",
        )


def _other_conventions(printed: str, allowed: range, n: int) -> str:
    """What could print a stderr the binomial conventions cannot: its ratio to the binomial stderr, as a
    clustered stderr's design effect (the ratio squared) and as the most bootstrap draws whose estimate
    lands that far from the binomial one within two of its standard errors (relative error about
    1/sqrt(2B), a normal approximation, so floats)."""
    lo, hi = (float(x) for x in rounding_interval(printed))
    binomial = [math.sqrt(k * (n - k) / n**3) for k in (allowed.start, allowed.stop - 1) if 0 < k < n]
    if not binomial or hi <= 0:
        return ""
    ratio_lo, ratio_hi = max(lo, 0.0) / max(binomial), hi / min(binomial)
    if ratio_lo <= 1 <= ratio_hi:
        bootstrap = "so would a bootstrap of the score"
    else:
        draws = math.floor(2 / min(abs(ratio_lo - 1), abs(ratio_hi - 1)) ** 2)
        bootstrap = (
            f"a bootstrap of at most {draws:,} draws could land this far from it"
            if draws >= 10
            else "a bootstrap would not"
        )
    return (
        f"; it is {ratio_lo:.3g} to {ratio_hi:.3g} times the binomial stderr: a clustered stderr with design "
        f"effect {ratio_lo**2:.3g} to {ratio_hi**2:.3g} would explain it; {bootstrap} (say which)"
    )


def _sample(allowed: range, most: int = 50) -> range:
    """The allowed counts, or an even sample of them when there are many (the conventions vary smoothly)."""
    step = max(1, len(allowed) // most)
    return range(allowed.start, allowed.stop, step)


def _check_interval(ctx: _Context, row: AuditRow, allowed: range) -> None:
    if row.ci_low is None or row.ci_high is None or row.n is None:
        return
    n, low, high = row.n, row.ci_low, row.ci_high
    methods = sorted({m for k in _sample(allowed) for m in interval_methods(low, high, k, n, row.ci_level)})
    if not methods:
        ctx.add(
            "warning",
            row.name,
            "interval",
            f"[{low}, {high}] is no Wald, Wilson, Clopper-Pearson or Agresti-Coull interval at level "
            f"{row.ci_level} for any allowed count (a bootstrap or clustered interval would explain it)",
        )
    elif methods == ["wald"] and n <= WALD_CHECKED_UP_TO:
        _wald_coverage(ctx, row, allowed)
    else:
        ctx.add("note", row.name, "interval", f"the interval is {' or '.join(methods)} at level {row.ci_level}")


def _wald_coverage(ctx: _Context, row: AuditRow, allowed: range) -> None:
    """A printed Wald interval, with its coverage where the true rate plausibly is: exact at the printed score,
    and the worst over true rates within two standard errors of it (float twin, 41 points)."""
    from .levels import interval_coverage, interval_coverage_float

    n = row.n
    assert n is not None
    at = Fraction(allowed.start, n)
    level = Fraction(row.ci_level)
    exact = interval_coverage("wald", n, at, row.ci_level)
    se = math.sqrt(float(at * (1 - at)) / n) or 1 / n
    grid = [min(1 - 1e-9, max(1e-9, float(at) + se * (i / 10 - 2))) for i in range(41)]
    worst = min(interval_coverage_float("wald", n, q, row.ci_level) for q in grid)
    shown = f"exact coverage at p = {at}: {float(exact):.4f}; worst within two standard errors: {worst:.4f}"
    if min(float(exact), worst) < float(level) - WALD_SHORTFALL:
        ctx.add(
            "warning",
            row.name,
            "interval",
            f"a Wald interval at n = {n}: for true rates near the printed score it covers as little as "
            f"{min(float(exact), worst):.1%} of the time, not {float(level):.0%}",
            shown,
        )
    else:
        ctx.add("note", row.name, "interval", f"the interval is wald at level {row.ci_level} (its coverage near "
                "the printed score is within a point of the level)", shown)  # fmt: skip


def _check_ranking(ctx: _Context, rows: list[AuditRow], counts: dict[str, range], alpha: Fraction) -> None:
    """Neighbours in the ranking: could any paired data separate them? Holm over the adjacent pairs."""
    pairs = []
    for upper, lower in zip(rows, rows[1:]):
        if upper.n != lower.n:
            continue
        k_up, k_low = counts[upper.name].stop - 1, counts[lower.name].start  # the widest gap the printing allows
        pairs.append((upper.name, lower.name, best_case_p_value(k_up, k_low), k_up - k_low))
    m = len(pairs)
    ordered = sorted(pairs, key=lambda t: t[2])
    stuck = next((rank for rank, t in enumerate(ordered) if t[2] * (m - rank) > alpha), m)
    for up, low, p, d in ordered[stuck:]:  # Holm stops at the first pair over its threshold
        ctx.add(
            "warning",
            f"{up} > {low}",
            "ranking",
            "no paired data consistent with the printed scores can separate these two (Holm over "
            f"{m} adjacent pair{'s' if m > 1 else ''}): rank them as tied",
            f"best case: {d} discordant questions all one way, exact McNemar p = {p}",
        )
    if m > 1:
        ctx.add("note", "ranking", "multiplicity", f"{m} adjacent comparisons: a ranking needs a correction for "
                "many comparisons (Holm here)")  # fmt: skip


def _check_pass_at_k(ctx: _Context, row: AuditRow, rows: list[AuditRow]) -> None:
    k, label = row.k, f"{row.name} pass@{row.k}"
    assert k is not None
    if row.samples is not None and k > row.samples:
        ctx.add("error", label, "pass@k", f"pass@{k} from {row.samples} samples per problem: k > n is undefined")
        return
    if row.samples == 1 and k > 1:
        ctx.add("error", label, "pass@k", f"pass@{k} from one sample per problem (a greedy run) is not pass@{k}")
        return
    ones = [r for r in rows if r.k == 1 and r.name == row.name]
    if k == 1 or not ones:
        return
    lo1, hi1 = rounding_interval(ones[0].score)
    lo, hi = rounding_interval(row.score)
    bound = 1 - (1 - hi1) ** k
    if hi < lo1:
        ctx.add("error", label, "pass@k", f"pass@{k} below pass@1: pass@k never falls as k grows")
    elif lo > bound:
        ctx.add(
            "warning",
            label,
            "pass@k",
            f"pass@{k} above 1 - (1 - pass@1)^{k}, the most any mix of problem difficulties allows",
            f"pass@1 at most {float(hi1):.6g}: bound {float(bound):.6g}",
        )
