"""Paired equivalence (TOST) and non-inferiority: the level holds for every discordance rate.

References: direct Fraction sums, statsmodels' binom_tost for the conditional test, SciPy's beta
quantile for the nuisance bound, enumeration of every outcome, and a simulation. The old
construction (the observed discordance in place of the true one) is rebuilt here to show that
the level test can fail: it rejects a true gap of one point 27% of the time at q = 0.012.
"""

from fractions import Fraction
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from statsmodels.stats.proportion import binom_tost

import exactstats as es
from exactstats import ExactStatsError
from exactstats.levels import paired_rejection_probability

margins = st.sampled_from(["0.01", "0.02", "0.05", "0.1", "1/3"])
GAMMA = Fraction(1, 1000)
ALPHA = Fraction(1, 20)


def _binom_sf(b, m, pi):
    """P(Binomial(m, pi) >= b) by direct Fraction sums (an independent reference)."""
    return sum((comb(m, i) * pi**i * (1 - pi) ** (m - i) for i in range(max(b, 0), m + 1)), Fraction(0))


def _binom_cdf(b, m, pi):
    return 1 - _binom_sf(b + 1, m, pi)


@settings(max_examples=40)
@given(st.integers(1, 80), st.data())
def test_nuisance_bound_is_the_smallest_grid_point_past_the_clopper_pearson_bound(n, data):
    m = data.draw(st.integers(0, n))
    q_u = es.discordance_upper_bound(m, n)
    if m == n:
        assert q_u == 1
        return
    step = Fraction(1, 2**20)
    assert q_u.denominator <= 2**20
    assert _binom_cdf(m, n, q_u) <= GAMMA < _binom_cdf(m, n, q_u - step)
    assert float(q_u) == pytest.approx(stats.beta.ppf(1 - float(GAMMA), m + 1, n - m), abs=2e-6)


@settings(max_examples=40)
@given(st.integers(1, 40), st.data(), margins)
def test_p_value_by_direct_sums(n, data, margin):
    b = data.draw(st.integers(0, n))
    c = data.draw(st.integers(0, n - b))
    m, d = b + c, Fraction(margin)
    eps = d / (2 * es.discordance_upper_bound(m, n))
    if eps > Fraction(1, 2):
        upper = lower = Fraction(0)
    elif eps == Fraction(1, 2):
        upper, lower = Fraction(int(b == m)), Fraction(int(b == 0))
    else:
        upper, lower = _binom_cdf(b, m, Fraction(1, 2) + eps), _binom_sf(b, m, Fraction(1, 2) - eps)
    assert es.paired_equivalence_p_value(b, c, n, margin) == min(1, GAMMA + max(upper, lower))
    assert es.paired_equivalence_p_value(b, c, n, margin, "non-inferiority") == min(1, GAMMA + lower)


@settings(max_examples=60)
@given(st.integers(1, 400), st.data(), st.sampled_from(["1/100", "1/20", "1/5", "0.3"]))
def test_conditional_test_against_statsmodels_binom_tost(m, data, eps):
    b = data.draw(st.integers(0, m))
    p, _, _ = binom_tost(b, m, 0.5 - float(Fraction(eps)), 0.5 + float(Fraction(eps)))
    got = es.conditional_equivalence_p_value(b, m - b, eps)
    assert float(got) == pytest.approx(float(p), rel=1e-9, abs=1e-300)


@settings(max_examples=60)
@given(st.integers(20, 3000), st.data(), st.sampled_from(["0.01", "0.02", "0.05"]), st.booleans())
def test_float_twin(n, data, margin, one_sided):
    alternative = "non-inferiority" if one_sided else "equivalence"
    b = data.draw(st.integers(0, min(n, 300)))
    c = data.draw(st.integers(0, min(n - b, 300)))
    exact = float(es.paired_equivalence_p_value(b, c, n, margin, alternative))
    # the exact test's q_U sits up to 2**-20 above the float quantile, so its p-value is a hair larger
    assert es.paired_equivalence_p_value_float(b, c, n, margin, alternative) == pytest.approx(exact, rel=1e-3, abs=1e-6)


def test_the_old_certain_equivalence_is_gone():
    """Ten discordant questions of 2,000 used to give p = 0 exactly; 4 of 100 questions at a margin of 5
    points too. Every p-value is now at least gamma, and these two are not certain."""
    assert es.paired_equivalence_p_value(5, 5, 2000, "0.01") > GAMMA
    assert es.paired_equivalence_p_value(4, 0, 100, "0.05") == 1
    # a gap exactly at the margin no longer splits the float twin from the exact value
    assert (
        es.paired_equivalence_p_value(7, 0, 100, "0.07") == 1 == es.paired_equivalence_p_value_float(7, 0, 100, "0.07")
    )


