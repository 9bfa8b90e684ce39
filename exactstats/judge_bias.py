"""A judge's bias, corrected: the rate people would have given, from many judge labels and a few human ones.

An LLM judge labels every item (pass / fail, correct / wrong); people label a small random subset
too. Two corrections of the judge's rate are here, both exact as estimates:

* **Rogan-Gladen** (1978): from the judge's sensitivity and specificity on the people-labelled
  items, ``(q + sp - 1) / (se + sp - 1)``, where ``q`` is the judge's positive rate.
* **Prediction-powered inference** (Angelopoulos et al., 2023), for a mean of binary outcomes: the
  judge's rate on the unlabelled items plus the mean of ``human - judge`` on the labelled ones,
  ``q_U + (n10 - n01) / n``. Unbiased whenever the labelled items are a random sample of the same items,
  however bad the judge; a good judge only makes it more precise.

Intervals come in two kinds, and the names say which: ``*_interval_float`` functions hold their
level for every true value (Clopper-Pearson boxes joined by the union bound: conservative, never
short), while ``ppi_mean_interval_normal_float`` is the usual normal interval of the PPI papers and of
``ppi_py`` (``lam=1``), which holds only approximately and can fall short with few labels or rare
disagreements. :func:`ppi_labels_needed_float` plans how many human labels a target width needs.

>>> human = [1, 1, 0, 1, 0, 1, 1, 0]
>>> judge = [1, 1, 0, 1, 1, 1, 1, 0]          # the judge on the same eight items: one false positive
>>> ppi_mean(human, judge, [1] * 60 + [0] * 40)  # 100 items only the judge labelled
Fraction(19, 40)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from ._normal import z_value_float
from ._validate import ExactStatsError, as_binary_vector, as_int, as_probability
from .errorbars import Interval, clopper_pearson_interval_float

__all__ = [
    "rogan_gladen",
    "rogan_gladen_interval_float",
    "ppi_mean",
    "ppi_mean_interval_float",
    "ppi_mean_interval_normal_float",
    "ppi_labels_needed_float",
]


def _calibration(true_positive: Any, false_negative: Any, true_negative: Any, false_positive: Any) -> tuple[int, ...]:
    counts = tuple(
        as_int(v, name, minimum=0)
        for v, name in (
            (true_positive, "true_positive"),
            (false_negative, "false_negative"),
            (true_negative, "true_negative"),
            (false_positive, "false_positive"),
        )
    )
    tp, fn, tn, fp = counts
    if tp + fn == 0 or tn + fp == 0:
        raise ExactStatsError("the calibration items must include both people-positive and people-negative items")
    return counts


def rogan_gladen(
    judged_positive: int, judged: int, true_positive: int, false_negative: int, true_negative: int, false_positive: int
) -> Fraction:
    """The true positive rate behind a judge's positive rate, corrected for its errors (Rogan and Gladen, 1978).

    ``judged_positive`` of ``judged`` items were labelled positive (pass, correct, harmful...) by the judge;
    on a calibration set that people also labelled, the judge's sensitivity is
    ``true_positive / (true_positive + false_negative)`` and its specificity
    ``true_negative / (true_negative + false_positive)``. The estimate
    ``(q + sp - 1) / (se + sp - 1)`` is exact and may fall outside [0, 1] by chance; a judge no better than
    a coin (``se + sp <= 1``) cannot be corrected and is refused.

    >>> rogan_gladen(600, 1000, 85, 15, 90, 10)
    Fraction(2, 3)
    """
    k = as_int(judged_positive, "judged_positive", minimum=0)
    n = as_int(judged, "judged", minimum=1)
    if k > n:
        raise ExactStatsError(f"judged_positive must be <= judged = {n}, got {k}")
    tp, fn, tn, fp = _calibration(true_positive, false_negative, true_negative, false_positive)
    se, sp = Fraction(tp, tp + fn), Fraction(tn, tn + fp)
    if se + sp <= 1:
        raise ExactStatsError(
            f"the judge is no better than chance on the calibration items (sensitivity {se} + specificity {sp} <= 1)"
        )
    return (Fraction(k, n) + sp - 1) / (se + sp - 1)


def rogan_gladen_interval_float(
    judged_positive: int,
    judged: int,
    true_positive: int,
    false_negative: int,
    true_negative: int,
    false_positive: int,
    confidence: Any = "0.95",
) -> Interval:
    """Interval for the corrected rate that carries the calibration set's uncertainty, with coverage at least
    ``confidence`` for every true rate, sensitivity and specificity.

    Clopper-Pearson intervals at level ``1 - alpha/3`` for the judge's positive rate, its sensitivity
    and its specificity hold together with chance at least ``1 - alpha`` (Bonferroni). The corrected
    rate is monotone in each of the three when the other two are fixed, so its range over that box is
    found at the box's eight corners. The ends are cut to [0, 1], where the true rate lies (this keeps
    the coverage); if the box admits a judge no better than chance the interval is all of [0, 1].
    Floats (SciPy's beta quantiles); the guarantee is the union bound, so the level is conservative.

    >>> lo, hi = rogan_gladen_interval_float(600, 1000, 85, 15, 90, 10)
    >>> round(lo, 3), round(hi, 3)
    (0.504, 0.847)
    """
    rogan_gladen(judged_positive, judged, true_positive, false_negative, true_negative, false_positive)  # checks
    tp, fn, tn, fp = _calibration(true_positive, false_negative, true_negative, false_positive)
    level = as_probability(confidence, "confidence", open_low=True, open_high=True)
    each = 1 - (1 - level) / 3
    q = clopper_pearson_interval_float(judged_positive, judged, each)
    se = clopper_pearson_interval_float(tp, tp + fn, each)
    sp = clopper_pearson_interval_float(tn, tn + fp, each)
    corners = [(a, b, c) for a in q for b in se for c in sp]
    if any(b + c <= 1 for _, b, c in corners):
        return Interval(0.0, 1.0)
    values = [(a + c - 1) / (b + c - 1) for a, b, c in corners]
    return Interval(min(1.0, max(0.0, min(values))), min(1.0, max(0.0, max(values))))


# --- prediction-powered inference for a rate ------------------------------------------------------------


def _ppi_counts(human: Any, judge_labelled: Any, judge_unlabelled: Any) -> tuple[int, int, int, int, int]:
    """(n, human-only positives n10, judge-only positives n01, N, judge positives among the unlabelled)."""
    y = as_binary_vector(human, "human")
    f = as_binary_vector(judge_labelled, "judge_labelled")
    u = as_binary_vector(judge_unlabelled, "judge_unlabelled")
    if len(y) != len(f):
        raise ExactStatsError(f"human and judge_labelled must label the same items, got {len(y)} and {len(f)} labels")
    if len(y) < 1 or len(u) < 1:
        raise ExactStatsError(f"ppi needs labelled and unlabelled items, got {len(y)} and {len(u)}")
    return len(y), int(((y == 1) & (f == 0)).sum()), int(((y == 0) & (f == 1)).sum()), len(u), int(u.sum())


def ppi_mean(human: Sequence[int], judge_labelled: Sequence[int], judge_unlabelled: Sequence[int]) -> Fraction:
    """The prediction-powered estimate of the rate people would give, exactly (argument order as ``ppi_py``).

    ``human`` and ``judge_labelled``: 0/1 labels of the same items by people and by the judge;
    ``judge_unlabelled``: the judge's 0/1 labels of the items people did not label.

    >>> ppi_mean([1, 0, 1, 1], [1, 1, 1, 1], [1, 1, 0, 1])   # 3/4 + (0 - 1)/4
    Fraction(1, 2)
    """
    n, n10, n01, big_n, positives = _ppi_counts(human, judge_labelled, judge_unlabelled)
    return Fraction(positives, big_n) + Fraction(n10 - n01, n)


def ppi_mean_interval_float(
    human: Sequence[int], judge_labelled: Sequence[int], judge_unlabelled: Sequence[int], confidence: Any = "0.95"
) -> Interval:
    """Interval for the rate people would give, with coverage at least ``confidence`` for every true rate.

    The rate is ``q + p10 - p01``: the judge's positive rate plus the chance that people say yes where
    the judge says no, minus the reverse. Clopper-Pearson intervals at level ``1 - alpha/3`` for each of
    the three (``q`` from the unlabelled items, ``p10`` and ``p01`` from the labelled ones) hold together
    with chance at least ``1 - alpha`` (union bound), and the rate then lies between the box's extreme
    corners. Cut to [0, 1]. Conservative: wider than the normal interval, never short.

    >>> lo, hi = ppi_mean_interval_float([1] * 40 + [0] * 40, [1] * 38 + [0] * 2 + [0] * 39 + [1], [1] * 500 + [0] * 500)
    >>> round(lo, 3), round(hi, 3)
    (0.381, 0.642)
    """
    n, n10, n01, big_n, positives = _ppi_counts(human, judge_labelled, judge_unlabelled)
    level = as_probability(confidence, "confidence", open_low=True, open_high=True)
    each = 1 - (1 - level) / 3
    q = clopper_pearson_interval_float(positives, big_n, each)
    p10 = clopper_pearson_interval_float(n10, n, each)
    p01 = clopper_pearson_interval_float(n01, n, each)
    return Interval(max(0.0, q.lower + p10.lower - p01.upper), min(1.0, q.upper + p10.upper - p01.lower))


def ppi_mean_interval_normal_float(
    human: Sequence[int], judge_labelled: Sequence[int], judge_unlabelled: Sequence[int], confidence: Any = "0.95"
) -> Interval:
    """The normal prediction-powered interval (Angelopoulos et al., 2023; ``ppi_py.ppi_mean_ci`` with ``lam=1``):
    estimate +- z * sqrt(var(judge on unlabelled) / N + var(human - judge) / n), plug-in variances.
    Approximate: it can fall short of its level with few labels; not cut to [0, 1].

    >>> lo, hi = ppi_mean_interval_normal_float([1] * 40 + [0] * 40, [1] * 38 + [0] * 2 + [0] * 39 + [1], [1] * 500 + [0] * 500)
    >>> round(lo, 3), round(hi, 3)
    (0.46, 0.565)
    """
    n, n10, n01, big_n, positives = _ppi_counts(human, judge_labelled, judge_unlabelled)
    level = as_probability(confidence, "confidence", open_low=True, open_high=True)
    q, d = positives / big_n, (n10 - n01) / n
    variance = q * (1 - q) / big_n + ((n10 + n01) / n - d * d) / n
    half = z_value_float(level) * math.sqrt(max(variance, 0.0))
    return Interval(q + d - half, q + d + half)


def ppi_labels_needed_float(
    half_width: Any,
    judge_rate: Any,
    human_only_rate: Any,
    judge_only_rate: Any,
    unlabelled: int,
    confidence: Any = "0.95",
) -> int:
    """Human labels for a normal PPI interval of ``+- half_width``, at planning values of the judge's positive
    rate and its two disagreement rates (people yes / judge no, and the reverse) and ``unlabelled`` judged items.

    Solves ``z^2 (q(1 - q)/N + v/n) = half_width^2`` for ``n``, with ``v = a + b - (a - b)^2``. A judge
    that never disagrees needs one label; a width the unlabelled items alone cannot reach is refused.
    Compare with people alone, who need ``z^2 p(1 - p) / half_width^2`` labels.

    >>> ppi_labels_needed_float("0.02", "0.5", "0.05", "0.05", 100_000)
    984
    """
    h = float(as_probability(half_width, "half_width", open_low=True, open_high=True))
    q = float(as_probability(judge_rate, "judge_rate"))
    a = float(as_probability(human_only_rate, "human_only_rate"))
    b = float(as_probability(judge_only_rate, "judge_only_rate"))
    if a + b > 1:
        raise ExactStatsError(f"human_only_rate + judge_only_rate must be <= 1, got {a + b}")
    big_n = as_int(unlabelled, "unlabelled", minimum=1)
    z = z_value_float(as_probability(confidence, "confidence", open_low=True, open_high=True))
    room = h * h - z * z * q * (1 - q) / big_n
    if room <= 0:
        floor = z * math.sqrt(q * (1 - q) / big_n)
        raise ExactStatsError(
            f"half_width must exceed {floor:.4g}: the {big_n} unlabelled items alone leave that much uncertainty"
        )
    v = a + b - (a - b) ** 2
    return max(1, math.ceil(z * z * v / room))
