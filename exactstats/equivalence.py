"""Are two models equivalent? Exact paired equivalence and non-inferiority tests that hold their level.

A test of difference asks whether a gap is real; an equivalence test asks whether
it is *small*: smaller than a margin ``delta`` stated in advance (one accuracy
point, say). The null hypothesis is that the population gap is at least the margin,
``|p_b - p_c| >= delta``, so rejecting it is evidence of equivalence. Two one-sided
tests (TOST, Schuirmann 1987) each reject one side; the p-value is the larger of the two.

Per question the pair of answers falls in "only the first model right" (chance
``p_b``), "only the second" (``p_c``) or agrees. The gap is ``q (2 theta - 1)`` with
``q = p_b + p_c`` the discordance rate and ``theta = p_b / q`` the share of the
discordant questions that the first model wins. Given the ``m = b + c`` discordant
questions, ``b ~ Binomial(m, theta)``: an exact test of ``theta`` is easy, but the
margin on the gap becomes a margin on ``theta`` only through the unknown ``q``.

Putting the *observed* ``m/n`` in place of ``q`` (the old construction) does not hold
the level: at n = 2,000, a margin of one point and q = 0.012 it rejected a true gap of
one point 27% of the time. Here ``q`` is bounded instead (Berger and Boos, 1994): with
chance at least ``1 - gamma``, ``q <= q_U(m)``, the one-sided Clopper-Pearson upper
bound of ``m`` of ``n`` (rounded up to a multiple of 2**-20, verified exactly). On that
event the null implies ``|theta - 1/2| >= delta / (2 q_U(m))``, which the conditional
binomial TOST tests exactly. So

    p = gamma + p_conditional(b, m, eps = delta / (2 q_U(m)))

is a valid p-value: under the null, ``P(p <= alpha) <= alpha`` for every ``q``. It is
never below ``gamma`` (``nuisance_level``, default 1/1000). Its exact size and power are
finite sums (:func:`paired_equivalence_power`; :mod:`exactstats.levels` tabulates them).

:func:`conditional_equivalence_p_value` is the conditional test alone: exact for a
margin on ``theta`` (the conditional odds ``theta/(1 - theta)``), not on the gap.

>>> round(float(paired_equivalence_p_value(30, 28, 2000, "0.01")), 4)
0.0775
>>> round(float(paired_equivalence_p_value(5, 5, 2000, "0.01")), 4)
0.0017
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import Any

from ._binomial import binomial_cdf_scaled, reduced_fraction, region_sum, trinomial_integers
from ._validate import (
    ExactStatsError,
    as_cell_probabilities,
    as_choice,
    as_fraction,
    as_int,
    as_probability,
    refuse_if_slow,
    refuse_if_too_big,
)

__all__ = [
    "EQUIVALENCE_ALTERNATIVES",
    "NUISANCE_LEVEL",
    "conditional_equivalence_p_value",
    "discordance_upper_bound",
    "paired_equivalence_p_value",
    "paired_equivalence_p_value_float",
    "paired_equivalence_power",
    "paired_equivalence_power_float",
    "rejection_region",
]

EQUIVALENCE_ALTERNATIVES = ("equivalence", "non-inferiority")
NUISANCE_LEVEL = Fraction(1, 1000)  # gamma: the chance that q escapes its bound, added to every p-value
_GRID = 1 << 20  # q_U is a multiple of 2**-20: at most about 1e-6 above the Clopper-Pearson bound
# Past m * log2(d) = 35,000 bits (d the denominator of 1/2 + eps; about 1,400 discordant questions at a
# two-point margin) the conditional tail was measured at over ten times the float twin's time (make bench)
FAST_BITS = 35_000
_SCREEN = 1e-8  # relative distance from gamma beyond which the float CDF decides a grid point of q_U


def _margin(margin: Any) -> Fraction:
    d = as_fraction(margin, "margin")
    if not 0 < d < 1:
        raise ExactStatsError(f"margin must lie in (0, 1) (an accuracy gap, e.g. 0.01 for one point), got {d}")
    return d


def _gamma(nuisance_level: Any) -> Fraction:
    g = as_fraction(nuisance_level, "nuisance_level")
    if not 0 < g < Fraction(1, 2):
        raise ExactStatsError(f"nuisance_level must lie in (0, 1/2) (e.g. 0.001), got {g}")
    return g


def _args(b: Any, c: Any, n: Any, margin: Any, alternative: Any, nuisance_level: Any) -> tuple[Any, ...]:
    n = as_int(n, "n", minimum=1)
    b = as_int(b, "b", minimum=0, maximum=n)
    c = as_int(c, "c", minimum=0, maximum=n - b)
    alternative = as_choice(alternative, "alternative", EQUIVALENCE_ALTERNATIVES)
    return b, c, n, _margin(margin), alternative, _gamma(nuisance_level)


@functools.lru_cache(maxsize=1 << 16)
def _upper_bound(m: int, n: int, gamma: Fraction) -> Fraction:
    if m >= n:
        return Fraction(1)
    from scipy.special import bdtr, betaincinv

    limit = gamma * _GRID**n  # P(M <= m | q) <= gamma  <=>  integer sum <= gamma * grid**n
    # A float screen decides each grid point whose float CDF is clear of gamma by a relative 1e-8 (SciPy's
    # binomial CDF is good to about 1e-12 here; one grid step moves the CDF by far more than 1e-8 of
    # itself), and the exact integer sum decides the rest, so the search's answer is the exact one.
    screen = float(gamma) > 1e-200
    below, above = float(gamma) * (1 - _SCREEN), float(gamma) * (1 + _SCREEN)

    def small_enough(j: int) -> bool:  # P(Binomial(n, j/grid) <= m) <= gamma; it falls as j grows
        if j >= _GRID:
            return True
        if screen:
            cdf = float(bdtr(m, n, j / _GRID))
            if cdf < below:
                return True
            if cdf > above:
                return False
        return bool(binomial_cdf_scaled(n, m, j, _GRID) <= limit)

    # the float quantile lands within a grid step or two; exponential steps outwards, then bisection, make
    # the answer exact whatever the float says: small_enough(0) is false (q = 0 gives P = 1), small_enough(grid) true
    hi = min(_GRID, max(1, math.ceil(float(betaincinv(m + 1, n - m, 1 - float(gamma))) * _GRID)))
    step = 1
    while not small_enough(hi):
        hi, step = min(_GRID, hi + step), 2 * step
    lo, step = hi - 1, 1
    while lo > 0 and small_enough(lo):
        hi, step = lo, 2 * step
        lo = max(0, hi - step)
    while hi - lo > 1:  # small_enough(hi), not small_enough(lo)
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if small_enough(mid) else (mid, hi)
    j = hi
    return Fraction(j, _GRID)


def discordance_upper_bound(m: int, n: int, nuisance_level: Any = NUISANCE_LEVEL) -> Fraction:
    """Exact rational upper confidence bound for the discordance rate ``q`` from ``m`` of ``n``.

    The smallest multiple of 2**-20 with ``P(Binomial(n, q_U) <= m) <= nuisance_level``:
    the one-sided Clopper-Pearson bound at level ``1 - nuisance_level``, rounded up, so
    ``P(q > q_U(M)) <= nuisance_level`` for every ``q``. It is 1 when ``m = n``.

    >>> discordance_upper_bound(0, 100, "0.05") * 100 > 2.9
    True
    >>> float(discordance_upper_bound(10, 2000))
    0.012024879455566406
    """
    n = as_int(n, "n", minimum=1)
    m = as_int(m, "m", minimum=0, maximum=n)
    refuse_if_too_big(n * 20, f"discordance_upper_bound with n = {n}", "paired_equivalence_p_value_float")
    return _upper_bound(m, n, _gamma(nuisance_level))


def _tail(b: int, m: int, eps: Fraction, alternative: str) -> tuple[int, int] | None:
    """The conditional p-value given m as an integer over ``d**m``, and ``d``; None if eps > 1/2 (empty null).

    The one-sided p-values are ``P(Bin(m, 1/2 + eps) <= b)`` (against theta >= 1/2 + eps) and, by symmetry,
    ``P(Bin(m, 1/2 + eps) <= m - b)`` (against theta <= 1/2 - eps): lower sums of one binomial series, so
    the larger of the two is the one summed to ``max(b, m - b)`` and only that one is computed.
    """
    half = Fraction(1, 2)
    if eps > half:
        return None
    if m == 0:
        return 1, 1
    upto = m - b if alternative == "non-inferiority" else max(b, m - b)
    if eps == half:  # the null is theta = 1 or theta = 0: only a clean sweep fits it
        return int(upto == m), 1
    a, d = (half + eps).numerator, (half + eps).denominator
    return binomial_cdf_scaled(m, upto, a, d), d


def _conditional(b: int, m: int, eps: Fraction, alternative: str) -> Fraction:
    scaled = _tail(b, m, eps, alternative)
    if scaled is None:
        return Fraction(0)  # no theta in [0, 1] is that far from 1/2: the null is empty
    numerator, d = scaled
    # the radical of d**m is d: reduced without a gcd of two huge integers (see reduced_fraction)
    return reduced_fraction(numerator, d**m, radical=d)


def conditional_equivalence_p_value(b: int, c: int, epsilon: Any, alternative: str = "equivalence") -> Fraction:
    """Exact conditional TOST on the discordant questions: is ``theta = b/(b + c)`` within ``epsilon`` of 1/2?

    H0 is ``|theta - 1/2| >= epsilon`` (``"non-inferiority"``: ``theta <= 1/2 - epsilon``), where
    ``theta`` is the chance that a discordant question goes to the first model. Exact given
    ``m = b + c`` for that hypothesis, a margin on the conditional odds. It is *not* a test of
    the accuracy gap: for that, use :func:`paired_equivalence_p_value`.

    >>> conditional_equivalence_p_value(6, 4, "1/10")
    Fraction(6032416, 9765625)
    """
    b = as_int(b, "b", minimum=0)
    c = as_int(c, "c", minimum=0)
    eps = as_fraction(epsilon, "epsilon")
    if not 0 < eps:
        raise ExactStatsError(f"epsilon must be > 0 (a distance from 1/2), got {eps}")
    alternative = as_choice(alternative, "alternative", EQUIVALENCE_ALTERNATIVES)
    return _conditional(b, b + c, eps, alternative)


def _epsilon(m: int, n: int, margin: Fraction, gamma: Fraction) -> Fraction:
    return margin / (2 * _upper_bound(m, n, gamma))


def paired_equivalence_p_value(
    b: int,
    c: int,
    n: int,
    margin: Any,
    alternative: str = "equivalence",
    nuisance_level: Any = NUISANCE_LEVEL,
    *,
    allow_slow: bool = False,
) -> Fraction:
    """Exact p-value that the accuracy gap of two models on ``n`` shared questions is within ``margin``.

    ``b`` questions only the first model got right, ``c`` only the second.
    ``alternative="equivalence"``: H0 is ``|gap| >= margin`` (two one-sided tests);
    ``"non-inferiority"``: H0 is ``gap <= -margin`` (the first model worse by at least
    the margin). Valid whatever the discordance rate: ``nuisance_level`` (gamma) bounds
    it and is added to the p-value, so the p-value is at least gamma (module docstring).
    The conditional tail is a sum on integers of ``m * log2(d)`` bits, ``d`` the denominator
    of ``1/2 + eps``; past 35,000 bits (about 1,400 discordant questions at a two-point
    margin) it takes over ten times as long as :func:`paired_equivalence_p_value_float` and
    is refused unless ``allow_slow=True``.

    >>> paired_equivalence_p_value(5, 5, 100, "0.3")
    Fraction(1, 1000)
    >>> round(float(paired_equivalence_p_value(6, 4, 100, "0.02")), 4)
    0.7465
    >>> round(float(paired_equivalence_p_value(2, 1, 2000, "0.01", "non-inferiority")), 6)
    0.001
    """
    b, c, n, margin, alternative, gamma = _args(b, c, n, margin, alternative, nuisance_level)
    refuse_if_too_big(n * 20, f"paired_equivalence_p_value with n = {n}", "paired_equivalence_p_value_float")
    m = b + c
    eps = _epsilon(m, n, margin, gamma)
    bits = m * (Fraction(1, 2) + eps).denominator.bit_length() if eps < Fraction(1, 2) else 0
    what = f"paired_equivalence_p_value with {m} discordant of n = {n}"
    refuse_if_slow(bits, FAST_BITS, what, "paired_equivalence_p_value_float", allow_slow)
    return Fraction(min(Fraction(1), gamma + _conditional(b, m, eps, alternative)))


def _upper_bound_float(m: int, n: int, gamma: float) -> float:
    from scipy.stats import beta

    return 1.0 if m >= n else float(beta.ppf(1 - gamma, m + 1, n - m))


def _conditional_float(bs: Any, m: int, eps: float, alternative: str) -> Any:
    """The conditional p-values of every ``b`` in ``bs`` of ``m`` discordant questions, in floats."""
    import numpy as np
    from scipy import stats

    bs = np.asarray(bs)
    if eps > 0.5:
        return np.zeros(bs.shape)
    if m == 0:
        return np.ones(bs.shape)
    lower = stats.binom.sf(bs - 1, m, 0.5 - eps)
    return lower if alternative == "non-inferiority" else np.maximum(stats.binom.cdf(bs, m, 0.5 + eps), lower)


def paired_equivalence_p_value_float(
    b: int, c: int, n: int, margin: Any, alternative: str = "equivalence", nuisance_level: Any = NUISANCE_LEVEL
) -> float:
    """Float twin of :func:`paired_equivalence_p_value` (SciPy's beta quantile and binomial tails).

    >>> round(paired_equivalence_p_value_float(30, 28, 2000, "0.01"), 4)
    0.0775
    """
    b, c, n, margin, alternative, gamma = _args(b, c, n, margin, alternative, nuisance_level)
    m = b + c
    eps = float(margin) / (2 * _upper_bound_float(m, n, float(gamma)))
    return min(1.0, float(gamma) + float(_conditional_float([b], m, eps, alternative)[0]))


def _power_args(
    n: Any, p_b: Any, p_c: Any, margin: Any, alpha: Any, alternative: Any, nuisance_level: Any
) -> tuple[Any, ...]:
    n = as_int(n, "n", minimum=1)
    pb, pc = as_cell_probabilities(p_b, p_c)
    alpha = as_probability(alpha, "alpha", open_low=True, open_high=True)
    gamma = _gamma(nuisance_level)
    if alpha <= gamma:
        raise ExactStatsError(f"alpha must exceed nuisance_level = {gamma} (every p-value is at least it), got {alpha}")
    alternative = as_choice(alternative, "alternative", EQUIVALENCE_ALTERNATIVES)
    return n, pb, pc, _margin(margin), alpha, alternative, gamma


def _possible(ms: Any, n: int, margin: Fraction, level: float, alternative: str) -> Any:
    """For each m in ``ms``: False only where no b of m can reject, even at ``eps = margin n / (2m)``, which
    exceeds the test's eps (q_U > m/n) and so rejects more. A float screen with a wide safety factor."""
    import numpy as np
    from scipy import stats

    ms = np.asarray(ms)
    if alternative == "non-inferiority":
        return np.ones(ms.shape, dtype=bool)
    with np.errstate(divide="ignore"):
        eps = np.where(ms > 0, float(margin) * n / (2 * np.maximum(ms, 1)), np.inf)
    out = (ms == 0) | (eps >= 0.5)
    half = np.minimum(eps, 0.5)
    for b in (ms // 2, (ms + 1) // 2):  # the TOST p-value is smallest at the middle of the m questions
        p = np.maximum(stats.binom.cdf(b, ms, 0.5 + half), stats.binom.sf(b - 1, ms, 0.5 - half))
        out |= p <= level * 1.001 + 1e-300
    return out


def rejection_region(
    m: int,
    n: int,
    margin: Any,
    alpha: Any = "0.05",
    alternative: str = "equivalence",
    nuisance_level: Any = NUISANCE_LEVEL,
) -> tuple[int, int]:
    """The ``b`` (of ``m`` discordant questions) where the test rejects at ``alpha``: an interval ``[lo, hi]``
    (empty when ``lo > hi``). Decided exactly; floats only locate the ends.

    >>> rejection_region(10, 2000, "0.01")
    (3, 7)
    """
    n = as_int(n, "n", minimum=1)
    m = as_int(m, "m", minimum=0, maximum=n)
    alpha = as_probability(alpha, "alpha", open_low=True, open_high=True)
    gamma = _gamma(nuisance_level)
    alternative = as_choice(alternative, "alternative", EQUIVALENCE_ALTERNATIVES)
    return _region(m, n, _margin(margin), alpha, alternative, gamma)


@functools.lru_cache(maxsize=1 << 16)  # a region depends on m and n, not on the cell chances: power grids reuse it
def _region(m: int, n: int, margin: Fraction, alpha: Fraction, alternative: str, gamma: Fraction) -> tuple[int, int]:
    """Reject where gamma + conditional p <= alpha. The 'better by >= margin' tail rises with b and the
    'worse' tail falls, so the region is an interval; floats find its ends, exact tails confirm them."""
    import numpy as np

    level = alpha - gamma
    if level < 0 or not _possible([m], n, margin, float(level), alternative)[0]:
        return 1, 0
    eps = _epsilon(m, n, margin, gamma)

    def rejects(b: int) -> bool:
        return _conditional(b, m, eps, alternative) <= level

    if eps >= Fraction(1, 2) or m == 0:
        hits = [b for b in range(m + 1) if rejects(b)]
        return (hits[0], hits[-1]) if hits else (1, 0)
    p = _conditional_float(np.arange(m + 1), m, float(eps), alternative)
    ok = np.flatnonzero(p <= float(level))
    # the exact ends lie within a step or two of the float ones (or of the float minimum when the
    # screen found nothing): decide those candidates exactly, then grow the interval exactly
    centres = (int(ok[0]), int(ok[-1])) if ok.size else (int(np.argmin(p)),)
    candidates = sorted({b for c in centres for b in range(c - 2, c + 3) if 0 <= b <= m})
    hits = [b for b in candidates if rejects(b)]
    if not hits:
        return 1, 0
    lo, hi = hits[0], hits[-1]
    while lo > 0 and rejects(lo - 1):
        lo -= 1
    while hi < m and rejects(hi + 1):
        hi += 1
    return lo, hi


def paired_equivalence_power(
    n: int,
    p_b: Any,
    p_c: Any,
    margin: Any,
    alpha: Any = "0.05",
    alternative: str = "equivalence",
    nuisance_level: Any = NUISANCE_LEVEL,
) -> Fraction:
    """Exact probability that :func:`paired_equivalence_p_value` rejects at ``alpha`` with ``n`` questions.

    Each question independently falls in "only the first model right" with ``p_b``,
    "only the second" with ``p_c``, otherwise concordant. The sum runs over every
    outcome ``(b, c)`` in integers. At a null point (``|p_b - p_c| = margin``) this is the
    test's exact size, which never exceeds ``alpha``.

    >>> round(float(paired_equivalence_power(200, "0.02", "0.02", "0.05")), 6)
    0.002656
    >>> paired_equivalence_power(200, "0.07", "0.02", "0.05") <= Fraction(1, 20)  # a gap of exactly the margin
    True
    """
    n, pb, pc, margin, alpha, alternative, gamma = _power_args(n, p_b, p_c, margin, alpha, alternative, nuisance_level)
    den, beta, gam, rho = trinomial_integers(pb, pc)
    # up to n^2 big-integer steps of n log2(den) bits, plus a Clopper-Pearson bound per discordant count
    refuse_if_too_big(n * n * math.log2(den + 1) / 16, "exact equivalence power", "paired_equivalence_power_float")
    import numpy as np

    possible = np.flatnonzero(_possible(np.arange(n + 1), n, margin, float(alpha - gamma), alternative)).tolist()
    total = region_sum(n, beta, gam, rho, lambda m: [_region(m, n, margin, alpha, alternative, gamma)], possible)
    return reduced_fraction(total, den**n, radical=den)


def paired_equivalence_power_float(
    n: int,
    p_b: Any,
    p_c: Any,
    margin: Any,
    alpha: Any = "0.05",
    alternative: str = "equivalence",
    nuisance_level: Any = NUISANCE_LEVEL,
) -> float:
    """Float twin of :func:`paired_equivalence_power`: SciPy throughout, discordant counts within
    12 standard deviations of ``n q`` (the rest weighs under 1e-30).

    >>> round(paired_equivalence_power_float(200, "0.02", "0.02", "0.05"), 6)
    0.002656
    """
    import numpy as np
    from scipy import stats

    n, pb, pc, margin, alpha, alternative, gamma = _power_args(n, p_b, p_c, margin, alpha, alternative, nuisance_level)
    q = float(pb + pc)
    level = float(alpha - gamma)
    if q == 0:  # every question concordant: m = 0
        eps = float(margin) / (2 * _upper_bound_float(0, n, float(gamma)))
        return 1.0 if float(_conditional_float([0], 0, eps, alternative)[0]) <= level else 0.0
    theta = float(pb) / q
    spread = 12 * math.sqrt(n * q * (1 - q)) + 1
    total = 0.0
    ms = np.arange(max(0, int(n * q - spread)), min(n, int(n * q + spread) + 1) + 1)
    for m in ms[_possible(ms, n, margin, level, alternative)].tolist():
        eps = float(margin) / (2 * _upper_bound_float(m, n, float(gamma)))
        ok = np.flatnonzero(_conditional_float(np.arange(m + 1), m, eps, alternative) <= level)
        if ok.size:
            inside = stats.binom.cdf(ok[-1], m, theta) - stats.binom.cdf(ok[0] - 1, m, theta)
            total += float(stats.binom.pmf(m, n, q)) * float(inside)
    return total
