"""How many samples per problem? The standard error of a mean pass@k or pass^k, split and planned.

The mean of a per-problem estimate over ``P`` problems varies for two reasons: the problems
differ in difficulty (between, fixed by the benchmark) and each problem's estimate is noisy
because only ``n`` samples were drawn (within, shrinking as ``n`` grows). With the true rates
``p_i`` of the problems,

``Var(mean) = (between + mean_i Var_n(estimate | p_i)) / P``.

Each part is estimated without bias from the samples already drawn. For a planned ``m <= n``
samples per problem, the within part of problem ``i`` is estimated by averaging the squared
estimate over every ``m``-subset of its samples (a hypergeometric sum) and subtracting an
unbiased estimate of the squared mean (the pass@k identity with ``2k`` draws); both are exact
fractions (:func:`within_variance_estimate`). For ``m > n`` the within part is extrapolated as
``n/m`` times its value at ``n``, which is exact for pass@1 and the large-``m`` rate otherwise.
The planner then finds the fewest samples per problem for a target standard error, or says
that no number of samples reaches it (the between part alone is above it: more problems are
needed, not more samples).

>>> within_variance_estimate(10, 4, 1, 10)  # pass@1: c (n - c) / (n^2 (n - 1)), the variance of c/n
Fraction(2, 75)
>>> plan = samples_per_problem_float([(10, 4), (10, 9), (10, 0), (10, 6)], 1, "0.2")
>>> plan.n, round(plan.standard_error, 4)
(5, 0.199)
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any, NamedTuple

from ._binomial import comb
from ._validate import ExactStatsError, as_choice, as_fraction, as_int, as_sample_counts, log2_comb, refuse_if_too_big

__all__ = [
    "MEASURES",
    "within_variance_estimate",
    "SamplesPlan",
    "standard_error_at_float",
    "samples_per_problem_float",
]

MEASURES = ("pass@k", "pass^k")


def within_variance_estimate(n: int, c: int, k: int, m: int, measure: str = "pass@k") -> Fraction:
    """Unbiased estimate, from one problem's ``n`` samples with ``c`` passing, of the variance of its
    unbiased pass@k (or pass^k) estimate if ``m`` samples had been drawn (``k <= m <= n``, ``2k <= n``).

    ``sum_j H(j) Y_m(j)^2 - U``: ``H`` the hypergeometric chance that ``j`` of ``m`` samples drawn from
    the ``n`` pass, ``Y_m(j)`` the estimate's complement ``C(m - j, k)/C(m, k)`` (pass@k) or the
    estimate ``C(j, k)/C(m, k)`` (pass^k), and ``U`` the unbiased estimate of its squared mean,
    ``C(n - c, 2k)/C(n, 2k)`` or ``C(c, 2k)/C(n, 2k)``. It can be negative on one problem.

    >>> within_variance_estimate(10, 4, 2, 6), within_variance_estimate(10, 4, 2, 6, "pass^k")
    (Fraction(43, 630), Fraction(1, 42))
    """
    n, c, k = as_sample_counts(n, c, k)
    m = as_int(m, "m", minimum=k, maximum=n)
    measure = as_choice(measure, "measure", MEASURES)
    if 2 * k > n:
        raise ExactStatsError(f"k must be <= n/2 = {n // 2} for an unbiased variance estimate (2k draws), got {k}")
    refuse_if_too_big(
        log2_comb(n, m) + log2_comb(n, 2 * k) + (min(c, n - c, m) + 1).bit_length() * 64,
        f"within_variance_estimate at n = {n}, m = {m}",
        "standard_error_at_float on fewer samples per problem",
    )
    failing = n - c if measure == "pass@k" else c  # pass@k's complement counts failures, pass^k counts passes
    total = comb(n, m)
    second = sum(
        (Fraction(comb(failing, j) * comb(n - failing, m - j), total) * Fraction(comb(j, k), comb(m, k)) ** 2)
        for j in range(k, min(failing, m) + 1)
    )
    return Fraction(second) - Fraction(comb(failing, 2 * k), comb(n, 2 * k))


class SamplesPlan(NamedTuple):
    """The fewest samples per problem for a target standard error of a mean pass@k or pass^k."""

    n: int | None  # samples per problem (None: no number of samples reaches the target)
    standard_error: float  # at that n (at the largest n tried when none reaches it)
    floor: float  # sqrt(between / P): the standard error with infinitely many samples per problem
    between: float  # variance of the problems' true values (estimated, at least 0)
    within: float  # mean within-problem variance at the samples drawn


def _parts(table: Iterable[tuple[int, int]], k: int, measure: str) -> tuple[list[tuple[int, int]], int, int]:
    rows = [as_sample_counts(n, c, k)[:2] for n, c in table]
    if len(rows) < 2:
        raise ExactStatsError(f"table must hold at least 2 problems (the between part needs 2), got {len(rows)}")
    k = as_int(k, "k", minimum=1)
    smallest = min(n for n, _ in rows)
    if 2 * k > smallest:
        raise ExactStatsError(f"k must be <= {smallest // 2}, half the fewest samples of any problem, got {k}")
    as_choice(measure, "measure", MEASURES)
    return rows, k, smallest


def _estimate(n: int, c: int, k: int, measure: str) -> Fraction:
    failing = n - c if measure == "pass@k" else c
    value = Fraction(comb(failing, k), comb(n, k))
    return 1 - value if measure == "pass@k" else value


def _split(rows: list[tuple[int, int]], k: int, measure: str) -> tuple[float, list[Fraction]]:
    """The between-problem variance (at least 0) and each problem's within variance at its own n."""
    values = [_estimate(n, c, k, measure) for n, c in rows]
    mean = sum(values, Fraction(0)) / len(values)
    spread = sum(((v - mean) ** 2 for v in values), Fraction(0)) / (len(values) - 1)
    within = [within_variance_estimate(n, c, k, n, measure) for n, c in rows]
    return max(0.0, float(spread - sum(within, Fraction(0)) / len(within))), within


