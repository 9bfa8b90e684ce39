"""Agreement between raters (people, LLM judges), exactly: percent agreement, Cohen's kappa with an exact
conditional p-value, weighted kappa, Fleiss' kappa, Krippendorff's alpha and Gwet's AC1.

Every coefficient here is a ratio of counts, so from rational data it is an exact rational.
Chance agreement is what the labels' margins would give if the raters were independent; kappa
is ``(p_o - p_e) / (1 - p_e)``.

**An exact p-value for kappa.** Given both raters' margins, ``p_e`` is fixed and kappa grows
with the number ``D`` of items on which they agree. Under independence with those margins,
rater B's labels are a uniformly random rearrangement over the items, and ``D`` is the number
of matches between two multisets. Its distribution follows from rook polynomials: choosing
``j`` matched items of label ``k`` can be done in ``C(r_k, j) C(c_k, j) j!`` ways, the product over
labels counts ``N_j`` (every set of ``j`` matches, the other items arranged freely), and
inclusion-exclusion gives the exact number of arrangements with exactly ``d`` matches. No
table is enumerated; the cost is a few polynomial products of degree ``N``.

>>> a = ["yes", "yes", "no", "no", "yes", "no", "yes", "yes"]
>>> b = ["yes", "no", "no", "no", "yes", "no", "yes", "yes"]
>>> percent_agreement(a, b), cohen_kappa(a, b)
(Fraction(7, 8), Fraction(3, 4))
>>> kappa_p_value(a, b)
Fraction(1, 14)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from math import comb, factorial
from typing import Any

from ._validate import ExactStatsError, as_choice, as_fraction, as_int, as_probability, same_length
from .errorbars import Interval, clopper_pearson_interval_float

__all__ = [
    "percent_agreement",
    "cohen_kappa",
    "agreement_distribution",
    "kappa_p_value",
    "kappa_p_value_float",
    "weighted_kappa",
    "fleiss_kappa",
    "krippendorff_alpha",
    "gwet_ac1",
    "rogan_gladen",
    "rogan_gladen_interval_float",
    "KAPPA_WEIGHTS",
]

KAPPA_WEIGHTS = ("linear", "quadratic")
MAX_EXACT_ITEMS = 1_000


def _pair(a: Sequence[Any], b: Sequence[Any]) -> tuple[list[Any], list[Any]]:
    same_length("a", a, "b", b)
    a, b = list(a), list(b)
    if len(a) < 2:
        raise ExactStatsError(f"a and b must label at least 2 items, got {len(a)}")
    for name, labels in (("a", a), ("b", b)):
        bad = next((i for i, x in enumerate(labels) if x is None or x != x), None)  # None or NaN
        if bad is not None:
            raise ExactStatsError(f"{name}[{bad}] is missing: Cohen's kappa needs both labels of every item")
    return a, b


def percent_agreement(a: Sequence[Any], b: Sequence[Any]) -> Fraction:
    """Share of items on which the two raters give the same label.

    >>> percent_agreement([1, 2, 3, 3], [1, 2, 2, 3])
    Fraction(3, 4)
    """
    a, b = _pair(a, b)
    return Fraction(sum(x == y for x, y in zip(a, b)), len(a))


def _chance(a: list[Any], b: list[Any]) -> Fraction:
    ca, cb, n = Counter(a), Counter(b), len(a)
    return Fraction(sum(ca[k] * cb[k] for k in ca), n * n)


def cohen_kappa(a: Sequence[Any], b: Sequence[Any]) -> Fraction:
    """Cohen's kappa of two raters, exactly: ``(p_o - p_e) / (1 - p_e)``.

    Undefined (an error) when chance agreement is 1: both raters used one and the same label.

    >>> cohen_kappa([0, 0, 1, 1], [0, 1, 1, 1])
    Fraction(1, 2)
    """
    a, b = _pair(a, b)
    pe = _chance(a, b)
    if pe == 1:
        raise ExactStatsError("cohen_kappa is undefined when both raters give every item one and the same label")
    return (percent_agreement(a, b) - pe) / (1 - pe)


def agreement_distribution(a: Sequence[Any], b: Sequence[Any]) -> list[Fraction]:
    """``P(D = d)`` for ``d = 0..N``: the number of agreements when B's labels are rearranged at random over
    the items (both raters' margins fixed), exactly, from rook polynomials (module docstring).

    >>> [str(x) for x in agreement_distribution(["x", "x", "y"], ["x", "y", "y"])]
    ['1/3', '0', '2/3', '0']
    """
    a, b = _pair(a, b)
    n = len(a)
    if n > MAX_EXACT_ITEMS:  # inclusion-exclusion is n^2 products of n log n-bit integers: seconds at the limit
        raise ExactStatsError(
            f"agreement_distribution over {n} items is over the exact limit of {MAX_EXACT_ITEMS:,}; "
            "use kappa_p_value_float (a Monte Carlo permutation test) for a float answer"
        )
    ca, cb = Counter(a), Counter(b)
    rooks = [1]  # the product of the labels' rook polynomials: rooks[j] counts the ways to fix j matches
    for label in ca.keys() & cb.keys():
        r, c = ca[label], cb[label]
        board = [comb(r, j) * comb(c, j) * factorial(j) for j in range(min(r, c) + 1)]
        rooks = [
            sum(rooks[i] * board[j - i] for i in range(max(0, j - len(board) + 1), min(j, len(rooks) - 1) + 1))
            for j in range(len(rooks) + len(board) - 1)
        ]
    at_least = [rooks[j] * factorial(n - j) if j < len(rooks) else 0 for j in range(n + 1)]
    total = factorial(n)
    exactly = [sum((-1) ** (j - d) * comb(j, d) * at_least[j] for j in range(d, n + 1)) for d in range(n + 1)]
    return [Fraction(e, total) for e in exactly]


def kappa_p_value(a: Sequence[Any], b: Sequence[Any], alternative: str = "greater") -> Fraction:
    """Exact conditional p-value of Cohen's kappa given both raters' margins.

    ``alternative="greater"`` (agreement beyond chance) is ``P(D >= d)``; ``"two-sided"`` sums the
    arrangements no more likely than the observed one (Fisher's rule, so two labels give Fisher's
    exact test). A permutation of B's labels over the items is the reference distribution.

    >>> kappa_p_value([0, 0, 0, 1, 1, 1], [0, 0, 0, 1, 1, 1])
    Fraction(1, 20)
    """
    alternative = as_choice(alternative, "alternative", ("greater", "two-sided"))
    a, b = _pair(a, b)
    dist = agreement_distribution(a, b)
    d = sum(x == y for x, y in zip(a, b))
    if alternative == "greater":
        return sum(dist[d:], Fraction(0))
    return min(Fraction(1), sum((p for p in dist if p <= dist[d]), Fraction(0)))


def kappa_p_value_float(a: Sequence[Any], b: Sequence[Any], draws: int = 100_000, seed: Any = 0) -> float:
    """Monte Carlo twin of :func:`kappa_p_value` (``alternative="greater"``), for any number of items:
    ``draws`` random rearrangements of B's labels, ``(1 + #{D* >= d}) / (1 + draws)`` (never 0, valid
    at every number of draws).

    >>> kappa_p_value_float([0, 0, 0, 1, 1, 1], [0, 0, 0, 1, 1, 1], draws=20_000) > 0.04
    True
    """
    import numpy as np

    a, b = _pair(a, b)
    draws = as_int(draws, "draws", minimum=1)
    codes = {label: i for i, label in enumerate(dict.fromkeys([*a, *b]))}
    x = np.array([codes[v] for v in a])
    y = np.array([codes[v] for v in b])
    observed = int((x == y).sum())
    rng = np.random.default_rng(seed)
    hits, block = 0, max(1, 4_000_000 // len(x))
    for start in range(0, draws, block):
        size = min(block, draws - start)
        shuffled = y[np.argsort(rng.random((size, len(y))), axis=1)]
        hits += int(((shuffled == x).sum(axis=1) >= observed).sum())
    return (1 + hits) / (1 + draws)


def weighted_kappa(a: Sequence[Any], b: Sequence[Any], weights: str = "linear") -> Fraction:
    """Weighted kappa for ordinal labels (numbers), exactly: disagreements cost ``|i - j|`` (linear) or
    ``(i - j)^2`` (quadratic) over the label range, ``1 - sum w O / sum w E``.

    >>> weighted_kappa([1, 2, 3, 4], [1, 2, 4, 4])
    Fraction(9, 11)
    """
    weights = as_choice(weights, "weights", KAPPA_WEIGHTS)
    a, b = _pair(a, b)
    xs = [as_fraction(x, f"a[{i}]") for i, x in enumerate(a)]
    ys = [as_fraction(y, f"b[{i}]") for i, y in enumerate(b)]
    power = 1 if weights == "linear" else 2

    def cost(u: Fraction, v: Fraction) -> Fraction:
        return abs(u - v) ** power

    n = len(xs)
    observed = sum((cost(u, v) for u, v in zip(xs, ys)), Fraction(0)) / n
    ca, cb = Counter(xs), Counter(ys)
    expected = sum((ca[u] * cb[v] * cost(u, v) for u in ca for v in cb), Fraction(0)) / (n * n)
    if expected == 0:
        raise ExactStatsError("weighted_kappa is undefined when chance disagreement is 0 (one label throughout)")
    return 1 - observed / expected


def _ratings(ratings: Any) -> list[list[Any]]:
    """Items x raters, ``None`` where a rater did not rate an item."""
    try:
        rows = [list(r) for r in ratings]
    except TypeError:
        raise ExactStatsError("ratings must be items x raters (a list of rows, None for a missing rating)") from None
    if len(rows) < 2:
        raise ExactStatsError(f"ratings must hold at least 2 items, got {len(rows)}")
    return rows


def fleiss_kappa(ratings: Any) -> Fraction:
    """Fleiss' kappa for many raters, exactly; every item rated by the same number (>= 2) of raters.

    ``ratings`` is items x raters of labels.

    >>> fleiss_kappa([["a", "a", "a"], ["a", "b", "b"], ["b", "b", "b"], ["a", "a", "b"]])
    Fraction(1, 3)
    """
    rows = _ratings(ratings)
    m = len(rows[0])
    if m < 2 or any(len(r) != m or any(x is None for x in r) for r in rows):
        raise ExactStatsError("fleiss_kappa needs every item rated by the same number (at least 2) of raters")
    n = len(rows)
    counts = [Counter(r) for r in rows]
    p_i = [Fraction(sum(c * (c - 1) for c in cnt.values()), m * (m - 1)) for cnt in counts]
    p_bar = sum(p_i, Fraction(0)) / n
    totals: Counter[Any] = Counter()
    for cnt in counts:
        totals.update(cnt)
    pe = sum((Fraction(t, n * m) ** 2 for t in totals.values()), Fraction(0))
    if pe == 1:
        raise ExactStatsError("fleiss_kappa is undefined when every rating is one and the same label")
    return (p_bar - pe) / (1 - pe)


def krippendorff_alpha(ratings: Any, level: str = "nominal") -> Fraction:
    """Krippendorff's alpha, exactly, with missing ratings (``None``); items with fewer than two ratings are
    left out, as the coefficient defines. ``level``: ``"nominal"`` (any labels), ``"interval"`` (numbers,
    squared differences).

    >>> krippendorff_alpha([[1, 1, None], [2, 2, 2], [1, 2, 1], [None, 3, 3]])
    Fraction(23, 32)
    """
    level = as_choice(level, "level", ("nominal", "interval"))
    rows = _ratings(ratings)
    units = [[x for x in r if x is not None and x == x] for r in rows]
    units = [u for u in units if len(u) >= 2]
    if len(units) < 1:
        raise ExactStatsError("krippendorff_alpha needs at least one item with two or more ratings")
    if level == "interval":
        units = [[as_fraction(x, "ratings") for x in u] for u in units]

    def delta(u: Any, v: Any) -> Fraction:
        if level == "nominal":
            return Fraction(int(u != v))
        return Fraction((u - v) ** 2)

    # coincidence matrix o_ck = sum over units of (pairs c-k within the unit) / (m_u - 1)
    coincidence: dict[tuple[Any, Any], Fraction] = {}
    for u in units:
        pairs = Counter((x, y) for i, x in enumerate(u) for j, y in enumerate(u) if i != j)
        for key, count in pairs.items():
            coincidence[key] = coincidence.get(key, Fraction(0)) + Fraction(count, len(u) - 1)
    n_c: dict[Any, Fraction] = {}
    for (c, _), value in coincidence.items():
        n_c[c] = n_c.get(c, Fraction(0)) + value
    n = sum(n_c.values(), Fraction(0))
    observed = sum((v * delta(c, k) for (c, k), v in coincidence.items()), Fraction(0)) / n
    expected = sum((n_c[c] * n_c[k] * delta(c, k) for c in n_c for k in n_c), Fraction(0)) / (n * (n - 1))
    if expected == 0:
        raise ExactStatsError("krippendorff_alpha is undefined when every pairable rating is one and the same value")
    return 1 - observed / expected


def gwet_ac1(a: Sequence[Any], b: Sequence[Any]) -> Fraction:
    """Gwet's AC1 for two raters, exactly: chance agreement from the mean label shares ``pi_k``,
    ``p_e = sum_k pi_k (1 - pi_k) / (K - 1)``, which stays sensible where one label dominates and
    kappa's paradoxes bite (high agreement, low kappa).

    >>> gwet_ac1(["y"] * 9 + ["n"], ["y"] * 8 + ["n", "y"]), cohen_kappa(["y"] * 9 + ["n"], ["y"] * 8 + ["n", "y"])
    (Fraction(31, 41), Fraction(-1, 9))
    """
    a, b = _pair(a, b)
    labels = set(a) | set(b)
    if len(labels) < 2:
        raise ExactStatsError("gwet_ac1 needs at least 2 labels in use")
    n = len(a)
    ca, cb = Counter(a), Counter(b)
    pi = {k: Fraction(ca[k] + cb[k], 2 * n) for k in labels}
    pe = sum((p * (1 - p) for p in pi.values()), Fraction(0)) / (len(labels) - 1)
    return (percent_agreement(a, b) - pe) / (1 - pe)


# --- a judge's bias, corrected --------------------------------------------------------------------------


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
