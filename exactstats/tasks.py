"""Leaderboards over tasks: a models x tasks table of scores, compared with tasks as the units.

Many leaderboards publish one score per model and task (HELM's scenarios, MTEB's datasets,
the categories of a benchmark), not per-question results. The question is then whether one
model beats another across the tasks, and the tasks are the sample: with ``T`` tasks the
exact sign-flip test over tasks (:func:`~exactstats.clustered.sign_flip_p_value`) has
``2^T`` equally likely sign patterns, so no p-value can be smaller than ``2 / 2^T``.
Before any correction for many pairs, that floor decides whether a leaderboard over a
handful of tasks can separate anyone at all (:func:`smallest_p_value`).

Scores are exact rationals (a float stands for its shortest decimal, so ``0.8734`` is
``8734/10000``); a table may mix scales, but the mean then weighs tasks by their scale.

>>> S = [["0.81", "0.77", "0.90", "0.65"], ["0.79", "0.70", "0.88", "0.60"], ["0.80", "0.72", "0.91", "0.55"]]
>>> [(r.first, r.second, str(r.mean_difference), r.wins, r.losses, str(r.p)) for r in compare_on_tasks(S)]
[(0, 1, '1/25', 4, 0, '1/8'), (1, 2, '-1/400', 1, 3, '1')]
>>> smallest_p_value(4)
Fraction(1, 8)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, NamedTuple

from ._validate import ExactStatsError, as_choice, as_fraction, as_int, as_probability
from .clustered import sign_flip_p_value
from .errorbars import Interval, clustered_interval_float
from .multiplicity import bh_adjust, holm_adjust, tiers_from_separation

__all__ = [
    "TaskPairComparison",
    "as_task_scores",
    "compare_on_tasks",
    "smallest_p_value",
    "task_tiers",
    "tasks_needed",
]


def as_task_scores(scores: Any) -> list[list[Fraction]]:
    """A models x tasks table as exact rationals, every row the same length, at least two tasks.

    >>> as_task_scores([[1, "0.5"], ["3/4", 0.25]])
    [[Fraction(1, 1), Fraction(1, 2)], [Fraction(3, 4), Fraction(1, 4)]]
    """
    try:
        rows = [list(row) for row in scores]
    except TypeError:
        raise ExactStatsError("scores must be a models x tasks table (a list of rows)") from None
    if not rows or any(len(row) != len(rows[0]) for row in rows):
        raise ExactStatsError("scores must hold at least one row, all rows the same length (one score per task)")
    if len(rows[0]) < 2:
        raise ExactStatsError(f"scores must cover at least 2 tasks, got {len(rows[0])}")
    return [[as_fraction(x, f"scores[{i}][{j}]") for j, x in enumerate(row)] for i, row in enumerate(rows)]


def smallest_p_value(tasks: int) -> Fraction:
    """The smallest two-sided p-value the sign-flip test can give over ``tasks`` tasks: ``2 / 2^tasks``
    (every task favours one model, the largest possible sum).

    >>> smallest_p_value(10), float(smallest_p_value(14))
    (Fraction(1, 512), 0.0001220703125)
    """
    tasks = as_int(tasks, "tasks", minimum=1)
    return Fraction(2, 2**tasks) if tasks > 1 else Fraction(1)


def tasks_needed(threshold: Any) -> int:
    """The fewest tasks over which the sign-flip test can reach ``p <= threshold`` at all:
    the smallest ``T`` with ``2 / 2^T <= threshold`` (e.g. a Holm threshold ``alpha / pairs``).

    >>> tasks_needed("0.05"), tasks_needed(Fraction(1, 20 * 465))
    (6, 15)
    """
    threshold = as_probability(threshold, "threshold", open_low=True)
    t = 2
    while smallest_p_value(t) > threshold:
        t += 1
    return t


class TaskPairComparison(NamedTuple):
    """Rows ``first`` and ``second`` of a scores table compared over the tasks.

    ``p`` is the exact two-sided sign-flip p-value over tasks; ``holm`` and ``bh`` the same p adjusted
    over the pairs compared in one call; ``interval`` the paired t interval (``T - 1`` degrees of
    freedom) of the mean difference, a float.
    """

    first: int
    second: int
    mean_difference: Fraction  # first minus second, averaged over tasks
    wins: int  # tasks where first scores higher
    losses: int  # tasks where second scores higher
    interval: Interval
    p: Fraction
    holm: Fraction
    bh: Fraction

    def separated(self, alpha: Any = "0.05") -> bool:
        """Holm-adjusted p at most ``alpha``."""
        return self.holm <= as_probability(alpha, "alpha", open_low=True, open_high=True)


def compare_on_tasks(scores: Any, which: str = "adjacent") -> list[TaskPairComparison]:
    """Exact sign-flip comparisons over tasks of the rows of a models x tasks table, with Holm and BH.

    ``which="adjacent"`` compares rows 0-1, 1-2, ... (rank the rows first); ``"all"`` every pair.

    >>> S = [[1, 1, 1, 1, 1], [0, 0, 0, 0, 0]]
    >>> r = compare_on_tasks(S)[0]
    >>> r.p, r.wins, [round(v, 3) for v in r.interval]
    (Fraction(1, 16), 5, [1.0, 1.0])
    """
    rows = as_task_scores(scores)
    which = as_choice(which, "which", ("adjacent", "all"))
    k, t = len(rows), len(rows[0])
    if k < 2:
        raise ExactStatsError(f"scores must hold at least two models (rows), got {k}")
    pairs = (
        [(i, i + 1) for i in range(k - 1)]
        if which == "adjacent"
        else [(i, j) for i in range(k) for j in range(i + 1, k)]
    )
    found = []
    for i, j in pairs:
        d = [a - b for a, b in zip(rows[i], rows[j])]
        interval = clustered_interval_float([float(x) for x in d], list(range(t)))
        wins, losses = sum(x > 0 for x in d), sum(x < 0 for x in d)
        found.append((i, j, sum(d, Fraction(0)) / t, wins, losses, interval, sign_flip_p_value(d)))
    ps = [f[-1] for f in found]
    return [TaskPairComparison(*f, h, q) for f, h, q in zip(found, holm_adjust(ps), bh_adjust(ps))]


def task_tiers(scores: Any, alpha: Any = "0.05") -> list[list[int]]:
    """Tiers of the rows (ranked best first): a row opens a new tier when the sign-flip test over tasks,
    Holm-adjusted over every pair, separates it from the first row of the current tier.

    >>> task_tiers([[1] * 8, [1] * 7 + [0], [0] * 8])
    [[0, 1], [2]]
    """
    alpha = as_probability(alpha, "alpha", open_low=True, open_high=True)
    rows = as_task_scores(scores)
    if len(rows) == 1:
        return [[0]]
    separated = {(r.first, r.second): r.holm <= alpha for r in compare_on_tasks(rows, "all")}
    return tiers_from_separation(lambda i, j: separated[(i, j)], len(rows))
