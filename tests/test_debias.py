"""Letter-prior removal and order averaging on stored probabilities, against plain loops and pandas."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import exactstats as es
from exactstats import ExactStatsError


def _random_case(rng, n, k=4):
    probs = rng.dirichlet(np.ones(k), size=n)
    perms = np.array([rng.permutation(k) for _ in range(n)])
    return probs, perms


@given(st.integers(1, 30), st.integers(2, 5), st.integers(0, 10**6))
def test_displayed_order_by_a_loop(n, k, seed):
    probs, perms = _random_case(np.random.default_rng(seed), n, k)
    shown = es.displayed_probabilities_float(probs, perms)
    for i in range(n):
        for j in range(k):
            assert shown[i, j] == pytest.approx(probs[i, perms[i, j]])
    assert np.allclose(es.letter_prior_float(probs, perms), shown.mean(axis=0))


def test_permutation_strings_match_integer_rows():
    probs = [[0.1, 0.2, 0.3, 0.4], [0.4, 0.3, 0.2, 0.1]]
    a = es.displayed_probabilities_float(probs, ["3120", "0123"])
    b = es.displayed_probabilities_float(probs, np.array([[3, 1, 2, 0], [0, 1, 2, 3]]))
    assert np.array_equal(a, b)


def test_prior_removal_recovers_a_planted_letter_prior():
    """A model that knows the answer a little but multiplies letter A by 6: removal restores balance."""
    rng = np.random.default_rng(1)
    n, k = 4000, 4
    answer = rng.integers(0, k, n)
    perms = np.array([rng.permutation(k) for _ in range(n)])
    truth = np.full((n, k), 1.0)
    truth[np.arange(n), answer] = 1.6  # a weak real signal about the options
    bias = np.array([6.0, 1.0, 1.0, 1.0])  # by displayed position
    shown = np.take_along_axis(truth, perms, axis=1) * bias
    probs = np.empty_like(shown)
    np.put_along_axis(probs, perms, shown, axis=1)
    probs /= probs.sum(axis=1, keepdims=True)

    def letter_share(p):
        chosen = np.argmax(es.displayed_probabilities_float(p, perms), axis=1)
        return np.bincount(chosen, minlength=k) / n

    before, after = letter_share(probs), letter_share(es.remove_letter_prior_float(probs, perms))
    assert before[0] > 0.9 and after.max() < 0.3  # the favourite letter is gone
    acc_before = (probs.argmax(axis=1) == answer).mean()
    acc_after = (es.remove_letter_prior_float(probs, perms).argmax(axis=1) == answer).mean()
    assert acc_after == 1.0 > acc_before + 0.5  # the signal the prior hid is back
    prior = es.letter_prior_float(probs, perms)
    assert prior[0] == prior.max() and prior[0] > 2 * prior[1:].max()


@settings(max_examples=30)
@given(st.integers(4, 40), st.integers(2, 4), st.integers(0, 10**6))
def test_prior_removal_is_cross_fitted(n, folds, seed):
    """Each question's correction uses only the other folds: recompute it by hand."""
    rng = np.random.default_rng(seed)
    probs, perms = _random_case(rng, n)
    folds = min(folds, n)
    out = es.remove_letter_prior_float(probs, perms, folds=folds, seed=seed)
    fold = np.random.default_rng(seed).permutation(n) % folds
    shown = es.displayed_probabilities_float(probs, perms)
    for i in range(n):
        prior = shown[fold != fold[i]].mean(axis=0)
        want = shown[i] / prior
        want /= want.sum()
        assert np.allclose(out[i, perms[i]], want)
    assert np.allclose(out.sum(axis=1), 1)


def test_a_flat_prior_changes_nothing():
    # every row in all four rotations: each displayed position averages to a quarter
    rng = np.random.default_rng(2)
    rows = rng.dirichlet(np.ones(4), size=50)
    probs = np.vstack([np.roll(rows, s, axis=1) for s in range(4)])
    perms = ["0123"] * 200
    prior = es.letter_prior_float(probs, perms)
    assert np.allclose(prior, 0.25)
    flat = np.full((4, 4), 0.25)
    assert np.allclose(es.remove_letter_prior_float(flat, ["0123", "1032", "2301", "3210"]), flat)


@given(st.integers(1, 40), st.integers(0, 10**6))
def test_order_average_against_pandas(n, seed):
    rng = np.random.default_rng(seed)
    probs, _ = _random_case(rng, n)
    ids = [f"q{int(i)}" for i in rng.integers(0, max(1, n // 2), n)]
    got_ids, got = es.average_over_orders_float(probs, ids)
    want = pd.DataFrame(probs).groupby(pd.Series(ids), sort=False).mean()
    assert got_ids == list(want.index)
    assert np.allclose(got, want.to_numpy())


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: es.letter_prior_float([0.5, 0.5], ["01"]), "questions x options"),
        (lambda: es.letter_prior_float([[0.5, float("nan")]], ["01"]), "finite"),
        (lambda: es.letter_prior_float([[0.0, 0.0]], ["01"]), "positive sum"),
        (lambda: es.letter_prior_float([["a", "b"]], ["01"]), "array of numbers"),
        (lambda: es.letter_prior_float([[0.5, 0.5]], ["00"]), "permutation of 0..1"),
        (lambda: es.letter_prior_float([[0.5, 0.5]], ["012"]), r"shape \(1, 2\)"),
        (lambda: es.letter_prior_float([[0.5, 0.5]], ["0x"]), "strings of digits"),
        (lambda: es.remove_letter_prior_float([[0.5, 0.5]] * 3, ["01"] * 3, folds=1), "folds must be >= 2"),
        (lambda: es.remove_letter_prior_float([[0.5, 0.5]] * 3, ["01"] * 3, folds=4), "folds must be <= 3"),
        (lambda: es.remove_letter_prior_float([[1.0, 0.0]] * 4, ["01"] * 4), "zero mean probability"),
        (lambda: es.average_over_orders_float([[0.5, 0.5]], ["a", "b"]), "one id per row"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ExactStatsError, match=match):
        call()
