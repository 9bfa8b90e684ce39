from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactstats import (
    ExactStatsError,
    redraw_counts,
    redraw_win_probability,
    split_half_float,
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
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ExactStatsError, match=match):
        call()
