"""Exact coverage of intervals and exact size of tests, against independent references.

References: statsmodels' ``proportion_confint`` intervals plugged into a coverage sum of SciPy's
binomial pmf (the membership decided in floats, far from ties), brute-force enumeration of every
outcome with the package's own p-value functions, SciPy's ``binomtest``, and the known theorems
(Clopper-Pearson never under-covers; Wald's coverage is at most 1 - (1 - p)^n).
"""

from fractions import Fraction
from math import comb

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

import exactstats as es
from exactstats import ExactStatsError

STATSMODELS = {"wald": "normal", "wilson": "wilson", "agresti-coull": "agresti_coull", "clopper-pearson": "beta"}
ALPHA = Fraction(1, 20)


@settings(max_examples=60)
@given(st.sampled_from(sorted(STATSMODELS)), st.integers(1, 80), st.integers(1, 999))
def test_coverage_against_statsmodels_intervals(method, n, thousandths):
    p = Fraction(thousandths, 1000)
    k = np.arange(n + 1)
    lo, hi = proportion_confint(k, n, alpha=0.05, method=STATSMODELS[method])
    lo, hi = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
    pf = float(p)
    assume(np.min(np.abs(np.concatenate([lo, hi]) - pf)) >= 1e-9)  # a float tie: no reference can decide it
    inside = (lo <= pf) & (pf <= hi)
    want = float(stats.binom.pmf(k[inside], n, pf).sum())
    assert float(es.interval_coverage(method, n, p)) == pytest.approx(want, abs=1e-12)
    assert es.interval_coverage_float(method, n, p) == pytest.approx(want, abs=1e-12)


def test_the_issues_numbers_at_n_30():
    """Wald falls to about 0.26 on the grid 0.01..0.99; Clopper-Pearson stays at or above 0.95."""
    wald = es.coverage_table("wald", 30, grid=100)
    assert wald.at == Fraction(1, 100) and 0.25 < wald.minimum < 0.27
    assert "tends to 0" in wald.note
    cp = es.coverage_table("clopper-pearson", 30, grid=100)
    assert cp.minimum >= Fraction(95, 100) and cp.below_nominal == 0
    wilson = es.coverage_table("wilson", 30, grid=100)
    assert 0.90 < wilson.minimum < Fraction(95, 100)  # Wilson dips under its level too, much less


@settings(max_examples=40)
@given(st.integers(1, 60), st.integers(1, 10**6 - 1))
def test_clopper_pearson_never_under_covers_and_wald_obeys_its_bound(n, millionths):
    p = Fraction(millionths, 10**6)
    assert es.interval_coverage("clopper-pearson", n, p) >= Fraction(95, 100)
    assert es.interval_coverage("wald", n, p) <= 1 - (1 - p) ** n


@pytest.mark.parametrize("method", sorted(es.INTERVAL_METHODS))
def test_coverage_at_the_ends_and_membership(method):
    for p in (0, 1):
        cov = es.interval_coverage(method, 12, p)
        assert cov in (0, 1)
    assert es.interval_covers(method, 5, 10, "1/2")


def test_paired_interval_coverage_by_enumeration_and_float_twin():
    n, pb, pc = 14, Fraction(1, 5), Fraction(1, 20)
    z = Fraction(es.z_value_float("0.95"))
    want = Fraction(0)
    for b in range(n + 1):
        for c in range(n - b + 1):
            iv = es.paired_difference_interval(b, c, n)  # ddof 1, the package's default
            d, var = iv.difference, iv.variance
            if (d - (pb - pc)) ** 2 <= z * z * var:
                want += comb(n, b) * comb(n - b, c) * pb**b * pc**c * (1 - pb - pc) ** (n - b - c)
    assert es.paired_interval_coverage(n, pb, pc) == want
    assert es.paired_interval_coverage_float(n, pb, pc) == pytest.approx(float(want), abs=1e-12)
    assert es.paired_interval_coverage_float(2000, "0.1", "0.08") == pytest.approx(0.95, abs=0.01)


P_VALUES = {
    "mcnemar": lambda b, c: es.mcnemar_p_value(b, c),
    "mcnemar-mid-p": lambda b, c: es.mcnemar_p_value(b, c, mid_p=True),
    "mcnemar-chi2": lambda b, c: es.mcnemar_chi_square_p_float(b, c),
    "mcnemar-chi2-uncorrected": lambda b, c: es.mcnemar_chi_square_p_float(b, c, correction=False),
}


