"""Soft accuracy: the mean probability a model puts on the right option, with its error bars.

A 0/1 score throws away how sure the model was. The probability of the right option keeps it,
and its mean over questions has a smaller standard error than accuracy whenever the model's
probabilities are spread less than 0/1 outcomes are (Miller 2024, "Adding error bars to evals").
It estimates a different quantity: how much probability the model gives the right answer, not
how often it chooses it. A model can gain soft accuracy without answering one more question
right, so read it beside accuracy, labelled, never in its place.

The exact functions take rational probabilities (a float stands for its shortest decimal); a
model's stored probabilities are floats from a softmax, and the ``_float`` functions take them.

>>> soft_accuracy(["0.9", "0.6", "0.2", "0.7"])
Fraction(3, 5)
>>> soft_accuracy_variance(["0.9", "0.6", "0.2", "0.7"])
Fraction(13, 600)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, NamedTuple

from ._intervals import normal_bounds, z_from
from ._lazy import np
from ._validate import ExactStatsError, as_fraction
from .errorbars import Interval
from .paired import DifferenceInterval

__all__ = [
    "soft_accuracy",
    "soft_accuracy_variance",
    "paired_soft_difference",
    "right_option_probability_float",
    "SoftSummary",
    "soft_summary_float",
    "paired_soft_difference_float",
]


def _probabilities(values: Any, name: str) -> list[Fraction]:
    try:
        items = list(values)
    except TypeError:
        raise ExactStatsError(f"{name} must be a sequence of probabilities") from None
    if len(items) < 2:
        raise ExactStatsError(f"{name} must hold at least 2 questions (a variance needs 2), got {len(items)}")
    out = [as_fraction(v, f"{name}[{i}]") for i, v in enumerate(items)]
    bad = next((i for i, v in enumerate(out) if not 0 <= v <= 1), None)
    if bad is not None:
        raise ExactStatsError(f"{name}[{bad}] must be a probability in [0, 1], got {out[bad]}")
    return out


def _mean_and_variance(xs: list[Fraction]) -> tuple[Fraction, Fraction]:
    n = len(xs)
    mean = sum(xs, Fraction(0)) / n
    return mean, sum(((x - mean) ** 2 for x in xs), Fraction(0)) / (n - 1) / n


def soft_accuracy(probabilities: Any) -> Fraction:
    """Mean probability of the right option over questions, exactly.

    >>> soft_accuracy([1, 0, "1/2"])
    Fraction(1, 2)
    """
    return _mean_and_variance(_probabilities(probabilities, "probabilities"))[0]


def soft_accuracy_variance(probabilities: Any) -> Fraction:
    """Variance of the soft accuracy over questions, estimated exactly: ``s^2 / n`` with the ``n - 1`` sample
    variance (for 0/1 probabilities this is the accuracy's own ``p(1-p)/(n-1)``).

    >>> soft_accuracy_variance([1, 0, 1, 1]) == Fraction(3, 4) * Fraction(1, 4) / 3
    True
    """
    return _mean_and_variance(_probabilities(probabilities, "probabilities"))[1]


def paired_soft_difference(first: Any, second: Any, z: Any = None, confidence: Any = None) -> DifferenceInterval:
    """Difference of two models' soft accuracies on the same questions, paired: the exact mean and the
    exact variance of the per-question differences, with a normal interval (floats at the ends).

    >>> d = paired_soft_difference(["0.9", "0.8", "0.4"], ["0.7", "0.7", "0.1"])
    >>> d.difference, d.variance
    (Fraction(1, 5), Fraction(1, 300))
    """
    a = _probabilities(first, "first")
    b = _probabilities(second, "second")
    if len(a) != len(b):
        raise ExactStatsError(f"first and second must cover the same questions, got {len(a)} and {len(b)}")
    mean, variance = _mean_and_variance([x - y for x, y in zip(a, b)])
    return DifferenceInterval(*normal_bounds(mean, variance, z_from(z, confidence)))


# --- floats: stored model probabilities ------------------------------------------------------------


def right_option_probability_float(probabilities: Any, answers: Any) -> np.ndarray:
    """Per question, the right option's share of the options' probabilities (questions x options in;
    a row is divided by its sum, so letter probabilities that leave mass elsewhere are renormalised).

    >>> right_option_probability_float([[0.6, 0.2, 0.1, 0.1], [0.2, 0.2, 0.1, 0.0]], [0, 1]).round(3).tolist()
    [0.6, 0.4]
    """
    P = np.asarray(probabilities, dtype=np.float64)
    a = np.asarray(answers)
    if P.ndim != 2 or a.ndim != 1 or len(a) != len(P) or P.shape[1] < 2:
        raise ExactStatsError("probabilities must be questions x options (at least 2) and answers one per question")
    if not np.isfinite(P).all() or (P < 0).any():
        raise ExactStatsError("probabilities must be finite numbers >= 0")
    if a.dtype.kind not in "iu" or (a < 0).any() or (a >= P.shape[1]).any():
        raise ExactStatsError(f"answers must be option indices 0..{P.shape[1] - 1}")
    total = P.sum(axis=1)
    if (total <= 0).any():
        raise ExactStatsError(f"probabilities of question {int(np.flatnonzero(total <= 0)[0])} sum to 0")
    return np.asarray(P[np.arange(len(P)), a] / total)


class SoftSummary(NamedTuple):
    """Soft accuracy and accuracy of one model, each with its standard error over questions."""

    soft: float
    soft_se: float
    accuracy: float
    accuracy_se: float
    interval: Interval  # soft accuracy, normal 95% (or the level asked)

    @property
    def se_ratio(self) -> float:
        """How many times smaller the soft accuracy's standard error is."""
        return self.accuracy_se / self.soft_se if self.soft_se > 0 else float("inf")


def _float_rows(p: Any, name: str) -> np.ndarray:
    x = np.asarray(p, dtype=np.float64)
    if x.ndim != 1 or x.size < 2 or not np.isfinite(x).all() or (x < 0).any() or (x > 1).any():
        raise ExactStatsError(f"{name} must be at least 2 probabilities in [0, 1]")
    return x


def soft_summary_float(right_probability: Any, correct: Any, confidence: Any = "0.95") -> SoftSummary:
    """Float twin of :func:`soft_accuracy` and :func:`soft_accuracy_variance`, beside the accuracy of the
    0/1 ``correct`` on the same questions (``n - 1`` standard deviations over ``n`` questions).

    >>> s = soft_summary_float([0.9, 0.6, 0.2, 0.7], [1, 1, 0, 1])
    >>> round(s.soft, 3), round(s.soft_se, 4), round(s.accuracy_se, 4), round(s.se_ratio, 2)
    (0.6, 0.1472, 0.25, 1.7)
    """
    p = _float_rows(right_probability, "right_probability")
    c = _float_rows(correct, "correct")
    if p.size != c.size:
        raise ExactStatsError(f"right_probability and correct must have one length, got {p.size} and {c.size}")
    z = z_from(None, confidence)
    se, acc_se = float(p.std(ddof=1)) / p.size**0.5, float(c.std(ddof=1)) / c.size**0.5
    mean = float(p.mean())
    return SoftSummary(mean, se, float(c.mean()), acc_se, Interval(mean - z * se, mean + z * se))


def paired_soft_difference_float(first: Any, second: Any) -> tuple[float, float]:
    """Float twin of :func:`paired_soft_difference`: the mean difference and its standard error.

    >>> [round(v, 4) for v in paired_soft_difference_float([0.9, 0.8, 0.4], [0.7, 0.7, 0.1])]
    [0.2, 0.0577]
    """
    a, b = _float_rows(first, "first"), _float_rows(second, "second")
    if a.size != b.size:
        raise ExactStatsError(f"first and second must cover the same questions, got {a.size} and {b.size}")
    d = a - b
    return float(d.mean()), float(d.std(ddof=1)) / d.size**0.5
