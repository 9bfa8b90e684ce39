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
from ._lazy import np
from ._validate import ExactStatsError, as_int, as_probability, as_tie_rule, refuse_if_slow, refuse_if_too_big

__all__ = [
    "majority_probability",
    "majority_probability_float",
    "majority_probability_heterogeneous",
    "poisson_binomial_pmf",
    "plurality_probability",
    "plurality_probability_float",
    "MAJORITY_TIE_RULES",
    "PLURALITY_TIE_RULES",
]

# Past these sizes each exact sum was measured (make bench, "exact sums") at over ten times its float twin's
# time, and is refused unless allow_slow=True: bits of k * log2(d) for the majority, voters times wrong options
# for the plurality (whose work grows like their product squared).
MAJORITY_FAST_BITS = 7_000
PLURALITY_FAST_SIZE = 1_000

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


def majority_probability(p: Any, k: int, ties: str | None = None, *, allow_slow: bool = False) -> Fraction:
    """Probability that a majority of ``k`` independent voters, each right with ``p``, is right.

    For even ``k`` a tie rule is required: ``"fair"`` (a fair coin decides, so a tie
    is credited 1/2), ``"lose"`` (a tie counts as wrong) or ``"win"`` (as right).
    Past ``k * log2(denominator of p)`` = 7,000 bits (about 1,750 voters at ``p = 0.7``) the
    exact sum takes over ten times as long as :func:`majority_probability_float`, and is
    refused unless ``allow_slow=True`` (milliseconds at 10,000 voters; refused outright past 2**20 bits).

    >>> majority_probability("0.7", 3)
    Fraction(98, 125)
    >>> float(majority_probability("0.7", 10_001, allow_slow=True))
    1.0
    """
    p = as_probability(p, "p")
    k = as_int(k, "k", minimum=1)
    credit = _tie_credit(k, ties)
    a, d = p.numerator, p.denominator
    # one binary-split sum on integers of k * log2(d) bits: near-linear, a fraction of a second at this limit
    bits, what = k * d.bit_length(), f"majority_probability with k = {k}"
    refuse_if_too_big(bits, what, "majority_probability_float", 1 << 20)
    refuse_if_slow(bits, MAJORITY_FAST_BITS, what, "majority_probability_float", allow_slow)
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


def plurality_probability(
    accuracies: Sequence[Any], options: int = 4, ties: str = "fair", *, allow_slow: bool = False
) -> Fraction:
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
    operations per step and the whole sum costs O(w^2 k^2), not O(k^3). Past
    ``k * w`` = 1,000 (333 voters with four options) that is over ten times the time of
    :func:`plurality_probability_float`, and is refused unless ``allow_slow=True``.

    >>> plurality_probability(["0.7"] * 3, options=2) == majority_probability("0.7", 3)
    True
    >>> plurality_probability(["1/2"] * 2, options=2, ties="lose")
    Fraction(1, 4)
    """
    options = as_int(options, "options", minimum=2)
    ties = as_tie_rule(ties, PLURALITY_TIE_RULES)
    w = options - 1
    accuracies = list(accuracies)  # counted before the work (an iterator is welcome, as it always was)
    what = f"plurality_probability with {len(accuracies)} voters and {options} options"
    refuse_if_slow(len(accuracies) * w, PLURALITY_FAST_SIZE, what, "plurality_probability_float", allow_slow)
    pmf_num, pmf_den = _pmf_numerators(accuracies)
    k = len(pmf_num) - 1
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


def plurality_probability_float(accuracies: Sequence[Any], options: int = 4, ties: str = "fair") -> float:
    """Float twin of :func:`plurality_probability`, for panels of thousands of voters.

    The same conditioning on the right votes ``a``, with the ``m`` wrong votes poissonized: ``w``
    independent Poisson(m/w) bins, given that they sum to ``m``, are the uniform multinomial. The chance
    that ``t`` given bins hold exactly ``a`` and the others fewer is then a product of Poisson terms and
    a convolution power of the Poisson pmf cut below ``a``: NumPy convolutions, no big integers.

    >>> round(plurality_probability_float(["0.7"] * 3, options=2), 12)
    0.784
    >>> round(plurality_probability_float(["0.6"] * 1_001), 6)
    1.0
    """
    options = as_int(options, "options", minimum=2)
    ties = as_tie_rule(ties, PLURALITY_TIE_RULES)
    ps = [float(as_probability(a, f"accuracies[{i}]")) for i, a in enumerate(accuracies)]
    if not ps:
        raise ExactStatsError("accuracies must hold at least one voter, got none")
    k, w = len(ps), options - 1
    right = np.zeros(k + 1)  # P(a right votes): the Poisson-binomial, one voter at a time
    right[0] = 1.0
    for i, p in enumerate(ps):
        right[1 : i + 2] = right[1 : i + 2] * (1 - p) + right[: i + 1] * p
        right[0] *= 1 - p
    share = [1 / (t + 1) if ties == "fair" else float(ties == "win" or t == 0) for t in range(w + 1)]
    total = float(right[(k // 2) + 1 :].sum())  # a > m: the wrong votes together are fewer than a
    for a in range(1, k // 2 + 1):
        if right[a] > 0:
            total += right[a] * _wins_given_right(a, k - a, w, share)
    return min(1.0, float(total))


def _wins_given_right(a: int, m: int, w: int, share: list[float]) -> float:
    """P(the right option, with ``a`` votes, wins) when ``m`` wrong votes fall uniformly into ``w`` bins."""
    lam = m / w
    cut = _poisson_pmf(np.arange(min(a, m + 1)), lam)  # one bin's pmf below a
    at_a = float(_poisson_pmf(np.array(a), lam))
    powers = [np.zeros(m + 1)]  # powers[u][r] = P(u bins, each below a, sum to r)
    powers[0][0] = 1.0
    for _ in range(w):
        powers.append(np.convolve(powers[-1], cut)[: m + 1])
    wins = 0.0
    for t in range(w + 1):
        r = m - t * a
        if r < 0 or not share[t]:
            continue
        wins += math.comb(w, t) * share[t] * at_a**t * float(powers[w - t][r])
    return wins / float(_poisson_pmf(np.array(m), m))  # P(the w bins sum to m) = Poisson(m) at m


def _poisson_pmf(counts: Any, lam: float) -> Any:
    from scipy.special import gammaln, xlogy

    return np.exp(xlogy(counts, lam) - lam - gammaln(counts + 1))