@pytest.mark.parametrize("test", sorted(P_VALUES))
@pytest.mark.parametrize("n, q", [(9, "1/3"), (16, "3/4"), (25, "1/10")])
def test_size_by_enumerating_every_outcome(test, n, q):
    q = Fraction(q)
    want = Fraction(0)
    for b in range(n + 1):
        for c in range(n - b + 1):
            p = P_VALUES[test](b, c)
            if (p <= ALPHA) if isinstance(p, Fraction) else (p <= float(ALPHA)):
                want += comb(n, b) * comb(n - b, c) * (q / 2) ** (b + c) * (1 - q) ** (n - b - c)
    assert es.exact_size(test, n, q) == want
    assert es.exact_size_float(test, n, q) == pytest.approx(float(want), abs=1e-12)


@settings(max_examples=30)
@given(st.integers(0, 400))
def test_conditional_size_against_scipy_binomtest(m):
    if m == 0:
        assert es.conditional_sizes("mcnemar", 0) == 0
        return
    rejecting = [b for b in range(m + 1) if stats.binomtest(b, m, 0.5).pvalue <= 0.05 * (1 + 1e-12)]
    want = float(stats.binom.pmf(rejecting, m, 0.5).sum()) if rejecting else 0.0
    assert float(es.conditional_sizes("mcnemar", m)) == pytest.approx(want, abs=1e-12)


def test_paired_rejection_probability_by_enumeration():
    n, pb, pc = 7, Fraction(1, 3), Fraction(1, 6)

    def region(m):
        return [(0, 0), (m - 1, m)] if m >= 2 else []

    want = Fraction(0)
    for b in range(n + 1):
        for c in range(n - b + 1):
            m = b + c
            if any(lo <= b <= hi for lo, hi in region(m)):
                want += comb(n, b) * comb(n - b, c) * pb**b * pc**c * (1 - pb - pc) ** (n - b - c)
    assert es.paired_rejection_probability(n, pb, pc, region) == want


# The size table: every test of the package, and which of them hold their level.
GUARANTEED = {"mcnemar", "equivalence", "non-inferiority"}  # by proof; the rest are checked, not promised


@pytest.mark.parametrize("test", sorted(es.PAIRED_TESTS))
def test_every_paired_test_has_a_size_table(test):
    margin = "0.1" if test in ("equivalence", "non-inferiority") else None
    for n in (30, 100):
        t = es.size_table(test, n, grid=20, margin=margin)
        assert len(t.points) >= 10 and all(0 <= s <= 1 for _, s in t.points)
        if test in GUARANTEED:
            assert t.holds and t.largest <= ALPHA and t.bound <= ALPHA
    if test == "mcnemar-mid-p":  # mid-p and the uncorrected chi-square exceed their level: the table says so
        assert es.size_table(test, 60, grid=50).largest > ALPHA
    if test == "mcnemar-chi2-uncorrected":
        assert es.size_table(test, 30, grid=50).largest > ALPHA and not es.size_table(test, 30, grid=50).holds


def test_sign_tests_are_mcnemar():
    """The arena sign test and the pass@k sign test call the exact McNemar test: one size row covers them."""
    counts = es.battle_counts([("a", "b", "model_a")] * 9 + [("a", "b", "model_b")] * 2)
    assert es.sign_test(counts, "a", "b") == es.mcnemar_p_value(9, 2)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: es.interval_coverage("jeffreys", 10, "0.5"), "method must be one of"),
        (lambda: es.interval_coverage("wald", 0, "0.5"), "n must be >= 1"),
        (lambda: es.interval_coverage("wald", 10, "1.5"), "p must"),
        (lambda: es.interval_coverage("wald", 10, "0.5", confidence="1"), "confidence"),
        (lambda: es.interval_coverage("wald", 10**6, "0.5"), "interval_coverage_float"),
        (lambda: es.paired_interval_coverage(1000, "0.1", "0.1"), "n must be <= 400"),
        (lambda: es.exact_size("equivalence", 100, "0.2"), "margin is required"),
        (lambda: es.exact_size("mcnemar", 100, "0.2", margin="0.1"), "margin applies only"),
        (lambda: es.exact_size("equivalence", 100, "0.05", margin="0.1"), "q must be >= margin"),
        (lambda: es.exact_size("z-test", 100, "0.2"), "test must be one of"),
        (lambda: es.coverage_table("wald", 30, grid=1), "grid must be >= 2"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ExactStatsError, match=match):
        call()
