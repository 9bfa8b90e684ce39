"""Calibration of multiple-choice probabilities: Brier score and expected calibration error.

Inputs are a questions x options array of probabilities (each row summing to one) and the
index of the right option per question. Exact versions take rational probabilities and
return Fractions; the float twins take model outputs. Intervals treat questions as the
units: ``clusters`` (e.g. the question id when a question was asked in several option
orders) makes repeated rows of one question one cluster.

>>> brier_score([["1/2", "1/2"], ["1", "0"]], [0, 0])
Fraction(1, 4)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, NamedTuple

from ._lazy import np
from ._validate import ExactStatsError, as_fraction, as_int

__all__ = ["brier_score", "brier_score_float", "Calibration", "expected_calibration_error_float", "reliability_float"]


def _exact_probs(probs: Any, answers: Any) -> tuple[list[list[Fraction]], list[int]]:
    rows = [[as_fraction(p, f"probs[{i}][{j}]") for j, p in enumerate(row)] for i, row in enumerate(probs)]
    if not rows:
        raise ExactStatsError("probs must hold at least one question, got none")
    width = len(rows[0])
    keys = [as_int(a, f"answers[{i}]", minimum=0, maximum=width - 1) for i, a in enumerate(answers)]
    if len(keys) != len(rows) or any(len(r) != width for r in rows):
        raise ExactStatsError("probs must be questions x options and answers one index per question")
    for i, r in enumerate(rows):
        if any(p < 0 for p in r) or sum(r) != 1:
            raise ExactStatsError(f"probs[{i}] must be non-negative and sum to 1, got sum {sum(r)}")
    return rows, keys


def brier_score(probs: Any, answers: Any) -> Fraction:
    """Mean over questions of ``sum_j (p_j - [j is right])^2``, exactly (0 is perfect; 2 the worst).

    >>> brier_score([["0.7", "0.3"]], [1])
    Fraction(49, 50)
    """
    rows, keys = _exact_probs(probs, answers)
    total = Fraction(0)
    for r, key in zip(rows, keys):
        for j, p in enumerate(r):
            total += (p - (1 if j == key else 0)) ** 2
    return total / len(rows)


def _float_probs(probs: Any, answers: Any) -> tuple[np.ndarray, np.ndarray]:
    p = np.asarray(probs, dtype=float)
    a = np.asarray(answers)
    if p.ndim != 2 or a.shape != (p.shape[0],) or p.shape[0] == 0:
        raise ExactStatsError(
            f"probs must be questions x options and answers one index per question, got {p.shape}, {a.shape}"
        )
    if not np.all(np.isfinite(p)) or p.min() < 0 or not np.allclose(p.sum(axis=1), 1, atol=1e-6):
        raise ExactStatsError("probs must be finite, non-negative and sum to 1 per question")
    if a.dtype.kind not in "iu" or a.min() < 0 or a.max() >= p.shape[1]:
        raise ExactStatsError(f"answers must be option indices in [0, {p.shape[1] - 1}]")
    return p, a.astype(int)


class Calibration(NamedTuple):
    value: float
    lower: float
    upper: float  # normal interval over questions (or clusters)


def _interval(per_row: np.ndarray, clusters: Any, confidence: Any) -> tuple[float, float]:
    """Normal interval for the mean of per-question values: each question its own cluster unless given."""
    from .errorbars import clustered_interval_float

    units = np.arange(len(per_row)) if clusters is None else clusters
    if len(per_row) < 2:
        return float("nan"), float("nan")
    iv = clustered_interval_float(per_row, units, confidence, correction="G/(G-1)")
    return iv.lower, iv.upper


def brier_score_float(probs: Any, answers: Any, clusters: Any = None, confidence: Any = "0.95") -> Calibration:
    """Float twin of :func:`brier_score`, with a normal interval over questions (clustered if given).

    >>> round(brier_score_float([[0.7, 0.3], [0.2, 0.8]], [1, 1]).value, 4)
    0.53
    """
    p, a = _float_probs(probs, answers)
    onehot = np.zeros_like(p)
    onehot[np.arange(len(a)), a] = 1
    per_row = ((p - onehot) ** 2).sum(axis=1)
    lo, hi = _interval(per_row, clusters, confidence)
    return Calibration(float(per_row.mean()), lo, hi)


def _binned(p: np.ndarray, a: np.ndarray, bins: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Each question's confidence (the chosen option's probability), correctness and equal-width bin."""
    bins = as_int(bins, "bins", minimum=1, maximum=1000)
    confidence = p.max(axis=1)
    correct = (p.argmax(axis=1) == a).astype(float)
    return confidence, correct, np.minimum((confidence * bins).astype(int), bins - 1), bins


def _table(confidence: np.ndarray, correct: np.ndarray, index: np.ndarray, bins: int) -> list[dict[str, Any]]:
    out = []
    for b in range(bins):
        mask = index == b
        out.append(
            {
                "bin": [b / bins, (b + 1) / bins],
                "count": int(mask.sum()),
                "confidence": float(confidence[mask].mean()) if mask.any() else None,
                "accuracy": float(correct[mask].mean()) if mask.any() else None,
            }
        )
    return out


def reliability_float(probs: Any, answers: Any, bins: int = 10) -> list[dict[str, Any]]:
    """Per confidence bin (equal width on [0, 1], the chosen option's probability): count, mean
    confidence and accuracy: the points of a reliability diagram.

    >>> [b["count"] for b in reliability_float([[0.9, 0.1], [0.6, 0.4]], [0, 1], bins=2)]
    [0, 2]
    """
    return _table(*_binned(*_float_probs(probs, answers), bins))


def expected_calibration_error_float(
    probs: Any, answers: Any, bins: int = 10, clusters: Any = None, confidence: Any = "0.95"
) -> Calibration:
    """Expected calibration error: ``sum_b (n_b / n) |accuracy_b - confidence_b|`` over ``bins``
    equal-width bins of the chosen option's probability (the binning is part of the definition:
    other binnings give other numbers). The interval is over questions (clustered if given) for the
    per-question contributions with the bins held fixed; it ignores the bias of binned estimates.

    >>> round(expected_calibration_error_float([[0.9, 0.1], [0.6, 0.4]], [0, 1], bins=2).value, 4)
    0.25
    """
    conf, correct, index, bins = _binned(*_float_probs(probs, answers), bins)
    table = _table(conf, correct, index, bins)
    sign = np.array([np.sign((t["accuracy"] or 0) - (t["confidence"] or 0)) for t in table])
    per_row = sign[index] * (correct - conf)  # the rows of bin b add up to n_b |acc_b - conf_b|
    value = float(per_row.mean())
    lo, hi = _interval(per_row, clusters, confidence)
    return Calibration(value, lo, hi)
