"""Does a test hold its level, does an interval hold its coverage? Exact answers, as finite sums.

A 95% interval method *covers* the true accuracy ``p`` with chance
``sum_k P(X = k) [p in CI(k)]``, ``X ~ Binomial(n, p)``: a finite sum, rational at a
rational ``p``. A paired test rejects with chance ``sum_(b, c) P(b, c) [rejects(b, c)]``
over the trinomial outcomes of ``n`` questions; at a point of the null hypothesis that
is the test's *size*, which must stay at or below its level for every value of the
nuisance parameter (the discordance rate ``q``). This module computes both exactly.

A grid of ``p`` or ``q`` values gives the exact coverage or size *at those points*: its
worst value is a bound on the true worst case from one side only (the worst case may
lie between grid points). Where a bound from the other side exists, it is given:

- a test that conditions on the ``m`` discordant questions has size at any ``q`` equal to
  an average of its conditional sizes ``r_m``, so ``max_m r_m`` bounds the size for every
  ``q`` (:attr:`SizeTable.bound`);
- Wald's interval at ``k = 0`` is the single point 0, so its coverage is at most
  ``1 - (1 - p)**n``, which tends to 0 as ``p`` nears 0 (and, by symmetry, 1);
- Clopper-Pearson's coverage is at least the confidence level for every ``p`` (a theorem;
  the grid checks it); the paired equivalence test holds its level by the Berger-Boos
  argument (:mod:`exactstats.equivalence`).

Intervals use the normal quantile ``z`` as the exact decimal of its float, as
:func:`exactstats.wilson_interval` does, so every comparison is between rationals.

>>> float(interval_coverage("wald", 30, "0.01"))
0.2600770287130862
>>> interval_coverage("clopper-pearson", 30, "0.01") >= Fraction(95, 100)
True
>>> round(float(exact_size("mcnemar", 100, "0.2")), 6)
0.02944
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ._binomial import binomial_lower_sum, reduced_fraction, region_sum, trinomial_integers
from ._normal import z_value_float
from ._validate import (
    ExactStatsError,
    as_cell_probabilities,
    as_choice,
    as_fraction,
    as_int,
    as_probability,
    refuse_if_too_big,
)

__all__ = [
    "INTERVAL_METHODS",
    "PAIRED_TESTS",
    "interval_covers",
    "interval_coverage",
    "interval_coverage_float",
    "paired_interval_coverage",
    "paired_interval_coverage_float",
    "paired_rejection_probability",
    "conditional_sizes",
    "exact_size",
    "exact_size_float",
    "CoverageTable",
    "coverage_table",
    "SizeTable",
    "size_table",
]

INTERVAL_METHODS = {
    "wald": "Wald / CLT: p +- z sqrt(p(1-p)/n) (clt_interval_float)",
    "wilson": "Wilson score (wilson_interval)",
    "agresti-coull": "Agresti-Coull: Wald around (k + z^2/2)/(n + z^2)",
    "clopper-pearson": "Clopper-Pearson, exact binomial tails (clopper_pearson_interval)",
}

PAIRED_TESTS = {
    "mcnemar": "exact McNemar, two-sided (mcnemar_p_value; also arena sign_test and the pass@k sign test)",
    "mcnemar-mid-p": "exact McNemar with mid-p (mcnemar_p_value(mid_p=True))",
    "mcnemar-chi2": "McNemar chi-square with continuity correction (mcnemar_chi_square_p_float)",
    "mcnemar-chi2-uncorrected": "McNemar chi-square without correction (mcnemar_chi_square_p_float(correction=False))",
    "equivalence": "paired TOST with a margin on the gap (paired_equivalence_p_value)",
    "non-inferiority": "paired non-inferiority with a margin (paired_equivalence_p_value)",
}
_MARGIN_TESTS = ("equivalence", "non-inferiority")
_MAX_PAIRED_N = 400  # the paired interval's coverage sums over every (b, c): about n^2 / 2 outcomes


def _z(confidence: Any) -> Fraction:
    return Fraction(z_value_float(confidence))


def _binomial_terms(n: int, p: Fraction) -> list[int]:
    """``C(n, k) a^k (s - a)^(n - k)`` for k = 0..n, where ``p = a/s``: the pmf times ``s^n``."""
    a, s = p.numerator, p.denominator
    w = s - a
    if a == 0 or w == 0:  # p = 0 or 1 (then s = 1): all the mass on k = 0 or k = n
        sure = 0 if a == 0 else n
        return [int(k == sure) for k in range(n + 1)]
    terms = [w**n]
    for k in range(n):
        terms.append(terms[-1] * (n - k) * a // ((k + 1) * w))
    return terms


def _interval_args(method: Any, n: Any, p: Any, confidence: Any) -> tuple[str, int, Fraction, Fraction]:
    method = as_choice(method, "method", tuple(INTERVAL_METHODS))
    n = as_int(n, "n", minimum=1)
    p = as_probability(p, "p")
    level = as_probability(confidence, "confidence", open_low=True, open_high=True)
    return method, n, p, level


def _covered(method: str, n: int, p: Fraction, level: Fraction) -> list[bool]:
    """Which k in 0..n give an interval that contains p (exact rational comparisons)."""
    if method == "clopper-pearson":
        terms = _binomial_terms(n, p)
        total = sum(terms)
        half = (1 - level) / 2 * total  # compare integer tails with alpha/2 * s^n
        out, below = [], 0
        for k in range(n + 1):
            at_least = total - below  # P(X >= k) * s^n
            below += terms[k]  # now P(X <= k) * s^n
            out.append((k == 0 or at_least >= half) and (k == n or below >= half))
        return out
    z2 = _z(level) ** 2
    if method == "wald":  # (k/n - p)^2 <= z^2 phat (1 - phat) / n
        return [(Fraction(k, n) - p) ** 2 * n * n * n <= z2 * k * (n - k) for k in range(n + 1)]
    if method == "wilson":  # (k/n - p)^2 <= z^2 p (1 - p) / n: the set of p a score test keeps
        return [(Fraction(k, n) - p) ** 2 * n <= z2 * p * (1 - p) for k in range(n + 1)]
    out = []  # Agresti-Coull
    for k in range(n + 1):
        n_tilde = n + z2
        centre = (k + z2 / 2) / n_tilde
        out.append((p - centre) ** 2 * n_tilde <= z2 * centre * (1 - centre))
    return out


def interval_covers(method: str, k: int, n: int, p: Any, confidence: Any = "0.95") -> bool:
    """Does the ``method`` interval computed from ``k`` right of ``n`` contain ``p``? Decided exactly.

    >>> interval_covers("wald", 0, 30, "0.01"), interval_covers("wilson", 0, 30, "0.01")
    (False, True)
    """
    method, n, p, level = _interval_args(method, n, p, confidence)
    k = as_int(k, "k", minimum=0, maximum=n)
    return _covered(method, n, p, level)[k]


def interval_coverage(method: str, n: int, p: Any, confidence: Any = "0.95") -> Fraction:
    """Exact chance that the ``method`` interval from ``X ~ Binomial(n, p)`` contains ``p``.

    Methods: :data:`INTERVAL_METHODS`. A rational ``p`` gives a Fraction.

    >>> float(interval_coverage("wilson", 30, "0.01"))
    0.9638520016877593
    >>> interval_coverage("wald", 10, "1/2")
    Fraction(57, 64)
    """
    method, n, p, level = _interval_args(method, n, p, confidence)
    # n + 1 terms of about n log2(den) bits: refused past n of a few thousand (at den = 100), naming the twin
    refuse_if_too_big(n * math.log2(p.denominator + 1) * n / 64, "exact interval_coverage", "interval_coverage_float")
    terms = _binomial_terms(n, p)
    inside = sum(t for t, ok in zip(terms, _covered(method, n, p, level)) if ok)
    return reduced_fraction(inside, p.denominator**n, radical=p.denominator)


def interval_coverage_float(method: str, n: int, p: Any, confidence: Any = "0.95") -> float:
    """Float twin of :func:`interval_coverage` (NumPy and SciPy; ``p`` may be any float in [0, 1]).

    >>> round(interval_coverage_float("wald", 30, 0.01), 6)
    0.260077
    """
    import numpy as np
    from scipy import stats

    method = as_choice(method, "method", tuple(INTERVAL_METHODS))
    n = as_int(n, "n", minimum=1)
    pf = float(as_probability(p, "p"))
    level = float(as_probability(confidence, "confidence", open_low=True, open_high=True))
    z = z_value_float(level)
    k = np.arange(n + 1)
    phat: Any = k / n
    centre: Any
    if method == "clopper-pearson":
        half = (1 - level) / 2
        lo = np.where(k == 0, 0.0, stats.beta.ppf(half, k, n - k + 1))
        hi = np.where(k == n, 1.0, stats.beta.ppf(1 - half, k + 1, n - k))
    else:
        if method == "wald":
            centre, spread = phat, z * np.sqrt(phat * (1 - phat) / n)
        elif method == "wilson":
            d = 1 + z * z / n
            centre = (phat + z * z / (2 * n)) / d
            spread = z * np.sqrt(phat * (1 - phat) / n + z * z / (4 * n * n)) / d
        else:
            nt = n + z * z
            centre = (k + z * z / 2) / nt
            spread = z * np.sqrt(centre * (1 - centre) / nt)
        lo, hi = centre - spread, centre + spread
    inside = (lo <= pf) & (pf <= hi)
    return float(stats.binom.pmf(k[inside], n, pf).sum())


def _paired_covered(b: int, c: int, n: int, gap: Fraction, z2: Fraction, ddof: int) -> bool:
    d = Fraction(b - c, n)
    q = Fraction(b + c, n)
    return (d - gap) ** 2 * (n - ddof) <= z2 * (q - d * d)


def paired_interval_coverage(n: int, p_b: Any, p_c: Any, confidence: Any = "0.95", ddof: int = 1) -> Fraction:
    """Exact coverage of :func:`exactstats.paired_difference_interval` for the gap ``p_b - p_c``.

    Sums the trinomial chance of every outcome ``(b, c)`` of ``n`` questions whose
    interval contains the true gap. Exact up to n = 400 (about 80,000 outcomes).

    >>> round(float(paired_interval_coverage(30, "0.1", "0.02")), 6)
    0.94846
    """
    n = as_int(n, "n", minimum=2, maximum=_MAX_PAIRED_N)
    pb, pc = as_cell_probabilities(p_b, p_c)
    ddof = as_int(ddof, "ddof", minimum=0, maximum=1)
    z2 = _z(as_probability(confidence, "confidence", open_low=True, open_high=True)) ** 2

    def covering(m: int) -> list[tuple[int, int]]:  # the runs of b (of m discordant) whose interval holds the gap
        return _runs([_paired_covered(b, m - b, n, pb - pc, z2, ddof) for b in range(m + 1)])

    return paired_rejection_probability(n, pb, pc, covering)


def _runs(flags: list[bool]) -> list[tuple[int, int]]:
    """The maximal runs ``(lo, hi)`` of positions where ``flags`` is true."""
    out: list[tuple[int, int]] = []
    for i, flag in enumerate(flags):
        if flag and out and out[-1][1] == i - 1:
            out[-1] = (out[-1][0], i)
        elif flag:
            out.append((i, i))
    return out


def paired_interval_coverage_float(n: int, p_b: Any, p_c: Any, confidence: Any = "0.95", ddof: int = 1) -> float:
    """Float twin of :func:`paired_interval_coverage`, for any ``n`` (a vectorised sum over (b, c)).

    >>> round(paired_interval_coverage_float(30, "0.1", "0.02"), 6)
    0.94846
    """
    import numpy as np
    from scipy import special

    n = as_int(n, "n", minimum=2)
    pb, pc = as_cell_probabilities(p_b, p_c)
    ddof = as_int(ddof, "ddof", minimum=0, maximum=1)
    z = z_value_float(as_probability(confidence, "confidence", open_low=True, open_high=True))
    b = np.arange(n + 1)[:, None]
    c = np.arange(n + 1)[None, :]
    valid = b + c <= n
    d, q = (b - c) / n, (b + c) / n
    covered = valid & ((d - float(pb - pc)) ** 2 * (n - ddof) <= z * z * (q - d * d))
    with np.errstate(divide="ignore", invalid="ignore"):
        logp = (
            special.gammaln(n + 1)
            - special.gammaln(b + 1)
            - special.gammaln(c + 1)
            - special.gammaln(np.maximum(n - b - c, 0) + 1)
            + special.xlogy(b, float(pb))
            + special.xlogy(c, float(pc))
            + special.xlogy(n - b - c, float(1 - pb - pc))
        )
    return float(np.exp(logp[covered]).sum())


Region = Callable[[int], Sequence[tuple[int, int]]]


def paired_rejection_probability(n: int, p_b: Any, p_c: Any, region: Region) -> Fraction:
    """Exact chance that a paired test rejects, when ``region(m)`` lists the intervals ``(lo, hi)`` of
    ``b`` (of ``m`` discordant questions) where it rejects. Any test that depends on ``(b, c)`` fits.

    >>> paired_rejection_probability(3, "1/2", "1/4", lambda m: [(m, m)] if m else [])  # b = m >= 1
    Fraction(13, 32)
    """
    n = as_int(n, "n", minimum=1)
    pb, pc = as_cell_probabilities(p_b, p_c)
    den, beta, gamma, rho = trinomial_integers(pb, pc)
    return reduced_fraction(region_sum(n, beta, gamma, rho, region, range(n + 1)), den**n, radical=den)


def _conditional_p(test: str, b: int, c: int) -> Any:
    from .paired import mcnemar_chi_square_p_float, mcnemar_p_value

    if test == "mcnemar":
        return mcnemar_p_value(b, c)
    if test == "mcnemar-mid-p":
        return mcnemar_p_value(b, c, mid_p=True)
    return mcnemar_chi_square_p_float(b, c, correction=test == "mcnemar-chi2")


@functools.lru_cache(maxsize=1 << 14)
def _tail_end(test: str, m: int, alpha: Fraction) -> int:
    """The largest t <= m/2 with the test rejecting at b = t of m (-1 if none). Each of these tests'
    p-values rises as b moves from 0 towards m/2, so its rejection region is b <= t or b >= m - t."""

    def rejects(b: int) -> bool:
        p = _conditional_p(test, b, m - b)
        return p <= alpha if isinstance(p, Fraction) else p <= float(alpha)

    if m == 0 or not rejects(0):
        return -1
    lo, hi = 0, m // 2  # rejects(lo); the last b that rejects lies in [lo, hi]
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if rejects(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def conditional_sizes(test: str, m: int, alpha: Any = "0.05") -> Fraction:
    """``r_m``: the chance that a McNemar-type ``test`` rejects given ``m`` discordant questions under the
    null (each a fair coin). The size at any discordance rate is an average of these.

    >>> conditional_sizes("mcnemar", 10), conditional_sizes("mcnemar-mid-p", 10)
    (Fraction(11, 512), Fraction(11, 512))
    >>> conditional_sizes("mcnemar-chi2-uncorrected", 4)
    Fraction(1, 8)
    """
    test = as_choice(test, "test", tuple(t for t in PAIRED_TESTS if t not in _MARGIN_TESTS))
    m = as_int(m, "m", minimum=0)
    alpha = as_probability(alpha, "alpha", open_low=True, open_high=True)
    return _conditional_size(test, m, alpha)


def _conditional_size(test: str, m: int, alpha: Fraction) -> Fraction:
    t = _tail_end(test, m, alpha)
    if t < 0:
        return Fraction(0)
    if 2 * t >= m:  # every b rejects (only when the test rejects at b = m/2)
        return Fraction(1)
    return Fraction(2 * binomial_lower_sum(m, t), 1 << m)


def _test_args(test: Any, n: Any, alpha: Any, margin: Any) -> tuple[str, int, Fraction, Fraction | None]:
    test = as_choice(test, "test", tuple(PAIRED_TESTS))
    n = as_int(n, "n", minimum=1)
    alpha = as_probability(alpha, "alpha", open_low=True, open_high=True)
    if test in _MARGIN_TESTS:
        if margin is None:
            raise ExactStatsError(f"margin is required for the {test} test (an accuracy gap, e.g. 0.01)")
        margin = as_fraction(margin, "margin")
        if not 0 < margin < 1:
            raise ExactStatsError(f"margin must lie in (0, 1), got {margin}")
    elif margin is not None:
        raise ExactStatsError(f"margin applies only to the equivalence and non-inferiority tests, not {test}")
    return test, n, alpha, margin


def _size_args(test: Any, n: Any, q: Any, alpha: Any, margin: Any) -> tuple[Any, ...]:
    test, n, alpha, margin = _test_args(test, n, alpha, margin)
    q = as_probability(q, "q")
    if margin is not None and q < margin:
        raise ExactStatsError(
            f"q must be >= margin = {margin}: models that disagree on fewer questions cannot differ by the margin"
        )
    return test, n, q, alpha, margin


def _null_cells(test: str, q: Fraction, margin: Fraction) -> tuple[Fraction, Fraction]:
    """(p_b, p_c) on the null boundary at discordance q: a gap of +margin for equivalence (its two
    sides are mirror images), -margin for non-inferiority."""
    high, low = (q + margin) / 2, (q - margin) / 2
    return (high, low) if test == "equivalence" else (low, high)


def exact_size(test: str, n: int, q: Any, alpha: Any = "0.05", margin: Any = None) -> Fraction:
    """Exact chance that ``test`` rejects at level ``alpha`` on ``n`` questions, at a null point with
    discordance rate ``q``: equal models for the McNemar family, a gap of exactly ``margin`` for the
    equivalence tests. Tests: :data:`PAIRED_TESTS`.

    >>> round(float(exact_size("mcnemar-chi2-uncorrected", 100, "0.2")), 6)
    0.052232
    >>> exact_size("equivalence", 200, "0.05", margin="0.02") <= Fraction(1, 20)
    True
    """
    test, n, q, alpha, margin = _size_args(test, n, q, alpha, margin)
    if test in _MARGIN_TESTS:
        from .equivalence import paired_equivalence_power

        pb, pc = _null_cells(test, q, margin)
        return paired_equivalence_power(n, pb, pc, margin, alpha, alternative=test)
    refuse_if_too_big(n * math.log2(q.denominator + 2), f"exact_size with n = {n}", "exact_size_float")
    terms = _binomial_terms(n, q)
    total = sum((t * _conditional_size(test, m, alpha) for m, t in enumerate(terms) if t), Fraction(0))
    return Fraction(total / q.denominator**n)


def exact_size_float(test: str, n: int, q: Any, alpha: Any = "0.05", margin: Any = None) -> float:
    """Float twin of :func:`exact_size`: SciPy's binomial weights; the rejection regions are the same.

    >>> round(exact_size_float("mcnemar", 100, "0.2"), 6)
    0.02944
    """
    from scipy import stats

    test, n, q, alpha, margin = _size_args(test, n, q, alpha, margin)
    if test in _MARGIN_TESTS:
        from .equivalence import paired_equivalence_power_float

        pb, pc = _null_cells(test, q, margin)
        return paired_equivalence_power_float(n, pb, pc, margin, alpha, alternative=test)
    qf = float(q)
    spread = 12 * math.sqrt(n * qf * (1 - qf)) + 1
    ms = range(max(0, int(n * qf - spread)), min(n, int(n * qf + spread) + 1) + 1)
    return float(sum(stats.binom.pmf(m, n, qf) * float(_conditional_size(test, m, alpha)) for m in ms))


@dataclass
class CoverageTable:
    """Exact coverage of one interval method on a grid of true accuracies."""

    method: str
    n: int
    confidence: Fraction
    points: list[tuple[Fraction, Fraction]] = field(repr=False)  # (p, exact coverage)
    minimum: Fraction
    at: Fraction
    below_nominal: int  # grid points where the coverage is under the confidence level
    note: str

    def to_json(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "n": self.n,
            "confidence": str(self.confidence),
            "minimum": {"exact": str(self.minimum), "decimal": float(self.minimum), "at_p": str(self.at)},
            "below_nominal": self.below_nominal,
            "grid_points": len(self.points),
            "note": self.note,
            "points": [{"p": str(p), "coverage": float(c)} for p, c in self.points],
        }


def _grid(grid: Any, low: Fraction = Fraction(0)) -> list[Fraction]:
    k = as_int(grid, "grid", minimum=2, maximum=100_000)
    return [Fraction(i, k) for i in range(1, k) if Fraction(i, k) >= low]


def coverage_table(method: str, n: int, grid: int = 100, confidence: Any = "0.95") -> CoverageTable:
    """Exact coverage of ``method`` at ``p = 1/grid, 2/grid, ..., 1 - 1/grid``, with its worst point.

    The worst grid point bounds the true worst case from above only: coverage between grid
    points can be lower (the note says what is known beyond the grid).

    >>> t = coverage_table("wald", 30)
    >>> round(float(t.minimum), 4), t.at
    (0.2601, Fraction(1, 100))
    """
    method = as_choice(method, "method", tuple(INTERVAL_METHODS))
    n = as_int(n, "n", minimum=1)
    level = as_probability(confidence, "confidence", open_low=True, open_high=True)
    points = [(p, interval_coverage(method, n, p, level)) for p in _grid(grid)]
    at, minimum = min(points, key=lambda pc: pc[1])
    notes = {
        "wald": f"beyond the grid: at k = 0 the Wald interval is the point 0, so its coverage is at most "
        f"1 - (1 - p)^{n}, which tends to 0 as p nears 0 (and 1)",
        "clopper-pearson": "beyond the grid: coverage is at least the confidence level at every p (a theorem)",
        "wilson": "beyond the grid: coverage dips below the level near p = 0 and 1 and between grid points",
        "agresti-coull": "beyond the grid: coverage dips between grid points; it tends to the level as n grows",
    }
    below = sum(1 for _, c in points if c < level)
    return CoverageTable(
        method,
        n,
        level,
        points,
        minimum,
        at,
        below,
        "a grid minimum is an upper bound on the worst coverage; " + notes[method],
    )


@dataclass
class SizeTable:
    """Exact size of one paired test on a grid of discordance rates."""

    test: str
    n: int
    alpha: Fraction
    margin: Fraction | None
    points: list[tuple[Fraction, Fraction]] = field(repr=False)  # (q, exact size)
    largest: Fraction
    at: Fraction
    bound: Fraction | None  # an upper bound on the size at every q, where one is known
    bound_reason: str
    holds: bool  # no grid point above alpha, and the bound (if any) at most alpha

    def to_json(self) -> dict[str, Any]:
        return {
            "test": self.test,
            "n": self.n,
            "alpha": str(self.alpha),
            "margin": None if self.margin is None else str(self.margin),
            "largest": {"exact": str(self.largest), "decimal": float(self.largest), "at_q": str(self.at)},
            "bound": None if self.bound is None else {"exact": str(self.bound), "decimal": float(self.bound)},
            "bound_reason": self.bound_reason,
            "holds": self.holds,
            "points": [{"q": str(q), "size": float(s)} for q, s in self.points],
        }


def size_table(test: str, n: int, grid: int = 100, alpha: Any = "0.05", margin: Any = None) -> SizeTable:
    """Exact size of ``test`` at ``q = 1/grid, ..., 1 - 1/grid`` (from ``margin`` up for the equivalence
    tests), its largest value, and a bound over every ``q`` where one is known.

    >>> t = size_table("mcnemar-mid-p", 60, grid=50)
    >>> t.largest > Fraction(1, 20), t.at, t.bound > Fraction(1, 20)
    (True, Fraction(47, 50), True)
    >>> size_table("mcnemar", 60, grid=20).holds
    True
    """
    test, n, alpha, margin = _test_args(test, n, alpha, margin)
    qs = _grid(grid, low=margin if margin is not None else Fraction(0))
    points = [(q, exact_size(test, n, q, alpha, margin)) for q in qs]
    at, largest = max(points, key=lambda qs_: qs_[1])
    if test in _MARGIN_TESTS:
        bound: Fraction | None = alpha
        reason = "Berger-Boos: the nuisance bound fails with chance <= gamma, the conditional test uses alpha - gamma"
    else:
        bound = max(_conditional_size(test, m, alpha) for m in range(n + 1))
        reason = "the size at any q is an average of the conditional sizes r_m, m = 0..n; this is their maximum"
    holds = largest <= alpha and (bound is None or bound <= alpha)
    return SizeTable(test, n, alpha, margin, points, largest, at, bound, reason, holds)
