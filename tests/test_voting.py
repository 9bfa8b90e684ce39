from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactstats import (
    ExactStatsError,
    majority_vote,
    majority_vote_accuracy,
    plurality_probability,
    probability_average,
    probability_average_accuracy,
)


@given(st.integers(1, 5), st.integers(1, 30), st.integers(2, 4), st.data())
def test_vote_accuracy_by_counting(models, questions, options, data):
    choices = np.array(
        data.draw(
            st.lists(
                st.lists(st.integers(0, options - 1), min_size=questions, max_size=questions),
                min_size=models,
                max_size=models,
            )
        )
    )
    answers = np.array(data.draw(st.lists(st.integers(0, options - 1), min_size=questions, max_size=questions)))
    want = Fraction(0)
    lose = 0
    for q in range(questions):
        counts = [int(np.sum(choices[:, q] == o)) for o in range(options)]
        top = max(counts)
        if counts[answers[q]] == top:
            want += Fraction(1, counts.count(top))
            lose += counts.count(top) == 1
    assert majority_vote_accuracy(choices, answers, options=options) == want / questions
    assert majority_vote_accuracy(choices, answers, options=options, ties="lose") == Fraction(lose, questions)
    winners = majority_vote(choices, options=options, seed=1)
    for q in range(questions):
        assert np.sum(choices[:, q] == winners[q]) == max(np.sum(choices[:, q] == o) for o in range(options))


def test_expected_tie_credit_equals_independent_baseline_on_all_outcomes():
    """Enumerate every panel outcome weighted by its chance: the mean credit is the exact plurality baseline."""
    ps = [Fraction(7, 10), Fraction(1, 2), Fraction(2, 5)]
    total = Fraction(0)
    for picks in product(range(4), repeat=3):
        w = Fraction(1)
        for pick, p in zip(picks, ps):
            w *= p if pick == 0 else (1 - p) / 3
        total += w * majority_vote_accuracy(np.array(picks)[:, None], [0], options=4)
    assert total == plurality_probability(ps, options=4)


def test_probability_average():
    probs = np.array([[[0.6, 0.4], [0.2, 0.8]], [[0.1, 0.9], [0.5, 0.5]]])
    assert probability_average(probs).tolist() == [1, 1]
    assert probability_average_accuracy(probs, [1, 0]) == Fraction(1, 2)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: majority_vote_accuracy([[0, 1]], [0]), "one option index per question"),
        (lambda: majority_vote_accuracy([[0, 5]], [0, 1], options=4), r"choices must lie in \[0, 3\]"),
        (lambda: majority_vote_accuracy([[0.5, 1]], [0, 1]), "whole numbers"),
        (lambda: majority_vote([[0, 1]], ties="first"), "ties must be one of"),
        (lambda: probability_average([[0.5, 0.5]]), "models x questions x options"),
        (lambda: probability_average_accuracy(np.full((1, 1, 2), np.nan), [0]), "finite"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ExactStatsError, match=match):
        call()
