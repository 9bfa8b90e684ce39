"""Condorcet's jury theorem, exactly: majority and plurality of independent voters.

``k`` independent voters are each right with probability ``p``; the majority is
right with probability ``sum_{i > k/2} C(k, i) p**i (1-p)**(k-i)``.

>>> majority_probability("0.7", 3)
Fraction(98, 125)
>>> round(float(majority_probability("0.7", 25)), 4)
0.9825
>>> majority_probability("0.7", 2, ties="fair")
Fraction(7, 10)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from math import comb
from typing import Any

from ._binomial import binomial_range_sum, reduced_fraction
from ._validate import ExactStatsError, as_int, as_probability, as_tie_rule, refuse_if_too_big

__all__ = [
    "majority_probability",
    "majority_probability_float",
    "majority_probability_heterogeneous",
    "poisson_binomial_pmf",
    "plurality_probability",
    "MAJORITY_TIE_RULES",
    "PLURALITY_TIE_RULES",
]

# A tie of k/2 against k/2 (even k); the names and meanings are exactstats' one tie vocabulary.
MAJORITY_TIE_RULES = ("fair", "lose", "win")
_TIE_CREDIT = {"fair": Fraction(1, 2), "lose": Fraction(0), "win": Fraction(1)}


def _tie_credit(k: int, ties: Any) -> Fraction:
    if k % 2 == 1:
        if ties is not None:
            as_tie_rule(ties, MAJORITY_TIE_RULES)
        return Fraction(0)  # no ties possible
    if ties is None:
        raise ExactStatsError(
            f"ties must be given for an even number of voters (k = {k}): one of {', '.join(MAJORITY_TIE_RULES)}"
        )
    return _TIE_CREDIT[as_tie_rule(ties, MAJORITY_TIE_RULES)]


def majority_probability(p: Any, k: int, ties: str | None = None) -> Fraction:
    """Probability that a majority of ``k`` independent voters, each right with ``p``, is right.

    For even ``k`` a tie rule is required: ``"fair"`` (a fair coin decides, so a tie
    is credited 1/2), ``"lose"`` (a tie counts as wrong) or ``"win"`` (as right).

    >>> majority_probability("0.7", 3)
    Fraction(98, 125)
    """
    p = as_probability(p, "p")
    k = as_int(k, "k", minimum=1)
    credit = _tie_credit(k, ties)
    a, d = p.numerator, p.denominator
    # one binary-split sum on integers of k * log2(d) bits: near-linear, a fraction of a second at this limit
    refuse_if_too_big(k * d.bit_length(), f"majority_probability with k = {k}", "majority_probability_float", 1 << 20)
    # Count by wrong voters j < k/2: sum_j C(k, j) (d-a)^j a^(k-j) / d^k, one exact integer sum
    wrong, right = d - a, a
    if right == 0:
        return Fraction(0)
    result = reduced_fraction(binomial_range_sum(k, 0, (k - 1) // 2, wrong, right), d**k, radical=d)
    if k % 2 == 0 and credit:
        result += credit * reduced_fraction(comb(k, k // 2) * (a * wrong) ** (k // 2), d**k, radical=d)
    return result


def majority_probability_float(p: Any, k: int, ties: str | None = None) -> float:
    """Float twin of :func:`majority_probability` (scipy's binomial survival function), for any ``k``.

    >>> round(majority_probability_float("0.7", 3), 6)
    0.784
    >>> round(majority_probability_float("0.51", 1_000_001), 6)
    1.0
    """
    from scipy.stats import binom

    p = as_probability(p, "p")
    k = as_int(k, "k", minimum=1)
    credit = _tie_credit(k, ties)
    value = float(binom.sf(k // 2, k, float(p)))
    if k % 2 == 0 and credit:
        value += float(credit) * float(binom.pmf(k // 2, k, float(p)))
    return value


def _pmf_numerators(accuracies: Sequence[Any]) -> tuple[list[int], int]:
    """Integers ``N_j`` and ``D`` with ``P(j right) = N_j / D``: the recurrence over voters, no Fraction per term."""
    ps = [as_probability(a, f"accuracies[{i}]") for i, a in enumerate(accuracies)]
    if not ps:
        raise ExactStatsError("accuracies must hold at least one voter, got none")
    if all(p == ps[0] for p in ps):  # identical voters: the binomial
        k, p = len(ps), ps[0]
        a, d = p.numerator, p.denominator
        return [comb(k, j) * a**j * (d - a) ** (k - j) for j in range(k + 1)], d**k
    num, den = [1], 1
    for p in ps:
        a, d = p.numerator, p.denominator
        nxt = [0] * (len(num) + 1)
        for j, mass in enumerate(num):
            nxt[j] += mass * (d - a)
            nxt[j + 1] += mass * a
        num, den = nxt, den * d
    return num, den


def poisson_binomial_pmf(accuracies: Sequence[Any]) -> list[Fraction]:
    """Exact distribution of the number of right voters when voter ``i`` is right with ``accuracies[i]``.

    >>> [str(x) for x in poisson_binomial_pmf(["1/2", "1/3"])]
    ['1/3', '1/2', '1/6']
    """
    num, den = _pmf_numerators(accuracies)
    return [Fraction(x, den) for x in num]


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


PLURALITY_TIE_RULES = ("fair", "lose", "win")


def plurality_probability(accuracies: Sequence[Any], options: int = 4, ties: str = "fair") -> Fraction:
    """Probability that the right option wins a plurality vote, exactly.

    Voter ``i`` picks the right option with ``accuracies[i]``; when wrong it picks one
    of the ``options - 1`` wrong options uniformly and independently of everything
    else. A tie for the most votes is broken uniformly at random among the tied
    options (``ties="fair"``), always lost (``"lose"``) or always won (``"win"``);
    the three bracket what a tie-breaking rule can do to the baseline. This is the "independent voters" baseline for a panel of models on a
    multiple-choice test.

    Conditioning on the number ``a`` of right votes, the ``m`` wrong votes fall
    uniformly into ``w`` bins; the right option wins outright when every bin holds
    fewer than ``a`` votes, and shares a tie with the ``t`` bins holding exactly
    ``a``. The sequence counts come from the truncated exponential series
    ``e_a(x) = sum_{i < a} x^i / i!`` raised to the powers ``0..w``; raising ``a`` by
    one adds a single monomial, so all powers are updated in O(w^2 k) integer
    operations per step and the whole sum costs O(w^2 k^2), not O(k^3).

    >>> plurality_probability(["0.7"] * 3, options=2) == majority_probability("0.7", 3)
    True
    >>> plurality_probability(["1/2"] * 2, options=2, ties="lose")
    Fraction(1, 4)
    """
    options = as_int(options, "options", minimum=2)
    ties = as_tie_rule(ties, PLURALITY_TIE_RULES)
    pmf_num, pmf_den = _pmf_numerators(accuracies)
    k = len(pmf_num) - 1
    w = options - 1
    fact = [1] * (k + 1)
    for i in range(1, k + 1):
        fact[i] = fact[i - 1] * i
    big = fact[k]
    # h[v][r] = k! * [x^r] e_a(x)^v: integers (each coefficient is a sum of 1/(r_1!...r_v!), r <= k)
    h = [[big] + [0] * k] + [[0] * (k + 1) for _ in range(w)]
    # every term over one common denominator G = k! * (k!)^w * lcm(1..w+1) * w^k: integers throughout
    shares = math.lcm(*range(1, w + 2))
    top = fact[k] ** w
    common = big * top * shares * w**k
    total = 0
    for a in range(k + 1):
        m = k - a
        if pmf_num[a]:
            if a > m:
                total += pmf_num[a] * common
            else:
                wins = _right_option_wins(h, a, m, w, fact, top, shares, ties)
                total += pmf_num[a] * wins * w ** (k - m)
        if a == k:
            break
        _add_monomial(h, a, w, k - a, fact)  # e_{a+1} = e_a + x^a / a!
    return Fraction(total, pmf_den * common)


def _right_option_wins(
    h: list[list[int]], a: int, m: int, w: int, fact: list[int], top: int, shares: int, ties: str
) -> int:
    """The wins of the right option with ``a`` votes while ``m`` wrong votes fall into ``w`` bins, over
    plurality_probability's common denominator: outright when every bin holds fewer than ``a``, shared
    (by the tie rule) with the ``t`` bins holding exactly ``a``."""
    wins = 0
    for t in range(w + 1):
        r = m - t * a
        if r < 0:
            break
        count = h[w - t][r]  # k! * (ways, per r!, for the other bins to stay below a)
        if count:
            share = (t + 1) if ties == "fair" else 1  # a coin among the t + 1 tied options
            if ties == "lose" and t:
                break  # ties with more bins only get more likely to be lost: none count
            wins += comb(w, t) * fact[m] * count * (top // fact[a] ** t) * (shares // share)
    return wins


def _add_monomial(h: list[list[int]], a: int, w: int, limit: int, fact: list[int]) -> None:
    """Raise the truncation of ``e_a`` by one term in every power ``h[v] = k! [x^r] e_a(x)^v``, highest
    power first (each uses lower, older powers); later steps need degrees up to ``limit`` only."""
    for v in range(w, 0, -1):
        new = h[v][: limit + 1]
        for i in range(1, v + 1):
            shift = i * a
            if shift > limit:
                break
            scale = comb(v, i)
            div = fact[a] ** i
            old = h[v - i]
            for r in range(shift, limit + 1):
                if old[r - shift]:
                    new[r] += scale * old[r - shift] // div
        h[v] = new + [0] * (len(h[v]) - len(new))
