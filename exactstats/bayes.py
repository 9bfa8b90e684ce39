"""Bayesian comparisons of two models, in closed form: the chances Monte Carlo tools estimate, exactly.

With a Beta(a, a) prior on an accuracy and k right of n, the posterior is Beta(k + a, n - k + a). Two
questions users ask of it:

- **paired** (both models on the same questions): with a Dirichlet prior on the four cells of the 2 x 2
  table, the share ``theta = p_b / (p_b + p_c)`` of discordant questions won by the first model has the
  posterior Beta(b + a, c + a), and the first model is better exactly when ``theta > 1/2``. So
  ``P(first better) = P(Bin(b + c + 2a - 1, 1/2) <= b + a - 1)``, a dyadic rational
  (:func:`paired_better_probability`); with a = 1 that is ``P(Bin(b + c + 1, 1/2) <= b)``.
- **independent** (different question sets): ``P(theta_1 > theta_2)`` for two Beta posteriors with whole
  parameters is a finite sum of Beta-function ratios (:func:`unpaired_better_probability`).

Credible intervals need Beta quantiles, which are not rational: :func:`beta_credible_interval_float`
takes them from SciPy and says so by its name.

>>> paired_better_probability(3, 0)  # P(Bin(4, 1/2) <= 3) = 15/16
Fraction(15, 16)
>>> unpaired_better_probability(1, 1, 0, 1)  # Beta(2, 1) against Beta(1, 2)
Fraction(5, 6)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ._binomial import _mpz, binomial_lower_sum, comb, dyadic_fraction, reduced_fraction
from ._validate import ExactStatsError, as_beta_prior, as_int, as_probability, refuse_if_too_big

__all__ = [
    "posterior_mean",
    "paired_better_probability",
    "paired_better_probability_float",
    "unpaired_better_probability",
    "unpaired_better_probability_float",
    "beta_credible_interval_float",
]

MAX_SUM_TERMS = 200_000  # the independent sum has one term per success of the second model


def _counts(k: Any, n: Any, k_name: str, n_name: str) -> tuple[int, int]:
    n = as_int(n, n_name, minimum=0)
    return as_int(k, k_name, minimum=0, maximum=n), n


def posterior_mean(k: int, n: int, prior: int = 1) -> Fraction:
    """Mean of the Beta(k + prior, n - k + prior) posterior of an accuracy: ``(k + prior) / (n + 2 prior)``.

    >>> posterior_mean(7, 10), posterior_mean(0, 0)
    (Fraction(2, 3), Fraction(1, 2))
    """
    k, n = _counts(k, n, "k", "n")
    a = as_beta_prior(prior)
    return Fraction(k + a, n + 2 * a)


def paired_better_probability(b: int, c: int, prior: int = 1) -> Fraction:
    """Exact posterior chance that the first model is better, from the discordant counts ``b`` (only the
    first right) and ``c`` (only the second): ``P(Beta(b + prior, c + prior) > 1/2)``.

    >>> paired_better_probability(219, 182) > Fraction(96, 100)
    True
    >>> paired_better_probability(5, 5)
    Fraction(1, 2)
    """
    b = as_int(b, "b", minimum=0)
    c = as_int(c, "c", minimum=0)
    a = as_beta_prior(prior)
    trials = b + c + 2 * a - 1
    refuse_if_too_big(float(trials), "paired_better_probability", "paired_better_probability_float")
    return dyadic_fraction(binomial_lower_sum(trials, b + a - 1), trials)


def paired_better_probability_float(b: int, c: int, prior: int = 1) -> float:
    """Float twin of :func:`paired_better_probability` (SciPy's regularised incomplete Beta function).

    >>> round(paired_better_probability_float(3, 0), 6)
    0.9375
    """
    from scipy.special import betaincc  # the Beta survival function without importing scipy.stats (0.8 s)

    b = as_int(b, "b", minimum=0)
    c = as_int(c, "c", minimum=0)
    a = as_beta_prior(prior)
    return float(betaincc(b + a, c + a, 0.5))


def unpaired_better_probability(k1: int, n1: int, k2: int, n2: int, prior: int = 1) -> Fraction:
    """Exact ``P(theta_1 > theta_2)`` for independent posteriors Beta(k1 + prior, n1 - k1 + prior) and
    Beta(k2 + prior, n2 - k2 + prior), that is Beta(a1, b1) and Beta(a2, b2): one minus the finite sum over
    i < a2 of ``B(a1 + i, b1 + b2) / ((b2 + i) B(1 + i, b2) B(a1, b1))`` (Evan Miller's formula for
    ``P(theta_2 > theta_1)``). Consecutive terms have the ratio ``(a1 + i)(b2 + i) / ((a1 + b1 + b2 + i)(1 + i))``,
    so the sum is one integer Horner pass from its last term back, with no binomial per term.

    >>> unpaired_better_probability(7, 10, 3, 10)
    Fraction(56255, 58786)
    """
    k1, n1 = _counts(k1, n1, "k1", "n1")
    k2, n2 = _counts(k2, n2, "k2", "n2")
    a = as_beta_prior(prior)
    a1, b1, a2, b2 = k1 + a, n1 - k1 + a, k2 + a, n2 - k2 + a
    if a2 > MAX_SUM_TERMS or n1 + n2 > 20 * MAX_SUM_TERMS:
        raise ExactStatsError(
            f"k2 + prior must be at most {MAX_SUM_TERMS:,} for the exact sum, got {a2:,}; "
            "use unpaired_better_probability_float"
        )
    # the first term is B(a1, b1 + b2) / B(a1, b1), with 1 / B(x, y) = (x + y - 1) C(x + y - 2, x - 1)
    first_num = (a1 + b1 - 1) * comb(a1 + b1 - 2, a1 - 1)
    first_den = (a1 + b1 + b2 - 1) * comb(a1 + b1 + b2 - 2, a1 - 1)
    # 1 + r_0 (1 + r_1 (1 + ... r_{a2-2})), evaluated from the inside out as num / den
    num, den = _mpz(1), _mpz(1)
    for i in range(a2 - 2, -1, -1):
        up, down = (a1 + i) * (b2 + i), (a1 + b1 + b2 + i) * (1 + i)
        num, den = den * down + up * num, den * down
    return 1 - reduced_fraction(first_num * num, first_den * den)


def unpaired_better_probability_float(k1: int, n1: int, k2: int, n2: int, prior: int = 1) -> float:
    """Float twin of :func:`unpaired_better_probability`: the same sum in log space (SciPy ``betaln``).

    >>> round(unpaired_better_probability_float(7, 10, 3, 10), 8)
    0.95694553
    """
    import numpy as np
    from scipy.special import betaln, logsumexp

    k1, n1 = _counts(k1, n1, "k1", "n1")
    k2, n2 = _counts(k2, n2, "k2", "n2")
    a = as_beta_prior(prior)
    a1, b1, a2, b2 = k1 + a, n1 - k1 + a, k2 + a, n2 - k2 + a
    i = np.arange(a2)
    log_terms = betaln(a1 + i, b1 + b2) - np.log(b2 + i) - betaln(1 + i, b2) - betaln(a1, b1)
    return float(1 - np.exp(logsumexp(log_terms)))


def beta_credible_interval_float(k: int, n: int, level: Any = "0.95", prior: int = 1) -> tuple[float, float]:
    """Equal-tailed credible interval of the Beta(k + prior, n - k + prior) posterior (SciPy quantiles).

    >>> [round(x, 4) for x in beta_credible_interval_float(7, 10)]
    [0.3903, 0.8907]
    """
    from scipy import stats

    k, n = _counts(k, n, "k", "n")
    lv = float(as_probability(level, "level", open_low=True, open_high=True))
    a = as_beta_prior(prior)
    lo, hi = stats.beta.ppf([(1 - lv) / 2, (1 + lv) / 2], k + a, n - k + a)
    return float(lo), float(hi)
