"""pass^k, G-Pass@k and mG-Pass@k against brute-force enumeration of the k-subsets and SciPy's hypergeometric."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import integrate, stats

import exactstats as es


def subsets_reference(n: int, c: int, k: int, at_least: int) -> Fraction:
    flags = [1] * c + [0] * (n - c)
    subsets = list(itertools.combinations(range(n), k))
    return Fraction(sum(sum(flags[i] for i in s) >= at_least for s in subsets), len(subsets))


@given(st.integers(1, 9).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n), st.integers(1, n))))
def test_against_enumeration_of_subsets(nck):
    n, c, k = nck
    assert es.pass_hat_k(n, c, k) == subsets_reference(n, c, k, k)
    for j in range(1, k + 1):
        assert es.g_pass_at_k(n, c, k, Fraction(j, k)) == subsets_reference(n, c, k, j)
    assert es.g_pass_at_k(n, c, k, Fraction(1, k)) == es.pass_at_k(n, c, k)  # at least one: pass@k


@given(st.integers(1, 60).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n), st.integers(1, n))))
def test_float_twin_and_scipy(nck):
    n, c, k = nck
    for tau in ("1/3", "1/2", "0.8", "1"):
        exact = es.g_pass_at_k(n, c, k, tau)
        need = -(-Fraction(tau) * k // 1)
        assert float(exact) == pytest.approx(stats.hypergeom.sf(int(need) - 1, n, c, k), abs=1e-12)
        assert es.g_pass_at_k_float([n], [c], k, tau)[0] == pytest.approx(float(exact), abs=1e-12)


@given(st.integers(1, 12).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n), st.integers(1, n))))
def test_mg_pass_is_the_integral_over_tau(nck):
    n, c, k = nck
    g = lambda tau: float(es.g_pass_at_k(n, c, k, Fraction(tau).limit_denominator(10**9)))  # noqa: E731
    breaks = sorted({0.5, 1.0} | {j / k for j in range(k + 1) if 0.5 < j / k < 1})
    integral = sum(integrate.quad(g, a, b, limit=200)[0] for a, b in itertools.pairwise(breaks))
    assert float(es.mg_pass_at_k(n, c, k)) == pytest.approx(2 * integral, abs=1e-7)


def test_a_model_that_always_passes_scores_one():
    for k in range(1, 8):
        assert es.mg_pass_at_k(10, 10, k) == 1 and es.pass_hat_k(10, 10, k) == 1
    grid = Fraction(2, 3) * es.g_pass_at_k(3, 3, 3, 1)  # a grid sum (2/k) sum_{i > k/2} at k = 3
    assert grid == Fraction(2, 3) != es.mg_pass_at_k(3, 3, 3)


def test_mean_and_ordering():
    table = [(10, 7), (10, 2), (10, 10)]
    assert es.mean_pass_hat_k(table, 3) == sum(es.pass_hat_k(n, c, 3) for n, c in table) / 3
    n, c = 20, 13
    values = [es.g_pass_at_k(n, c, 5, Fraction(j, 5)) for j in range(1, 6)]
    assert all(a >= b for a, b in itertools.pairwise(values))  # a stricter tau never scores higher
    assert es.pass_hat_k(n, c, 5) <= es.mg_pass_at_k(n, c, 5) <= es.pass_at_k(n, c, 5)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: es.pass_hat_k(5, 6, 2), "c must"),
        (lambda: es.pass_hat_k(5, 3, 6), "k must be <= n"),
        (lambda: es.g_pass_at_k(5, 3, 2, 0), "tau must"),
        (lambda: es.g_pass_at_k(5, 3, 2, "3/2"), "tau must"),
        (lambda: es.mean_pass_hat_k([], 2), "at least one"),
        (lambda: es.g_pass_at_k_float([3], [4], 2), "every n"),
        (lambda: es.pass_hat_k(10**9, 10**8, 10**7), "g_pass_at_k_float"),
    ],
)
def test_bad_input_is_refused_by_name(call, match):
    with pytest.raises(es.ExactStatsError, match=match):
        call()


def test_on_our_humaneval_samples():
    """Per problem pass@1 >= mG-Pass@k >= pass^k on the shipped samples, and pass^k falls with k."""
    samples = es.load_passk_samples("sampled")
    model = samples.models[0]
    counts = samples.counts(model)
    table = list(zip(counts["n"].astype(int), counts["c"].astype(int)))
    hats = [es.mean_pass_hat_k(table, k) for k in (1, 2, 5)]
    assert hats[0] == sum(Fraction(c, n) for n, c in table) / len(table) and hats[0] > hats[1] > hats[2] > 0
    assert np.isfinite(float(hats[2]))
