"""Reporting the best of several evaluations is a selection, and it is biased upward.

A model scored several ways (prompt formats, few-shot sets, seeds) and reported by
its best score gets the maximum of several noisy accuracies. Even when every way
has the same true accuracy ``p``, the expected maximum is above ``p``: ``E[max] >=
max E`` (Jensen, for the convex ``max``), with equality only when there is no noise.
Here the scores are taken as independent Binomial(``questions``, ``p``) counts; scores
of the same questions are usually positively correlated, which shrinks the excess.

The exact expectation sums the tail: ``E[max X_i] = sum_{k>=1} P(max X_i >= k)`` and
``P(max X_i >= k) = 1 - P(X <= k-1)**m``, in integers over ``d**(n*m)`` for ``p = a/d``.

>>> expected_best_accuracy(2, "1/2", 2)        # two coins, two tosses each: the better share
Fraction(11, 16)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ._binomial import _mpz, reduced_fraction
from ._lazy import np
from ._validate import as_int, as_probability, refuse_if_slow, refuse_if_too_big

__all__ = ["expected_best_accuracy", "expected_best_accuracy_float"]

# questions x bits of the largest integer: about a second of exact work at the limit on one core
_WORK_LIMIT = 300_000_000
# Past questions * evaluations * log2(d) = 9,000 bits the exact sum (questions squarings of integers that
# size) was measured at over ten times the float twin's time (make bench), and is refused unless allow_slow
FAST_BITS = 9_000


def _args(questions: Any, accuracy: Any, evaluations: Any) -> tuple[int, Fraction, int]:
    n = as_int(questions, "questions", minimum=1)
    p = as_probability(accuracy, "accuracy")
    m = as_int(evaluations, "evaluations", minimum=1)
    return n, p, m


def expected_best_accuracy(
    questions: int, accuracy: Any, evaluations: int = 2, *, allow_slow: bool = False
) -> Fraction:
    """Exact expected accuracy of the best of ``evaluations`` independent scores on ``questions`` questions.

    Each score is ``Binomial(questions, accuracy) / questions``; the result is the mean of
    their maximum. Its excess over ``accuracy`` is what "quote the better format"
    adds on average to a model that is equally good in every format. Refused (naming the
    float twin) when the work would take more than seconds: ``questions`` steps on integers
    of ``questions * evaluations * log2(denominator)`` bits. Past 9,000 such bits (1,500 questions,
    two evaluations, accuracy 1/4) it takes over ten times as long as :func:`expected_best_accuracy_float`
    and is refused unless ``allow_slow=True``.

    >>> expected_best_accuracy(1, "1/4", 2)        # either of two one-question scores right
    Fraction(7, 16)
    >>> round(float(expected_best_accuracy(2000, "1/4", 2, allow_slow=True) - Fraction(1, 4)), 5)
    0.00546
    """
    n, p, m = _args(questions, accuracy, evaluations)
    if p in (0, 1):  # no noise: every score equals p
        return p
    a, d = p.numerator, p.denominator
    refuse_if_too_big(  # n steps on integers of n*m*log2(d) bits: seconds at the limit
        n * m * d.bit_length(),
        f"expected_best_accuracy with {n} questions and {m} evaluations",
        "expected_best_accuracy_float",
        limit=_WORK_LIMIT // n,
    )
    what = f"expected_best_accuracy with {n} questions and {m} evaluations"
    refuse_if_slow(n * m * d.bit_length(), FAST_BITS, what, "expected_best_accuracy_float", allow_slow)
    # P(X = j) = C(n, j) a**j (d-a)**(n-j) / d**n; sum over k of P(max >= k) = n - sum over k of P(X <= k-1)**m
    term = _mpz(d - a) ** n  # the numerator at j = 0, then the next one by the ratio of neighbours (GMP integers)
    below = _mpz(0)  # d**n * P(X <= k-1)
    below_m = _mpz(0)  # d**(n*m) * sum over k of P(X <= k-1)**m
    for k in range(1, n + 1):
        below += term
        below_m += below**m
        term = term * (n - k + 1) * a // (k * (d - a))  # exact: each numerator is an integer
    whole_m = _mpz(d) ** (n * m)
    return reduced_fraction(int(n * whole_m - below_m), int(whole_m * n), radical=n * d)


def expected_best_accuracy_float(questions: int, accuracy: Any, evaluations: int = 2) -> float:
    """Float twin of :func:`expected_best_accuracy` (scipy's binomial distribution), for any size.

    >>> round(expected_best_accuracy_float(2000, 0.25, 2), 5)
    0.25546
    """
    from scipy.stats import binom

    n, p, m = _args(questions, accuracy, evaluations)
    below = binom.cdf(np.arange(n), n, float(p))  # P(X <= k-1) for k = 1..n
    return float(np.sum(1.0 - below**m) / n)
