from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.contingency_tables import mcnemar

import exactstats as es
from exactstats import (
    ExactStatsError,
    discordance,
    mcnemar_p_value,
    paired_difference_interval,
    unpaired_difference_interval,
)

counts = st.integers(0, 400)


def test_seed_case():
    p = mcnemar_p_value(219, 182)
    assert isinstance(p, Fraction) and round(float(p), 4) == 0.0721
    assert round(paired_difference_interval(219, 182, 2000).half_width * 100, 2) == 1.96
    # the seed's unpaired +-2.82: 71.8% and 37 questions fewer on 2,000
    assert round(unpaired_difference_interval(1436, 1399, 2000).half_width * 100, 2) == 2.82


@given(counts, counts)
def test_matches_statsmodels(b, c):
    ref = mcnemar([[0, b], [c, 0]], exact=True).pvalue if b + c else 1.0
    assert float(mcnemar_p_value(b, c)) == pytest.approx(ref, rel=1e-9)


@given(st.integers(0, 60), st.integers(0, 60))
def test_definition_by_direct_sum(b, c):
    m = b + c
    t = min(b, c)
    want = min(Fraction(1), 2 * Fraction(sum(comb(m, i) for i in range(t + 1)), 2**m)) if m else Fraction(1)
    assert mcnemar_p_value(b, c) == want
    greater = Fraction(sum(comb(m, i) for i in range(b, m + 1)), 2**m) if m else Fraction(1)
    assert mcnemar_p_value(b, c, alternative="greater") == greater
    assert mcnemar_p_value(c, b, alternative="less") == greater
    if m:
        mid = 2 * Fraction(sum(comb(m, i) for i in range(t)), 2**m) + Fraction(comb(m, t), 2**m)
        assert mcnemar_p_value(b, c, mid_p=True) == min(mid, 1)
        assert mcnemar_p_value(b, c, mid_p=True) <= mcnemar_p_value(b, c)


def test_large_counts_are_exact_and_capped():
    p = mcnemar_p_value(60_000, 60_300)
    assert 0 < p < 1 and p.denominator & (p.denominator - 1) == 0  # a dyadic rational
    assert mcnemar_p_value(5, 5) == 1


@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1)), min_size=1, max_size=50))
def test_discordance_counts(pairs):
    x, y = zip(*pairs)
    b, c = discordance(x, y)
    assert b == sum(1 for a, bb in pairs if a == 1 and bb == 0)
    assert c == sum(1 for a, bb in pairs if a == 0 and bb == 1)


@given(st.integers(2, 300), st.data())
def test_paired_variance_is_sample_variance_of_differences(n, data):
    b = data.draw(st.integers(0, n))
    c = data.draw(st.integers(0, n - b))
    diffs = np.array([1] * b + [-1] * c + [0] * (n - b - c), dtype=float)
    r = paired_difference_interval(b, c, n)
    assert float(r.variance) == pytest.approx(diffs.var(ddof=1) / n, rel=1e-12, abs=1e-18)
    assert r.difference == Fraction(b - c, n)
    assert r.lower <= float(r.difference) <= r.upper


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: mcnemar_p_value(-1, 3), "b must be >= 0"),
        (lambda: mcnemar_p_value(1.5, 3), "b must be a whole number"),
        (lambda: mcnemar_p_value(1, 3, alternative="bigger"), "alternative must be one of"),
        (lambda: mcnemar_p_value(1, 3, mid_p="yes"), "mid_p must be True or False"),
        (lambda: discordance([1, 0], [1]), "same length"),
        (lambda: discordance([1, 2], [1, 0]), "only 0 and 1"),
        (lambda: paired_difference_interval(5, 6, 10), "c must be <= 5"),
        (lambda: paired_difference_interval(0, 0, 1), "n must be > ddof"),
        (lambda: unpaired_difference_interval(11, 3, 10), "k1 must be <= 10"),
        (lambda: paired_difference_interval(1, 1, 10, confidence="1"), r"confidence must lie in \(0, 1\)"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ExactStatsError, match=match):
        call()


