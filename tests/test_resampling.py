from fractions import Fraction
from itertools import combinations, product

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactstats import (
    ExactStatsError,
    redraw_counts,
    redraw_win_probability,
    split_half_float,
    split_half_two_models,
    top_stays_top_float,
    top_three_keep_order_float,
)


def test_counts_are_multinomial_draws():
    w = redraw_counts(7, 30, 500, np.random.default_rng(0))
    assert w.shape == (500, 7) and (w.sum(axis=1) == 30).all()
    assert abs(w.mean() - 30 / 7) < 0.2


@given(st.integers(1, 6), st.data())
def test_two_model_exact_by_enumeration(n, data):
    q = data.draw(st.integers(1, 5))
    b = data.draw(st.integers(0, q))
    c = data.draw(st.integers(0, q - b))
    x = [1] * b + [0] * c + [1] * 0 + [0] * (q - b - c)
    y = [0] * b + [1] * c + [0] * (q - b - c)
    want = Fraction(0)
    for draw in product(range(q), repeat=n):
        lead = sum(x[i] - y[i] for i in draw)
        want += 1 if lead > 0 else Fraction(1, 2) if lead == 0 else 0
    want /= q**n
    assert redraw_win_probability(b, c, q, n) == want


@given(st.integers(1, 4), st.data())
def test_exact_split_half_by_enumerating_every_split(h, data):
    q = 2 * h
    b = data.draw(st.integers(0, q))
    c = data.draw(st.integers(0, q - b))
    lead = [1] * b + [-1] * c + [0] * (q - b - c)  # model 1 minus model 2, per question
    splits = list(combinations(range(q), h))
    agree = selected = held = Fraction(0)
    for first in splits:
        a = sum(lead[i] for i in first)
        rest = sum(lead) - a
        # the first half's winner by a coin when tied; the same rule in the second half
        p1_first = Fraction(1) if a > 0 else Fraction(0) if a < 0 else Fraction(1, 2)
        p1_second = Fraction(1) if rest > 0 else Fraction(0) if rest < 0 else Fraction(1, 2)
        agree += p1_first * p1_second + (1 - p1_first) * (1 - p1_second)
        selected += Fraction(abs(a), h)
        held += (p1_first * rest - (1 - p1_first) * rest) / h
    n = len(splits)
    assert split_half_two_models(b, c, q) == (agree / n, selected / n, held / n)


def test_exact_split_half_matches_the_simulation():
    C = np.zeros((2, 400), dtype=int)
    C[0, :40], C[1, 40:70], C[:, 70:250] = 1, 1, 1
    exact = split_half_two_models(40, 30, 400)
    sim = split_half_float(C, splits=20000, seed=3)
    assert abs(sim.agreement - float(exact.agreement)) < 0.015
    assert abs(sim.advantage_selected - float(exact.advantage_selected)) < 0.002
    assert abs(sim.advantage_held_out - float(exact.advantage_held_out)) < 0.002
    # selection on the same half inflates the lead; the held-out half shows less of it
    assert exact.advantage_selected > exact.advantage_held_out > 0


def test_monte_carlo_agrees_with_exact_two_model_case():
    rng = np.random.default_rng(3)
    q = 400
    x = (rng.random(q) < 0.6).astype(int)
    y = x.copy()
    flip = rng.choice(q, 60, replace=False)
    y[flip[:25]] = 1 - y[flip[:25]]
    b = int(((x == 1) & (y == 0)).sum())
    c = int(((x == 0) & (y == 1)).sum())
    C = np.array([x, y]) if b >= c else np.array([y, x])
    exact = float(redraw_win_probability(max(b, c), min(b, c), q, 100))
    draws = 20000
    est = top_stays_top_float(C, 100, draws=draws, seed=1)
    assert abs(est - exact) < 4 * (exact * (1 - exact) / draws) ** 0.5 + 1e-9


def test_matches_straightforward_loop_in_distribution():
    rng = np.random.default_rng(5)
    C = (rng.random((4, 300)) < np.array([[0.7], [0.65], [0.6], [0.5]])).astype(int)
    fast = top_stays_top_float(C, 100, draws=4000, seed=2)
    top = int(np.argmax(C.sum(axis=1)))
    hits = 0
    for _ in range(4000):
        idx = rng.integers(0, 300, 100)
        s = C[:, idx].sum(axis=1) + rng.random(4) * 0.5
        hits += int(np.argmax(s) == top)
    assert abs(fast - hits / 4000) < 0.04


def test_full_sample_limits():
    C = np.array([[1, 1, 1, 1, 0], [1, 1, 0, 0, 0], [1, 0, 0, 0, 0]])
    assert top_three_keep_order_float(C, 2000, draws=200) == 1.0


def test_split_half_on_panels_whose_answer_is_known():
    # one model right everywhere, the others wrong everywhere: it wins every half, by the whole scale
    dominant = np.array([[1] * 10, [0] * 10, [0] * 10])
    assert split_half_float(dominant, splits=200) == (1.0, 1.0, 1.0)
    # two identical models: every half is a tie, broken at random in each half, so they agree half the time
    same = np.array([[1, 0, 1, 1, 0, 0, 1, 0]] * 2)
    r = split_half_float(same, splits=4000, seed=3)
    assert abs(r.agreement - 0.5) < 0.04 and r.advantage_selected == r.advantage_held_out == 0.0


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: top_stays_top_float([[1, 0], [0, 2]], 5), "only 0 and 1"),
        (lambda: top_stays_top_float([[1, 0]], 0), "n must be >= 1"),
        (lambda: top_stays_top_float([1, 0], 3), "two-dimensional"),
        (lambda: top_three_keep_order_float([[1, 0], [0, 1]], 3), "at least 3 rows"),
        (lambda: redraw_win_probability(3, 3, 5, 10), "c must be <= 2"),
        (lambda: redraw_win_probability(1, 1, 5, 10, ties="coin"), "ties must be one of"),
        (lambda: split_half_float([[1], [0]]), "at least 2 models and 2 questions"),
        (lambda: split_half_two_models(1, 1, 5), "questions must be even"),
        (lambda: split_half_two_models(3, 0, 2), "b must be <= 2"),
        (lambda: split_half_two_models(1, 2, 2), "c must be <= 1"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ExactStatsError, match=match):
        call()


def test_hopeless_models_are_left_out_without_changing_the_draws():
    """Models provably behind the leader in every redraw are not simulated: the same seed gives the same share."""
    rng = np.random.default_rng(4)
    q = 3000
    close = (rng.random((3, q)) < np.array([[0.80], [0.79], [0.78]])).astype(int)
    hopeless = (rng.random((40, q)) < 0.2).astype(int)
    C = np.vstack([close, hopeless])
    from exactstats.resampling import _contenders

    keep = _contenders(C, 0, q, 1000)
    assert keep.tolist() == [0, 1, 2]
    assert top_stays_top_float(C, q, draws=1000, seed=5) == top_stays_top_float(close, q, draws=1000, seed=5)
    # a model level with the leader is always kept
    assert _contenders(np.vstack([close, close[:1]]), 0, q, 1000).tolist() == [0, 1, 2, 3]
