"""Statistics users ask peers for: FDR control, McNemar's chi-square, pass@k variance, inverse effective votes."""

from fractions import Fraction
from math import comb

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import exactstats as es

probabilities = st.lists(st.fractions(min_value=0, max_value=1, max_denominator=1000), min_size=1, max_size=12)


@given(probabilities)
def test_bh_and_by_match_statsmodels(ps):
    from statsmodels.stats.multitest import multipletests

    floats = [float(p) for p in ps]
    for dependence, method in (("independent", "fdr_bh"), ("any", "fdr_by")):
        ours = [float(x) for x in es.bh_adjust(ps, dependence=dependence)]
        ref = multipletests(floats, method=method)[1]
        assert ours == pytest.approx(list(ref), rel=1e-9, abs=1e-12)


@given(probabilities)
def test_bh_rejects_at_least_what_holm_rejects(ps):
    alpha = Fraction(1, 20)
    holm = [p <= alpha for p in es.holm_adjust(ps)]
    bh = [p <= alpha for p in es.bh_adjust(ps)]
    assert all(b or not h for h, b in zip(holm, bh))


@given(st.integers(0, 300), st.integers(0, 300))
def test_chi_square_matches_statsmodels(b, c):
    from statsmodels.stats.contingency_tables import mcnemar

    if b == c:  # no correction when b = c (R's rule; statsmodels corrects anyway)
        assert es.mcnemar_chi_square_p_float(b, c) == 1.0
        return
    for correction in (True, False):
        ref = mcnemar([[0, b], [c, 0]], exact=False, correction=correction).pvalue
        assert es.mcnemar_chi_square_p_float(b, c, correction) == pytest.approx(ref, rel=1e-9, abs=1e-15)


@given(st.integers(2, 14), st.integers(1, 7), st.fractions(min_value=0, max_value=1, max_denominator=50))
def test_pass_at_k_variance_by_brute_force_and_estimate_unbiased(n, k, p):
    k = min(k, n // 2) or 1
    weights = [comb(n, c) * p**c * (1 - p) ** (n - c) for c in range(n + 1)]
    est = [es.pass_at_k(n, c, k) for c in range(n + 1)]
    mean = sum(w * e for w, e in zip(weights, est))
    var = sum(w * (e - mean) ** 2 for w, e in zip(weights, est))
    assert es.pass_at_k_variance(n, k, p) == var
    if 2 * k <= n:
        assert sum(w * es.pass_at_k_variance_estimate(n, c, k) for c, w in enumerate(weights)) == var


@given(st.integers(2, 30), st.fractions(min_value=Fraction(-1, 40), max_value=1, max_denominator=100))
def test_phi_for_effective_votes_inverts(k, phi):
    if phi <= Fraction(-1, k - 1):
        return
    assert es.phi_for_effective_votes(k, es.effective_votes(k, phi)) == phi


def test_rational_z_in_difference_intervals():
    iv = es.paired_difference_interval(219, 182, 2000, z="1.96")
    assert iv.z == 1.96 and iv.half_width == pytest.approx(1.96 * float(iv.variance) ** 0.5)
    with pytest.raises(es.ExactStatsError, match="not both"):
        es.unpaired_difference_interval(10, 12, 30, confidence="0.9", z="2")
    assert np.isclose(
        es.unpaired_difference_interval(10, 12, 30, z="2").half_width,
        2 * float(es.unpaired_difference_interval(10, 12, 30).variance) ** 0.5,
    )


@given(st.lists(st.lists(st.integers(0, 1), min_size=5, max_size=5), min_size=2, max_size=6))
def test_repeat_variance_matches_one_way_anova(runs):
    X = np.array(runs, dtype=float)
    r, q = X.shape
    parts = es.repeat_variance(runs)
    # method of moments from the one-way ANOVA table (questions as groups, runs as replicates)
    msw = ((X - X.mean(axis=0)) ** 2).sum() / (q * (r - 1))
    msb = r * ((X.mean(axis=0) - X.mean()) ** 2).sum() / (q - 1)
    assert float(parts.within) == pytest.approx(msw, abs=1e-12)
    assert float(parts.between) == pytest.approx((msb - msw) / r, abs=1e-12)
    assert float(parts.variance_of_mean) == pytest.approx(X.mean(axis=0).var(ddof=1) / q, abs=1e-12)


def test_identical_runs_have_no_within_variance_and_more_repeats_help_only_so_much():
    parts = es.repeat_variance([[1, 0, 1, 0, 1]] * 3)
    assert parts.within == 0 and parts.between > 0
    noisy = es.RepeatVariance(Fraction(1, 2), Fraction(1, 5), Fraction(1, 20), Fraction(0))
    se = [es.repeat_standard_error_float(noisy, r, 1000) for r in (1, 10, 1000)]
    assert se[0] > se[1] > se[2] > (0.05 / 1000) ** 0.5 * 0.999  # repeats cannot beat the between-question floor
