"""Panels: plurality vote over the models' chosen options, and probability averaging.

Ties are never resolved silently. ``ties="expected"`` scores a tied question by the
chance a uniformly random tie-break picks the key (1/t for a t-way tie containing
it), which keeps the accuracy exact; ``ties="lose"`` counts every tie as wrong.

>>> choices = [[0, 1, 2], [1, 1, 3]]      # two models, three questions
>>> majority_vote_accuracy(choices, [0, 1, 3])  # two 2-way ties holding the key: 1/2 each
Fraction(2, 3)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from ._validate import ExactStatsError, as_choice, as_int

__all__ = [
    "majority_vote",
    "majority_vote_accuracy",
    "probability_average",
    "probability_average_accuracy",
]

TIE_CREDIT_RULES = ("expected", "lose")


def _choices(choices: Any, options: Any) -> tuple[np.ndarray, int]:
    arr = np.asarray(choices)
    if arr.ndim != 2 or 0 in arr.shape:
        raise ExactStatsError(f"choices must be a non-empty models x questions matrix, got shape {arr.shape}")
    if arr.dtype == bool or arr.dtype.kind not in "iu":
        raise ExactStatsError(f"choices must hold option indices (whole numbers), got dtype {arr.dtype}")
    options = as_int(options if options is not None else int(arr.max()) + 1, "options", minimum=1)
    if arr.min() < 0 or arr.max() >= options:
        raise ExactStatsError(f"choices must lie in [0, {options - 1}], got values from {arr.min()} to {arr.max()}")
    return arr.astype(np.int64), options


def _vote_counts(arr: np.ndarray, options: int) -> np.ndarray:
    """questions x options vote counts."""
    models, questions = arr.shape
    flat = (np.arange(questions)[None, :] * options + arr).ravel()
    return np.bincount(flat, minlength=questions * options).reshape(questions, options)


def _answers(answers: Any, questions: int, options: int) -> np.ndarray:
    ans = np.asarray(answers)
    if ans.shape != (questions,):
        raise ExactStatsError(f"answers must hold one option index per question ({questions}), got shape {ans.shape}")
    if ans.dtype == bool or ans.dtype.kind not in "iu" or ans.min() < 0 or ans.max() >= options:
        raise ExactStatsError(f"answers must be option indices in [0, {options - 1}]")
    return ans.astype(np.int64)


def _credit(scores: np.ndarray, answers: np.ndarray, ties: str) -> Fraction:
    """Exact accuracy of picking the top-scoring option per question, ties credited by rule."""
    ties = as_choice(ties, "ties", TIE_CREDIT_RULES)
    best = scores.max(axis=1, keepdims=True)
    tied = scores == best
    width = tied.sum(axis=1)
    hit = tied[np.arange(len(answers)), answers]
    if ties == "lose":
        return Fraction(int(np.sum(hit & (width == 1))), len(answers))
    total = Fraction(0)
    for w in np.unique(width[hit]):
        total += Fraction(int(np.sum(hit & (width == w))), int(w))
    return total / len(answers)


def majority_vote(choices: Any, options: int | None = None, ties: str = "random", seed: Any = 0) -> np.ndarray:
    """Plurality winner per question from a models x questions matrix of chosen option indices.

    ``ties="random"`` breaks a tie uniformly at random (seeded); ``"lowest"`` takes
    the lowest option index.
    """
    arr, options = _choices(choices, options)
    ties = as_choice(ties, "ties", ("random", "lowest"))
    counts = _vote_counts(arr, options).astype(np.float64)
    if ties == "random":
        counts += np.random.default_rng(seed).random(counts.shape) * 0.5
    return counts.argmax(axis=1)


def majority_vote_accuracy(choices: Any, answers: Any, options: int | None = None, ties: str = "expected") -> Fraction:
    """Exact accuracy of the panel's plurality vote."""
    arr, options = _choices(choices, options)
    ans = _answers(answers, arr.shape[1], options)
    return _credit(_vote_counts(arr, options), ans, ties)


def _probs(probs: Any) -> np.ndarray:
    p = np.asarray(probs, dtype=float)
    if p.ndim != 3 or 0 in p.shape:
        raise ExactStatsError(f"probs must be a models x questions x options array, got shape {p.shape}")
    if not np.all(np.isfinite(p)) or p.min() < 0:
        raise ExactStatsError("probs must hold finite, non-negative probabilities")
    return p


def probability_average(probs: Any) -> np.ndarray:
    """Per question, the option with the highest mean probability across models (lowest index on ties)."""
    return _probs(probs).mean(axis=0).argmax(axis=1)


def probability_average_accuracy(probs: Any, answers: Any, ties: str = "expected") -> Fraction:
    """Accuracy of averaging the models' option probabilities and taking the argmax."""
    p = _probs(probs)
    ans = _answers(answers, p.shape[1], p.shape[2])
    return _credit(p.mean(axis=0), ans, ties)
