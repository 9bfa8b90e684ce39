"""Book helpers for the panels chapter: correlated errors, votes and their baselines on a panel.

Used by ``book/panels.md`` only (imported there as ``_code.panel``), tested in ``tests/test_panel.py``.

Works on a models x questions 0/1 correctness matrix ``C`` and, where votes are
counted, the models' chosen options and option probabilities. Exact where the
quantity is a count (vote accuracy, independent-voter baselines); Monte Carlo
where it is a resampling (bootstrap intervals, shuffles), with the seed explicit.

>>> C = [[1, 1, 0, 0, 1, 0], [1, 0, 1, 0, 1, 0], [1, 1, 1, 0, 0, 0]]
>>> bootstrap_effective_votes(C, draws=3, seed=0).shape
(3,)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations
from typing import Any, NamedTuple

import numpy as np

from exactstats import ExactStatsError, majority_vote_accuracy, plurality_probability
from exactstats._validate import as_binary_matrix, as_int

__all__ = [
    "bootstrap_effective_votes",
    "subject_shuffle",
    "sample_choices",
    "PanelVote",
    "panel_vote_curve",
    "all_wrong_together",
]


def bootstrap_effective_votes(C: Any, draws: int = 2000, seed: Any = 0) -> np.ndarray:
    """Effective votes recomputed on ``draws`` resamples of the questions (with replacement).

    Vectorised: each resample's phi matrix comes from weighted first and second
    moments ``W @ E.T`` and ``W @ (E_i * E_j)`` rather than a loop over draws.
    """
    E = (1 - as_binary_matrix(C, "C")).astype(np.float64)
    draws = as_int(draws, "draws", minimum=1)
    k, q = E.shape
    rng = np.random.default_rng(seed)
    W = rng.multinomial(q, np.full(q, 1.0 / q), size=draws).astype(np.float64) / q  # draws x q weights
    mean = W @ E.T  # draws x k
    iu = np.triu_indices(k, 1)
    cross = W @ (E[iu[0]] * E[iu[1]]).T  # draws x pairs
    cov = cross - mean[:, iu[0]] * mean[:, iu[1]]
    var = mean * (1 - mean)
    with np.errstate(invalid="ignore", divide="ignore"):
        phi = cov / np.sqrt(var[:, iu[0]] * var[:, iu[1]])
    phi_bar = np.nanmean(phi, axis=1)
    return k / (1 + (k - 1) * phi_bar)


def subject_shuffle(C: Any, subjects: Sequence[Any], seed: Any = 0) -> np.ndarray:
    """Permute each model's results within each subject, independently per model.

    Keeps every model's per-subject accuracy exactly and destroys agreement on
    individual questions: the correlation left is what subject difficulty alone explains.
    """
    C = as_binary_matrix(C, "C")
    subjects = np.asarray(subjects)
    if subjects.shape != (C.shape[1],):
        raise ExactStatsError(f"subjects must hold one label per question ({C.shape[1]}), got shape {subjects.shape}")
    rng = np.random.default_rng(seed)
    out = C.copy()
    for s in np.unique(subjects):
        cols = np.flatnonzero(subjects == s)
        for i in range(C.shape[0]):
            out[i, cols] = C[i, rng.permutation(cols)]
    return out


def sample_choices(probs: Any, times: int, seed: Any = 0) -> np.ndarray:
    """Draw an option ``times`` times per question from one model's probabilities (questions x options)."""
    p = np.asarray(probs, dtype=float)
    if p.ndim != 2 or p.shape[1] < 2:
        raise ExactStatsError(f"probs must be questions x options, got shape {p.shape}")
    times = as_int(times, "times", minimum=1)
    rng = np.random.default_rng(seed)
    cdf = np.cumsum(p / p.sum(axis=1, keepdims=True), axis=1)
    u = rng.random((times, p.shape[0], 1))
    return (u > cdf[None, :, :]).sum(axis=2).clip(max=p.shape[1] - 1)


class PanelVote(NamedTuple):
    size: int
    panels: int
    vote_accuracy: Fraction  # mean over panels of the exact plurality-vote accuracy (ties credited 1/t)
    independent_baseline: Fraction  # mean over panels of the exact independent-voter plurality probability
    best_single: Fraction  # mean over panels of the best member's accuracy


def panel_vote_curve(choices: Any, answers: Any, sizes: Sequence[int], options: int = 4) -> list[PanelVote]:
    """For each panel size, every panel of that size: vote accuracy vs the independent-voter baseline."""
    ch = np.asarray(choices)
    ans = np.asarray(answers)
    k, q = ch.shape
    acc = [Fraction(int(np.sum(ch[i] == ans)), q) for i in range(k)]
    out = []
    for size in sizes:
        size = as_int(size, "size", minimum=1, maximum=k)
        panels = list(combinations(range(k), size))
        vote = sum((majority_vote_accuracy(ch[list(pn)], ans, options=options) for pn in panels), Fraction(0)) / len(
            panels
        )
        base = sum((plurality_probability([acc[i] for i in pn], options=options) for pn in panels), Fraction(0)) / len(
            panels
        )
        best = sum((max(acc[i] for i in pn) for pn in panels), Fraction(0)) / len(panels)
        out.append(PanelVote(size, len(panels), vote, base, best))
    return out


def all_wrong_together(C: Any) -> tuple[int, Fraction]:
    """Questions every model got wrong, and the exact count expected if errors were independent."""
    C = as_binary_matrix(C, "C")
    acc = [Fraction(int(r.sum()), C.shape[1]) for r in C]
    expected = Fraction(C.shape[1])
    for a in acc:
        expected *= 1 - a
    return int(np.sum(C.sum(axis=0) == 0)), expected