@given(st.integers(1, 200), st.data())
def test_wider_margin_never_raises_the_p_value(n, data):
    b = data.draw(st.integers(0, n))
    c = data.draw(st.integers(0, n - b))
    p_narrow = es.paired_equivalence_p_value(b, c, n, "0.01")
    p_wide = es.paired_equivalence_p_value(b, c, n, "0.05")
    assert p_wide <= p_narrow
    assert es.paired_equivalence_p_value(b, c, n, "0.05", "non-inferiority") <= p_wide


def _old_region(n, margin, alpha=ALPHA):
    """The old construction: the conditional TOST at eps = margin n / (2m), the observed discordance
    standing in for the true one. Its rejection set per m (an interval of b)."""

    def region(m):
        if m == 0 or Fraction(margin) * n / (2 * m) > Fraction(1, 2):  # it printed p = 0 there
            return [(0, m)]
        eps = Fraction(margin) * n / (2 * m)
        e, b = float(eps), m // 2  # the TOST p-value is smallest in the middle: a float screen with room
        if max(stats.binom.cdf(b, m, 0.5 + e), stats.binom.sf(b - 1, m, 0.5 - e)) > 1.01 * float(alpha):
            return []
        hits = [b for b in range(m + 1) if es.conditional_equivalence_p_value(b, m - b, eps) <= alpha]
        return [(hits[0], hits[-1])] if hits else []

    return region


def _null(q, margin, side=1):
    q, d = Fraction(q), Fraction(margin)
    return ((q + d) / 2, (q - d) / 2) if side > 0 else ((q - d) / 2, (q + d) / 2)


@pytest.mark.slow
def test_exact_size_holds_on_a_fine_grid_at_n_2000_and_the_old_test_fails():
    """The issue's acceptance check: n = 2,000, margin one point, a true gap of exactly the margin,
    discordance from the margin (no smaller q can carry that gap) to 0.5."""
    n, margin = 2000, "0.01"
    grid = [Fraction(i, 1000) for i in range(10, 51)] + [Fraction(i, 100) for i in range(6, 51)]
    sizes = {q: es.paired_equivalence_power(n, *_null(q, margin), margin) for q in grid}
    assert max(sizes.values()) <= ALPHA
    old = paired_rejection_probability(n, *_null("0.012", margin), _old_region(n, margin))
    assert Fraction(26, 100) < old < Fraction(29, 100)  # the old test: about 27% where 5% was promised


def test_simulated_rejection_rate_at_q_0012():
    """4,000 draws, n = 2,000, margin 1 point, a true gap of 1 point at q = 0.012: the test rejects
    at most 5% (beyond Monte Carlo error), while the old construction rejects about 27%."""
    n, margin = 2000, "0.01"
    rng = np.random.default_rng(12)
    pb, pc = _null("0.012", margin)
    draws = rng.multinomial(n, [float(pb), float(pc), float(1 - pb - pc)], size=4000)
    regions = {}
    old_region = _old_region(n, margin)
    new = old = 0
    for b, c, _ in draws:
        m = b + c
        if m not in regions:
            regions[m] = (es.rejection_region(m, n, margin), old_region(m))
        (lo, hi), old_iv = regions[m]
        new += lo <= b <= hi
        old += any(lo2 <= b <= hi2 for lo2, hi2 in old_iv)
    rate, se = new / 4000, (0.05 * 0.95 / 4000) ** 0.5
    assert rate <= 0.05 + 3 * se
    assert 0.25 < old / 4000 < 0.30  # the issue simulated 27.4%


@pytest.mark.parametrize(
    "n, p_b, p_c, margin", [(12, "0.2", "0.1", "0.1"), (15, "0.1", "0.1", "0.2"), (9, "0", "0.3", "0.25")]
)
def test_power_by_enumerating_every_outcome(n, p_b, p_c, margin):
    pb, pc = Fraction(p_b), Fraction(p_c)
    for alternative in es.EQUIVALENCE_ALTERNATIVES:
        want = Fraction(0)
        for b in range(n + 1):
            for c in range(n - b + 1):
                if es.paired_equivalence_p_value(b, c, n, margin, alternative) <= ALPHA:
                    want += comb(n, b) * comb(n - b, c) * pb**b * pc**c * (1 - pb - pc) ** (n - b - c)
        assert es.paired_equivalence_power(n, p_b, p_c, margin, alternative=alternative) == want
        assert es.paired_equivalence_power_float(n, p_b, p_c, margin, alternative=alternative) == pytest.approx(
            float(want), abs=1e-12
        )


@pytest.mark.parametrize("n", [20, 60, 150])
@pytest.mark.parametrize("alternative", es.EQUIVALENCE_ALTERNATIVES)
def test_size_never_exceeds_alpha_at_small_n(n, alternative):
    """Every null point on the boundary, on a grid of discordance rates, both sides."""
    margin = Fraction(1, 10)
    for q in [margin + Fraction(i, 20) for i in range(0, 19)]:
        sides = (1, -1) if alternative == "equivalence" else (-1,)
        for side in sides:
            assert es.paired_equivalence_power(n, *_null(q, margin, side), margin, alternative=alternative) <= ALPHA


