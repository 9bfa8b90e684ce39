"""Error bars for an accuracy: exact variance, CLT, Wilson, Clopper-Pearson, clustered.

A model got ``k`` of ``n`` questions right. The variance of its accuracy is
``p (1 - p) / n`` with ``p = k/n`` (``n - 1`` with ``ddof=1``): a Fraction.
Square roots make the intervals irrational; the Wilson bounds are returned as
exact SymPy surds (floats with :func:`wilson_interval_float`), Clopper-Pearson
bounds as rationals bracketing the true bound to a requested precision.

>>> accuracy_variance(7, 10)
Fraction(21, 1000)
>>> lo, hi = wilson_interval(7, 10, z="1.96")
>>> round(float(lo), 4), round(float(hi), 4)
(0.3968, 0.8922)
>>> clustered_variance([1, 0, 1, 1], ["a", "a", "b", "b"])
Fraction(1, 32)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:  # SymPy loads only when an exact surd is asked for
    import sympy

from ._binomial import binomial_cdf_scaled
from ._lazy import np
from ._normal import z_value_float
from ._validate import (
    ExactStatsError,
    as_choice,
    as_fraction,
    as_int,
    as_probability,
    refuse_if_too_big,
    safe_float,
    same_length,
)

__all__ = [
    "accuracy_variance",
    "standard_error",
    "standard_error_float",
    "Interval",
    "clt_interval_float",
    "wilson_interval",
    "wilson_interval_float",
    "clopper_pearson_interval",
    "clopper_pearson_interval_float",
    "clustered_variance",
    "clustered_standard_error_float",
    "clustered_interval_float",
    "RepeatVariance",
    "repeat_variance",
    "repeat_standard_error_float",
    "z_value_float",
    "CLUSTER_CORRECTIONS",
]


class Interval(NamedTuple):
    lower: Any
    upper: Any

    def as_floats(self) -> tuple[float, float]:
        return float(self.lower), float(self.upper)


def _kn(k: Any, n: Any) -> tuple[int, int]:
    n = as_int(n, "n", minimum=1)
    k = as_int(k, "k", minimum=0, maximum=n)
    return k, n


def accuracy_variance(k: int, n: int, ddof: int = 0) -> Fraction:
    """Exact variance of the accuracy ``k/n``: ``p(1-p)/(n - ddof)``.

    >>> accuracy_variance(7, 10)
    Fraction(21, 1000)
    """
    k, n = _kn(k, n)
    ddof = as_int(ddof, "ddof", minimum=0, maximum=1)
    if n - ddof < 1:
        raise ExactStatsError(f"n must be > ddof = {ddof}, got n = {n}")
    p = Fraction(k, n)
    return p * (1 - p) / (n - ddof)


def standard_error(k: int, n: int, ddof: int = 0) -> sympy.Expr:
    """Standard error of ``k/n`` as an exact SymPy surd, ``sqrt(p(1-p)/(n-ddof))``.

    >>> standard_error(7, 10)
    sqrt(210)/100
    """
    import sympy

    v = accuracy_variance(k, n, ddof)
    return sympy.sqrt(sympy.Rational(v.numerator, v.denominator))


def standard_error_float(k: int, n: int, ddof: int = 0) -> float:
    """Float twin of :func:`standard_error`.

    >>> round(standard_error_float(7, 10), 6)
    0.144914
    """
    return float(float(accuracy_variance(k, n, ddof)) ** 0.5)


def clt_interval_float(k: int, n: int, confidence: Any = "0.95", ddof: int = 0) -> Interval:
    """Normal-approximation (Wald/CLT) interval ``p +- z SE``, in floats; may leave [0, 1].

    >>> [round(x, 4) for x in clt_interval_float(7, 10)]
    [0.416, 0.984]
    """
    k, n = _kn(k, n)
    z = z_value_float(confidence)
    se = standard_error_float(k, n, ddof)
    p = k / n
    return Interval(p - z * se, p + z * se)


MAX_Z = 40  # a z beyond this is a confidence level within 1e-300 of one


def _z_exact(z: Any, confidence: Any) -> sympy.Expr:
    if z is None:
        return _rational(as_fraction(z_value_float("0.95" if confidence is None else confidence), "z"))
    if confidence is not None:
        raise ExactStatsError("give z or confidence, not both (z is the quantile of a confidence level)")
    zf = as_fraction(z, "z")
    if not 0 < zf <= MAX_Z:
        raise ExactStatsError(f"z must lie in (0, {MAX_Z}], got {safe_float(zf):g}")
    return _rational(zf)


def _rational(f: Fraction) -> sympy.Rational:
    import sympy

    return sympy.Rational(f.numerator, f.denominator)


def wilson_interval(k: int, n: int, z: Any = None, confidence: Any = None) -> Interval:
    """Wilson score interval as exact SymPy expressions.

    ``(p + z^2/2n -+ z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n)``. Give ``z`` as a
    rational (``"1.96"``) for a closed form in it; otherwise ``z`` is the normal
    quantile for ``confidence`` (default 0.95), taken as the exact decimal of its float.
    Giving both is an error.

    >>> lo, hi = wilson_interval(7, 10, z="1.96")
    >>> round(float(lo), 4), round(float(hi), 4)
    (0.3968, 0.8922)
    """
    import sympy

    k, n = _kn(k, n)
    zr = _z_exact(z, confidence)
    p = sympy.Rational(k, n)
    nn = sympy.Integer(n)
    centre = p + zr**2 / (2 * nn)
    spread = zr * sympy.sqrt(p * (1 - p) / nn + zr**2 / (4 * nn**2))
    denom = 1 + zr**2 / nn
    return Interval(sympy.radsimp((centre - spread) / denom), sympy.radsimp((centre + spread) / denom))


def wilson_interval_float(k: int, n: int, confidence: Any = "0.95") -> Interval:
    """Float twin of :func:`wilson_interval` (same formula in floats).

    >>> [round(x, 4) for x in wilson_interval_float(7, 10)]
    [0.3968, 0.8922]
    """
    k, n = _kn(k, n)
    z = z_value_float(confidence)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    spread = z * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5 / denom
    return Interval(centre - spread, centre + spread)


def clopper_pearson_interval(k: int, n: int, confidence: Any = "0.95", precision: Any = "1/1000000") -> Interval:
    """Clopper-Pearson (exact binomial) interval, bracketed to ``precision``.

    The lower bound ``L`` solves ``P(X >= k | L) = alpha/2`` and the upper bound
    ``U`` solves ``P(X <= k | U) = alpha/2``. Both are found by bisection on the
    grid of multiples of ``2**-K`` (the first power of two at or below ``precision``),
    each step an exact integer binomial tail; the returned lower bound is below the
    true ``L`` by less than ``precision`` (never above it) and the upper bound above
    ``U`` by less than ``precision``, so the returned interval always contains the
    true one. Work that would take minutes is refused, naming the float twin.

    >>> lo, hi = clopper_pearson_interval(7, 10, precision="1/10000")
    >>> round(float(lo), 3), round(float(hi), 3)
    (0.348, 0.933)
    """
    k, n = _kn(k, n)
    level = as_probability(confidence, "confidence", open_low=True, open_high=True)
    eps = as_fraction(precision, "precision")
    if not 0 < eps < 1:
        raise ExactStatsError(f"precision must lie in (0, 1), got {eps}")
    bits = max(1, math.ceil(math.log2(eps.denominator / eps.numerator)))  # grid 2**-bits <= eps
    # bits bisection steps, each up to n + 1 terms of n * bits bits: about 2 s at n = 10,000, 1e-6
    refuse_if_too_big(n * bits * n / 4000, f"clopper_pearson_interval with n = {n}", "clopper_pearson_interval_float")
    grid = 1 << bits
    half = (1 - level) / 2 * grid**n  # compare scaled tails with alpha/2
    # P(X >= k | j/grid) < alpha/2 holds for small j: the largest such j is the lower end
    lower = 0 if k == 0 else _last_true(lambda j: grid**n - binomial_cdf_scaled(n, k - 1, j, grid) < half, grid)
    # P(X <= k | j/grid) > alpha/2 holds for small j: the next grid point is the upper end
    upper = grid if k == n else _last_true(lambda j: binomial_cdf_scaled(n, k, j, grid) > half, grid) + 1
    return Interval(Fraction(lower, grid), Fraction(upper, grid))


def _last_true(holds: Any, grid: int) -> int:
    """The largest j in [0, grid) with ``holds(j)``, for a predicate true at 0 and false from some point on."""
    lo, hi = 0, grid  # holds(lo); not holds(hi) (or hi = grid)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if holds(mid):
            lo = mid
        else:
            hi = mid
    return lo


def clopper_pearson_interval_float(k: int, n: int, confidence: Any = "0.95") -> Interval:
    """Float twin of :func:`clopper_pearson_interval` (SciPy's beta quantiles), for any ``n``.

    >>> [round(x, 3) for x in clopper_pearson_interval_float(7, 10)]
    [0.348, 0.933]
    """
    from scipy.stats import beta

    k, n = _kn(k, n)
    level = float(as_probability(confidence, "confidence", open_low=True, open_high=True))
    half = (1 - level) / 2
    lower = 0.0 if k == 0 else float(beta.ppf(half, k, n - k + 1))
    upper = 1.0 if k == n else float(beta.ppf(1 - half, k + 1, n - k))
    return Interval(lower, upper)


CLUSTER_CORRECTIONS = ("none", "G/(G-1)")


def clustered_variance(scores: Sequence[Any], clusters: Sequence[Any], correction: str = "none") -> Fraction:
    """Cluster-robust variance of the mean score, exactly.

    ``(1/n^2) sum_g (sum_{i in g} (x_i - mean))^2``, the form in Miller (2024, eq. 4).
    ``correction="G/(G-1)"`` multiplies by ``G/(G-1)`` for ``G`` clusters, the
    finite-cluster factor that statsmodels (OLS with ``cov_type="cluster"``) and
    inspect_ai apply. Questions in one cluster (same passage, same subject) share
    errors, so this is larger than the naive variance when they do.

    >>> clustered_variance([1, 0, 1, 1], ["a", "a", "b", "b"])
    Fraction(1, 32)
    """
    same_length("scores", scores, "clusters", clusters)
    if len(scores) == 0:
        raise ExactStatsError("scores must hold at least one value, got none")
    correction = as_choice(correction, "correction", CLUSTER_CORRECTIONS)
    xs = [as_fraction(x, f"scores[{i}]") for i, x in enumerate(scores)]
    n = len(xs)
    mean = sum(xs, Fraction(0)) / n
    sums: dict[Any, Fraction] = {}
    for x, g in zip(xs, clusters):
        sums[g] = sums.get(g, Fraction(0)) + (x - mean)
    variance = sum((s * s for s in sums.values()), Fraction(0)) / (n * n)
    if correction == "G/(G-1)":
        g = len(sums)
        if g < 2:
            raise ExactStatsError(f"clusters must name at least 2 clusters for the G/(G-1) correction, got {g}")
        variance *= Fraction(g, g - 1)
    return variance


def _float_scores(scores: Any, clusters: Any) -> tuple[np.ndarray, np.ndarray]:
    """Scores as floats and each score's cluster as an integer label (first-seen order)."""
    same_length("scores", scores, "clusters", clusters)
    try:
        x = np.asarray(scores, dtype=np.float64)
    except (TypeError, ValueError):
        raise ExactStatsError("scores must be numbers (the exact clustered_variance takes fractions)") from None
    if x.ndim != 1 or x.size == 0 or not np.isfinite(x).all():
        raise ExactStatsError("scores must be a non-empty sequence of finite numbers")
    labels: dict[Any, int] = {}
    return x, np.fromiter((labels.setdefault(g, len(labels)) for g in clusters), dtype=np.int64, count=len(x))


def clustered_standard_error_float(scores: Any, clusters: Any, correction: str = "none") -> float:
    """Float twin of the square root of :func:`clustered_variance`: one bincount, no Fraction per score.

    >>> round(clustered_standard_error_float([1, 0, 1, 1], ["a", "a", "b", "b"]), 6)
    0.176777
    """
    correction = as_choice(correction, "correction", CLUSTER_CORRECTIONS)
    return _clustered_se(*_float_scores(scores, clusters), correction)


def _clustered_se(x: np.ndarray, label: np.ndarray, correction: str) -> float:
    sums = np.bincount(label, weights=x - x.mean())
    variance = float((sums**2).sum()) / x.size**2
    if correction == "G/(G-1)":
        g = sums.size
        if g < 2:
            raise ExactStatsError(f"clusters must name at least 2 clusters for the G/(G-1) correction, got {g}")
        variance *= g / (g - 1)
    return float(variance**0.5)


INTERVAL_REFERENCES = ("t", "normal")


def clustered_interval_float(
    scores: Any, clusters: Any, confidence: Any = "0.95", correction: str = "G/(G-1)", reference: str = "t"
) -> Interval:
    """Interval for the mean score with the clustered standard error, as floats.

    ``reference="t"`` (the default) takes the quantile of Student's t on ``G - 1`` degrees of
    freedom for ``G`` clusters, as Cameron and Miller advise for few clusters (with ``G/(G-1)``
    this is the usual one-sample t interval when every score is its own cluster);
    ``reference="normal"`` takes the normal quantile.

    >>> lo, hi = clustered_interval_float([1, 0, 1, 1, 0, 1], ["a", "a", "b", "b", "c", "c"])
    >>> round(lo, 3), round(hi, 3)  # t on 2 degrees of freedom: wide, as three clusters should be
    (-0.05, 1.384)
    >>> lo, hi = clustered_interval_float([1, 0, 1, 1, 0, 1], ["a", "a", "b", "b", "c", "c"], reference="normal")
    >>> round(lo, 3), round(hi, 3)
    (0.34, 0.993)
    """
    reference = as_choice(reference, "reference", INTERVAL_REFERENCES)
    correction = as_choice(correction, "correction", CLUSTER_CORRECTIONS)
    x, label = _float_scores(scores, clusters)  # read once: the mean and the standard error share it
    se = _clustered_se(x, label, correction)
    groups = int(label.max()) + 1
    if reference == "normal":
        quantile = z_value_float(confidence)
    else:
        if groups < 2:
            raise ExactStatsError(f"clusters must name at least 2 clusters for a t interval, got {groups}")
        from scipy.stats import t as student_t

        level = float(as_probability(confidence, "confidence", open_low=True, open_high=True))
        quantile = float(student_t.ppf(0.5 + level / 2, groups - 1))
    mean = float(x.mean())
    return Interval(mean - quantile * se, mean + quantile * se)


class RepeatVariance(NamedTuple):
    """Variance of a score from repeated runs, split into its parts (all exact)."""

    mean: Fraction  # the score: mean over runs and questions
    within: Fraction  # sigma_w^2: run-to-run (sampling) variance of one question's result, averaged
    between: Fraction  # sigma_b^2: variance of the questions' true scores (difficulty), unbiased
    variance_of_mean: Fraction  # of the score with these R runs and Q questions: between/Q + within/(R Q)


def repeat_variance(runs: Any) -> RepeatVariance:
    """Split the variance of a score measured in ``R`` repeated runs (seeds, epochs) on the same ``Q``
    questions: ``runs`` is R x Q, 0/1 or scores. Within-question variance is the run-to-run spread
    (ddof 1 per question, averaged); between-question variance is the spread of question means less
    its within part (unbiased; can be negative in small samples). The variance of the overall mean
    is ``between/Q + within/(R Q)``, which equals the sample variance of the question means over Q.

    >>> r = repeat_variance([[1, 0, 1, 1], [1, 1, 0, 1]])
    >>> r.mean, r.within, r.between, r.variance_of_mean
    (Fraction(3, 4), Fraction(1, 4), Fraction(-1, 24), Fraction(1, 48))
    """
    rows = [[as_fraction(x, f"runs[{i}][{j}]") for j, x in enumerate(row)] for i, row in enumerate(runs)]
    if len(rows) < 2 or not rows[0] or any(len(r) != len(rows[0]) for r in rows):
        raise ExactStatsError("runs must be R x Q with at least 2 runs of the same questions")
    r_count, q_count = len(rows), len(rows[0])
    if q_count < 2:
        raise ExactStatsError("runs must cover at least 2 questions")
    means = [sum((row[j] for row in rows), Fraction(0)) / r_count for j in range(q_count)]
    within = (
        sum(
            (sum(((row[j] - means[j]) ** 2 for row in rows), Fraction(0)) / (r_count - 1) for j in range(q_count)),
            Fraction(0),
        )
        / q_count
    )
    grand = sum(means, Fraction(0)) / q_count
    spread = sum(((m - grand) ** 2 for m in means), Fraction(0)) / (q_count - 1)
    between = spread - within / r_count
    return RepeatVariance(grand, within, between, between / q_count + within / (r_count * q_count))


def repeat_standard_error_float(parts: RepeatVariance, runs: int, questions: int) -> float:
    """Standard error of the score with ``runs`` repeats on ``questions`` questions, from measured parts:
    how many repeats or questions buy how much precision.

    >>> parts = RepeatVariance(Fraction(1, 2), Fraction(1, 5), Fraction(1, 20), Fraction(0))
    >>> round(repeat_standard_error_float(parts, 1, 1000), 5), round(repeat_standard_error_float(parts, 10, 1000), 5)
    (0.01581, 0.00837)
    """
    runs = as_int(runs, "runs", minimum=1)
    questions = as_int(questions, "questions", minimum=1)
    return float(float(max(parts.between, Fraction(0)) / questions + parts.within / (runs * questions)) ** 0.5)
