"""Condorcet's jury theorem, exactly: majority and plurality of independent voters.

``k`` independent voters are each right with probability ``p``; the majority is
right with probability ``sum_{i > k/2} C(k, i) p**i (1-p)**(k-i)``.

>>> majority_probability("0.7", 3)
Fraction(98, 125)
>>> round(float(majority_probability("0.7", 25)), 4)
0.9825
>>> majority_probability("0.7", 2, ties="half")
Fraction(7, 10)
"""

from __future__ import annotations

from fractions import Fraction
from math import comb, factorial
from typing import Any, Sequence

from ._validate import ExactStatsError, as_choice, as_int, as_probability

__all__ = [
    "majority_probability",
    "majority_probability_heterogeneous",
    "poisson_binomial_pmf",
    "plurality_probability",
    "TIE_RULES",
]

TIE_RULES = ("half", "lose", "win")
_TIE_CREDIT = {"half": Fraction(1, 2), "lose": Fraction(0), "win": Fraction(1)}


def _tie_credit(k: int, ties: Any) -> Fraction:
    if k % 2 == 1:
        if ties is not None:
            as_choice(ties, "ties", TIE_RULES)
        return Fraction(0)  # no ties possible
    if ties is None:
        raise ExactStatsError(f"ties must be given for an even number of voters (k = {k}): one of {', '.join(TIE_RULES)}")
    return _TIE_CREDIT[as_choice(ties, "ties", TIE_RULES)]


def majority_probability(p: Any, k: int, ties: str | None = None) -> Fraction:
    """Probability that a majority of ``k`` independent voters, each right with ``p``, is right.

    For even ``k`` a tie rule is required: ``"half"`` (a fair coin decides),
    ``"lose"`` (a tie counts as wrong) or ``"win"``.
    """
    p = as_probability(p, "p")
    k = as_int(k, "k", minimum=1)
    credit = _tie_credit(k, ties)
    q = 1 - p
    total = sum((comb(k, i) * p**i * q ** (k - i) for i in range(k // 2 + 1, k + 1)), Fraction(0))
    if k % 2 == 0 and credit:
        total += credit * comb(k, k // 2) * p ** (k // 2) * q ** (k // 2)
    return total


def poisson_binomial_pmf(accuracies: Sequence[Any]) -> list[Fraction]:
    """Exact distribution of the number of right voters when voter ``i`` is right with ``accuracies[i]``.

    >>> [str(x) for x in poisson_binomial_pmf(["1/2", "1/3"])]
    ['1/3', '1/2', '1/6']
    """
    ps = [as_probability(a, f"accuracies[{i}]") for i, a in enumerate(accuracies)]
    if not ps:
        raise ExactStatsError("accuracies must hold at least one voter, got none")
    pmf = [Fraction(1)]
    for p in ps:
        q = 1 - p
        nxt = [Fraction(0)] * (len(pmf) + 1)
        for j, mass in enumerate(pmf):
            nxt[j] += mass * q
            nxt[j + 1] += mass * p
        pmf = nxt
    return pmf


def majority_probability_heterogeneous(accuracies: Sequence[Any], ties: str | None = None) -> Fraction:
    """Majority probability for voters with their own accuracies (Poisson-binomial), exactly.

    >>> majority_probability_heterogeneous(["0.7"] * 3)
    Fraction(98, 125)
    """
    pmf = poisson_binomial_pmf(accuracies)
    k = len(pmf) - 1
    credit = _tie_credit(k, ties)
    total = sum(pmf[k // 2 + 1 :], Fraction(0))
    if k % 2 == 0:
        total += credit * pmf[k // 2]
    return total


def plurality_probability(accuracies: Sequence[Any], options: int = 4) -> Fraction:
    """Probability that the right option wins a plurality vote, exactly.

    Voter ``i`` picks the right option with ``accuracies[i]``; when wrong it picks one
    of the ``options - 1`` wrong options uniformly and independently of everything
    else. A tie for the most votes is broken uniformly at random among the tied
    options. This is the "independent voters" baseline for a panel of models on a
    multiple-choice test.

    >>> plurality_probability(["0.7"] * 3, options=2) == majority_probability("0.7", 3)
    True
    """
    options = as_int(options, "options", minimum=2)
    pmf = poisson_binomial_pmf(accuracies)
    k = len(pmf) - 1
    wrong = options - 1
    return sum((mass * _win_given_right_votes(j, k - j, wrong) for j, mass in enumerate(pmf) if mass), Fraction(0))


def _win_given_right_votes(j: int, m: int, w: int) -> Fraction:
    """P(right option wins | it has j votes and m wrong votes spread uniformly over w options)."""
    if j > m:
        return Fraction(1)
    # Exponential generating functions: sequences of m wrong votes with every wrong
    # option below j votes, except t options at exactly j (a tie among t + 1 options).
    below = [Fraction(1, factorial(a)) for a in range(min(j, m + 1))]
    at_j = Fraction(1, factorial(j))
    total = Fraction(0)
    power = [Fraction(1)]  # below(x) ** (w - t), built up from t = w downwards
    powers = [power]
    for _ in range(w):
        power = _poly_mul(power, below, m)
        powers.append(power)
    for t in range(w + 1):
        rest = m - t * j
        if rest < 0:
            break
        poly = powers[w - t]
        coeff = poly[rest] if rest < len(poly) else 0
        if coeff:
            total += Fraction(comb(w, t)) * at_j**t * coeff / (t + 1)
    return total * factorial(m) / Fraction(w) ** m


def _poly_mul(a: list[Fraction], b: list[Fraction], degree: int) -> list[Fraction]:
    out = [Fraction(0)] * min(len(a) + len(b) - 1, degree + 1)
    for i, x in enumerate(a):
        if not x:
            continue
        for j, y in enumerate(b[: degree + 1 - i]):
            out[i + j] += x * y
    return out