def test_power_float_twin_at_a_realistic_size():
    exact = es.paired_equivalence_power(400, "0.05", "0.05", "0.05")
    assert es.paired_equivalence_power_float(400, "0.05", "0.05", "0.05") == pytest.approx(float(exact), rel=1e-9)
    assert 0 < exact < 1


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: es.paired_equivalence_p_value(5, 5, 100, "0"), r"margin must lie in \(0, 1\)"),
        (lambda: es.paired_equivalence_p_value(5, 5, 100, "1.5"), r"margin must lie in \(0, 1\)"),
        (lambda: es.paired_equivalence_p_value(5, 5, 100, "one point"), "margin"),
        (lambda: es.paired_equivalence_p_value(60, 50, 100, "0.01"), "c must be <= 40"),
        (lambda: es.paired_equivalence_p_value(5, 5, 0, "0.01"), "n must be >= 1"),
        (lambda: es.paired_equivalence_p_value(5, 5, 100, "0.01", "superiority"), "alternative must be one of"),
        (lambda: es.paired_equivalence_p_value(5, 5, 100, "0.01", nuisance_level="0.5"), "nuisance_level"),
        (lambda: es.paired_equivalence_p_value(5, 5, 100, "0.01", nuisance_level="0"), "nuisance_level"),
        (lambda: es.paired_equivalence_p_value(5, 5, 10**7, "0.01"), "paired_equivalence_p_value_float"),
        (lambda: es.conditional_equivalence_p_value(5, 5, "0"), "epsilon must be > 0"),
        (lambda: es.paired_equivalence_power(100, "0.6", "0.6", "0.01"), "p_b \\+ p_c must be <= 1"),
        (lambda: es.paired_equivalence_power(100, "0.1", "0.1", "0.01", alpha="1"), "alpha"),
        (lambda: es.paired_equivalence_power(100, "0.1", "0.1", "0.01", alpha="0.001"), "must exceed nuisance"),
        (lambda: es.paired_equivalence_power(10**6, "0.1", "0.1", "0.01"), "paired_equivalence_power_float"),
        (lambda: es.discordance_upper_bound(5, 4), "m must be <= 4"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ExactStatsError, match=match):
        call()


@settings(max_examples=40)
@given(st.integers(1, 120), st.data(), margins, st.sampled_from(es.EQUIVALENCE_ALTERNATIVES))
def test_rejection_region_equals_an_exact_scan(m, data, margin, alternative):
    """The float-located, exactly confirmed region is the set of b the exact test rejects."""
    n = data.draw(st.integers(m, 4 * m + 10))
    lo, hi = es.rejection_region(m, n, margin, ALPHA, alternative)
    exact = [b for b in range(m + 1) if es.paired_equivalence_p_value(b, m - b, n, margin, alternative) <= ALPHA]
    assert list(range(lo, hi + 1)) == exact


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 3_000), st.data(), st.sampled_from(["1/1000", "1/20", "1/3", "1/1000000"]))
def test_upper_bound_screened_in_floats_equals_the_all_exact_search(n, data, gamma):
    """The float screen only skips exact sums it can decide: with the screen off (a margin no float clears)
    the search returns the same grid point, and the default path then agrees with every boundary sum."""
    import exactstats.equivalence as eq
    from exactstats._binomial import binomial_cdf_scaled

    m = data.draw(st.integers(0, n))
    g = Fraction(gamma)
    eq._upper_bound.cache_clear()
    screened = eq._upper_bound(m, n, g)
    eq._upper_bound.cache_clear()
    saved = eq._SCREEN
    eq._SCREEN = 1e300  # below < 0 and above = inf: every grid point goes to the exact sum
    try:
        exact = eq._upper_bound(m, n, g)
    finally:
        eq._SCREEN = saved
        eq._upper_bound.cache_clear()
    assert screened == exact
    if m < n:  # the answer's defining property, on integers: j/grid qualifies and (j - 1)/grid does not
        j = int(exact * eq._GRID)
        limit = g * eq._GRID**n
        assert binomial_cdf_scaled(n, m, j, eq._GRID) <= limit < binomial_cdf_scaled(n, m, j - 1, eq._GRID)


def test_upper_bound_screen_leaves_the_exact_sums_out(monkeypatch):
    """At a realistic size the bound needs no exact binomial sum at all (it took most of a p-value's time)."""
    import exactstats.equivalence as eq

    calls = []
    real = eq.binomial_cdf_scaled
    monkeypatch.setattr(eq, "binomial_cdf_scaled", lambda *a: calls.append(a) or real(*a))
    eq._upper_bound.cache_clear()
    assert Fraction(1, 5) < eq._upper_bound(1_000, 3_000, Fraction(1, 1000)) < Fraction(2, 5)
    eq._upper_bound.cache_clear()
    assert calls == []
