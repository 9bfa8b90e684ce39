"""How many questions: power of a paired comparison, approximate and exact.

Two models disagree on a share ``q`` of questions and differ in accuracy by
``d``. The normal approximation (Miller 2024) needs about
``n = (z_{1-alpha/2} + z_{power})**2 * q / d**2`` questions; the ``"q-d2"``
variant uses the exact variance ``q - d**2`` of a per-question difference.

>>> questions_needed("0.20", "0.0185", z_alpha="1.96", z_power="0.84").n
4582
>>> mcnemar_power(10, "0.5", "0")  # rejects once 6 or more of the 10 are discordant
Fraction(193, 512)
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, NamedTuple

from ._binomial import binomial_weights, reduced_fraction, trinomial_integers, truncated_binomial_sums
from ._lazy import np
from ._normal import one_sided_z_float, z_value_float
from ._validate import (
    ExactStatsError,
    as_cell_probabilities,
    as_choice,
    as_fraction,
    as_int,
    as_probability,
    safe_float,
)

__all__ = [
    "QuestionsNeeded",
    "questions_needed",
    "interval_half_width_float",
    "minimum_detectable_difference_float",
    "mcnemar_rejection_thresholds",
    "mcnemar_power",
    "mcnemar_power_float",
    "smallest_n_for_power",
]

VARIANCE_FORMS = ("q", "q-d2")
MIN_GAP = Fraction(1, 10**9)  # an accuracy gap below one in a billion is not a gap anyone can measure
MAX_Z = 40


class QuestionsNeeded(NamedTuple):
    """``n``: questions needed, rounded up; ``value``: the unrounded formula (a Fraction when z's are rational)."""

    n: int
    value: Any
    z_alpha: Any
    z_power: Any


def _z_pair(alpha: Any, power: Any, z_alpha: Any, z_power: Any) -> tuple[Any, Any]:
    alpha = as_probability(alpha, "alpha", open_low=True, open_high=True)
    power = as_probability(power, "power", open_low=True, open_high=True)
    za = as_fraction(z_alpha, "z_alpha") if z_alpha is not None else z_value_float(1 - alpha)
    zb = as_fraction(z_power, "z_power") if z_power is not None else one_sided_z_float(power)
    if not 0 < za <= MAX_Z:
        raise ExactStatsError(f"z_alpha must lie in (0, {MAX_Z}] (a two-sided critical value), got {safe_float(za):g}")
    if not -MAX_Z <= zb <= MAX_Z or za + zb <= 0:
        raise ExactStatsError(
            f"z_power must lie in [-{MAX_Z}, {MAX_Z}] with z_alpha + z_power > 0, got {safe_float(zb):g}"
        )
    return za, zb


def _q_d(q: Any, d: Any) -> tuple[Fraction, Fraction]:
    q = as_probability(q, "q", open_low=True)
    d = as_fraction(d, "d")
    if abs(d) < MIN_GAP or abs(d) > q:
        raise ExactStatsError(
            f"d must satisfy {MIN_GAP} <= |d| <= q = {q} (a difference needs disagreements), got {safe_float(d):g}"
        )
    return q, abs(d)


def questions_needed(
    q: Any,
    d: Any,
    alpha: Any = "0.05",
    power: Any = "0.8",
    variance: str = "q",
    z_alpha: Any = None,
    z_power: Any = None,
) -> QuestionsNeeded:
    """Questions needed to detect an accuracy gap ``d`` when models disagree on a share ``q``.

    The z-values default to the normal quantiles of ``alpha`` (two-sided) and
    ``power``; give them as rationals (``z_alpha="1.96", z_power="0.84"``, the
    textbook roundings) to get an exact Fraction in ``value``.

    >>> questions_needed("0.2", "0.02", z_alpha="1.96", z_power="0.84").n
    3920
    """
    q, d = _q_d(q, d)
    variance = as_choice(variance, "variance", VARIANCE_FORMS)
    za, zb = _z_pair(alpha, power, z_alpha, z_power)
    v = q if variance == "q" else q - d * d
    # exact arithmetic either way (a float z taken at its exact binary value), so tiny gaps cannot divide by zero
    exact = (Fraction(za) + Fraction(zb)) ** 2 * v / (d * d)
    value = exact if isinstance(za, Fraction) and isinstance(zb, Fraction) else safe_float(exact)
    return QuestionsNeeded(math.ceil(exact), value, za, zb)


def interval_half_width_float(n: int, q: Any, d: Any = 0, confidence: Any = "0.95") -> float:
    """Half-width of the paired-difference interval at ``n`` questions: ``z sqrt((q - d^2)/n)``.

    >>> round(interval_half_width_float(2000, "0.2"), 4)
    0.0196
    """
    n = as_int(n, "n", minimum=1)
    q = as_probability(q, "q")
    d = as_fraction(d, "d")
    if d * d > q:
        raise ExactStatsError(f"d must satisfy d^2 <= q = {q}, got {d}")
    return z_value_float(confidence) * math.sqrt(float(q - d * d) / n)


def minimum_detectable_difference_float(n: int, q: Any, alpha: Any = "0.05", power: Any = "0.8") -> float:
    """Smallest gap detectable at ``n`` questions: ``(z_a + z_b) sqrt(q / n)``.

    >>> round(minimum_detectable_difference_float(2000, "0.2"), 4)
    0.028
    """
    n = as_int(n, "n", minimum=1)
    q = as_probability(q, "q", open_low=True)
    za, zb = _z_pair(alpha, power, None, None)
    return float((za + zb) * math.sqrt(float(q) / n))


def mcnemar_rejection_thresholds(n: int, alpha: Any = "0.05") -> list[int]:
    """``t_m`` for m = 0..n: the exact two-sided test rejects when ``min(b, c) <= t_m`` (-1: never).

    >>> mcnemar_rejection_thresholds(10)
    [-1, -1, -1, -1, -1, -1, 0, 0, 0, 1, 1]
    """
    n = as_int(n, "n", minimum=0)
    alpha = as_probability(alpha, "alpha", open_low=True, open_high=True)
    a, den = alpha.numerator, alpha.denominator
    thresholds = []
    t, tail, term = -1, 0, 0  # tail = sum_{i<=t} C(m, i), term = C(m, t)
    for m in range(n + 1):
        if m > 0 and t >= 0:
            tail = 2 * tail - term
            term = term * m // (m - t)
        while True:  # can t + 1 join the rejection region? needs 2 F(t+1) <= alpha 2^m
            nxt_term = 1 if t + 1 == 0 else term * (m - t) // (t + 1)
            if t + 1 > m or 2 * (tail + nxt_term) * den > a << m:
                break
            t, tail, term = t + 1, tail + nxt_term, nxt_term
        thresholds.append(t)
    return thresholds


def mcnemar_power(n: int, p_b: Any, p_c: Any, alpha: Any = "0.05") -> Fraction:
    """Exact power of the two-sided exact McNemar test at level ``alpha`` with ``n`` questions.

    Each question independently falls in "only the first model right" with ``p_b``,
    "only the second" with ``p_c``, and otherwise is concordant. The sum runs over
    every outcome ``(b, c)``, grouped by ``m = b + c``, in integer arithmetic.

    >>> round(float(mcnemar_power(20, "0.3", "0.05")), 6)
    0.321172
    """
    n = as_int(n, "n", minimum=1)
    pb, pc = as_cell_probabilities(p_b, p_c)
    den, beta, gamma, rho = trinomial_integers(pb, pc)
    ts = mcnemar_rejection_thresholds(n, alpha)
    low_b = truncated_binomial_sums(beta, gamma, ts)
    low_c = truncated_binomial_sums(gamma, beta, ts)
    total = sum((w * (gb + gc) for w, gb, gc in zip(binomial_weights(n, rho), low_b, low_c)), 0)
    return reduced_fraction(total, den**n, radical=den)


def mcnemar_power_float(n: int, p_b: Any, p_c: Any, alpha: Any = "0.05") -> float:
    """Float twin of :func:`mcnemar_power` (SciPy binomial distributions).

    >>> round(mcnemar_power_float(20, "0.3", "0.05"), 6)
    0.321172
    """
    from scipy import stats

    n = as_int(n, "n", minimum=1)
    pb, pc = as_cell_probabilities(p_b, p_c)
    a = float(as_probability(alpha, "alpha", open_low=True, open_high=True))
    disc = float(pb + pc)
    if disc == 0:
        return 0.0
    theta = float(pb / (pb + pc))
    # every discordant count up to 200,000 questions; beyond, those within 40 standard deviations of n q
    # (the rest weighs under 1e-300). Thresholds in floats: the largest t with 2 P(Bin(m, 1/2) <= t) <= alpha
    spread = 40 * math.sqrt(n * disc * (1 - disc)) + 50
    every_count = n <= 200_000
    m = (
        np.arange(n + 1)
        if every_count
        else np.arange(max(0, int(n * disc - spread)), min(n, int(n * disc + spread)) + 1)
    )
    ts = stats.binom.ppf(a / 2, m, 0.5)
    ts = np.where(2 * stats.binom.cdf(ts, m, 0.5) <= a * (1 + 1e-12), ts, ts - 1)
    reject = stats.binom.cdf(ts, m, theta) + stats.binom.sf(m - ts - 1, m, theta)
    reject = np.where(ts >= 0, np.minimum(reject, 1.0), 0.0)
    return float(np.sum(stats.binom.pmf(m, n, disc) * reject))


def smallest_n_for_power(p_b: Any, p_c: Any, alpha: Any = "0.05", power: Any = "0.8", n_max: int = 20000) -> int:
    """Smallest ``n`` whose exact McNemar power reaches ``power``.

    Exact power is not monotone in ``n`` (the test is discrete), so this is a scan,
    not a bisection: floats screen the candidates and each is confirmed exactly. The screen
    reuses the rejection probability given ``m`` discordant questions (the same for every
    ``n``) and sums only the binomial's central part, so the scan grows like ``n^1.5``.

    >>> smallest_n_for_power("0.3", "0.05")
    45
    """
    target = as_probability(power, "power", open_low=True, open_high=True)
    n_max = as_int(n_max, "n_max", minimum=1)
    pb, pc = as_cell_probabilities(p_b, p_c)
    if pb == pc:
        raise ExactStatsError("p_b and p_c must differ: with no true difference the power is the size")
    ts = np.array(mcnemar_rejection_thresholds(n_max, alpha))
    theta = float(pb / (pb + pc))
    q = float(pb + pc)
    from scipy import stats

    # P(reject | m discordant) does not depend on n: computed once for every m
    m_all = np.arange(n_max + 1)
    reject = np.where(ts >= 0, stats.binom.cdf(ts, m_all, theta) + stats.binom.sf(m_all - ts - 1, m_all, theta), 0.0)
    for n in range(1, n_max + 1):
        # the discordant count is Binomial(n, q): outside 12 standard deviations its mass is below 1e-30
        spread = 12 * math.sqrt(n * q * (1 - q)) + 1
        lo, hi = max(0, int(n * q - spread)), min(n, int(n * q + spread) + 1)
        m = m_all[lo : hi + 1]
        approx = float(np.dot(stats.binom.pmf(m, n, q), reject[lo : hi + 1]))
        if approx >= float(target) - 1e-9 and mcnemar_power(n, pb, pc, alpha) >= target:
            return n
    raise ExactStatsError(f"n_max must be larger: power {target} is not reached by n = {n_max}")
