"""The best of several scores: exact expectation against brute-force enumeration and its float twin."""

import itertools
from fractions import Fraction
from math import comb

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactstats import ExactStatsError, expected_best_accuracy, expected_best_accuracy_float


def enumerate_best(n: int, p: Fraction, m: int) -> Fraction:
    """Every joint outcome of m independent Binomial(n, p) counts, weighted by its probability."""
    pmf = [comb(n, x) * p**x * (1 - p) ** (n - x) for x in range(n + 1)]
    total = Fraction(0)
    for xs in itertools.product(range(n + 1), repeat=m):
        weight = Fraction(1)
        for x in xs:
            weight *= pmf[x]
        total += weight * max(xs)
    return total / n


@given(st.integers(1, 7), st.fractions(0, 1, max_denominator=12), st.integers(1, 3))
def test_matches_enumeration(n, p, m):
    assert expected_best_accuracy(n, p, m) == enumerate_best(n, p, m)


@given(st.integers(1, 300), st.fractions(0, 1, max_denominator=20), st.integers(1, 6))
def test_float_twin_matches_exact(n, p, m):
    assert expected_best_accuracy_float(n, p, m) == pytest.approx(float(expected_best_accuracy(n, p, m)), abs=1e-12)


@given(st.integers(1, 60), st.fractions(0, 1, max_denominator=10))
def test_one_score_is_unbiased_and_more_scores_only_add(n, p):
    one, two, three = (expected_best_accuracy(n, p, m) for m in (1, 2, 3))
    assert one == p
    assert p <= two <= three
    assert (two > p) == (0 < p < 1)  # strictly above whenever the scores are noisy


def test_the_chapter_case_and_a_simulation():
    # a model at chance, two formats, 2,000 questions: about half a point on average
    excess = expected_best_accuracy(2000, "1/4", 2, allow_slow=True) - Fraction(1, 4)
    assert 0.0054 < float(excess) < 0.0055
    draws = np.random.default_rng(0).binomial(2000, 0.25, size=(200_000, 2)).max(axis=1) / 2000
    assert abs(draws.mean() - 0.25 - float(excess)) < 4 * draws.std() / np.sqrt(len(draws))


@pytest.mark.parametrize(
    "args, message",
    [
        ((0, "1/4", 2), "questions must be"),
        ((10, "5/4", 2), "accuracy"),
        ((10, -0.1, 2), "accuracy"),
        ((10, "1/4", 0), "evaluations must be"),
        ((10, "nan", 2), "accuracy"),
        ((2.5, "1/4", 2), "questions"),
        ((10, "1/4", "two"), "evaluations"),
    ],
)
def test_bad_input_names_the_argument(args, message):
    for f in (expected_best_accuracy, expected_best_accuracy_float):
        with pytest.raises(ExactStatsError, match=message):
            f(*args)


def test_exact_work_that_would_not_finish_is_refused_naming_the_twin():
    with pytest.raises(ExactStatsError, match="expected_best_accuracy_float"):
        expected_best_accuracy(10_000, "7/10", 2)
    assert 0.70 < expected_best_accuracy_float(10_000, "7/10", 2) < 0.71