def _within_at(rows: list[tuple[int, int]], within_own: list[Fraction], k: int, m: int, measure: str) -> float:
    """Mean within variance at m samples per problem: exact-unbiased where m <= n, else extrapolated as n/m."""
    parts = [
        within_variance_estimate(n, c, k, m, measure) if m <= n else w * Fraction(n, m)
        for (n, c), w in zip(rows, within_own)
    ]
    return float(sum(parts, Fraction(0)) / len(parts))


def _standard_error(
    rows: list[tuple[int, int]], k: int, m: int, measure: str, parts: tuple[float, list[Fraction]]
) -> float:
    between, within = parts
    variance = max(0.0, between + _within_at(rows, within, k, m, measure)) / len(rows)
    return float(variance**0.5)


def standard_error_at_float(table: Any, k: int, m: int, measure: str = "pass@k") -> float:
    """Estimated standard error of the mean pass@k (or pass^k) over these problems with ``m`` samples each.

    >>> round(standard_error_at_float([(10, 4), (10, 9), (10, 0), (10, 6)], 1, 10), 4)
    0.1887
    """
    rows, k, _ = _parts(table, k, measure)
    m = as_int(m, "m", minimum=k)
    return _standard_error(rows, k, m, measure, _split(rows, k, measure))


def samples_per_problem_float(
    table: Any, k: int, target: Any, measure: str = "pass@k", max_n: int = 10_000
) -> SamplesPlan:
    """The fewest samples per problem (``k``..``max_n``) whose estimated standard error of the mean
    pass@k (or pass^k) is at most ``target``, from the samples drawn so far (``(n, c)`` per problem).

    >>> plan = samples_per_problem_float([(20, 4), (20, 19), (20, 0), (20, 11), (20, 7)], 5, "0.05")
    >>> plan.n is None, round(plan.floor, 3)  # the problems differ too much: more problems, not samples
    (True, 0.184)
    """
    rows, k, _ = _parts(table, k, measure)
    target_value = as_fraction(target, "target")
    if target_value <= 0:
        raise ExactStatsError(f"target must be a standard error > 0, got {target_value}")
    goal = float(target_value)
    max_n = as_int(max_n, "max_n", minimum=k)
    parts = _split(rows, k, measure)  # once: every m below reuses the problems' own within parts
    between, within = parts
    floor = (between / len(rows)) ** 0.5
    mean_within = float(sum(within, Fraction(0)) / len(within))

    def se(m: int) -> float:
        return _standard_error(rows, k, m, measure, parts)

    if se(max_n) > goal:
        return SamplesPlan(None, se(max_n), floor, between, mean_within)
    largest = max(n for n, _ in rows)
    for m in range(k, min(largest, max_n) + 1):  # unbiased estimates here: not assumed monotone, each one tried
        if se(m) <= goal:
            return SamplesPlan(m, se(m), floor, between, mean_within)
    lo, hi = largest + 1, max_n  # beyond the samples drawn every within part falls as n/m: bisect
    while lo < hi:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if se(mid) <= goal else (mid + 1, hi)
    return SamplesPlan(lo, se(lo), floor, between, mean_within)
