"""Exact integer binomial sums, fast enough for a million trials.

The sums are returned as integers; callers divide by the right power to get
a probability. gmpy2 is used when installed (GMP's subquadratic division and
multiplication); plain Python ints give the same numbers, only slower.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from fractions import Fraction
from math import gcd
from typing import Any

try:  # pragma: no cover - exercised whichever way the environment is
    import gmpy2

    _mpz = gmpy2.mpz
    _comb = gmpy2.comb
    _gcd = gmpy2.gcd
except ImportError:  # pragma: no cover
    from math import comb as _comb

    _mpz = int
    _gcd = gcd


_LEAF = 32  # binary splitting stops at ranges this short and folds them term by term


def comb(n: int, k: int) -> int:
    return int(_comb(n, k))


def binomial_lower_sum(m: int, t: int) -> int:
    """``sum_{i=0}^{t} C(m, i)`` as an exact integer (0 when t < 0)."""
    if t < 0:
        return 0
    if t >= m:
        return 1 << m
    return binomial_range_sum(m, 0, t, 1, 1)  # binary splitting: products of halves, not t bignum updates


def binomial_cdf_scaled(n: int, upto: int, j: int, grid: int) -> int:
    """``grid**n * P(Binomial(n, j/grid) <= upto)`` as an exact integer (0 <= j <= grid): the weighted
    binomial sum of :func:`binomial_range_sum` (binary splitting for long ranges)."""
    if upto < 0:
        return 0
    if upto >= n:
        return int(grid**n)
    if j == grid:  # every trial succeeds: X = n > upto
        return 0
    return binomial_range_sum(n, 0, upto, j, grid - j)


def binomial_range_sum(m: int, lo: int, hi: int, beta: int, gamma: int) -> int:
    """``sum_{b=lo}^{hi} C(m, b) beta^b gamma^(m - b)``, in integers (0 <= lo, hi <= m).

    Short ranges step term by term; long ones by binary splitting of the ratio series
    ``term_{b+1} / term_b = (m - b) beta / ((b + 1) gamma)``: products of halves and one exact
    division at the end, near-linear with GMP's multiplication instead of one bignum update per term.
    """
    if lo > hi:
        return 0
    if gamma == 0:
        return beta**m if lo <= m <= hi else 0
    if beta == 0:
        return gamma**m if lo == 0 else 0
    base = _mpz(comb(m, lo)) * _mpz(beta) ** lo * _mpz(gamma) ** (m - lo)
    if hi - lo < 64:
        term, total = base, _mpz(0)
        for b in range(lo, hi + 1):
            total += term
            if b < hi:
                term = term * (m - b) * beta // ((b + 1) * gamma)
        return int(total)
    _, q, t = _split_weighted(m, lo, hi + 1, _mpz(beta), _mpz(gamma))
    return int(base * t // q)


def _split_weighted(m: int, a: int, b: int, beta: Any, gamma: Any) -> tuple[Any, Any, Any]:
    """P = prod_{a<=j<b} (m-j) beta, Q = prod (j+1) gamma, T = Q * sum_{i=a}^{b-1} prod_{a<=j<i} p_j / q_j."""
    if b - a <= _LEAF:  # a left fold of single terms: a recursion call per term costs more than the products
        p, q, t = _mpz(1), _mpz(1), _mpz(0)
        for j in range(a, b):
            qj = (j + 1) * gamma
            t = (t + p) * qj
            p, q = p * ((m - j) * beta), q * qj
        return p, q, t
    mid = (a + b) // 2
    p1, q1, t1 = _split_weighted(m, a, mid, beta, gamma)
    p2, q2, t2 = _split_weighted(m, mid, b, beta, gamma)
    return p1 * p2, q1 * q2, t1 * q2 + p1 * t2


def trinomial_integers(p_b: Fraction, p_c: Fraction) -> tuple[int, int, int, int]:
    """``(den, beta, gamma, rho)``: the cell chances ``p_b, p_c, 1 - p_b - p_c`` as ``beta/den``,
    ``gamma/den`` and ``rho/den`` over one common denominator, for integer trinomial sums."""
    den = p_b.denominator * p_c.denominator // gcd(p_b.denominator, p_c.denominator)
    beta, gamma = int(p_b * den), int(p_c * den)
    return den, beta, gamma, den - beta - gamma


def region_sum(
    n: int, beta: int, gamma: int, rho: int, region: Callable[[int], Iterable[tuple[int, int]]], ms: Iterable[int]
) -> int:
    """``sum_m C(n, m) rho^(n-m) sum_{(lo, hi) in region(m)} sum_{b=lo}^{hi} C(m, b) beta^b gamma^(m-b)`` over
    the discordant counts ``m`` in ``ms``: ``den**n`` times the chance that a paired test with that
    rejection region rejects (the other ``m`` must have empty regions)."""
    total = 0
    for m in ms:
        weight = comb(n, m) * rho ** (n - m)
        if weight:
            total += weight * sum(binomial_range_sum(m, max(lo, 0), min(hi, m), beta, gamma) for lo, hi in region(m))
    return total


def reduced_fraction(numerator: int, denominator: int, radical: int | None = None) -> Fraction:
    """``numerator / denominator`` for huge integers, in lowest terms.

    ``radical``, when given, is a small integer with every prime factor of ``denominator`` (``d`` for a
    denominator ``d**k``). The common factor is then found by dividing out ``gcd(numerator, radical)``,
    a huge-by-small remainder each time (linear), instead of a gcd of two huge integers (GMP's is
    near-linear with a large constant: milliseconds at a hundred thousand bits; Python's is quadratic).

    >>> reduced_fraction(2**5 * 3 * 7, 2**10 * 5**10, radical=10)
    Fraction(21, 312500000)
    """
    num, den = _mpz(numerator), _mpz(denominator)
    if radical is not None and num:
        common, rest = _mpz(1), num
        while (g := _gcd(rest, radical)) > 1:
            rest, times = gmpy2.remove(rest, g) if _mpz is not int else _remove(rest, g)
            common *= _mpz(g) ** times
        if den % common == 0:  # rest is coprime to every prime of den, so rest / (den / common) is reduced
            return fraction_from_coprime(int(rest), int(den // common))
    g = _gcd(num, den)
    return fraction_from_coprime(int(num // g), int(den // g))


def _remove(x: int, f: int) -> tuple[int, int]:  # pragma: no cover - only without gmpy2
    times = 0
    while x % f == 0:
        x, times = x // f, times + 1
    return x, times


def binomial_weights(n: int, rho: int) -> Iterator[int]:
    """Yield ``C(n, m) * rho**(n - m)`` for m = 0..n, one multiplication and one exact division per step."""
    if rho == 0:
        for m in range(n + 1):
            yield _mpz(1) if m == n else _mpz(0)
        return
    w = _mpz(rho) ** n
    for m in range(n + 1):
        yield w
        if m < n:
            w = w * (n - m) // ((m + 1) * rho)


def truncated_binomial_sums(beta: int, gamma: int, thresholds: Sequence[int]) -> Iterator[int]:
    """Yield ``G_m = sum_{i=0}^{min(t_m, m)} C(m, i) beta**i gamma**(m-i)`` for m = 0, 1, 2, ...

    ``thresholds[m] = t_m`` must be non-decreasing (a negative t_m gives 0). Each step
    costs O(1) big-integer operations, plus one per unit the threshold rises, using
    ``G_{m+1}(t) = (beta + gamma) G_m(t) - C(m, t) beta**(t+1) gamma**(m-t)``. The values are
    GMP integers where gmpy2 is installed (callers that keep summing avoid a conversion per step).
    """
    beta, gamma = _mpz(beta), _mpz(gamma)
    if gamma == 0:  # only the i = m term survives
        for m, target in enumerate(thresholds):
            yield beta**m if target >= m else _mpz(0)
        return
    total = beta + gamma
    t = -1
    g = _mpz(0)  # G_m(t)
    term = _mpz(0)  # C(m, t) beta**t gamma**(m-t), the last term in g
    previous = None
    for m, target in enumerate(thresholds):
        if previous is not None and target < previous:
            raise ValueError("thresholds must be non-decreasing")
        previous = target
        if m > 0 and t >= 0:  # from m-1 to m at fixed t (t <= m-1 here)
            g = total * g - term * beta
            term = term * gamma * m // (m - t)
        while t < min(target, m):
            t += 1
            term = gamma**m if t == 0 else term * beta * (m - t + 1) // (t * gamma)
            g += term
        yield g


def fraction_from_coprime(numerator: int, denominator: int) -> Fraction:
    """Build a Fraction whose terms are known to be coprime, skipping the gcd (costly for huge ints)."""
    maker = getattr(Fraction, "_from_coprime_ints", None)
    if maker is not None:  # Python >= 3.12
        return Fraction(maker(numerator, denominator))
    return Fraction(Fraction(numerator, denominator, _normalize=False))  # type: ignore[call-overload]


def dyadic_fraction(numerator: int, exponent: int) -> Fraction:
    """numerator / 2**exponent in lowest terms, by stripping shared factors of two (no big gcd)."""
    if numerator == 0:
        return Fraction(0)
    shift = min((numerator & -numerator).bit_length() - 1, exponent)
    return fraction_from_coprime(numerator >> shift, 1 << (exponent - shift))
