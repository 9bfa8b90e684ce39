"""The panels chapter's helpers (book/_code/panel.py), against brute force and the core functions."""

from fractions import Fraction
from itertools import product

import numpy as np
import pytest

import exactstats as es
from book._code.panel import (
    all_wrong_together,
    bootstrap_effective_votes,
    panel_vote_curve,
    sample_choices,
    subject_shuffle,
)


def test_effective_votes_follow_the_formula():
    rng = np.random.default_rng(0)
    C = (rng.random((4, 200)) < 0.6).astype(int)
    phi = es.mean_phi_float(1 - C)
    assert es.effective_votes_float(1 - C) == pytest.approx(4 / (1 + 3 * phi))
    # identical models are one vote
    assert es.effective_votes_float(1 - np.array([C[0]] * 3)) == pytest.approx(1.0)


def test_bootstrap_matches_a_plain_loop():
    rng = np.random.default_rng(1)
    C = (rng.random((3, 80)) < 0.55).astype(int)
    fast = bootstrap_effective_votes(C, draws=50, seed=4)
    W = np.random.default_rng(4).multinomial(80, np.full(80, 1 / 80), size=50)
    slow = [es.effective_votes_float(1 - np.repeat(C, w, axis=1)) for w in W]
    assert fast == pytest.approx(slow, rel=1e-9)


def test_subject_shuffle_keeps_per_subject_accuracy():
    rng = np.random.default_rng(2)
    C = (rng.random((3, 60)) < 0.5).astype(int)
    subjects = np.repeat(["a", "b", "c"], 20)
    S = subject_shuffle(C, subjects, seed=1)
    for s in "abc":
        cols = subjects == s
        assert (S[:, cols].sum(axis=1) == C[:, cols].sum(axis=1)).all()
    assert not (S == C).all()


def test_sampled_choices_follow_the_probabilities():
    probs = np.array([[0.7, 0.1, 0.1, 0.1], [0.0, 0.0, 1.0, 0.0]])
    draws = sample_choices(probs, 4000, seed=0)
    assert draws.shape == (4000, 2) and (draws[:, 1] == 2).all()
    assert abs((draws[:, 0] == 0).mean() - 0.7) < 0.03


def test_vote_curve_against_brute_force():
    choices = np.array([[0, 1, 2, 3, 0], [0, 2, 2, 1, 1], [1, 1, 2, 0, 0]])
    answers = np.array([0, 1, 2, 0, 1])
    (whole,) = panel_vote_curve(choices, answers, [3])
    assert whole.vote_accuracy == es.majority_vote_accuracy(choices, answers, options=4)
    acc = [Fraction(int((c == answers).sum()), 5) for c in choices]
    assert whole.best_single == max(acc)
    # the independent baseline by enumerating every combination of right/wrong-with-a-random-wrong-option
    total = Fraction(0)
    for outcome in product(range(4), repeat=3):  # option each voter picks, the key is option 0
        p = Fraction(1)
        for a, pick in zip(acc, outcome):
            p *= a if pick == 0 else (1 - a) / 3
        counts = [outcome.count(o) for o in range(4)]
        top = max(counts)
        if counts[0] == top:
            total += p / counts.count(top)
    assert whole.independent_baseline == total


def test_all_wrong_together_counts_and_expectation():
    C = np.array([[1, 0, 0, 1], [0, 0, 1, 1]])
    count, expected = all_wrong_together(C)
    assert count == 1 and expected == 4 * Fraction(1, 2) * Fraction(1, 2)
