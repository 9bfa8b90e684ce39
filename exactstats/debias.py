"""Letter bias in multiple-choice scores, removed after the fact from stored probabilities.

A model that prefers a displayed letter puts probability on it whatever the
question. With options shown in random orders the right answer is equally likely
at every position, so the mean probability per *displayed* position estimates the
model's letter prior. Dividing it out and renormalising (the prior-removal idea of
Zheng et al., 2024, "Large Language Models Are Not Robust Multiple Choice
Selectors", here with the prior estimated on held-out questions rather than by
re-scoring) leaves what the model says about the options themselves. Where a
question was scored in several option orders, averaging its probabilities over the
orders cancels the prior in a different way. Nothing here re-runs a model: the
inputs are the probabilities a scoring run stored.

Probabilities come in the original option order, one row per scored question, with
the permutation the model saw: displayed position ``j`` showed original option
``permutation[j]`` (the dataset's ``permutation`` column, e.g. ``"0321"``).
Everything here is float arithmetic on float inputs (the stored probabilities are
floats), so every function is a ``_float`` function.

>>> probs = [[0.7, 0.1, 0.1, 0.1], [0.1, 0.7, 0.1, 0.1]]
>>> letter_prior_float(probs, ["0123", "1023"]).round(2).tolist()
[0.7, 0.1, 0.1, 0.1]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ._lazy import np
from ._validate import ExactStatsError, as_int

__all__ = [
    "displayed_probabilities_float",
    "letter_prior_float",
    "remove_letter_prior_float",
    "average_over_orders_float",
]


def _probs(probs: Any) -> np.ndarray:
    try:
        arr = np.asarray(probs, dtype=np.float64)
    except (TypeError, ValueError) as e:
        raise ExactStatsError(f"probs must be a questions x options array of numbers: {e}") from None
    if arr.ndim != 2 or arr.shape[0] < 1 or arr.shape[1] < 2:
        raise ExactStatsError(f"probs must be a questions x options array with >= 2 options, got shape {arr.shape}")
    if not np.isfinite(arr).all() or (arr < 0).any():
        raise ExactStatsError("probs must be finite and >= 0")
    if (arr.sum(axis=1) <= 0).any():
        raise ExactStatsError("probs must have a positive sum in every row")
    return np.asarray(arr / arr.sum(axis=1, keepdims=True))


def _permutations(permutations: Any, questions: int, options: int) -> np.ndarray:
    if isinstance(permutations, np.ndarray) and permutations.dtype.kind in "iu":
        perm = permutations
    else:
        rows = list(permutations)
        try:
            perm = np.array([[int(ch) for ch in p] if isinstance(p, str) else list(p) for p in rows], dtype=np.int64)
        except (TypeError, ValueError):
            raise ExactStatsError("permutations must be strings of digits such as '0321' or integer rows") from None
    if perm.shape != (questions, options):
        raise ExactStatsError(f"permutations must have shape ({questions}, {options}), got {perm.shape}")
    if not (np.sort(perm, axis=1) == np.arange(options)).all():
        raise ExactStatsError(f"permutations must each be a permutation of 0..{options - 1}")
    return perm


def displayed_probabilities_float(probs: Any, permutations: Any) -> np.ndarray:
    """Reorder each row from the original option order to the order the model saw.

    >>> displayed_probabilities_float([[0.1, 0.2, 0.3, 0.4]], ["3120"]).tolist()
    [[0.4, 0.2, 0.3, 0.1]]
    """
    p = _probs(probs)
    perm = _permutations(permutations, *p.shape)
    return np.take_along_axis(p, perm, axis=1)


def letter_prior_float(probs: Any, permutations: Any) -> np.ndarray:
    """Mean probability per displayed position: the model's letter prior when orders were random.

    >>> letter_prior_float([[0.4, 0.6], [0.4, 0.6]], ["01", "10"]).tolist()
    [0.5, 0.5]
    """
    return np.asarray(displayed_probabilities_float(probs, permutations).mean(axis=0))


def remove_letter_prior_float(probs: Any, permutations: Any, folds: int = 2, seed: int = 0) -> np.ndarray:
    """Probabilities with the letter prior divided out, back in the original option order.

    The prior applied to a question is estimated on the *other* folds (questions are
    split at random into ``folds`` parts), so no question's own answer shapes the
    prior that corrects it. Rows are renormalised after the division.

    >>> p = [[0.4, 0.3, 0.2, 0.1], [0.1, 0.4, 0.3, 0.2], [0.2, 0.1, 0.4, 0.3], [0.3, 0.2, 0.1, 0.4]]
    >>> out = remove_letter_prior_float(p, ["0123"] * 4)
    >>> out.shape, bool(abs(out.sum(axis=1) - 1).max() < 1e-12)
    ((4, 4), True)
    """
    p = _probs(probs)
    n, k = p.shape
    folds = as_int(folds, "folds", minimum=2, maximum=n)
    perm = _permutations(permutations, n, k)
    shown = np.take_along_axis(p, perm, axis=1)
    fold = np.random.default_rng(seed).permutation(n) % folds
    out = np.empty_like(shown)
    for f in range(folds):
        rest = fold != f
        prior = shown[rest].mean(axis=0)
        if (prior <= 0).any():
            raise ExactStatsError("a displayed position has zero mean probability on the held-out questions")
        part = shown[~rest] / prior
        out[~rest] = part / part.sum(axis=1, keepdims=True)
    original = np.empty_like(out)
    np.put_along_axis(original, perm, out, axis=1)
    return original


def average_over_orders_float(probs: Any, question_ids: Sequence[Any]) -> tuple[list[Any], np.ndarray]:
    """Average each question's probabilities (original order) over the rows that scored it.

    Returns the question ids in order of first appearance and one averaged row each.

    >>> ids, avg = average_over_orders_float([[0.8, 0.2], [0.4, 0.6], [1.0, 0.0]], ["q1", "q1", "q2"])
    >>> ids, avg.round(2).tolist()
    (['q1', 'q2'], [[0.6, 0.4], [1.0, 0.0]])
    """
    p = _probs(probs)
    ids = list(question_ids)
    if len(ids) != len(p):
        raise ExactStatsError(f"question_ids must have one id per row ({len(p)}), got {len(ids)}")
    order: dict[Any, int] = {}
    index = np.array([order.setdefault(q, len(order)) for q in ids])
    sums = np.zeros((len(order), p.shape[1]))
    np.add.at(sums, index, p)
    counts = np.bincount(index, minlength=len(order))
    return list(order), sums / counts[:, None]
