"""Exact paired equivalence (TOST) and non-inferiority: statsmodels, brute force, and size."""

from fractions import Fraction
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.proportion import binom_tost

import exactstats as es
from exactstats import ExactStatsError

margins = st.sampled_from(["0.01", "0.02", "0.05", "0.1", "1/3"])


def _binom_sf(b, m, pi):
    """P(Binomial(m, pi) >= b) by direct Fraction sums (an independent reference)."""
    return sum((comb(m, i) * pi**i * (1 - pi) ** (m - i) for i in range(max(b, 0), m + 1)), Fraction(0))


@given(st.integers(1, 60), st.data(), margins)
def test_p_value_by_direct_sums(n, data, margin):
    b = data.draw(st.integers(0, n))
    c = data.draw(st.integers(0, n - b))
    m, d = b + c, Fraction(margin)
    got = es.paired_equivalence_p_value(b, c, n, margin)
    if m == 0 or d * n / (2 * m) > Fraction(1, 2):
        assert got == 0
        return
    eps = d * n / (2 * m)
    upper = 1 - _binom_sf(b + 1, m, Fraction(1, 2) + eps)  # P(Bin(m, 1/2 + eps) <= b)
    lower = _binom_sf(b, m, Fraction(1, 2) - eps)
    assert got == max(upper, lower)
    assert es.paired_equivalence_p_value(b, c, n, margin, alternative="non-inferiority") == lower


@settings(max_examples=60)
@given(st.integers(20, 3000), st.data(), st.sampled_from(["0.01", "0.02", "0.05"]))
def test_against_statsmodels_binom_tost(n, data, margin):
    m = data.draw(st.integers(1, min(n, 400)))
    b = data.draw(st.integers(0, m))
    eps = float(Fraction(margin)) * n / (2 * m)
    exact = float(es.paired_equivalence_p_value(b, m - b, n, margin))
    if eps >= 0.5:
        assert exact <= 1e-300 or b in (0, m)
        return
    p, _, _ = binom_tost(b, m, 0.5 - eps, 0.5 + eps)
    assert exact == pytest.approx(float(p), rel=1e-9, abs=1e-300)
    assert es.paired_equivalence_p_value_float(b, m - b, n, margin) == pytest.approx(exact, rel=1e-9, abs=1e-300)


@given(st.integers(1, 200), st.data())
def test_wider_margin_never_raises_the_p_value(n, data):
    b = data.draw(st.integers(0, n))
    c = data.draw(st.integers(0, n - b))
    p_narrow = es.paired_equivalence_p_value(b, c, n, "0.01")
    p_wide = es.paired_equivalence_p_value(b, c, n, "0.05")
    assert p_wide <= p_narrow
    assert es.paired_equivalence_p_value(b, c, n, "0.05", "non-inferiority") <= p_wide


@pytest.mark.parametrize("n", [10, 40, 90])
def test_size_at_the_boundary_never_exceeds_alpha(n):
    """Given m, at pi = 1/2 + eps (a gap of exactly the margin) the test rejects with chance <= alpha."""
    alpha, margin = Fraction(1, 20), Fraction(1, 10)
    for m in range(1, n + 1):
        eps = margin * n / (2 * m)
        if eps >= Fraction(1, 2):
            continue
        for pi in (Fraction(1, 2) + eps, Fraction(1, 2) - eps):
            size = sum(
                (
                    comb(m, b) * pi**b * (1 - pi) ** (m - b)
                    for b in range(m + 1)
                    if es.paired_equivalence_p_value(b, m - b, n, margin) <= alpha
                ),
                Fraction(0),
            )
            assert size <= alpha


@pytest.mark.parametrize(
    "n, p_b, p_c, margin", [(12, "0.2", "0.1", "0.1"), (15, "0.1", "0.1", "0.2"), (9, "0", "0.3", "0.25")]
)
def test_power_by_enumerating_every_outcome(n, p_b, p_c, margin):
    pb, pc = Fraction(p_b), Fraction(p_c)
    for alternative in es.EQUIVALENCE_ALTERNATIVES:
        want = Fraction(0)
        for b in range(n + 1):
            for c in range(n - b + 1):
                if es.paired_equivalence_p_value(b, c, n, margin, alternative) <= Fraction(1, 20):
                    ways = comb(n, b) * comb(n - b, c)
                    want += ways * pb**b * pc**c * (1 - pb - pc) ** (n - b - c)
        got = es.paired_equivalence_power(n, p_b, p_c, margin, alternative=alternative)
        assert got == want
        assert es.paired_equivalence_power_float(n, p_b, p_c, margin, alternative=alternative) == pytest.approx(
            float(want), abs=1e-12
        )


def test_power_float_twin_at_a_realistic_size():
    exact = es.paired_equivalence_power(400, "0.05", "0.05", "0.02")
    assert es.paired_equivalence_power_float(400, "0.05", "0.05", "0.02") == pytest.approx(float(exact), rel=1e-9)
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
        (lambda: es.paired_equivalence_power(100, "0.6", "0.6", "0.01"), "p_b \\+ p_c must be <= 1"),
        (lambda: es.paired_equivalence_power(100, "0.1", "0.1", "0.01", alpha="1"), "alpha"),
        (lambda: es.paired_equivalence_power(10**6, "0.1", "0.1", "0.01"), "paired_equivalence_power_float"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ExactStatsError, match=match):
        call()


@settings(max_examples=40)
@given(st.integers(1, 120), st.data(), margins, st.sampled_from(es.EQUIVALENCE_ALTERNATIVES))
def test_rejection_region_equals_an_exact_scan(m, data, margin, alternative):
    """The float-located, exactly confirmed region is the set of b the exact test rejects."""
    from exactstats.equivalence import _region

    n = data.draw(st.integers(m, 4 * m + 10))
    alpha = Fraction(1, 20)
    lo, hi = _region(m, n, Fraction(margin), alpha, alternative)
    exact = [b for b in range(m + 1) if es.paired_equivalence_p_value(b, m - b, n, margin, alternative) <= alpha]
    assert list(range(lo, hi + 1)) == exact
