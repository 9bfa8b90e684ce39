"""Does a model pass *every time*? pass^k, G-Pass@k and mG-Pass@k from n samples with c passing, exactly.

pass@k asks whether at least one of k samples passes; agents and reasoning models are also judged on
whether they pass consistently. From n samples of a problem with c passing, drawing k of them without
replacement, the number that pass is hypergeometric, and each measure is an unbiased estimate read off
its tail:

- pass^k (tau-bench): all k pass, ``C(c, k) / C(n, k)`` (:func:`pass_hat_k`);
- G-Pass@k_tau: at least ``ceil(tau k)`` of the k pass (:func:`g_pass_at_k`); tau = 1 is pass^k and
  any tau <= 1/k is pass@k;
- mG-Pass@k: ``2 * integral from 1/2 to 1 of G-Pass@k_tau d tau``, which is a finite sum because
  G-Pass@k_tau is a step function of tau (:func:`mg_pass_at_k`). A grid sum ``(2/k) sum_{i > k/2}
  G-Pass@k_{i/k}`` leaves out part of the interval: for a model that always passes it gives 2/3 at
  k = 3, where the integral gives 1.

>>> pass_hat_k(10, 7, 3), g_pass_at_k(10, 7, 3, "2/3")
(Fraction(7, 24), Fraction(49, 60))
>>> mg_pass_at_k(3, 3, 3)  # always passes
Fraction(1, 1)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from ._binomial import comb
from ._lazy import np
from ._validate import ExactStatsError, as_fraction, as_int, as_sample_counts, log2_comb, refuse_if_too_big

__all__ = [
    "pass_hat_k",
    "pass_hat_k_variance",
    "pass_hat_k_variance_estimate",
    "g_pass_at_k",
    "mg_pass_at_k",
    "mean_pass_hat_k",
    "g_pass_at_k_float",
]


def _nck(n: Any, c: Any, k: Any) -> tuple[int, int, int]:
    n, c, k = as_sample_counts(n, c, k)
    if k > n:
        raise ExactStatsError(f"k must be <= n = {n} (k samples are drawn from the n), got k = {k}")
    refuse_if_too_big(2 * log2_comb(n, k), f"the hypergeometric tail at n = {n}, k = {k}", "g_pass_at_k_float")
    return n, c, k


def _tails(n: int, c: int, k: int) -> list[Fraction]:
    """``P(at least j of k draws pass)`` for j = 0..k, drawing k of n samples of which c pass: one pass over
    the hypergeometric weights, summed from the top."""
    weights = [comb(c, j) * comb(n - c, k - j) for j in range(k + 1)]  # zero where j > c or k - j > n - c
    total, above = comb(n, k), 0
    tails = [Fraction(0)] * (k + 1)
    for j in range(k, -1, -1):
        above += weights[j]
        tails[j] = Fraction(above, total)
    return tails


def _tau(tau: Any) -> Fraction:
    t = as_fraction(tau, "tau")
    if not 0 < t <= 1:
        raise ExactStatsError(f"tau must lie in (0, 1], got {t}")
    return t


def pass_hat_k(n: int, c: int, k: int) -> Fraction:
    """Unbiased pass^k: the chance that k samples drawn from the n all pass, ``C(c, k) / C(n, k)``.

    >>> [str(pass_hat_k(5, 3, k)) for k in range(1, 5)]
    ['3/5', '3/10', '1/10', '0']
    """
    n, c, k = _nck(n, c, k)
    return Fraction(comb(c, k), comb(n, k))


def pass_hat_k_variance(n: int, k: int, p: Any) -> Fraction:
    """Exact variance of the unbiased pass^k estimate of one problem when ``c ~ Binomial(n, p)``.

    pass^k at ``(c, p)`` is pass@k's complement at ``(n - c, 1 - p)``: ``C(c, k)/C(n, k)`` is the
    ``X`` of :func:`~exactstats.passk.pass_at_k_variance` with passes and failures swapped, and a
    complement has the same variance.

    >>> pass_hat_k_variance(5, 2, "3/5")
    Fraction(234, 3125)
    """
    from .passk import pass_at_k_variance

    p = as_fraction(p, "p")
    if not 0 <= p <= 1:
        raise ExactStatsError(f"p must lie in [0, 1], got {p}")
    return pass_at_k_variance(n, k, 1 - p)


def pass_hat_k_variance_estimate(n: int, c: int, k: int) -> Fraction:
    """Unbiased estimate of :func:`pass_hat_k_variance` from one problem's ``n`` samples with ``c`` passing
    (``2k <= n``): ``X^2 - C(c, 2k)/C(n, 2k)`` with ``X = C(c, k)/C(n, k)``.

    >>> pass_hat_k_variance_estimate(10, 6, 2)
    Fraction(5, 126)
    """
    from .passk import pass_at_k_variance_estimate

    n, c, k = as_sample_counts(n, c, k)
    return pass_at_k_variance_estimate(n, n - c, k)


def g_pass_at_k(n: int, c: int, k: int, tau: Any) -> Fraction:
    """Unbiased G-Pass@k_tau: the chance that at least ``ceil(tau * k)`` of k drawn samples pass (0 < tau <= 1).

    >>> g_pass_at_k(5, 2, 2, 1) == pass_hat_k(5, 2, 2), g_pass_at_k(5, 2, 2, "1/2")
    (True, Fraction(7, 10))
    """
    n, c, k = _nck(n, c, k)
    need = math.ceil(_tau(tau) * k)
    return Fraction(sum(comb(c, j) * comb(n - c, k - j) for j in range(need, min(c, k) + 1)), comb(n, k))


def mg_pass_at_k(n: int, c: int, k: int) -> Fraction:
    """Unbiased mG-Pass@k: ``2 * integral_{1/2}^{1} G-Pass@k_tau d tau``, exactly (G-Pass is a step function:
    on ``((j - 1)/k, j/k]`` it needs j passes).

    >>> mg_pass_at_k(10, 7, 3), mg_pass_at_k(10, 0, 4)
    (Fraction(7, 15), Fraction(0, 1))
    """
    n, c, k = _nck(n, c, k)
    tails = _tails(n, c, k)
    total = Fraction(0)
    for j in range(1, k + 1):
        start, end = max(Fraction(j - 1, k), Fraction(1, 2)), Fraction(j, k)
        if end > start:
            total += (end - start) * tails[j]
    return 2 * total


def mean_pass_hat_k(table: Iterable[tuple[int, int]], k: int) -> Fraction:
    """Mean pass^k over problems given as (n, c) pairs.

    >>> mean_pass_hat_k([(5, 5), (5, 3), (5, 0)], 2)
    Fraction(13, 30)
    """
    rows = list(table)
    if not rows:
        raise ExactStatsError("table must hold at least one (n, c) pair")
    return sum((pass_hat_k(n, c, k) for n, c in rows), Fraction(0)) / len(rows)


def g_pass_at_k_float(n: Any, c: Any, k: int, tau: Any = 1) -> np.ndarray:
    """Float twin of :func:`g_pass_at_k`, vectorised over arrays of n and c (SciPy's hypergeometric tail).

    >>> g_pass_at_k_float([10, 5], [7, 2], 3, "2/3").round(6).tolist()
    [0.816667, 0.3]
    """
    from scipy import stats

    ns, cs = np.asarray(n, dtype=np.int64), np.asarray(c, dtype=np.int64)
    k = as_int(k, "k", minimum=1)
    t = _tau(tau)
    if (ns < k).any() or (cs < 0).any() or (cs > ns).any():
        raise ExactStatsError("every n must be >= k and every c within [0, n]")
    need = math.ceil(t * k)
    out: np.ndarray = stats.hypergeom.sf(need - 1, ns, cs, k)
    return out
