"""Bayesian comparisons in closed form, against SciPy's Beta distribution, numerical integration and Monte Carlo."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import integrate, stats

import exactstats as es


@given(st.integers(0, 300), st.integers(0, 300), st.integers(1, 5))
def test_paired_probability_is_the_beta_tail(b, c, a):
    exact = es.paired_better_probability(b, c, a)
    assert isinstance(exact, Fraction) and 0 < exact < 1
    assert float(exact) == pytest.approx(stats.beta.sf(0.5, b + a, c + a), rel=1e-9, abs=1e-300)
    assert es.paired_better_probability_float(b, c, a) == pytest.approx(float(exact), rel=1e-9, abs=1e-300)
    assert exact + es.paired_better_probability(c, b, a) == 1  # symmetric: one of the two is better


def test_paired_probability_on_the_issue_pair_against_monte_carlo():
    # the closed form P(Bin(b + c + 1, 1/2) <= b); a Monte Carlo of the Dirichlet posterior agrees within 4 SE
    b, c = 1118, 949
    exact = es.paired_better_probability(b, c)
    assert isinstance(exact, Fraction) and (exact.denominator & (exact.denominator - 1)) == 0  # dyadic
    rng = np.random.default_rng(0)
    cells = rng.dirichlet([b + 1, c + 1, 5000, 3000], size=400_000)
    mc = (cells[:, 0] > cells[:, 1]).mean()
    se = np.sqrt(mc * (1 - mc) / len(cells))
    assert abs(mc - float(exact)) < 4 * se


@given(st.integers(0, 40), st.integers(0, 40), st.integers(0, 40), st.integers(0, 40), st.integers(1, 3))
def test_unpaired_probability_matches_numerical_integration(k1, extra1, k2, extra2, a):
    n1, n2 = k1 + extra1, k2 + extra2
    exact = es.unpaired_better_probability(k1, n1, k2, n2, a)
    a1, b1, a2, b2 = k1 + a, n1 - k1 + a, k2 + a, n2 - k2 + a
    # P(theta_1 > theta_2) = integral of f_1(x) F_2(x)
    quad = integrate.quad(lambda x: stats.beta.pdf(x, a1, b1) * stats.beta.cdf(x, a2, b2), 0, 1, epsabs=1e-13)[0]
    assert float(exact) == pytest.approx(quad, abs=1e-8)
    assert es.unpaired_better_probability_float(k1, n1, k2, n2, a) == pytest.approx(float(exact), abs=1e-10)


def test_unpaired_probability_small_cases_by_hand():
    assert es.unpaired_better_probability(1, 1, 0, 1) == Fraction(5, 6)  # Beta(2, 1) against Beta(1, 2)
    assert es.unpaired_better_probability(3, 7, 3, 7) == Fraction(1, 2)  # the same posterior twice
    assert es.unpaired_better_probability(0, 0, 0, 0) == Fraction(1, 2)


def test_posterior_mean_and_credible_interval():
    assert es.posterior_mean(7, 10, prior=2) == Fraction(9, 14)
    lo, hi = es.beta_credible_interval_float(7, 10, "0.9")
    assert stats.beta.cdf(lo, 8, 4) == pytest.approx(0.05) and stats.beta.cdf(hi, 8, 4) == pytest.approx(0.95)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: es.paired_better_probability(-1, 3), "b must"),
        (lambda: es.paired_better_probability(1, 3, prior=0), "prior must"),
        (lambda: es.unpaired_better_probability(5, 4, 1, 2), "k1 must"),
        (lambda: es.unpaired_better_probability(1, 2, 10**6, 10**6), "unpaired_better_probability_float"),
        (lambda: es.posterior_mean(3, 2), "k must"),
        (lambda: es.beta_credible_interval_float(3, 5, "1"), "level must"),
        (lambda: es.paired_better_probability(10**8, 10**8), "paired_better_probability_float"),
    ],
)
def test_bad_input_is_refused_by_name(call, match):
    with pytest.raises(es.ExactStatsError, match=match):
        call()


def test_report_gives_each_adjacent_pair_its_exact_posterior_chance(capsys):
    import json

    from exactstats.cli import main

    assert main(["report", "data/original-2000.long.parquet", "--json", "--draws", "20"]) == 0
    for pair in json.loads(capsys.readouterr().out)["adjacent_pairs"]:
        assert pair["p_better"] == pytest.approx(float(es.paired_better_probability(pair["b"], pair["c"])), rel=1e-9)
