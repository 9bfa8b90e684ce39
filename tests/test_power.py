from fractions import Fraction
from math import factorial

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactstats import (
    ExactStatsError,
    interval_half_width_float,
    mcnemar_p_value,
    mcnemar_power,
    mcnemar_power_float,
    mcnemar_rejection_thresholds,
    minimum_detectable_difference_float,
    questions_needed,
    smallest_n_for_power,
)


def test_seed_case():
    # q = 0.20, d = 0.0185 with the textbook 1.96 and 0.84: "about 4,600 questions"
    r = questions_needed("0.20", "0.0185", z_alpha="1.96", z_power="0.84")
    assert r.value == Fraction(784, 100) * Fraction(20, 100) / Fraction(185, 10000) ** 2
    assert round(r.n, -2) == 4600
    assert questions_needed("0.20", "0.0185").n == 4587  # with the exact normal quantiles
    # "+-6 points at 200, +-4 at 500, +-2 at 2,000" for q = 0.20
    assert [round(100 * interval_half_width_float(n, "0.2")) for n in (200, 500, 2000)] == [6, 4, 2]


def test_variants_and_inverse():
    r = questions_needed("0.2", "0.05", variance="q-d2", z_alpha="2", z_power="1")
    assert r.value == 9 * (Fraction(2, 10) - Fraction(1, 400)) / Fraction(1, 400)
    d = minimum_detectable_difference_float(questions_needed("0.2", "0.05").n, "0.2")
    assert d == pytest.approx(0.05, rel=2e-3)


@given(st.integers(0, 120), st.sampled_from(["0.05", "0.01", "0.1"]))
def test_thresholds_agree_with_the_test(n, alpha):
    ts = mcnemar_rejection_thresholds(n, alpha)
    a = Fraction(alpha)
    for m, t in enumerate(ts):
        for b in range(m + 1):
            assert (mcnemar_p_value(b, m - b) <= a) == (min(b, m - b) <= t)


@given(st.integers(1, 9), st.fractions(0, "1/2", max_denominator=12), st.fractions(0, "1/2", max_denominator=12))
def test_power_by_full_enumeration(n, pb, pc):
    want = Fraction(0)
    pr = 1 - pb - pc
    for b in range(n + 1):
        for c in range(n + 1 - b):
            if mcnemar_p_value(b, c) <= Fraction(1, 20):
                r = n - b - c
                want += Fraction(factorial(n), factorial(b) * factorial(c) * factorial(r)) * pb**b * pc**c * pr**r
    assert mcnemar_power(n, pb, pc) == want


@given(
    st.integers(1, 400), st.fractions("1/100", "1/2", max_denominator=100), st.fractions(0, "1/2", max_denominator=100)
)
def test_float_twin(n, pb, pc):
    assert mcnemar_power_float(n, pb, pc) == pytest.approx(float(mcnemar_power(n, pb, pc)), rel=1e-9, abs=1e-12)


def test_size_never_exceeds_alpha():
    for n in (10, 57, 200):
        assert mcnemar_power(n, "0.15", "0.15") <= Fraction(1, 20)


def test_smallest_n_is_smallest():
    n = smallest_n_for_power("0.15", "0.05", power="0.8")
    assert mcnemar_power(n, "0.15", "0.05") >= Fraction(4, 5)
    assert all(mcnemar_power(m, "0.15", "0.05") < Fraction(4, 5) for m in range(1, n))


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: questions_needed("0.2", "0"), r"d must satisfy"),
        (lambda: questions_needed("0.2", "0.3"), r"d must satisfy .* <= \|d\| <= q"),
        (lambda: questions_needed("0", "0.1"), r"q must lie in \(0, 1\]"),
        (lambda: questions_needed("0.2", "0.1", alpha="0"), r"alpha must lie in \(0, 1\)"),
        (lambda: questions_needed("0.2", "0.1", variance="x"), "variance must be one of"),
        (lambda: mcnemar_power(10, "0.6", "0.6"), "p_b \\+ p_c must be <= 1"),
        (lambda: smallest_n_for_power("0.1", "0.1"), "must differ"),
        (lambda: smallest_n_for_power("0.11", "0.1", n_max=50), "n_max must be larger"),
        (lambda: interval_half_width_float(0, "0.2"), "n must be >= 1"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ExactStatsError, match=match):
        call()


@pytest.mark.parametrize("pb, pc", [("0.3", "0.05"), ("0.2", "0.1"), ("0.12", "0.04")])
def test_smallest_n_is_the_first_n_whose_exact_power_reaches_the_target(pb, pc):
    n = smallest_n_for_power(pb, pc)
    assert mcnemar_power(n, pb, pc) >= Fraction(4, 5)
    assert all(mcnemar_power(m, pb, pc) < Fraction(4, 5) for m in range(1, n))
