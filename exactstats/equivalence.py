"""Are two models equivalent? Exact paired equivalence and non-inferiority tests.

A test of difference asks whether a gap is real; an equivalence test asks whether
it is *small*: smaller than a margin stated in advance (one accuracy point, say).
The null hypothesis is that the gap is at least the margin, so rejecting it is
evidence of equivalence. Two one-sided tests (TOST, Schuirmann 1987) each reject one
side at level ``alpha``; the equivalence p-value is the larger of the two.

Like McNemar's exact test, this one conditions on the ``m = b + c`` questions where
the models disagree. Given ``m``, ``b ~ Binomial(m, pi)`` and the expected accuracy
gap is ``(2 pi - 1) m / n``, so a margin ``delta`` on the gap is the margin
``eps = delta n / (2 m)`` on ``pi - 1/2``. The one-sided p-values are exact binomial
tails at ``pi = 1/2 + eps`` and ``pi = 1/2 - eps``, summed in integers. When
``eps > 1/2`` no split of the ``m`` discordant questions can make the gap reach the
margin and the p-value is 0.

Non-inferiority is the one-sided half: is the first model worse than the second by
less than the margin?

>>> round(float(paired_equivalence_p_value(30, 28, 2000, "0.01")), 4)
0.0101
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from ._validate import ExactStatsError, as_choice, as_fraction, as_int, as_probability, refuse_if_too_big

__all__ = [
    "EQUIVALENCE_ALTERNATIVES",
    "paired_equivalence_p_value",
    "paired_equivalence_p_value_float",
    "paired_equivalence_power",
    "paired_equivalence_power_float",
]

EQUIVALENCE_ALTERNATIVES = ("equivalence", "non-inferiority")


def _margin(margin: Any) -> Fraction:
    d = as_fraction(margin, "margin")
    if not 0 < d < 1:
        raise ExactStatsError(f"margin must lie in (0, 1) (an accuracy gap, e.g. 0.01 for one point), got {d}")
    return d


def _args(b: Any, c: Any, n: Any, margin: Any, alternative: Any) -> tuple[int, int, int, Fraction, str]:
    n = as_int(n, "n", minimum=1)
    b = as_int(b, "b", minimum=0, maximum=n)
    c = as_int(c, "c", minimum=0, maximum=n - b)
    return b, c, n, _margin(margin), as_choice(alternative, "alternative", EQUIVALENCE_ALTERNATIVES)


def _lower_tail(m: int, pi: Fraction, upto: int) -> Fraction:
    """P(Binomial(m, pi) <= upto), exactly: integer terms C(m, i) r^i (s - r)^(m - i) over s^m."""
    if upto < 0:
        return Fraction(0)
    if upto >= m:
        return Fraction(1)
    r, s = pi.numerator, pi.denominator
    w = s - r
    term = w**m  # i = 0
    total = term
    for i in range(upto):
        term = term * (m - i) * r // ((i + 1) * w)
        total += term
    return Fraction(total, s**m)


def _tails(b: int, m: int, n: int, margin: Fraction) -> tuple[Fraction, Fraction] | None:
    """(p for 'the first model is better by >= margin', p for 'worse by >= margin'); None if impossible."""
    if m == 0:
        return None
    eps = margin * n / (2 * m)
    if eps > Fraction(1, 2):
        return None
    if eps == Fraction(1, 2):  # the boundary is a clean sweep (pi = 1 or 0): only b = m or b = 0 fits it
        return Fraction(int(b == m)), Fraction(int(b == 0))
    upper = _lower_tail(m, Fraction(1, 2) + eps, b)  # small b is evidence against pi >= 1/2 + eps
    lower = _lower_tail(m, Fraction(1, 2) + eps, m - b)  # by symmetry: P(Bin(m, 1/2 - eps) >= b)
    return upper, lower


def paired_equivalence_p_value(b: int, c: int, n: int, margin: Any, alternative: str = "equivalence") -> Fraction:
    """Exact p-value that the accuracy gap of two models on ``n`` shared questions is within ``margin``.

    ``b`` questions only the first model got right, ``c`` only the second.
    ``alternative="equivalence"``: H0 is ``|gap| >= margin`` (two one-sided tests);
    ``"non-inferiority"``: H0 is ``gap <= -margin`` (the first model worse by at
    least the margin). Conditional on the discordant count, as McNemar's exact test is.

    >>> paired_equivalence_p_value(5, 5, 100, "0.3")
    Fraction(0, 1)
    >>> paired_equivalence_p_value(6, 4, 100, "0.02")
    Fraction(6032416, 9765625)
    """
    b, c, n, margin, alternative = _args(b, c, n, margin, alternative)
    tails = _tails(b, b + c, n, margin)
    if tails is None:
        return Fraction(0)
    upper, lower = tails
    return lower if alternative == "non-inferiority" else max(upper, lower)


def paired_equivalence_p_value_float(b: int, c: int, n: int, margin: Any, alternative: str = "equivalence") -> float:
    """Float twin of :func:`paired_equivalence_p_value` (SciPy's binomial distribution).

    >>> round(paired_equivalence_p_value_float(6, 4, 100, "0.02"), 6)
    0.617719
    """
    b, c, n, margin, alternative = _args(b, c, n, margin, alternative)
    m = b + c
    if m == 0 or float(margin) * n / (2 * m) > 0.5:
        return 0.0
    return float(_p_values_float(np.array([b]), m, n, margin, alternative)[0])


def _p_values_float(bs: np.ndarray, m: int, n: int, margin: Fraction, alternative: str) -> np.ndarray:
    """The p-values for every ``b`` in ``bs`` of ``m`` discordant questions, in floats (0 < eps <= 1/2)."""
    from scipy import stats

    eps = float(margin) * n / (2 * m)
    lower = stats.binom.sf(bs - 1, m, 0.5 - eps)
    return lower if alternative == "non-inferiority" else np.maximum(stats.binom.cdf(bs, m, 0.5 + eps), lower)


def _power_args(n: Any, p_b: Any, p_c: Any, margin: Any, alpha: Any, alternative: Any):
    from .power import _cell_probs  # the same (p_b, p_c) checks as McNemar's power

    n = as_int(n, "n", minimum=1)
    pb, pc = _cell_probs(p_b, p_c)
    alpha = as_probability(alpha, "alpha", open_low=True, open_high=True)
    return n, pb, pc, _margin(margin), alpha, as_choice(alternative, "alternative", EQUIVALENCE_ALTERNATIVES)


def _rejects(b: int, m: int, n: int, margin: Fraction, alpha: Fraction, alternative: str) -> bool:
    tails = _tails(b, m, n, margin)
    if tails is None:
        return True
    upper, lower = tails
    return (lower if alternative == "non-inferiority" else max(upper, lower)) <= alpha


def _region(m: int, n: int, margin: Fraction, alpha: Fraction, alternative: str) -> tuple[int, int]:
    """The b (of m discordant) that reject, an interval [lo, hi] (empty when lo > hi).

    The 'better by >= margin' tail rises with b and the 'worse by >= margin' tail falls,
    so the rejection set is an interval; floats find its ends, exact tails confirm them.
    """
    if m == 0 or margin * n / (2 * m) > Fraction(1, 2):
        return 0, m
    if margin * n / (2 * m) == Fraction(1, 2):
        hits = [bb for bb in range(m + 1) if _rejects(bb, m, n, margin, alpha, alternative)]
        return (hits[0], hits[-1]) if hits else (1, 0)
    p = _p_values_float(np.arange(m + 1), m, n, margin, alternative)
    ok = np.flatnonzero(p <= float(alpha))
    # the exact ends lie within a step or two of the float ones (or of the float minimum when the
    # screen found nothing): decide those candidates exactly, then grow the interval exactly
    centres = (int(ok[0]), int(ok[-1])) if ok.size else (int(np.argmin(p)),)
    candidates = sorted({b for c in centres for b in range(c - 2, c + 3) if 0 <= b <= m})
    hits = [b for b in candidates if _rejects(b, m, n, margin, alpha, alternative)]
    if not hits:
        return 1, 0
    lo, hi = hits[0], hits[-1]
    while lo > 0 and _rejects(lo - 1, m, n, margin, alpha, alternative):
        lo -= 1
    while hi < m and _rejects(hi + 1, m, n, margin, alpha, alternative):
        hi += 1
    return lo, hi


def paired_equivalence_power(
    n: int, p_b: Any, p_c: Any, margin: Any, alpha: Any = "0.05", alternative: str = "equivalence"
) -> Fraction:
    """Exact power of :func:`paired_equivalence_p_value` at level ``alpha`` with ``n`` questions.

    Each question independently falls in "only the first model right" with ``p_b``,
    "only the second" with ``p_c``, otherwise concordant. The power sums the exact
    trinomial probability of every rejecting outcome ``(b, c)`` in integers; its ends
    per discordant count are located in floats and confirmed with exact p-values.

    >>> round(float(paired_equivalence_power(200, "0.1", "0.1", "0.05")), 6)
    0.008316
    """
    n, pb, pc, margin, alpha, alternative = _power_args(n, p_b, p_c, margin, alpha, alternative)
    den = math.lcm(pb.denominator, pc.denominator)
    beta, gamma = int(pb * den), int(pc * den)
    rho = den - beta - gamma
    # about n^2 big-integer steps of n log2(den) bits: n = 2,000 at den = 100 takes some 45 s here
    refuse_if_too_big(n * n * math.log2(den + 1) / 16, "exact equivalence power", "paired_equivalence_power_float")
    total = 0
    for m in range(n + 1):
        weight = math.comb(n, m) * rho ** (n - m)
        if weight == 0:
            continue
        lo, hi = _region(m, n, margin, alpha, alternative)
        if lo > hi:
            continue
        term = math.comb(m, lo) * beta**lo * gamma ** (m - lo)
        inner = 0
        for bb in range(lo, hi + 1):
            inner += term
            if bb < hi:
                if gamma == 0:
                    term = math.comb(m, bb + 1) * beta ** (bb + 1) * gamma ** (m - bb - 1)
                else:
                    term = term * (m - bb) * beta // ((bb + 1) * gamma)
        total += weight * inner
    return Fraction(total, den**n)


def paired_equivalence_power_float(
    n: int, p_b: Any, p_c: Any, margin: Any, alpha: Any = "0.05", alternative: str = "equivalence"
) -> float:
    """Float twin of :func:`paired_equivalence_power` (SciPy binomials; the same rejection regions).

    >>> round(paired_equivalence_power_float(200, "0.1", "0.1", "0.05"), 6)
    0.008316
    """
    from scipy import stats

    n, pb, pc, margin, alpha, alternative = _power_args(n, p_b, p_c, margin, alpha, alternative)
    q = float(pb + pc)
    if q == 0:
        return 1.0 if _rejects(0, 0, n, margin, alpha, alternative) else 0.0
    theta = float(pb) / q
    total = 0.0
    spread = 12 * math.sqrt(n * q * (1 - q)) + 1
    for m in range(max(0, int(n * q - spread)), min(n, int(n * q + spread) + 1) + 1):
        lo, hi = _region(m, n, margin, alpha, alternative)
        if lo <= hi:
            inside = stats.binom.cdf(hi, m, theta) - stats.binom.cdf(lo - 1, m, theta)
            total += float(stats.binom.pmf(m, n, q)) * float(inside)
    return total
