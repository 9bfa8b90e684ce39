"""Panels: plurality vote over the models' chosen options, and probability averaging.

Ties are never resolved silently; the rules are exactstats' one tie vocabulary.
For accuracies, ``ties="fair"`` scores a tied question by the chance a uniformly
random tie-break picks the key (1/t for a t-way tie containing it), which keeps the
accuracy exact; ``"lose"`` counts every tie as wrong, ``"win"`` every tie holding
the key as right, ``"lowest"`` gives the tie to the lowest option index.

>>> choices = [[0, 1, 2], [1, 1, 3]]      # two models, three questions
>>> majority_vote_accuracy(choices, [0, 1, 3])  # two 2-way ties holding the key: 1/2 each
Fraction(2, 3)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ._lazy import np
from ._validate import ExactStatsError, as_binary_matrix, as_int, as_tie_rule

__all__ = [
    "majority_vote",
    "majority_vote_accuracy",
    "probability_average",
    "probability_average_accuracy",
    "binary_majority_accuracy",
    "VOTE_TIE_RULES",
    "ACCURACY_TIE_RULES",
]

VOTE_TIE_RULES = ("fair", "lowest")  # a vote must name one option
ACCURACY_TIE_RULES = ("fair", "lose", "win", "lowest")


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
    ties = as_tie_rule(ties, ACCURACY_TIE_RULES)
    best = scores.max(axis=1, keepdims=True)
    tied = scores == best
    width = tied.sum(axis=1)
    hit = tied[np.arange(len(answers)), answers]
    if ties == "lose":
        return Fraction(int(np.sum(hit & (width == 1))), len(answers))
    if ties == "win":
        return Fraction(int(np.sum(hit)), len(answers))
    if ties == "lowest":
        return Fraction(int(np.sum(tied.argmax(axis=1) == answers)), len(answers))
    total = Fraction(0)
    for w in np.unique(width[hit]):
        total += Fraction(int(np.sum(hit & (width == w))), int(w))
    return total / len(answers)


def majority_vote(choices: Any, options: int | None = None, ties: str = "fair", seed: Any = 0) -> np.ndarray:
    """Plurality winner per question from a models x questions matrix of chosen option indices.

    ``ties="fair"`` breaks a tie uniformly at random (seeded); ``"lowest"`` takes
    the lowest option index.

    >>> majority_vote([[0, 1, 2], [0, 2, 2], [1, 2, 0]]).tolist()
    [0, 2, 2]
    """
    arr, options = _choices(choices, options)
    ties = as_tie_rule(ties, VOTE_TIE_RULES)
    counts = _vote_counts(arr, options).astype(np.float64)
    if ties == "fair":
        counts += np.random.default_rng(seed).random(counts.shape) * 0.5
    return np.asarray(counts.argmax(axis=1))


def majority_vote_accuracy(choices: Any, answers: Any, options: int | None = None, ties: str = "fair") -> Fraction:
    """Exact accuracy of the panel's plurality vote.

    >>> majority_vote_accuracy([[0, 1, 2], [0, 2, 2], [1, 2, 0]], [0, 1, 2])
    Fraction(2, 3)
    """
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
    """Per question, the option with the highest mean probability across models (lowest index on ties).

    >>> probability_average([[[0.6, 0.4], [0.2, 0.8]], [[0.3, 0.7], [0.4, 0.6]]]).tolist()
    [1, 1]
    """
    return np.asarray(_probs(probs).mean(axis=0).argmax(axis=1))


def probability_average_accuracy(probs: Any, answers: Any, ties: str = "fair") -> Fraction:
    """Accuracy of averaging the models' option probabilities and taking the argmax.

    >>> probability_average_accuracy([[[0.6, 0.4], [0.2, 0.8]], [[0.4, 0.6], [0.4, 0.6]]], [0, 1])
    Fraction(3, 4)
    """
    p = _probs(probs)
    ans = _answers(answers, p.shape[1], p.shape[2])
    return _credit(p.mean(axis=0), ans, ties)


def binary_majority_accuracy(correct: Any, ties: str = "fair") -> Fraction:
    """Accuracy of a majority vote over right/wrong indicators (models x questions 0/1).

    For inputs without the chosen options (binary tasks, or only correctness known):
    a question counts as right when more than half of the models got it right; an
    exact half is a tie (``"fair"``: credit 1/2; ``"lose"``; ``"win"``).

    >>> binary_majority_accuracy([[1, 1, 0], [1, 0, 0]])  # right, a tie (credit 1/2), wrong
    Fraction(1, 2)
    """
    C = as_binary_matrix(correct, "correct")
    ties = as_tie_rule(ties, ("fair", "lose", "win"))
    k, q = C.shape
    right = C.sum(axis=0)
    credit = {"fair": Fraction(1, 2), "lose": Fraction(0), "win": Fraction(1)}[ties]
    return Fraction((Fraction(int(np.sum(2 * right > k))) + credit * int(np.sum(2 * right == k))) / q)
