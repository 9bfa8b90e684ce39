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

from ._lazy import np
from ._validate import ExactStatsError, as_choice, as_fraction, as_int, as_probability, same_length
from .errorbars import Interval

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
    "fleiss_kappa_bootstrap_float",
    "krippendorff_alpha_bootstrap_float",
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
    rows = _fleiss_rows(ratings)
    m, n = len(rows[0]), len(rows)
    counts = [Counter(r) for r in rows]
    p_i = [Fraction(sum(c * (c - 1) for c in cnt.values()), m * (m - 1)) for cnt in counts]
    p_bar = sum(p_i, Fraction(0)) / n
    totals: Counter[Any] = Counter()
    for cnt in counts:
        totals.update(cnt)
    pe = sum((Fraction(t, n * m) ** 2 for t in totals.values()), Fraction(0))
    if pe == 1:
        raise ExactStatsError(FLEISS_UNDEFINED)
    return (p_bar - pe) / (1 - pe)


FLEISS_UNDEFINED = "fleiss_kappa is undefined when every rating is one and the same label"
ALPHA_UNDEFINED = "krippendorff_alpha is undefined when every pairable rating is one and the same value"


def _fleiss_rows(ratings: Any) -> list[list[Any]]:
    """Items x raters with every item rated by the same number (at least 2) of raters, or an error."""
    rows = _ratings(ratings)
    m = len(rows[0])
    if m < 2 or any(len(r) != m or any(x is None for x in r) for r in rows):
        raise ExactStatsError("fleiss_kappa needs every item rated by the same number (at least 2) of raters")
    return rows


def _pairable_units(ratings: Any, level: str) -> list[list[Any]]:
    """The ratings of each item with two or more (missing ones dropped); numbers, exactly, at the interval level."""
    units = [[x for x in r if x is not None and x == x] for r in _ratings(ratings)]
    units = [u for u in units if len(u) >= 2]
    if len(units) < 1:
        raise ExactStatsError("krippendorff_alpha needs at least one item with two or more ratings")
    if level == "interval":
        units = [[as_fraction(x, "ratings") for x in u] for u in units]
    return units


def krippendorff_alpha(ratings: Any, level: str = "nominal") -> Fraction:
    """Krippendorff's alpha, exactly, with missing ratings (``None``); items with fewer than two ratings are
    left out, as the coefficient defines. ``level``: ``"nominal"`` (any labels), ``"interval"`` (numbers,
    squared differences).

    >>> krippendorff_alpha([[1, 1, None], [2, 2, 2], [1, 2, 1], [None, 3, 3]])
    Fraction(23, 32)
    """
    level = as_choice(level, "level", ("nominal", "interval"))
    units = _pairable_units(ratings, level)

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
        raise ExactStatsError(ALPHA_UNDEFINED)
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


# --- bootstrap intervals over items (floats) ------------------------------------------------------------


def fleiss_kappa_bootstrap_float(ratings: Any, draws: int = 2000, seed: Any = 0, confidence: Any = "0.95") -> Interval:
    """Percentile bootstrap interval for Fleiss' kappa, items redrawn with replacement (a named float
    approximation: it treats the items as a sample from many, the raters as fixed).

    Each redraw is a weighted sum of per-item terms, so a thousand redraws cost two matrix products; the
    exact coefficient is not computed. Redraws where kappa is undefined (every rating one label) are left out.

    >>> lo, hi = fleiss_kappa_bootstrap_float([["a", "a", "b"], ["b", "b", "b"], ["a", "a", "a"]] * 10)
    >>> lo < float(fleiss_kappa([["a", "a", "b"], ["b", "b", "b"], ["a", "a", "a"]] * 10)) < hi
    True
    """
    terms = _fleiss_terms(_fleiss_rows(ratings))
    _defined(_fleiss_from_weights(terms, np.ones((1, len(terms[0])))), FLEISS_UNDEFINED)
    values = _redrawn(len(terms[0]), draws, seed, lambda weights: _fleiss_from_weights(terms, weights))
    return _percentile_interval(values, confidence)


