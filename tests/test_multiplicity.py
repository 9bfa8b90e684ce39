"""Multiplicity in one place: the float twins are held to the exact adjustments and to statsmodels."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.multitest import multipletests

import exactstats as es

p_lists = st.lists(st.fractions(min_value=0, max_value=1, max_denominator=10_000), min_size=1, max_size=40)


@settings(max_examples=200, deadline=None)
@given(p_lists)
def test_holm_float_twin_matches_the_exact_adjustment(ps):
    exact = es.holm_adjust(ps)
    twin = es.holm_adjust_float([float(p) for p in ps])
    assert np.allclose(twin, [float(x) for x in exact], rtol=1e-12, atol=1e-15)


@settings(max_examples=200, deadline=None)
@given(p_lists, st.sampled_from(["independent", "any"]))
def test_bh_float_twin_matches_the_exact_adjustment(ps, dependence):
    exact = es.bh_adjust(ps, dependence=dependence)
    twin = es.bh_adjust_float([float(p) for p in ps], dependence=dependence)
    assert np.allclose(twin, [float(x) for x in exact], rtol=1e-12, atol=1e-15)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=1, max_size=50))
def test_the_float_twins_agree_with_statsmodels(ps):
    for method, ours in (
        ("holm", es.holm_adjust_float(ps)),
        ("fdr_bh", es.bh_adjust_float(ps)),
        ("fdr_by", es.bh_adjust_float(ps, dependence="any")),
    ):
        assert np.allclose(ours, multipletests(ps, method=method)[1], rtol=1e-10, atol=1e-12), method


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 300), st.integers(0, 300)), min_size=1, max_size=20))
def test_vectorised_mcnemar_matches_the_exact_p_value(counts):
    b, c = zip(*counts)
    twin = es.mcnemar_p_values_float(list(b), list(c))
    exact = [float(es.mcnemar_p_value(x, y)) for x, y in counts]
    assert np.allclose(twin, exact, rtol=1e-9, atol=1e-300)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: es.holm_adjust_float([]), "non-empty"),
        (lambda: es.holm_adjust_float([0.2, 1.5]), r"\[0, 1\]"),
        (lambda: es.bh_adjust_float([float("nan")]), "NaN"),
        (lambda: es.bh_adjust_float([0.1], dependence="some"), "dependence"),
        (lambda: es.mcnemar_p_values_float([1, 2], [3]), "one shape"),
        (lambda: es.mcnemar_p_values_float([-1], [3]), "counts >= 0"),
    ],
)
def test_bad_input_is_refused_by_name(call, match):
    with pytest.raises(es.ExactStatsError, match=match):
        call()


def test_the_screened_holm_decisions_equal_the_exact_ones_near_a_threshold():
    """A float p-value a hair under its Holm threshold whose exact value is over it: the screen computes it exactly."""
    exact = [Fraction(1, 40) + Fraction(1, 10**12), Fraction(1, 2)]  # threshold alpha/2 = 1/40 for the smallest
    floats = [float(p) for p in exact]
    floats[0] = 0.025 - 1e-13  # what a rounding could print
    reject, computed = es.holm_reject_screened(floats, lambda i: exact[i], "0.05")
    assert computed == [0] and reject == [False, False]
