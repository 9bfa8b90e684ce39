"""Paired comparison of two models on the same questions: McNemar's exact test and intervals.

Only the questions where the models disagree carry information about which is
better: ``b`` questions only the first model got right, ``c`` only the second.
Under the null hypothesis each of the ``m = b + c`` discordant questions is a fair
coin, so ``b ~ Binomial(m, 1/2)`` and the two-sided exact p-value is
``min(1, 2 * sum_{i <= min(b, c)} C(m, i) / 2**m)``.

>>> mcnemar_p_value(3, 0)
Fraction(1, 4)
>>> round(float(mcnemar_p_value(219, 182)), 4)
0.0721
>>> discordance([1, 1, 0, 0], [1, 0, 1, 1])
(1, 2)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, NamedTuple

from ._binomial import binomial_lower_sum, comb, dyadic_fraction
from ._intervals import check_ddof, normal_bounds, z_from
from ._lazy import np
from ._validate import (
    ExactStatsError,
    as_binary_matrix,
    as_binary_vector,
    as_choice,
    as_int,
    as_probability,
    refuse_if_too_big,
)
from .blocks import PairCounts
from .multiplicity import bh_adjust, holm_adjust

__all__ = [
    "discordance",
    "mcnemar_p_value",
    "mcnemar_p_value_float",
    "DifferenceInterval",
    "paired_difference_interval",
    "unpaired_difference_interval",
    "mcnemar_chi_square_p_float",
    "discordance_matrices",
    "mcnemar_p_values_float",
    "PairComparison",
    "compare_pairs",
    "ALTERNATIVES",
]

ALTERNATIVES = ("two-sided", "greater", "less")


def discordance(x: Any, y: Any) -> tuple[int, int]:
    """``(b, c)``: questions only ``x`` got right, and only ``y`` got right.

    >>> discordance([1, 1, 0, 0, 1], [1, 0, 1, 0, 0])
    (2, 1)
    """
    x = as_binary_vector(x, "x")
    y = as_binary_vector(y, "y")
    if x.shape != y.shape:
        raise ExactStatsError(f"x and y must have the same length, got {x.size} and {y.size}")
    return int(np.sum((x == 1) & (y == 0))), int(np.sum((x == 0) & (y == 1)))


def _mcnemar_args(b: Any, c: Any, alternative: Any, mid_p: Any) -> tuple[int, int, str]:
    if not isinstance(mid_p, bool):
        raise ExactStatsError(f"mid_p must be True or False, got {mid_p!r}")
    return as_int(b, "b", minimum=0), as_int(c, "c", minimum=0), as_choice(alternative, "alternative", ALTERNATIVES)


def mcnemar_p_value(b: int, c: int, alternative: str = "two-sided", mid_p: bool = False) -> Fraction:
    """Exact McNemar p-value as a Fraction, from integer arithmetic.

    ``alternative="greater"`` tests whether the first model is better (large ``b``),
    ``"less"`` whether it is worse. The two-sided p doubles the smaller tail and is
    capped at 1. ``mid_p=True`` counts the observed outcome at half weight (less
    conservative; its size can exceed the nominal level). No discordant questions
    (b = c = 0) give p = 1.

    >>> mcnemar_p_value(10, 2)
    Fraction(79, 2048)
    >>> mcnemar_p_value(10, 2, mid_p=True)
    Fraction(23, 1024)
    """
    b, c, alternative = _mcnemar_args(b, c, alternative, mid_p)
    m = b + c
    if m == 0:
        return Fraction(1)
    refuse_if_too_big(m, f"mcnemar_p_value with b + c = {m}", "mcnemar_p_value_float")
    if alternative == "two-sided":
        t = min(b, c)
        tail = binomial_lower_sum(m, t)  # P(B <= t) * 2**m
        numerator = 2 * tail - (comb(m, t) if mid_p else 0)
        return _cap(dyadic_fraction(numerator, m))
    # one-sided: "greater" is P(B >= b), "less" is P(B <= b)
    t = c if alternative == "greater" else b
    numerator = binomial_lower_sum(m, t)
    if mid_p:
        numerator = 2 * numerator - comb(m, t)
        return dyadic_fraction(numerator, m + 1)
    return dyadic_fraction(numerator, m)


def mcnemar_p_value_float(b: int, c: int, alternative: str = "two-sided", mid_p: bool = False) -> float:
    """Float twin of :func:`mcnemar_p_value` (scipy's binomial distribution), for any ``b + c``.

    >>> round(mcnemar_p_value_float(10, 2), 6)
    0.038574
    >>> mcnemar_p_value_float(500_000_000, 400_000_000) < 1e-300
    True
    """
    from scipy.stats import binom

    b, c, alternative = _mcnemar_args(b, c, alternative, mid_p)
    m = b + c
    if m == 0:
        return 1.0
    t = min(b, c) if alternative == "two-sided" else (c if alternative == "greater" else b)
    tail = float(binom.cdf(t, m, 0.5)) - (0.5 * float(binom.pmf(t, m, 0.5)) if mid_p else 0.0)
    return min(1.0, 2 * tail) if alternative == "two-sided" else tail


def mcnemar_p_values_float(b: Any, c: Any) -> np.ndarray:
    """Two-sided exact McNemar p-values for arrays of discordant counts, in floats (SciPy's binomial CDF);
    the float twin of :func:`mcnemar_p_value` for many pairs at once (a leaderboard's every pair).

    >>> mcnemar_p_values_float([3, 219], [0, 182]).round(4).tolist()
    [0.25, 0.0721]
    """
    from scipy.special import bdtr  # the binomial CDF without importing all of scipy.stats

    b, c = np.asarray(b, dtype=np.int64), np.asarray(c, dtype=np.int64)
    if b.shape != c.shape or (b < 0).any() or (c < 0).any():
        raise ExactStatsError(f"b and c must be arrays of counts >= 0 of one shape, got shapes {b.shape} and {c.shape}")
    m = b + c
    with np.errstate(invalid="ignore"):
        p = np.minimum(1.0, 2 * bdtr(np.minimum(b, c), m, 0.5))
    return np.where(m == 0, 1.0, p)


def _cap(p: Fraction) -> Fraction:
    return min(p, Fraction(1))


class DifferenceInterval(NamedTuple):
    """Difference in accuracy (first minus second) with its exact variance and a normal interval."""

    difference: Fraction
    variance: Fraction
    z: float
    lower: float
    upper: float

    @property
    def half_width(self) -> float:
        return float(self.z * float(self.variance) ** 0.5)


def paired_difference_interval(
    b: int, c: int, n: int, confidence: Any = None, ddof: int = 1, z: Any = None
) -> DifferenceInterval:
    """Interval for the accuracy difference of two models on the same ``n`` questions.

    With ``d = (b - c)/n`` and ``q = (b + c)/n`` the per-question score differences
    have variance ``q - d**2``; the variance of their mean is
    ``(q - d**2) / (n - ddof)``. ``ddof=1`` (default) is the sample-variance form
    used by Miller (2024) and seed article 000 (+-1.96 points for b=219, c=182,
    n=2000); ``ddof=0`` the plug-in form. ``z`` (a rational such as ``"1.96"``) replaces the
    normal quantile of ``confidence`` (default 0.95); giving both is an error.

    >>> iv = paired_difference_interval(219, 182, 2000)
    >>> iv.difference, round(iv.half_width * 100, 2)
    (Fraction(37, 2000), 1.96)
    """
    n = as_int(n, "n", minimum=1)
    b = as_int(b, "b", minimum=0, maximum=n)
    c = as_int(c, "c", minimum=0, maximum=n - b)
    ddof = check_ddof(ddof, n)
    d = Fraction(b - c, n)
    q = Fraction(b + c, n)
    return DifferenceInterval(*normal_bounds(d, (q - d * d) / (n - ddof), z_from(z, confidence)))


def unpaired_difference_interval(
    k1: int, k2: int, n: int, confidence: Any = None, ddof: int = 1, z: Any = None
) -> DifferenceInterval:
    """Interval for the difference ``k1/n - k2/n`` treating the two runs as independent samples.

    Variance ``(p1(1-p1) + p2(1-p2)) / (n - ddof)``: what comparing two separate
    error bars implies. Wider than the paired interval whenever the models'
    errors are positively correlated.

    >>> iv = unpaired_difference_interval(1500, 1400, 2000)
    >>> iv.difference, round(iv.half_width * 100, 2)
    (Fraction(1, 20), 2.76)
    """
    n = as_int(n, "n", minimum=1)
    k1 = as_int(k1, "k1", minimum=0, maximum=n)
    k2 = as_int(k2, "k2", minimum=0, maximum=n)
    ddof = check_ddof(ddof, n)
    p1, p2 = Fraction(k1, n), Fraction(k2, n)
    return DifferenceInterval(
        *normal_bounds(p1 - p2, (p1 * (1 - p1) + p2 * (1 - p2)) / (n - ddof), z_from(z, confidence))
    )


def discordance_matrices(C: Any) -> tuple[np.ndarray, np.ndarray]:
    """All-pairs discordant counts of a models x questions 0/1 matrix by two matrix products:
    ``b[i, j]`` questions only model ``i`` got right, ``c[i, j] = b[j, i]``.

    >>> b, c = discordance_matrices([[1, 1, 0], [1, 0, 1]])
    >>> int(b[0, 1]), int(c[0, 1])
    (1, 1)
    """
    M = as_binary_matrix(C, "C")  # checked once here: the counts below trust it
    return PairCounts.of_matrix(M).discordant()


class PairComparison(NamedTuple):
    """One pair of models (rows ``first`` and ``second`` of a matrix) compared on the same questions.

    ``p`` is the exact McNemar p-value, ``holm`` and ``bh`` the same p adjusted over every pair
    compared in one call; ``paired`` and ``unpaired`` are the two 95% intervals of the difference.
    """

    first: int
    second: int
    b: int
    c: int
    paired: DifferenceInterval
    unpaired: DifferenceInterval
    p: Fraction
    holm: Fraction
    bh: Fraction

    def separated(self, alpha: Any = "0.05") -> bool:
        """Holm-adjusted p at most ``alpha``: the family-wise error rate over the compared pairs is held."""
        return self.holm <= as_probability(alpha, "alpha", open_low=True, open_high=True)


def compare_pairs(C: Any, which: str = "adjacent") -> list[PairComparison]:
    """Exact paired comparisons of the rows of a models x questions 0/1 matrix, with Holm and BH.

    ``which="adjacent"`` compares rows 0-1, 1-2, ... (a ranked leaderboard's neighbours);
    ``which="all"`` every pair ``i < j``. The multiplicity adjustments run over the pairs compared.

    >>> C = [[1, 1, 1, 1, 0, 1], [1, 0, 0, 1, 0, 1], [0, 0, 1, 0, 0, 1]]
    >>> [(r.first, r.second, r.b, r.c, str(r.p), str(r.holm)) for r in compare_pairs(C)]
    [(0, 1, 2, 0, '1/2', '1'), (1, 2, 2, 1, '1', '1')]
    >>> len(compare_pairs(C, which="all"))
    3
    """
    M = as_binary_matrix(C, "C")
    k, n = M.shape
    if k < 2:
        raise ExactStatsError(f"C must hold at least two models (rows), got {k}")
    if n < 2:
        raise ExactStatsError(f"C must hold at least two questions (columns) for the intervals' n - 1, got {n}")
    which = as_choice(which, "which", ("adjacent", "all"))
    pairs = (
        [(i, i + 1) for i in range(k - 1)]
        if which == "adjacent"
        else [(i, j) for i in range(k) for j in range(i + 1, k)]
    )
    right = [int(r) for r in M.sum(axis=1)]
    found = []
    for i, j in pairs:
        b, c = discordance(M[i], M[j])
        found.append((i, j, b, c, mcnemar_p_value(b, c)))
    holm, bh = holm_adjust([f[4] for f in found]), bh_adjust([f[4] for f in found])
    return [
        PairComparison(
            i,
            j,
            b,
            c,
            paired_difference_interval(b, c, n),
            unpaired_difference_interval(right[i], right[j], n),
            p,
            h,
            f,
        )
        for (i, j, b, c, p), h, f in zip(found, holm, bh)
    ]


def mcnemar_chi_square_p_float(b: int, c: int, correction: bool = True) -> float:
    """McNemar's asymptotic chi-square test, ``(|b - c| - 1)^2 / (b + c)`` with Edwards' continuity
    correction, or ``(b - c)^2 / (b + c)`` without; a float approximation of :func:`mcnemar_p_value`.
    As in R's ``mcnemar.test`` the correction is applied only when ``b != c`` (statsmodels applies
    it always, which turns ``b = c`` into a statistic of ``1/(b + c)`` instead of 0).

    >>> round(mcnemar_chi_square_p_float(219, 182), 4), round(mcnemar_chi_square_p_float(219, 182, False), 4)
    (0.0722, 0.0646)
    """
    from scipy.stats import chi2

    b = as_int(b, "b", minimum=0)
    c = as_int(c, "c", minimum=0)
    if b + c == 0:
        return 1.0
    gap = abs(b - c) - 1 if correction and b != c else abs(b - c)
    return float(chi2.sf(gap * gap / (b + c), 1))
