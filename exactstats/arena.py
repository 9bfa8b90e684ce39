"""Arenas: pairwise battles turned into one ranking (Elo and Bradley-Terry), exact where possible.

A battle is ``(model_a, model_b, winner)`` with ``winner`` one of :data:`WINNERS`
(FastChat's clean-battle form). Both Elo and Bradley-Terry say that model ``i`` beats
model ``j`` with probability ``g_i / (g_i + g_j)`` for positive strengths ``g``; on
the Elo scale ``rating = 400 log10(g) + 1000``.

Exact pieces: the win/tie counts (:func:`battle_counts`), the sign test for one pair
(:func:`sign_test`, the exact binomial test on decisive battles), and the existence
condition of the Bradley-Terry maximum-likelihood estimate (:func:`bt_mle_exists`:
Zermelo/Ford, the directed "beat at least once" graph must be strongly connected).
The fit itself is iterative, so it runs in floats (:func:`bradley_terry_float`, MM
then Newton) and comes with a check in exact rationals (:func:`bt_certificate`).
Elo's update needs ``10**(d/400)``, irrational for almost every ``d``, so the online
Elo is a float function (:func:`elo_ratings_float`); :func:`elo_replay_exact`
replays a few battles symbolically to show, exactly, that the order changes the result.

>>> battles = [("a", "b", "model_a"), ("b", "a", "model_a"), ("a", "b", "tie")]
>>> counts = battle_counts(battles)
>>> counts.models, counts.wins_of("a", "b"), counts.wins_of("b", "a")
(['a', 'b'], Fraction(3, 2), Fraction(3, 2))
>>> bt_mle_exists(counts)
True
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ._lazy import np
from ._validate import ExactStatsError, as_fraction, as_int, as_tie_rule
from .paired import mcnemar_p_value

__all__ = [
    "WINNERS",
    "ARENA_TIE_RULES",
    "BattleCounts",
    "battle_counts",
    "sign_test",
    "bt_mle_exists",
    "BradleyTerryFit",
    "bradley_terry_float",
    "bt_certificate",
    "elo_ratings_float",
    "elo_replay_exact",
    "bt_covariance_float",
    "bt_bootstrap_float",
    "rank_intervals_float",
    "ELO_SCALE",
]

# a battle's winner field and its outcome: 0 model_a won, 1 model_b won, 2 a tie (of either kind)
OUTCOMES = {"model_a": 0, "model_b": 1, "tie": 2, "tie (bothbad)": 2}
WINNERS = tuple(OUTCOMES)
# fair: a tie is half a win for each side (FastChat's logistic fit duplicates every battle and makes a tie one win
# each way: the same likelihood, doubled); exclude: ties are left out
ARENA_TIE_RULES = ("fair", "exclude")
ELO_SCALE = 400 / math.log(10)  # rating points per unit of natural log-strength
MAX_EXACT_ELO_BATTLES = 12


def checked_battles(
    battles: Iterable[Sequence[Any]], where: Callable[[int], str] | None = None
) -> list[tuple[str, str, str]]:
    """Battles as ``(model_a, model_b, winner)`` strings, each checked: three fields, two different models with
    names, a winner in :data:`WINNERS`. ``where(i)`` names the ``i``-th battle in an error (default
    ``battles[i]``; a file reader names the file and row).

    >>> checked_battles([("a", "b", "tie")])
    [('a', 'b', 'tie')]
    """
    name = where or (lambda i: f"battles[{i}]")
    out = []
    for i, b in enumerate(battles):
        if len(b) != 3:
            raise ExactStatsError(f"{name(i)} must be (model_a, model_b, winner), got {tuple(b)!r}")
        a, bb, w = (str(x) for x in b)
        if not a.strip() or not bb.strip():
            raise ExactStatsError(f"{name(i)}: empty model name")
        if a == bb:
            raise ExactStatsError(f"{name(i)}: model {a!r} plays itself")
        if w not in WINNERS:
            raise ExactStatsError(f"{name(i)}: winner must be one of {', '.join(WINNERS)}, got {w!r}")
        out.append((a, bb, w))
    if not out:
        raise ExactStatsError("battles must hold at least one battle, got none")
    return out


@dataclass(frozen=True)
class BattleCounts:
    """``wins[i][j]``: wins of model ``i`` over ``j`` (ties credited by the rule); ``ties[i][j]``: tie count."""

    models: list[str]
    wins: list[list[Fraction]]
    ties: list[list[int]]
    beats: list[list[int]]  # decisive wins of i over j (no ties)

    def index(self, model: str) -> int:
        if model not in self.models:
            raise ExactStatsError(f"model must be one of {self.models}, got {model!r}")
        return self.models.index(model)

    def wins_of(self, a: str, b: str) -> Fraction:
        return self.wins[self.index(a)][self.index(b)]

    def games(self, i: int, j: int) -> Fraction:
        return self.wins[i][j] + self.wins[j][i]


def battle_counts(battles: Iterable[Sequence[Any]], ties: str = "fair") -> BattleCounts:
    """Exact win and tie counts between every pair of models (models sorted by name).

    The battles are tallied per pair and outcome first (plain integers), then counted by
    :func:`battle_counts_from_pairs`: one Fraction per pair, not per battle.

    >>> battle_counts([("x", "y", "model_b"), ("x", "y", "tie")], ties="exclude").wins_of("y", "x")
    Fraction(1, 1)
    """
    ties = as_tie_rule(ties, ARENA_TIE_RULES)
    tally: dict[tuple[str, str], list[int]] = {}
    for a, b, w in checked_battles(battles):
        tally.setdefault((a, b), [0, 0, 0])[OUTCOMES[w]] += 1
    return battle_counts_from_pairs([(a, b, *cell) for (a, b), cell in tally.items()], ties)


def battle_counts_from_pairs(pairs: Iterable[Sequence[Any]], ties: str = "fair") -> BattleCounts:
    """Exact counts from per-pair totals ``(model_a, model_b, wins_a, wins_b, tie_count)``, as published
    arenas ship them (Chatbot Arena's pair counts: no battle order). A pair may appear more than once.

    >>> c = battle_counts_from_pairs([("x", "y", 3, 1, 2)])
    >>> c.wins_of("x", "y"), c.ties[0][1]
    (Fraction(4, 1), 2)
    """
    ties = as_tie_rule(ties, ARENA_TIE_RULES)
    rows: list[tuple[str, str, int, int, int]] = []
    for n, row in enumerate(pairs):
        if len(row) != 5:
            raise ExactStatsError(f"pairs[{n}] must be (model_a, model_b, wins_a, wins_b, ties), got {row!r}")
        a, b = str(row[0]), str(row[1])
        if a == b:
            raise ExactStatsError(f"pairs[{n}]: model {a!r} plays itself")
        wa, wb, t = (as_int(x, f"pairs[{n}] count", minimum=0) for x in row[2:])
        rows.append((a, b, wa, wb, t))
    if not rows or not any(sum(r[2:]) for r in rows):
        raise ExactStatsError("pairs must hold at least one battle, got none")
    models = sorted({m for r in rows for m in r[:2]})
    pos = {m: i for i, m in enumerate(models)}
    k = len(models)
    wins = [[Fraction(0)] * k for _ in range(k)]
    tie = [[0] * k for _ in range(k)]
    beats = [[0] * k for _ in range(k)]
    for a, b, wa, wb, t in rows:
        i, j = pos[a], pos[b]
        beats[i][j] += wa
        beats[j][i] += wb
        tie[i][j] += t
        tie[j][i] += t
        half = Fraction(t, 2) if ties == "fair" else 0
        wins[i][j] += wa + half
        wins[j][i] += wb + half
    return BattleCounts(models, wins, tie, beats)


def pair_totals(counts: BattleCounts) -> list[tuple[str, str, int, int, int]]:
    """``(model_a, model_b, wins_a, wins_b, ties)`` for every pair that met: the counts without a tie rule,
    the form :func:`battle_counts_from_pairs` reads (to apply another tie rule, or to resample).

    >>> pair_totals(battle_counts([("x", "y", "model_a"), ("y", "x", "tie"), ("x", "z", "model_b")]))
    [('x', 'y', 1, 0, 1), ('x', 'z', 0, 1, 0)]
    """
    k, m = len(counts.models), counts.models
    return [
        (m[i], m[j], counts.beats[i][j], counts.beats[j][i], counts.ties[i][j])
        for i in range(k)
        for j in range(i + 1, k)
        if counts.beats[i][j] or counts.beats[j][i] or counts.ties[i][j]
    ]


def battles_in(counts: BattleCounts) -> int:
    """How many battles the counts hold (ties included).

    >>> battles_in(battle_counts([("x", "y", "model_a"), ("y", "x", "tie"), ("x", "z", "model_b")]))
    3
    """
    return sum(wa + wb + t for _, _, wa, wb, t in pair_totals(counts))


def sign_test(counts: BattleCounts, a: str, b: str, ties: str = "exclude") -> Fraction:
    """Exact two-sided sign test that ``a`` and ``b`` are equally strong, from their battles.

    ``ties="exclude"`` tests the decisive battles only (the standard sign test);
    ``"fair"`` gives half of the ties to each side (an odd tie left out).

    >>> sign_test(battle_counts([("a", "b", "model_a")] * 9 + [("a", "b", "model_b")]), "a", "b")
    Fraction(11, 512)
    """
    ties = as_tie_rule(ties, ARENA_TIE_RULES)
    i, j = counts.index(a), counts.index(b)
    extra = counts.ties[i][j] // 2 if ties == "fair" else 0
    # the same exact binomial test as McNemar's: under equal strength each decisive battle is a fair coin
    return mcnemar_p_value(counts.beats[i][j] + extra, counts.beats[j][i] + extra)


def _components(counts: BattleCounts) -> list[list[int]]:
    """Strongly connected components of the graph i -> j when i has a (credited) win over j.

    Tarjan's algorithm with an explicit stack (a recursive one overflows past about a thousand models).
    """
    k = len(counts.models)
    beat = [[j for j in range(k) if counts.wins[i][j] > 0] for i in range(k)]
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    stack: list[int] = []
    on: set[int] = set()
    comps: list[list[int]] = []
    for root in range(k):
        if root in index:
            continue
        work = [(root, 0)]  # (node, position in its successor list)
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, pos = work[-1]
            if pos < len(beat[v]):
                work[-1] = (v, pos + 1)
                w = beat[v][pos]
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, 0))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                comps.append(sorted(comp))
    return comps


def bt_mle_exists(counts: BattleCounts, explain: bool = False) -> bool:
    """Zermelo/Ford condition, checked exactly: the Bradley-Terry MLE exists (finite) iff for every
    split of the models into two groups, some model of each group has beaten some model of the other,
    i.e. the directed graph "i beat j at least once" is strongly connected.

    With ``explain=True`` a failure raises :class:`ExactStatsError` naming the models that were
    never beaten by the others (their strength would go to infinity).

    >>> bt_mle_exists(battle_counts([("a", "b", "model_a"), ("b", "c", "model_a")]))
    False
    """
    comps = _components(counts)
    if len(comps) == 1:
        return True
    if explain:
        inside = {v: n for n, comp in enumerate(comps) for v in comp}
        # a top group: nobody outside it ever beat anyone in it
        top = next(
            c
            for c in comps
            if not any(counts.wins[o][v] > 0 for v in c for o in range(len(counts.models)) if inside[o] != inside[v])
        )
        names = ", ".join(counts.models[v] for v in top)
        raise ExactStatsError(
            f"the Bradley-Terry maximum-likelihood estimate does not exist: no model outside {{{names}}} ever "
            "beat one inside it, so their strength would grow without bound (the win graph is not strongly connected)"
        )
    return False


@dataclass(frozen=True)
class BradleyTerryFit:
    """Log-strengths ``theta`` (natural log, centred to mean 0) and how the fit ended."""

    models: list[str]
    theta: np.ndarray
    iterations: int
    max_score_residual: float  # largest |wins - expected wins| at the float optimum

    def ratings(self, scale: str = "elo", anchor: str | None = None) -> dict[str, float]:
        """Elo scale (400 log10 g, mean 1000 or ``anchor`` at 1000) or the logit scale (theta)."""
        if scale not in ("elo", "logit"):
            raise ExactStatsError(f"scale must be 'elo' or 'logit', got {scale!r}")
        shift = self.theta[self.models.index(anchor)] if anchor is not None else 0.0
        if anchor is not None and anchor not in self.models:
            raise ExactStatsError(f"anchor must be one of {self.models}, got {anchor!r}")
        t = self.theta - shift
        return {m: (1000 + ELO_SCALE * v if scale == "elo" else float(v)) for m, v in zip(self.models, t)}


def _float_counts(counts: BattleCounts) -> tuple[np.ndarray, np.ndarray]:
    W = np.array([[float(x) for x in row] for row in counts.wins])
    return W, W + W.T


def bradley_terry_float(counts: BattleCounts, tol: float = 1e-12, max_iter: int = 10_000) -> BradleyTerryFit:
    """Maximum-likelihood Bradley-Terry strengths: MM (Zermelo/Hunter) iterations, then Newton to ``tol``.

    Refuses (naming the unbeaten models) when the estimate does not exist.

    >>> fit = bradley_terry_float(battle_counts([("a", "b", "model_a")] * 2 + [("a", "b", "model_b")]))
    >>> round(float(fit.theta[0] - fit.theta[1]), 6)  # log 2: a wins two of three
    0.693147
    """
    bt_mle_exists(counts, explain=True)
    W, N = _float_counts(counts)
    k = len(counts.models)
    wins = W.sum(axis=1)
    g = np.ones(k)
    iterations = 0
    while iterations < 200:  # MM: safe, monotone, slow; a good start for Newton
        iterations += 1
        new = wins / (N / (g[:, None] + g[None, :])).sum(axis=1)
        new /= np.exp(np.log(new).mean())
        done = np.max(np.abs(np.log(new) - np.log(g))) < 1e-6
        g = new
        if done:
            break
    theta = np.log(g)
    while iterations < max_iter:  # Newton on the centred log-strengths
        iterations += 1
        grad, hess = _gradient_hessian(theta, W, N)
        step = np.linalg.lstsq(hess, -grad, rcond=None)[0]
        theta = theta + step - step.mean()
        if np.max(np.abs(grad)) < tol * max(1.0, N.sum()):
            break
    grad, _ = _gradient_hessian(theta, W, N)
    return BradleyTerryFit(list(counts.models), theta - theta.mean(), iterations, float(np.max(np.abs(grad))))


def _gradient_hessian(theta: np.ndarray, W: np.ndarray, N: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    P = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))  # P[i, j] = chance i beats j
    grad = W.sum(axis=1) - (N * P).sum(axis=1)
    weights = N * P * P.T
    hess = weights - np.diag(weights.sum(axis=1))
    return grad, hess


@dataclass(frozen=True)
class Certificate:
    """Exact score-equation residuals at a rational point near the float optimum."""

    strengths: list[Fraction]  # rational g_i (g = exp(theta) rounded)
    residuals: list[Fraction]  # wins_i - sum_j n_ij g_i / (g_i + g_j), exactly
    max_residual: Fraction
    newton_step: float  # length of the Newton step from that point (an estimate, not a proven bound)


def bt_certificate(counts: BattleCounts, fit: BradleyTerryFit, denominator: int = 10**9) -> Certificate:
    """Check a fit in exact arithmetic: the score equations ``W_i = sum_j n_ij g_i/(g_i+g_j)`` at
    rational strengths (the float optimum rounded to ``1/denominator``), and the length of the
    Newton step from there.

    The residuals are exact; the distance to the true optimum is estimated by the Newton step,
    which is *not* a proven bound (a rigorous one needs a curvature bound over the whole segment
    to the optimum). Small residuals relative to the battle counts say the float optimum solves
    the likelihood equations to that precision.

    >>> counts = battle_counts([("a", "b", "model_a")] * 2 + [("a", "b", "model_b")])
    >>> cert = bt_certificate(counts, bradley_terry_float(counts))
    >>> cert.max_residual < Fraction(1, 10**6)
    True
    """
    denominator = as_int(denominator, "denominator", minimum=1)
    g = [Fraction(math.exp(t)).limit_denominator(denominator) for t in fit.theta]
    k = len(g)
    residuals = []
    for i in range(k):
        expected = sum((counts.games(i, j) * g[i] / (g[i] + g[j]) for j in range(k) if j != i), Fraction(0))
        residuals.append(sum(counts.wins[i], Fraction(0)) - expected)
    W, N = _float_counts(counts)
    theta = np.array([math.log(x) for x in g])
    grad, hess = _gradient_hessian(theta, W, N)
    step = np.linalg.lstsq(hess, -grad, rcond=None)[0]
    return Certificate(g, residuals, max(abs(r) for r in residuals), float(np.linalg.norm(step - step.mean())))


def elo_ratings_float(
    battles: Iterable[Sequence[Any]], k: Any = 4, scale: float = 400, base: float = 10, init: float = 1000
) -> dict[str, float]:
    """Online Elo in battle order, FastChat's update: ``r_a += K (S_a - E_a)``, ``E_a = 1/(1 + base^((r_b - r_a)/scale))``.

    A tie scores 1/2. The result depends on the order of the battles (see :func:`elo_replay_exact`).

    >>> r = elo_ratings_float([("a", "b", "model_a")], k=4)
    >>> r["a"], r["b"]
    (1002.0, 998.0)
    """
    k = float(as_fraction(k, "k"))
    ratings: dict[str, float] = {}
    for a, b, w in checked_battles(battles):
        ra, rb = ratings.setdefault(a, init), ratings.setdefault(b, init)
        ea = 1 / (1 + base ** ((rb - ra) / scale))
        sa = 1.0 if w == "model_a" else 0.0 if w == "model_b" else 0.5
        ratings[a] = ra + k * (sa - ea)
        ratings[b] = rb + k * ((1 - sa) - (1 - ea))
    return dict(sorted(ratings.items()))


def elo_replay_exact(battles: Iterable[Sequence[Any]], k: Any = 4, init: Any = 1000) -> dict[str, Any]:
    """Online Elo replayed in exact symbolic arithmetic (SymPy), for a handful of battles.

    Every step is exact: K, the scores and the ratings are rational until the first expected
    score ``1/(1 + 10**((r_b - r_a)/400))``, which is irrational unless the rating gap is a multiple
    of 400; from then on the ratings are exact expressions in powers of 10. Refused beyond
    :data:`MAX_EXACT_ELO_BATTLES` battles (the expressions grow with every step): use
    :func:`elo_ratings_float`.

    >>> r = elo_replay_exact([("a", "b", "model_a")], k=4)
    >>> r["a"], r["b"]
    (1002, 998)
    """
    import sympy

    rows = checked_battles(battles)
    if len(rows) > MAX_EXACT_ELO_BATTLES:
        raise ExactStatsError(
            f"elo_replay_exact replays at most {MAX_EXACT_ELO_BATTLES} battles exactly, got {len(rows)}; "
            "use elo_ratings_float"
        )
    kk = sympy.Rational(str(as_fraction(k, "k")))
    start = sympy.Rational(str(as_fraction(init, "init")))
    ratings: dict[str, Any] = {}
    for a, b, w in rows:
        ra, rb = ratings.setdefault(a, start), ratings.setdefault(b, start)
        ea = 1 / (1 + sympy.Integer(10) ** ((rb - ra) / 400))
        sa = {"model_a": sympy.Integer(1), "model_b": sympy.Integer(0)}.get(w, sympy.Rational(1, 2))
        ratings[a] = ra + kk * (sa - ea)
        ratings[b] = rb - kk * (sa - ea)
    return dict(sorted(ratings.items()))


def _outcome_cells(counts: BattleCounts, ties: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every (pair, outcome) cell once, with its battle count as a weight: index arrays (a, b), outcome y
    (1: a won, 0: b won, 1/2: tie) and weight w. Battles of one cell are identical to the fit, so sums over
    battles are weighted sums over cells: nothing per battle is needed."""
    k = len(counts.models)
    a, b, y, w = [], [], [], []
    for i in range(k):
        for j in range(i + 1, k):
            cells = [(1.0, counts.beats[i][j]), (0.0, counts.beats[j][i])]
            if ties == "fair":
                cells.append((0.5, counts.ties[i][j]))
            for outcome, n in cells:
                if n:
                    a.append(i)
                    b.append(j)
                    y.append(outcome)
                    w.append(n)
    return np.array(a, dtype=int), np.array(b, dtype=int), np.array(y), np.array(w, dtype=float)


def bt_covariance_float(
    battles: Iterable[Sequence[Any]] | BattleCounts, fit: BradleyTerryFit, ties: str = "fair", kind: str = "sandwich"
) -> np.ndarray:
    """Covariance of the centred log-strengths: ``"model"`` (inverse observed information) or
    ``"sandwich"`` (robust: ``H+ (sum of per-battle score outer products) H+``). ``battles`` may be the
    battles or their :class:`BattleCounts` (the same numbers: battles of one pair and outcome are alike).

    >>> b = [("a", "b", "model_a"), ("a", "b", "model_b"), ("b", "c", "model_a"), ("c", "b", "model_a"),
    ...      ("a", "c", "model_a"), ("c", "a", "model_a")]
    >>> fit = bradley_terry_float(battle_counts(b))
    >>> bt_covariance_float(b, fit).shape
    (3, 3)
    """
    if kind not in ("model", "sandwich"):
        raise ExactStatsError(f"kind must be 'model' or 'sandwich', got {kind!r}")
    ties = as_tie_rule(ties, ARENA_TIE_RULES)
    counts = battles if isinstance(battles, BattleCounts) else battle_counts(battles, ties)
    if counts.models != fit.models:
        raise ExactStatsError("fit must be of the same models as the battles")
    a, b, y, w = _outcome_cells(counts, ties)
    k = len(fit.models)
    p = 1 / (1 + np.exp(fit.theta[b] - fit.theta[a]))
    info = np.zeros((k, k))
    np.add.at(info, (a, a), w * p * (1 - p))
    np.add.at(info, (b, b), w * p * (1 - p))
    np.add.at(info, (a, b), -w * p * (1 - p))
    np.add.at(info, (b, a), -w * p * (1 - p))
    # the centred parameterisation: the information is a graph Laplacian whose null direction (all strengths up
    # by the same amount) is removed exactly by (L + J/k)^-1 - J/k, the pseudo-inverse without rounding noise
    ones = np.full((k, k), 1.0 / k)
    inv = np.linalg.inv(info + ones) - ones
    if kind == "model":
        return np.asarray(inv)
    scores = np.zeros((len(y), k))
    scores[np.arange(len(y)), a] = y - p
    scores[np.arange(len(y)), b] = -(y - p)
    return np.asarray(inv @ (scores.T @ (scores * w[:, None])) @ inv)


def bt_bootstrap_float(
    battles: Iterable[Sequence[Any]] | BattleCounts,
    draws: int = 200,
    seed: Any = 0,
    ties: str = "fair",
    progress: bool = False,
) -> tuple[list[str], np.ndarray, int]:
    """Refit on ``draws`` resamples of the battles (with replacement): (models, draws x models centred
    log-strengths, resamples skipped because the estimate did not exist in them). A resample of N battles
    is a multinomial draw of N over the (pair, outcome) cells, so it is made from the counts, never per
    battle. ``progress`` shows a bar on stderr (tqdm).

    >>> b = [("a", "b", "model_a"), ("b", "a", "model_a"), ("a", "b", "model_a")] * 5
    >>> models, thetas, skipped = bt_bootstrap_float(b, draws=20)
    >>> thetas.shape[1], skipped >= 0
    (2, True)
    """
    draws = as_int(draws, "draws", minimum=1)
    seed = as_int(seed, "seed", minimum=0)
    ties = as_tie_rule(ties, ARENA_TIE_RULES)
    counts = battles if isinstance(battles, BattleCounts) else battle_counts(battles, "exclude")
    models = counts.models
    # every battle falls in a cell: a win either way or a tie, whatever the tie rule (ties are resampled too)
    cells = pair_totals(counts)
    weights = np.array([c for cell in cells for c in cell[2:]], dtype=float)
    total = int(weights.sum())
    rng = np.random.default_rng(seed)
    out, skipped = [], 0
    steps: Iterable[int] = range(draws)
    if progress:
        from tqdm import tqdm

        steps = tqdm(steps, desc="bootstrap", unit="draw", file=sys.stderr, dynamic_ncols=True)
    for _ in steps:
        drawn = rng.multinomial(total, weights / total).reshape(-1, 3)
        sample = battle_counts_from_pairs([(a, b, *map(int, d)) for (a, b, *_), d in zip(cells, drawn)], ties)
        if sample.models != models or not bt_mle_exists(sample):
            skipped += 1
            continue
        out.append(bradley_terry_float(sample, tol=1e-9).theta)
    return models, np.array(out).reshape(-1, len(models)), skipped


def rank_intervals_float(fit: BradleyTerryFit, cov: np.ndarray, alpha: Any = "0.05") -> dict[str, tuple[int, int]]:
    """Rank interval per model from Holm-corrected pairwise z-tests of the strength differences.

    Model ``i`` ranks at best ``1 + (models significantly stronger)`` and at worst
    ``k - (models significantly weaker)``, with Holm's correction over all pairs keeping the
    chance of any wrong separation at most ``alpha``: not overlapping error bars.

    >>> fit = BradleyTerryFit(["a", "b", "c"], np.array([1.0, 0.0, -1.0]), 0, 0.0)
    >>> rank_intervals_float(fit, np.eye(3) * 0.01)
    {'a': (1, 1), 'b': (2, 2), 'c': (3, 3)}
    """
    from statistics import NormalDist

    from .multiplicity import holm_adjust

    k = len(fit.models)
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    if not pairs:
        return {fit.models[0]: (1, 1)}
    ps = []
    for i, j in pairs:
        var = cov[i, i] + cov[j, j] - 2 * cov[i, j]
        z = abs(fit.theta[i] - fit.theta[j]) / math.sqrt(max(var, 1e-300))
        ps.append(Fraction(min(1.0, 2 * (1 - NormalDist().cdf(z)))))
    adjusted = holm_adjust(ps)
    level = as_fraction(alpha, "alpha")
    better = [0] * k
    worse = [0] * k
    for (i, j), p in zip(pairs, adjusted):
        if p <= level:
            hi, lo = (i, j) if fit.theta[i] > fit.theta[j] else (j, i)
            better[lo] += 1
            worse[hi] += 1
    return {m: (1 + better[i], k - worse[i]) for i, m in enumerate(fit.models)}