def krippendorff_alpha_bootstrap_float(
    ratings: Any, level: str = "nominal", draws: int = 2000, seed: Any = 0, confidence: Any = "0.95"
) -> Interval:
    """Percentile bootstrap interval for Krippendorff's alpha, items (with two or more ratings) redrawn with
    replacement; a named float approximation, as :func:`fleiss_kappa_bootstrap_float`.

    >>> data = [[1, 1, None], [2, 2, 2], [1, 2, 1], [None, 3, 3]] * 8
    >>> lo, hi = krippendorff_alpha_bootstrap_float(data)
    >>> lo < float(krippendorff_alpha(data)) < hi
    True
    """
    level = as_choice(level, "level", ("nominal", "interval"))
    coincidences, delta = _alpha_terms(_pairable_units(ratings, level), level)
    _defined(_alpha_from_weights(coincidences, delta, np.ones((1, len(coincidences)))), ALPHA_UNDEFINED)
    values = _redrawn(len(coincidences), draws, seed, lambda weights: _alpha_from_weights(coincidences, delta, weights))
    return _percentile_interval(values, confidence)


BOOTSTRAP_CELLS = 4_000_000  # redraws x items held at once (32 MB of weights); more redraws run in blocks


def _redrawn(items: int, draws: Any, seed: Any, coefficient: Any) -> np.ndarray:
    """The coefficient on ``draws`` redraws of the items, in blocks that keep memory bounded.

    Each redraw is how often each item appears: multinomial counts, ``items`` in all."""
    draws = as_int(draws, "draws", minimum=1, maximum=1_000_000)
    rng = np.random.default_rng(seed)
    block = max(1, BOOTSTRAP_CELLS // items)
    out = [
        coefficient(rng.multinomial(items, np.full(items, 1 / items), size=min(block, draws - start)).astype(float))
        for start in range(0, draws, block)
    ]
    return np.concatenate(out)


def _defined(at_the_data: np.ndarray, undefined: str) -> None:
    """The coefficient of the data itself (unit weights) must exist, as the exact function requires."""
    if not np.isfinite(at_the_data[0]):
        raise ExactStatsError(undefined)


def _percentile_interval(values: np.ndarray, confidence: Any) -> Interval:
    level = float(as_probability(confidence, "confidence", open_low=True, open_high=True))
    kept = values[np.isfinite(values)]
    if len(kept) == 0:
        raise ExactStatsError("every redraw left the coefficient undefined: too few items for a bootstrap")
    lo, hi = np.quantile(kept, [(1 - level) / 2, (1 + level) / 2])
    return Interval(float(lo), float(hi))


def _fleiss_terms(rows: list[list[Any]]) -> tuple[np.ndarray, np.ndarray, int]:
    """Per item: its agreement P_i and its label counts; and the raters per item."""
    m = len(rows[0])
    labels = sorted({x for r in rows for x in r}, key=repr)
    counts = np.array([[tally[k] for k in labels] for tally in map(Counter, rows)], dtype=float)
    agreement = (counts * (counts - 1)).sum(axis=1) / (m * (m - 1))
    return agreement, counts, m


def _fleiss_from_weights(terms: tuple[np.ndarray, np.ndarray, int], weights: np.ndarray) -> np.ndarray:
    """Fleiss' kappa of each weighting of the items (a row of ``weights`` of ones is the data itself)."""
    agreement, counts, m = terms
    n = weights.sum(axis=1)
    p_bar = weights @ agreement / n
    shares = (weights @ counts) / (n * m)[:, None]
    pe = (shares**2).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(pe < 1, (p_bar - pe) / (1 - pe), np.nan)


def _alpha_terms(units: list[list[Any]], level: str) -> tuple[np.ndarray, np.ndarray]:
    """Per pairable item (:func:`_pairable_units`), its coincidence matrix (flattened); and the distance
    between every two values."""
    numeric = level == "interval"
    values = sorted({x for u in units for x in u}, key=lambda v: (float(v), repr(v)) if numeric else repr(v))
    index = {v: i for i, v in enumerate(values)}
    k = len(values)
    coincidences = np.zeros((len(units), k * k))
    for row, u in enumerate(units):
        for i, x in enumerate(u):
            for j, y in enumerate(u):
                if i != j:
                    coincidences[row, index[x] * k + index[y]] += 1 / (len(u) - 1)
    if not numeric:
        delta = 1 - np.eye(k)
    else:
        numbers = np.array([float(v) for v in values])
        delta = (numbers[:, None] - numbers[None, :]) ** 2
    return coincidences, delta


def _alpha_from_weights(coincidences: np.ndarray, delta: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Krippendorff's alpha of each weighting of the pairable items (ones: the data itself)."""
    k = delta.shape[0]
    o = (weights @ coincidences).reshape(-1, k, k)
    n_c = o.sum(axis=2)
    n = n_c.sum(axis=1)
    observed = (o * delta).sum(axis=(1, 2)) / n
    expected = np.einsum("dc,dk,ck->d", n_c, n_c, delta) / (n * (n - 1))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(expected > 0, 1 - observed / expected, np.nan)
