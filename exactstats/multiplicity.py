"""Many comparisons at once: Holm's family-wise adjustment, Benjamini-Hochberg(-Yekutieli) false-discovery
adjustment, Holm decisions screened from floats, and tiers of models no test separates.

Exact functions take p-values as Fractions (or anything :func:`~exactstats.as_fraction` reads) and return
Fractions; each has a float twin on NumPy arrays for leaderboards with hundreds of thousands of pairs,
held to the exact function by the tests. One place for multiplicity, as pingouin keeps its ``multicomp``.

>>> [str(x) for x in holm_adjust(["0.01", "0.04", "0.03"])]
['3/100', '3/50', '3/50']
>>> holm_adjust_float([0.01, 0.04, 0.03]).round(4).tolist()
[0.03, 0.06, 0.06]
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from ._lazy import np
from ._validate import ExactStatsError, as_choice, as_int, as_probability

__all__ = [
    "holm_adjust",
    "holm_adjust_float",
    "bh_adjust",
    "bh_adjust_float",
    "holm_reject_screened",
    "separation_tiers",
    "tiers_from_separation",
]


def holm_adjust(p_values: Any) -> list[Fraction]:
    """Holm's step-down adjusted p-values, exactly (for Fraction inputs), capped at 1.

    The i-th smallest p is multiplied by (m - i + 1); adjusted values are made
    non-decreasing in that order. Reject where the adjusted p <= alpha: the
    family-wise error rate stays at most alpha.

    >>> [str(x) for x in holm_adjust(["0.01", "0.04", "0.03"])]
    ['3/100', '3/50', '3/50']
    """
    ps = [as_probability(p, f"p_values[{i}]") for i, p in enumerate(p_values)]
    if not ps:
        raise ExactStatsError("p_values must hold at least one p-value, got none")
    m = len(ps)
    order = sorted(range(m), key=lambda i: ps[i])
    adjusted = [Fraction(0)] * m
    running = Fraction(0)
    for rank, i in enumerate(order):
        running = max(running, min(Fraction(1), (m - rank) * ps[i]))
        adjusted[i] = running
    return adjusted


def separation_tiers(adjusted_p: Sequence[Sequence[Any]], alpha: Any = "0.05") -> list[list[int]]:
    """Tiers of models ranked best first: a model opens a new tier when it is separated from the
    first model of the current tier (adjusted p <= ``alpha``), else it joins that tier.

    ``adjusted_p[i][j]`` (``i < j``) is the multiplicity-adjusted p-value of models ``i`` and ``j``
    (e.g. Holm over all pairs); only the upper triangle is read.

    >>> separation_tiers([[0, "0.5", "0.01"], [0, 0, "0.2"], [0, 0, 0]])
    [[0, 1], [2]]
    """
    alpha = as_probability(alpha, "alpha", open_low=True, open_high=True)
    k = len(adjusted_p)
    if k == 0:
        raise ExactStatsError("adjusted_p must hold at least one model, got none")
    return tiers_from_separation(lambda i, j: as_probability(adjusted_p[i][j], f"adjusted_p[{i}][{j}]") <= alpha, k)


def tiers_from_separation(separated: Any, k: int) -> list[list[int]]:
    """Tiers of ``k`` models ranked best first, given ``separated(i, j)`` for ``i < j`` (see :func:`separation_tiers`).

    >>> tiers_from_separation(lambda i, j: j - i > 1, 4)
    [[0, 1], [2, 3]]
    """
    k = as_int(k, "k", minimum=1)
    tiers, current = [], [0]
    for j in range(1, k):
        if separated(current[0], j):
            tiers.append(current)
            current = [j]
        else:
            current.append(j)
    tiers.append(current)
    return tiers


def holm_reject_screened(
    p_float: Any, exact_p: Any, alpha: Any = "0.05", margin: float = 1e-6
) -> tuple[list[bool], list[int]]:
    """Holm's decisions from float p-values, each decision that could depend on rounding confirmed exactly.

    ``exact_p(i)`` returns the exact Fraction p-value of hypothesis ``i``; it is called only for the
    p-values within a relative ``margin`` of the Holm threshold of their own rank, ``alpha / (m - i)``
    for the i-th smallest (or of a neighbouring rank, should rounding reorder near-equal p-values).
    Float p-values are far more accurate than the margin, so the decisions equal those of Holm on the
    exact values. Returns the decisions and the indices that were computed exactly.

    >>> holm_reject_screened([0.001, 0.04, 0.2], lambda i: Fraction(0))
    ([True, False, False], [])
    """
    level = as_probability(alpha, "alpha", open_low=True, open_high=True)
    ps = np.asarray(p_float, dtype=float)
    m = len(ps)
    if m == 0:
        return [], []
    values: list[Any] = [float(x) for x in ps]
    # the i-th smallest p-value meets alpha / (m - i); only there (or at a neighbouring rank) can rounding
    # change a decision. Checking every alpha / r instead flagged thousands of p-values that no rank meets.
    order_f = np.argsort(ps, kind="stable")
    ranks = np.empty(m, dtype=np.int64)
    ranks[order_f] = np.arange(m)
    near = np.zeros(m, dtype=bool)
    for shift in (-1, 0, 1):
        r = np.clip(ranks + shift, 0, m - 1)
        near |= np.abs(ps * (m - r) / float(level) - 1) <= margin
    exact_idx = [int(i) for i in np.flatnonzero(near)]
    for i in exact_idx:
        values[i] = exact_p(i)
    # the step-down order; where exact values were computed they decide it (floats compare exactly with them)
    order = np.asarray(sorted(range(m), key=lambda i: values[i])) if exact_idx else order_f
    # float comparisons for all, then exact ones where the p-value is exact: only there could rounding decide
    passes = ps[order] <= float(level) / (m - np.arange(m))
    for step in np.flatnonzero(near[order]).tolist():
        passes[step] = values[int(order[step])] <= level / (m - step)
    stop = int(np.argmin(passes)) if not passes.all() else m  # Holm stops at the first p-value over its threshold
    reject = np.zeros(m, dtype=bool)
    reject[order[:stop]] = True
    return reject.tolist(), exact_idx


def bh_adjust(p_values: Any, dependence: str = "independent") -> list[Fraction]:
    """Benjamini-Hochberg adjusted p-values (false-discovery rate), exactly, capped at 1.

    The i-th smallest p is multiplied by ``m / i`` and the results made non-decreasing from the
    largest down. ``dependence="any"`` is Benjamini-Yekutieli: a further factor ``1 + 1/2 + ... + 1/m``
    that holds the rate under any dependence between the tests. Declare a discovery where the
    adjusted p <= the target rate.

    >>> [str(x) for x in bh_adjust(["0.01", "0.04", "0.03"])]
    ['3/100', '1/25', '1/25']
    >>> [str(x) for x in bh_adjust(["0.01", "0.04", "0.03"], dependence="any")]
    ['11/200', '11/150', '11/150']
    """
    ps = [as_probability(p, f"p_values[{i}]") for i, p in enumerate(p_values)]
    if not ps:
        raise ExactStatsError("p_values must hold at least one p-value, got none")
    dependence = as_choice(dependence, "dependence", ("independent", "any"))
    m = len(ps)
    factor = sum((Fraction(1, i) for i in range(1, m + 1)), Fraction(0)) if dependence == "any" else Fraction(1)
    order = sorted(range(m), key=lambda i: ps[i])
    adjusted = [Fraction(0)] * m
    running = Fraction(1)
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        running = min(running, ps[i] * m * factor / rank)
        adjusted[i] = running
    return adjusted


def _float_p_values(p_values: Any) -> np.ndarray:
    p = np.asarray(p_values, dtype=float)
    if p.ndim != 1 or p.size == 0:
        raise ExactStatsError(f"p_values must be a non-empty list of p-values, got shape {p.shape}")
    if not np.all((p >= 0) & (p <= 1)):
        raise ExactStatsError("p_values must lie in [0, 1] (no NaN)")
    return p


def holm_adjust_float(p_values: Any) -> np.ndarray:
    """Float twin of :func:`holm_adjust` on a NumPy array (ties keep their input order, as there).

    >>> holm_adjust_float([0.01, 0.04, 0.03]).round(4).tolist()
    [0.03, 0.06, 0.06]
    """
    p = _float_p_values(p_values)
    m = len(p)
    order = np.argsort(p, kind="stable")
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(1.0, np.maximum.accumulate(p[order] * (m - np.arange(m))))
    return adjusted


def bh_adjust_float(p_values: Any, dependence: str = "independent") -> np.ndarray:
    """Float twin of :func:`bh_adjust` (``dependence="any"``: Benjamini-Yekutieli).

    >>> bh_adjust_float([0.01, 0.04, 0.03]).round(4).tolist()
    [0.03, 0.04, 0.04]
    """
    p = _float_p_values(p_values)
    dependence = as_choice(dependence, "dependence", ("independent", "any"))
    m = len(p)
    factor = float(np.sum(1.0 / np.arange(1, m + 1))) if dependence == "any" else 1.0
    order = np.argsort(p, kind="stable")
    scaled = p[order] * m * factor / np.arange(1, m + 1)
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(1.0, np.minimum.accumulate(scaled[::-1])[::-1])
    return adjusted