@given(st.lists(st.fractions(0, 1, max_denominator=1000), min_size=1, max_size=12))
def test_holm_matches_statsmodels(ps):
    from statsmodels.stats.multitest import multipletests

    from exactstats import holm_adjust

    ref = multipletests([float(p) for p in ps], method="holm")[1]
    assert [float(a) for a in holm_adjust(ps)] == pytest.approx(list(ref), rel=1e-12, abs=1e-15)


@settings(max_examples=200)
@given(st.lists(st.integers(1, 10**6), min_size=1, max_size=40), st.data())
def test_holm_screen_equals_exact_holm_even_with_rounded_floats(numerators, data):
    """Exact p-values, some placed exactly on a Holm threshold alpha / (m - i); the floats are off by up to
    1e-12 relatively, as a float McNemar is. The screened decisions are exact Holm's, and p-values far from
    their own rank's threshold are never computed exactly."""
    m = len(numerators)
    exact = [Fraction(x, 10**7) for x in numerators]
    for i in data.draw(st.lists(st.integers(0, m - 1), max_size=3)):
        exact[i] = Fraction(1, 20) / data.draw(st.integers(1, m))  # on some threshold
    floats = [float(p) * (1 + data.draw(st.floats(-1e-12, 1e-12))) for p in exact]
    reject, computed = es.holm_reject_screened(floats, lambda i: exact[i])
    assert reject == [p <= Fraction(1, 20) for p in es.holm_adjust(exact)]
    order = sorted(range(m), key=lambda i: floats[i])  # ranks as the screen sees them
    for rank, i in enumerate(order):
        own = [Fraction(1, 20) / (m - r) for r in (rank - 1, rank, rank + 1) if 0 <= r < m]
        if all(abs(exact[i] / t - 1) > Fraction(1, 10**5) for t in own):
            assert i not in computed


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 5), st.integers(2, 40), st.randoms(use_true_random=False))
def test_compare_pairs_against_scipy_and_statsmodels(k, n, rnd):
    """Every pair's exact p is scipy's two-sided binomial test on the discordant counts; Holm and BH over the
    compared pairs are statsmodels' multipletests; the intervals are the two-model functions."""
    from scipy.stats import binomtest
    from statsmodels.stats.multitest import multipletests

    C = [[rnd.randint(0, 1) for _ in range(n)] for _ in range(k)]
    for which in ("adjacent", "all"):
        rows = es.compare_pairs(C, which)
        expected = [(i, i + 1) for i in range(k - 1)] if which == "adjacent" else list(combinations(range(k), 2))
        assert [(r.first, r.second) for r in rows] == expected
        ref = [1.0 if r.b + r.c == 0 else binomtest(r.b, r.b + r.c, 0.5).pvalue for r in rows]
        assert all(abs(float(r.p) - p) < 1e-9 for r, p in zip(rows, ref))
        holm = multipletests(ref, method="holm")[1]
        bh = multipletests(ref, method="fdr_bh")[1]
        assert all(abs(float(r.holm) - h) < 1e-9 and abs(float(r.bh) - f) < 1e-9 for r, h, f in zip(rows, holm, bh))
        for r in rows:
            assert (r.b, r.c) == es.discordance(C[r.first], C[r.second])
            assert r.paired == es.paired_difference_interval(r.b, r.c, n)
            assert r.separated() == (r.holm <= Fraction(1, 20))


def test_compare_pairs_refuses_bad_input():
    with pytest.raises(es.ExactStatsError, match="at least two models"):
        es.compare_pairs([[1, 0, 1]])
    with pytest.raises(es.ExactStatsError, match="which"):
        es.compare_pairs([[1, 0], [0, 1]], which="some")
    with pytest.raises(es.ExactStatsError, match="two questions"):
        es.compare_pairs([[1], [0]])
