from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import assume, given
from hypothesis import strategies as st
from statsmodels.stats.proportion import proportion_confint

from exactstats import (
    ExactStatsError,
    accuracy_variance,
    clopper_pearson_interval,
    clt_interval_float,
    clustered_variance,
    standard_error,
    standard_error_float,
    wilson_interval,
    wilson_interval_float,
)


@st.composite
def kn(draw, max_n=3000):
    n = draw(st.integers(1, max_n))
    return draw(st.integers(0, n)), n


@given(kn())
def test_variance_and_se(args):
    k, n = args
    p = Fraction(k, n)
    assert accuracy_variance(k, n) == p * (1 - p) / n
    assert float(standard_error(k, n)) == pytest.approx(standard_error_float(k, n), rel=1e-12, abs=1e-300)
    lo, hi = clt_interval_float(k, n)
    ref = proportion_confint(k, n, method="normal")  # statsmodels clips to [0, 1]; we do not
    assert (max(lo, 0.0), min(hi, 1.0)) == pytest.approx(ref, rel=1e-9, abs=1e-12)


@given(kn())
def test_wilson_matches_statsmodels(args):
    k, n = args
    ref = proportion_confint(k, n, method="wilson")
    exact = wilson_interval(k, n)
    assert exact.as_floats() == pytest.approx(ref, rel=1e-10, abs=1e-12)
    assert wilson_interval_float(k, n) == pytest.approx(exact.as_floats(), rel=1e-12, abs=1e-14)


def test_wilson_is_a_surd_in_rational_z():
    lo, hi = wilson_interval(7, 10, z="1.96")
    assert isinstance(lo, sympy.Expr) and lo.has(sympy.sqrt(7651))
    assert sympy.simplify(lo + hi - 2 * sympy.Rational(11151, 17302)) == 0


@given(kn(max_n=80), st.sampled_from(["0.9", "0.95", "0.99"]))
def test_clopper_pearson_brackets_statsmodels(args, conf):
    k, n = args
    eps = Fraction(1, 10**7)
    lo, hi = clopper_pearson_interval(k, n, confidence=conf, precision=eps)
    ref_lo, ref_hi = proportion_confint(k, n, alpha=1 - float(conf), method="beta")
    assert float(lo) <= ref_lo + 1e-12 and ref_lo - float(lo) <= float(eps) + 1e-12
    assert float(hi) >= ref_hi - 1e-12 and float(hi) - ref_hi <= float(eps) + 1e-12


@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 5)), min_size=3, max_size=60))
def test_clustered_matches_statsmodels_ols(rows):
    import statsmodels.api as sm

    scores, clusters = zip(*rows)
    assume(len(set(clusters)) >= 2)
    y = np.array(scores, dtype=float)
    fit = sm.OLS(y, np.ones_like(y)).fit(cov_type="cluster", cov_kwds={"groups": np.array(clusters)})
    assert float(clustered_variance(scores, clusters, correction="G/(G-1)")) == pytest.approx(
        fit.bse[0] ** 2, rel=1e-9, abs=1e-15
    )
    g = len(set(clusters))
    assert clustered_variance(scores, clusters) * g / (g - 1) == clustered_variance(
        scores, clusters, correction="G/(G-1)"
    )


def test_singleton_clusters_reduce_to_plain_variance():
    scores = [1, 0, 1, 1, 0, 1, 1]
    assert clustered_variance(scores, range(7)) == accuracy_variance(5, 7)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: accuracy_variance(3, 2), "k must be <= 2"),
        (lambda: accuracy_variance(1, 1, ddof=1), "n must be > ddof"),
        (lambda: wilson_interval(1, 10, z="-1"), r"z must lie in \(0, 40\]"),
        (lambda: clopper_pearson_interval(1, 10, precision="2"), r"precision must lie in \(0, 1\)"),
        (lambda: clustered_variance([1, 0], ["a"]), "same length"),
        (lambda: clustered_variance([], []), "at least one"),
        (lambda: clustered_variance([1, 0], ["a", "a"], correction="G/(G-1)"), "at least 2 clusters"),
        (lambda: clustered_variance([1, 0], ["a", "b"], correction="stata"), "correction must be one of"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ExactStatsError, match=match):
        call()


@given(
    st.lists(st.tuples(st.integers(0, 1), st.sampled_from("abcde")), min_size=2, max_size=60),
    st.sampled_from(["none", "G/(G-1)"]),
)
def test_clustered_float_twin_against_the_exact_variance(rows, correction):
    from exactstats import clustered_standard_error_float

    scores, clusters = [s for s, _ in rows], [g for _, g in rows]
    assume(correction == "none" or len(set(clusters)) >= 2)
    exact = float(clustered_variance(scores, clusters, correction)) ** 0.5
    assert clustered_standard_error_float(scores, clusters, correction) == pytest.approx(exact, rel=1e-9, abs=1e-15)
