from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from exactstats import (
    ExactStatsError,
    design_effect,
    effective_votes,
    effective_votes_ceiling,
    effective_votes_eigen_float,
    mean_phi_float,
    phi,
    phi_float,
    phi_matrix_float,
    phi_squared,
)

pairs = st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1)), min_size=4, max_size=80)


def test_seed_numbers():
    assert effective_votes(7, "0.3") == Fraction(5, 2)
    assert effective_votes_ceiling("0.3") == Fraction(10, 3)
    assert design_effect(7, "0.3") == Fraction(14, 5)


@given(pairs)
def test_phi_is_pearson_r(rows):
    x, y = map(np.array, zip(*rows))
    if x.std() == 0 or y.std() == 0:
        with pytest.raises(ExactStatsError):
            phi_squared(x, y)
        return
    r = np.corrcoef(x, y)[0, 1]
    assert float(phi_squared(x, y)) == pytest.approx(r * r, rel=1e-9, abs=1e-15)
    assert float(phi(x, y)) == pytest.approx(r, rel=1e-9, abs=1e-15)
    assert phi_float(x, y) == pytest.approx(r, rel=1e-12, abs=1e-15)
    assert (
        sympy.simplify(phi(x, y) ** 2 - sympy.Rational(phi_squared(x, y).numerator, phi_squared(x, y).denominator)) == 0
    )


@given(st.integers(1, 200), st.fractions(0, 1, max_denominator=50))
def test_effective_votes_identities(k, ph):
    n = effective_votes(k, ph)
    assert n == k / design_effect(k, ph)
    assert 1 <= n <= k
    if ph > 0:
        assert n <= effective_votes_ceiling(ph)


def test_eigen_estimate_equals_formula_for_equal_correlations():
    rng = np.random.default_rng(1)
    shared = rng.random(4000) < 0.3
    errors = np.array([(shared | (rng.random(4000) < 0.2)).astype(int) for _ in range(5)])
    r = phi_matrix_float(errors)
    assert np.allclose(np.diag(r), 1)
    mean = mean_phi_float(errors)
    assert effective_votes_eigen_float(errors) == pytest.approx(float(effective_votes(5, mean)), rel=0.02)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: effective_votes(3, "-0.6"), r"phi must lie in \(-1/2, 1\]"),
        (lambda: effective_votes(3, "1.1"), "phi must lie"),
        (lambda: effective_votes(0, "0.1"), "k must be >= 1"),
        (lambda: effective_votes_ceiling("0"), r"phi must lie in \(0, 1\]"),
        (lambda: phi_squared([1, 0], [1, 0, 1]), "same length"),
        (lambda: phi_squared([1, 1], [1, 0]), "constant vector"),
        (lambda: phi_matrix_float([[1, 0, 1]]), "at least 2 rows"),
        (lambda: phi_matrix_float([[1, 0, 1], [1, 1, 1]]), "row 1 is constant"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ExactStatsError, match=match):
        call()


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 6), st.integers(5, 60), st.randoms(use_true_random=False))
def test_error_correlation_summaries_from_one_matrix(k, n, rnd):
    """Mean phi, effective votes by the formula and by the largest eigenvalue, and the ceiling, against NumPy."""
    import exactstats as es

    E = np.array([[rnd.randint(0, 1) for _ in range(n)] for _ in range(k)])
    assume(all(0 < row.sum() < n for row in E))
    R = np.corrcoef(E)
    mean = (R.sum() - k) / (k * (k - 1))
    ec = es.error_correlation_float(E)
    assert ec.mean_phi == pytest.approx(mean, abs=1e-12)
    if abs(1 + (k - 1) * mean) < 1e-9:  # complementary models: the formula divides by zero, so no value
        assert ec.effective_votes is None
        with pytest.raises(ExactStatsError, match="mean phi must exceed"):
            es.effective_votes_float(E)
    else:
        assert ec.effective_votes == pytest.approx(k / (1 + (k - 1) * mean))
        assert es.effective_votes_float(E) == ec.effective_votes
    assert ec.effective_votes_eigen == pytest.approx(k / np.linalg.eigvalsh(R)[-1])
    assert (ec.ceiling is None) == (mean <= 0)
    if -1 / (k - 1) < mean <= 1:  # the exact function at a rational near the mean: the same formula
        phi = Fraction(mean).limit_denominator(10**9)
        assert float(es.effective_votes(k, phi)) == pytest.approx(ec.effective_votes, rel=1e-6)
