"""Paired comparison when a question is asked more than once (epochs, seeds, several samples).

With ``r`` samples per question the rows of one question are not independent: a
model that knows the answer gets all ``r`` right. McNemar's test over rows then
counts each question ``r`` times and its level is wrong. The unit is the
question. For each question ``g`` let ``d_g`` be (right answers of the first
model) minus (right answers of the second) over its rows. If the two models are
equally good on every question, swapping their labels on a question leaves the
data's distribution unchanged, so each ``d_g`` is as likely as ``-d_g``. The
**sign-flip test** compares the observed ``S = sum_g d_g`` with its distribution
over all ``2^G`` sign patterns. It is exact, needs no normal approximation, and
with one row per question it is McNemar's exact test.

The ``2^G`` patterns are not enumerated: the number of patterns with each sum is
a product of binomial expansions ``prod_v (1 + x^v)^(n_v)`` (``n_v`` questions
with ``|d_g| = v``), evaluated as one big integer (each coefficient in its own
block of bits).

>>> sign_flip_p_value([1, 1, 1, 0, -1])
Fraction(5, 8)
>>> sign_flip_p_value([3, 3, 2, 3, 1, 3, 2, 0])
Fraction(1, 64)
>>> x = [1, 1, 1, 1, 0, 1, 1, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1]  # ten questions, two samples each
>>> y = [0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0]
>>> r = clustered_paired_comparison(x, y, [i // 2 for i in range(20)])
>>> r.questions, r.rows, r.difference, r.p_value
(10, 20, Fraction(11, 20), Fraction(3, 128))
>>> [round(v, 3) for v in r.interval]
[0.194, 0.906]
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from math import lcm
from typing import Any, NamedTuple

from ._binomial import _mpz, binomial_lower_sum, dyadic_fraction
from ._lazy import np
from ._validate import (
    ExactStatsError,
    as_binary_matrix,
    as_binary_vector,
    as_choice,
    as_fraction,
    as_probability,
    same_length,
)
from .errorbars import Interval, clustered_interval_float

__all__ = [
    "sign_flip_p_value",
    "sign_flip_p_value_float",
    "cluster_differences",
    "cluster_sums",
    "ClusteredComparison",
    "clustered_paired_comparison",
    "SIGN_FLIP_MAX_BITS",
]

ALTERNATIVES = ("two-sided", "greater", "less")
# The counting integer holds one block of G + 2 bits per reachable sum: about 64 MB and 5 s at this limit.
SIGN_FLIP_MAX_BITS = 1 << 29
# Beyond the packed integer, up to this many nonzero differences are counted exactly by halves (2^20 sums each).
MEET_IN_THE_MIDDLE_MAX = 40
# The float twin holds one float per reachable sum and does about sums x (differences + sizes)
# multiply-adds: a few seconds at this limit.
FLOAT_MAX_SUMS = 50_000_000
FLOAT_MAX_WORK = 5_000_000_000


def _integer_differences(differences: Any) -> list[int]:
    """The differences on one integer scale (times the common denominator): the test is unchanged by scaling."""
    values = [as_fraction(d, f"differences[{i}]") for i, d in enumerate(differences)]
    if not values:
        raise ExactStatsError("differences must hold at least one value, got none")
    scale = lcm(*(v.denominator for v in values))
    return [int(v * scale) for v in values]


def _tail_point(u: list[int], alternative: str) -> tuple[Counter[int], int, int]:
    """``(counts of |d| by value, t, G')``: the p-value is ``P(T <= t)`` for ``T`` the sum of a random
    subset of the nonzero ``|d|`` (``T`` and ``W - T`` have one distribution, ``S = 2T - W``)."""
    sizes = Counter(abs(x) for x in u if x)
    total, s = sum(abs(x) for x in u), sum(u)
    t = {"two-sided": (total - abs(s)) // 2, "greater": (total - s) // 2, "less": (total + s) // 2}[alternative]
    return sizes, t, sum(sizes.values())


def sign_flip_p_value(differences: Any, alternative: str = "two-sided") -> Fraction:
    """Exact sign-flip (paired permutation) p-value for a zero mean difference, over ``2^G`` sign patterns.

    ``differences`` holds one rational per question (or task): the first system's score minus
    the second's. ``alternative="greater"`` asks whether the first is better. Two-sided doubles the
    smaller tail (the distribution is symmetric) and is capped at 1; all-zero differences give 1.
    The counting integers are packed binomial expansions on the differences' common scale; where
    that scale is too fine (scores with unlike denominators) and at most 40 differences are nonzero,
    the patterns are counted by meeting in the middle. Beyond both, the exact work is refused; use
    :func:`sign_flip_p_value_float`.

    >>> sign_flip_p_value([2, 1, 1, -1, 2, 2])
    Fraction(1, 8)
    >>> sign_flip_p_value([1] * 10 + [-1] * 2) == __import__("exactstats").mcnemar_p_value(10, 2)
    True
    >>> sign_flip_p_value(["0.25", "0.5", "-0.125"], alternative="greater")
    Fraction(1, 4)
    """
    alternative = as_choice(alternative, "alternative", ALTERNATIVES)
    u = _integer_differences(differences)
    sizes, t, g = _tail_point(u, alternative)
    if g == 0 or (alternative == "two-sided" and sum(u) == 0):
        return Fraction(1)
    block = 8 * ((g + 2 + 7) // 8)  # whole bytes; a count is at most 2^g, so a block never carries over
    if len(sizes) == 1:  # one size v: T / v is Binomial(g, 1/2), McNemar's sum
        (v,) = sizes
        below = binomial_lower_sum(g, t // v)
    elif (t + 1) * block <= SIGN_FLIP_MAX_BITS:
        below = _count_packed(sizes, t, block)
    elif g <= MEET_IN_THE_MIDDLE_MAX:  # few differences on a fine scale (scores with unlike denominators)
        below = _count_by_halves([abs(x) for x in u if x], t)
    else:
        raise ExactStatsError(
            f"sign_flip_p_value over {g} nonzero differences needs integers of about {(t + 1) * block:,} bits, "
            f"over the exact limit of {SIGN_FLIP_MAX_BITS:,}; use sign_flip_p_value_float for a float answer"
        )
    return min(dyadic_fraction(below * (2 if alternative == "two-sided" else 1), g), Fraction(1))


def _count_packed(sizes: Counter[int], t: int, block: int) -> int:
    """Subsets with sum at most ``t``: the product of binomial expansions as one packed integer."""
    keep = (_mpz(1) << (block * (t + 1))) - 1  # only the sums 0..t are needed: higher blocks are cut off
    counts = _mpz(1)
    for v, n in sorted(sizes.items()):
        if v <= t:  # a value above t cannot be in a subset whose sum is at most t
            counts = (counts * _packed_binomial(n, v, t // v, block // 8)) & keep
    # the sum of the blocks (the number of patterns with T <= t) is the integer modulo 2^block - 1
    return int(counts % ((_mpz(1) << block) - 1))


def _count_by_halves(values: list[int], t: int) -> int:
    """Subsets with sum at most ``t``, meeting in the middle: every subset sum of each half (2^(g/2)
    integers, exact at any size), one half sorted, and for each sum of the other a binary search."""
    from bisect import bisect_right

    def subset_sums(part: list[int]) -> list[int]:
        sums = [0]
        for v in part:
            sums += [x + v for x in sums]
        return sums

    half = len(values) // 2
    right = sorted(subset_sums(values[half:]))
    return sum(bisect_right(right, t - x) for x in subset_sums(values[:half]) if x <= t)


def _packed_binomial(n: int, v: int, upto: int, width: int) -> Any:
    """``sum_{j <= upto} C(n, j) x^(v j)`` as one integer with ``x = 2^(8 width)``: each coefficient
    in its own block of ``width`` bytes (written once, not built by repeated squaring)."""
    gap = bytes(width * (v - 1))
    parts, c = [], 1
    for j in range(min(n, upto) + 1):
        parts.append(c.to_bytes(width, "little"))
        parts.append(gap)
        c = c * (n - j) // (j + 1)
    return _mpz(int.from_bytes(b"".join(parts), "little"))


def sign_flip_p_value_float(differences: Any, alternative: str = "two-sided") -> float:
    """Float twin of :func:`sign_flip_p_value`, for any size, without underflow in the tail.

    The tail ``P(T <= t)`` is computed under an exponentially tilted distribution whose mean is
    ``t`` (each question's sign leans so that the tail is where the mass is), then weighted back:
    ``P(T <= t) = M(theta) sum_{T <= t} P_theta(T) e^(-theta T)``. Every term is a float of
    ordinary size, so a p-value of 1e-400 comes out as its logarithm would say, and one exact
    binomial convolution per distinct size keeps the relative error near 1e-12.

    >>> round(sign_flip_p_value_float([3, 3, 2, 3, 1, 3, 2, 0]), 6)
    0.015625
    """
    alternative = as_choice(alternative, "alternative", ALTERNATIVES)
    u = _integer_differences(differences)
    sizes, t, g = _tail_point(u, alternative)
    if g == 0 or (alternative == "two-sided" and sum(u) == 0):
        return 1.0
    if t + 1 > FLOAT_MAX_SUMS or (t + 1) * (g + len(sizes)) > FLOAT_MAX_WORK:
        raise ExactStatsError(
            f"sign_flip_p_value_float over {g} differences on a scale of {t + 1:,} steps is too large to run; "
            "round the differences to fewer decimal places (the scale is their common denominator)"
        )
    log_tail = _log_lower_tail(sizes, t) + (np.log(2.0) if alternative == "two-sided" else 0.0)
    return float(min(1.0, np.exp(log_tail)))


def _log_lower_tail(sizes: Counter[int], t: int) -> float:
    """``log P(T <= t)``, ``T`` the sum of a random subset of the sizes (each in with chance 1/2)."""
    from scipy.optimize import brentq
    from scipy.special import expit
    from scipy.stats import binom

    values = np.array(sorted(sizes), dtype=float)
    counts = np.array([sizes[v] for v in sorted(sizes)], dtype=float)
    if t == 0:  # only the empty subset
        return float(-counts.sum() * np.log(2.0))

    def excess(theta: float) -> float:
        return float((counts * values * expit(theta * values)).sum()) - t

    theta = 0.0 if excess(0.0) <= 0 else brentq(excess, -800.0 / values.min(), 0.0, xtol=1e-14, rtol=1e-14)
    log_m = float((counts * (np.logaddexp(0.0, theta * values) - np.log(2.0))).sum())
    dist = np.zeros(t + 1)
    dist[0] = 1.0
    for v, n in zip(values.astype(int).tolist(), counts.astype(int).tolist()):
        if v > t:  # always out of a subset whose sum is at most t: its factor is P(out) = 1 - pi
            log_m += n * float(np.log1p(-expit(theta * v)))
            continue
        pmf = binom.pmf(np.arange(min(n, t // v) + 1), n, float(expit(theta * v)))
        dist = _convolve_spaced(dist, pmf, v)
    weights = np.exp(theta * (t - np.arange(t + 1)))  # e^(theta (t - T)) <= 1 for T <= t, theta <= 0
    return log_m - theta * t + float(np.log((dist * weights).sum()))


def _convolve_spaced(p: np.ndarray, q: np.ndarray, v: int) -> np.ndarray:
    """``p * q`` truncated to ``len(p)``, for ``q`` supported on ``0, v, 2v, ...``: shifted copies of ``p``
    when ``q`` has fewer terms than ``v`` has residues, else one dense convolution per residue modulo ``v``."""
    out = np.zeros_like(p)
    if len(q) <= v:
        for j, weight in enumerate(q.tolist()):
            if j * v < len(p):
                out[j * v :] += weight * p[: len(p) - j * v]
        return out
    for r in range(min(v, len(p))):
        part = p[r::v]
        out[r::v] = np.convolve(part, q)[: len(part)]
    return out


def cluster_differences(x: Any, y: Any, clusters: Any) -> tuple[list[int], list[int]]:
    """Per cluster (first-seen order): right answers of ``x`` minus those of ``y``, and the cluster's rows.

    >>> cluster_differences([1, 1, 0, 1], [0, 1, 1, 0], ["a", "a", "b", "b"])
    ([1, 0], [2, 2])
    """
    x = as_binary_vector(x, "x")
    y = as_binary_vector(y, "y")
    same_length("x", x, "y", y)
    same_length("x", x, "clusters", clusters)
    if x.size == 0:
        raise ExactStatsError("x must hold at least one row, got none")
    labels: dict[Any, int] = {}
    index = np.fromiter((labels.setdefault(g, len(labels)) for g in clusters), dtype=np.int64, count=x.size)
    diff = np.bincount(index, weights=x - y, minlength=len(labels))
    rows = np.bincount(index, minlength=len(labels))
    return [int(round(d)) for d in diff], rows.tolist()


def cluster_sums(C: Any, clusters: Any) -> tuple[np.ndarray, np.ndarray]:
    """Right answers per model and cluster (models x G, first-seen order) and each cluster's rows.

    >>> S, rows = cluster_sums([[1, 1, 0, 1], [0, 1, 1, 1]], ["a", "a", "b", "b"])
    >>> S.tolist(), rows.tolist()
    ([[2, 1], [1, 2]], [2, 2])
    """
    C = as_binary_matrix(C, "C")
    same_length("C's columns", C[0], "clusters", clusters)
    labels: dict[Any, int] = {}
    index = np.fromiter((labels.setdefault(g, len(labels)) for g in clusters), dtype=np.int64, count=C.shape[1])
    k, g = C.shape[0], len(labels)
    flat = (np.arange(k)[:, None] * g + index[None, :]).ravel()
    sums = np.bincount(flat, weights=C.ravel(), minlength=k * g).reshape(k, g)
    return sums.round().astype(np.int64), np.bincount(index, minlength=g)


class ClusteredComparison(NamedTuple):
    """Two models on questions asked several times: the test and interval are over questions, not rows."""

    questions: int  # G, the units of the test and the interval
    rows: int  # (question, sample) rows
    difference: Fraction  # accuracy over rows, first minus second
    p_value: Fraction | float  # the sign-flip test over questions (a Fraction when exact)
    interval: Interval  # clustered standard error, Student t on G - 1 degrees of freedom
    test: str  # the test's name, to print beside the p-value


def clustered_paired_comparison(
    x: Any, y: Any, clusters: Any, confidence: Any = "0.95", exact: bool = True
) -> ClusteredComparison:
    """Compare two models whose rows repeat questions: exact sign-flip test over questions and a t interval.

    ``x`` and ``y`` are 0/1 per row, ``clusters`` names each row's question. With every row its own
    question the p-value is McNemar's exact one. ``exact=False`` uses the float twin.

    >>> r = clustered_paired_comparison([1, 1, 0, 0, 1, 1], [0, 0, 0, 1, 0, 0], [1, 1, 2, 2, 3, 3])
    >>> r.difference, r.p_value, r.test
    (Fraction(1, 2), Fraction(1, 2), 'exact sign-flip test over 3 questions')
    """
    if not isinstance(exact, bool):
        raise ExactStatsError(f"exact must be True or False, got {exact!r}")
    level = as_probability(confidence, "confidence", open_low=True, open_high=True)
    sums, rows = cluster_differences(x, y, clusters)
    n = sum(rows)
    g = len(sums)
    if g < 2:
        raise ExactStatsError(f"clusters must name at least 2 questions for a comparison over questions, got {g}")
    p = sign_flip_p_value(sums) if exact else sign_flip_p_value_float(sums)
    row_diff = np.asarray(x, dtype=np.int64) - np.asarray(y, dtype=np.int64)
    interval = clustered_interval_float(row_diff.tolist(), list(clusters), level, reference="t")
    name = f"{'exact' if exact else 'float'} sign-flip test over {g} questions"
    return ClusteredComparison(g, n, Fraction(sum(sums), n), p, interval, name)
