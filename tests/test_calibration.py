"""Calibration: exact Brier against its float twin, ECE against a direct binned computation."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import exactstats as es


@given(
    st.lists(
        st.tuples(st.integers(0, 10), st.integers(0, 10), st.integers(0, 10), st.integers(0, 3)),
        min_size=1,
        max_size=30,
    )
)
def test_exact_brier_matches_float_twin(rows):
    rows = [(a, b, c, k) for a, b, c, k in rows if a + b + c > 0 and k < 3]
    assume(rows)
    probs = [[Fraction(a, a + b + c), Fraction(b, a + b + c), Fraction(c, a + b + c)] for a, b, c, _ in rows]
    answers = [k for *_, k in rows]
    exact = es.brier_score(probs, answers)
    assert float(exact) == pytest.approx(es.brier_score_float([[float(x) for x in r] for r in probs], answers).value)


def test_ece_equals_the_binned_definition_and_interval_covers_it():
    rng = np.random.default_rng(0)
    logits = rng.normal(size=(2000, 4)) * 2
    p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    answers = np.array([rng.choice(4, p=row) for row in p])  # calibrated by construction
    result = es.expected_calibration_error_float(p, answers, bins=10)
    table = es.reliability_float(p, answers, bins=10)
    direct = sum(t["count"] / 2000 * abs(t["accuracy"] - t["confidence"]) for t in table if t["count"])
    assert result.value == pytest.approx(direct, abs=1e-12)
    assert result.lower <= result.value <= result.upper and result.value < 0.05
    overconfident = np.where(np.arange(4)[None, :] == p.argmax(axis=1)[:, None], 0.97, 0.01)
    assert es.expected_calibration_error_float(overconfident, answers).value > result.value


def test_clusters_widen_the_interval_for_repeated_questions():
    rng = np.random.default_rng(1)
    p = rng.dirichlet(np.ones(4), size=200)
    answers = rng.integers(0, 4, 200)
    once = es.brier_score_float(p, answers)
    twice = es.brier_score_float(
        np.vstack([p, p]), np.concatenate([answers, answers]), clusters=np.concatenate([np.arange(200), np.arange(200)])
    )
    assert twice.value == pytest.approx(once.value)
    assert twice.upper - twice.lower == pytest.approx(once.upper - once.lower, rel=0.02)


@pytest.mark.parametrize("probs, answers", [([[0.5, 0.6]], [0]), ([[1.0, 0.0]], [2]), ([], [])])
def test_bad_input(probs, answers):
    with pytest.raises(es.ExactStatsError):
        es.brier_score_float(probs, answers)
