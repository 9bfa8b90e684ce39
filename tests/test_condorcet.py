from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import exactstats as es
from exactstats import (
    ExactStatsError,
    majority_probability,
    majority_probability_heterogeneous,
    plurality_probability,
    poisson_binomial_pmf,
)

probs = st.fractions(0, 1, max_denominator=40)


def test_seed_numbers():
    assert majority_probability("0.7", 3) == Fraction(98, 125)
    for k, want in [(5, 0.8369), (9, 0.9012), (25, 0.9825)]:
        assert round(float(majority_probability("0.7", k)), 4) == want


@given(probs, st.integers(1, 60).map(lambda k: 2 * k - 1))
def test_odd_k_matches_scipy(p, k):
    assert float(majority_probability(p, k)) == pytest.approx(stats.binom.sf(k // 2, k, float(p)), rel=1e-9, abs=1e-15)


@given(probs, st.integers(1, 30).map(lambda k: 2 * k))
def test_even_k_tie_rules(p, k):
    tie = stats.binom.pmf(k // 2, k, float(p))
    lose = majority_probability(p, k, ties="lose")
    assert float(lose) == pytest.approx(stats.binom.sf(k // 2, k, float(p)), rel=1e-9, abs=1e-15)
    assert majority_probability(p, k, ties="fair") - lose == (majority_probability(p, k, ties="win") - lose) / 2
    assert float(majority_probability(p, k, ties="win") - lose) == pytest.approx(tie, rel=1e-9, abs=1e-15)


@given(st.lists(probs, min_size=1, max_size=7))
def test_heterogeneous_by_enumeration(ps):
    want = Fraction(0)
    tie = Fraction(0)
    for votes in product([0, 1], repeat=len(ps)):
        w = Fraction(1)
        for v, p in zip(votes, ps):
            w *= p if v else 1 - p
        right = sum(votes)
        if 2 * right > len(ps):
            want += w
        elif 2 * right == len(ps):
            tie += w
    ties = "fair" if len(ps) % 2 == 0 else None
    assert majority_probability_heterogeneous(ps, ties=ties) == want + tie / 2
    assert sum(poisson_binomial_pmf(ps)) == 1


@given(st.lists(probs, min_size=1, max_size=5), st.integers(2, 4))
def test_plurality_by_enumeration(ps, options):
    """Every voter's choice enumerated: right option 0, wrong options 1..options-1 equally likely."""
    want = {"fair": Fraction(0), "lose": Fraction(0), "win": Fraction(0)}
    for picks in product(range(options), repeat=len(ps)):
        w = Fraction(1)
        for pick, p in zip(picks, ps):
            w *= p if pick == 0 else (1 - p) / (options - 1)
        if not w:
            continue
        counts = [picks.count(o) for o in range(options)]
        top = max(counts)
        if counts[0] == top:
            tied = counts.count(top)
            want["fair"] += w / tied
            want["win"] += w
            want["lose"] += w if tied == 1 else 0
    for ties, value in want.items():
        assert plurality_probability(ps, options=options, ties=ties) == value
    assert want["lose"] <= want["fair"] <= want["win"]


def test_plurality_two_options_is_majority_with_coin_ties():
    assert plurality_probability(["0.6"] * 4, options=2) == majority_probability("0.6", 4, ties="fair")


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: majority_probability("0.7", 4), "ties must be given"),
        (lambda: majority_probability("0.7", 4, ties="coin"), "ties must be one of"),
        (lambda: majority_probability("1.2", 3), r"p must lie in \[0, 1\]"),
        (lambda: majority_probability("0.7", 0), "k must be >= 1"),
        (lambda: majority_probability(float("nan"), 3), "p must be finite"),
        (lambda: plurality_probability([], 4), "at least one voter"),
        (lambda: plurality_probability(["0.5"], 4, ties="exclude"), "ties must be one of"),
        (lambda: plurality_probability(["0.5"], 1), "options must be >= 2"),
        (lambda: poisson_binomial_pmf(["0.5", "-0.1"]), r"accuracies\[1\] must lie"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ExactStatsError, match=match):
        call()


def test_float_means_its_decimal():
    assert majority_probability(0.7, 3) == majority_probability("7/10", 3) == Fraction(98, 125)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 400), st.data(), st.integers(0, 30), st.integers(0, 30))
def test_weighted_binomial_sums_by_binary_splitting_equal_the_direct_sum(m, data, beta, gamma):
    """The near-linear range sum behind majority, equivalence and coverage: long ranges are binary-split."""
    from math import comb

    from exactstats._binomial import binomial_cdf_scaled, binomial_range_sum

    lo = data.draw(st.integers(0, m))
    hi = data.draw(st.integers(lo, m))
    direct = sum(comb(m, i) * beta**i * gamma ** (m - i) for i in range(lo, hi + 1))
    assert binomial_range_sum(m, lo, hi, beta, gamma) == direct
    if beta + gamma:
        assert binomial_cdf_scaled(m, hi, beta, beta + gamma) == sum(
            comb(m, i) * beta**i * gamma ** (m - i) for i in range(0, min(hi, m) + 1)
        )


def test_majority_at_large_k_is_exact_and_quick():
    from scipy.stats import binom

    p = es.majority_probability("0.501", 100_001, allow_slow=True)  # one binary-split sum: about a tenth of a second
    assert float(p) == pytest.approx(float(binom.sf(50_000, 100_001, 0.501)), rel=1e-12)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**40), st.integers(2, 60), st.integers(1, 40), st.integers(1, 5))
def test_reduced_fraction_with_a_radical_is_lowest_terms(numerator, base, power, extra):
    """The radical path (dividing out gcd with the small base) equals Fraction's own reduction, including
    bases with repeated primes (4, 12, 32) where the divided-out factor can overshoot d**k and must fall back."""
    from exactstats._binomial import reduced_fraction

    den = base**power * base ** (extra - 1)
    got = reduced_fraction(numerator, den, radical=base)
    assert got == Fraction(numerator, den)
    assert (got.numerator, got.denominator) == (
        Fraction(numerator, den).numerator,
        Fraction(numerator, den).denominator,
    )


def test_reduced_fraction_radical_overshoot_falls_back():
    from exactstats._binomial import reduced_fraction

    # 8 / 4: gcd(8, 4) = 4 is divided out, then 2: 8 has more twos than the denominator holds
    assert reduced_fraction(8, 4, radical=4) == Fraction(2)
    assert reduced_fraction(2**30 * 3, 2**10, radical=2) == Fraction(2**20 * 3)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.fractions(0, 1, max_denominator=50), min_size=1, max_size=14),
    st.integers(2, 6),
    st.sampled_from(es.PLURALITY_TIE_RULES),
)
def test_plurality_float_twin_agrees_with_the_exact_sum(ps, options, ties):
    """The poissonized float twin against the exact integer sum, for any voters, options and tie rule."""
    from exactstats.condorcet import plurality_probability_float

    exact = plurality_probability(ps, options=options, ties=ties)
    assert plurality_probability_float(ps, options=options, ties=ties) == pytest.approx(float(exact), abs=1e-12)


def test_plurality_takes_an_iterator_of_accuracies_as_before_its_size_check():
    """The 10x check counts the voters first; an iterator (accepted before the check existed) still works."""
    want = plurality_probability(["0.7"] * 3, options=2)
    assert plurality_probability(iter(["0.7"] * 3), options=2) == want == majority_probability("0.7", 3)
