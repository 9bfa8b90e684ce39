"""How stable is a ranking? Redrawing questions, split halves, and the exact two-model case.

The question set is treated as the population: draw ``n`` questions with
replacement, score every model on the draw, and see who comes first. A draw is a
vector of multinomial counts over the distinct correctness patterns (questions
every model answers alike are interchangeable), and all models are scored at once
by one matrix product; no Python loop runs over draws or models. Ties are broken
uniformly at random.

>>> C = [[1, 1, 1, 0], [0, 1, 0, 0]]
>>> top_stays_top_float(C, n=4, draws=1000, seed=0) > 0.9
True
>>> redraw_win_probability(1, 0, 2, 1)
Fraction(3, 4)
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from math import comb
from typing import Any, NamedTuple

from ._binomial import _mpz, binomial_weights, reduced_fraction, truncated_binomial_sums
from ._lazy import np
from ._validate import ExactStatsError, as_binary_matrix, as_int, as_tie_rule

__all__ = [
    "redraw_counts",
    "top_stays_top_float",
    "top_three_keep_order_float",
    "top_stays_top_clustered_float",
    "SplitHalf",
    "split_half_float",
    "SplitHalfExact",
    "split_half_two_models",
    "redraw_win_probability",
    "REDRAW_TIE_RULES",
]

# Draws are scored in blocks so that the draws x questions count matrix stays small.
_BLOCK_CELLS = 8_000_000


def _setup(C: Any, n: Any, draws: Any) -> tuple[np.ndarray, int, int]:
    C = as_binary_matrix(C, "C")
    n = as_int(n, "n", minimum=1)
    draws = as_int(draws, "draws", minimum=1)
    return C, n, draws


def redraw_counts(questions: int, n: int, draws: int, rng: np.random.Generator) -> np.ndarray:
    """Multinomial counts (draws x questions): how often each question is drawn in each redraw.

    >>> import numpy as np
    >>> redraw_counts(5, 5, 2, np.random.default_rng(0)).sum(axis=1).tolist()
    [5, 5]
    """
    idx = rng.integers(0, questions, size=(draws, n))
    flat = (np.arange(draws)[:, None] * questions + idx).ravel()
    return np.bincount(flat, minlength=draws * questions).reshape(draws, questions)


def _patterns(C: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct patterns (columns of C: 0/1 answers, or counts per question) and how many questions share each.

    Questions with the same pattern are interchangeable in a redraw, so a redraw only
    needs counts over P patterns instead of Q questions (P <= min(Q, 2**models)).
    """
    models, questions = C.shape
    if models <= 62 and C.max() <= 1:  # a 0/1 column's pattern as one integer: a 1-D unique, not a row-wise one
        codes = (C.T.astype(np.int64) << np.arange(models, dtype=np.int64)).sum(axis=1)
        values, counts = np.unique(codes, return_counts=True)
        patterns = ((values[:, None] >> np.arange(models)) & 1).astype(np.float64)
    else:
        patterns, counts = np.unique(C.T, axis=0, return_counts=True)
        patterns = patterns.astype(np.float64)
    return patterns, counts


def _redraw_scores(C: np.ndarray, n: int, draws: int, seed: Any) -> Iterator[np.ndarray]:
    """Yield blocks of redraw scores (block x models), ties broken by a random jitter below 1.

    A redraw of n questions is n uniform question indices. Unless the P distinct patterns
    are few against n, the indices are drawn: counted per question and multiplied by C where
    they cover the questions densely, else the drawn rows gathered and summed (draws x n x k
    adds, no Python loop). When P is small (P <= n / 8), what matters is how many drawn
    questions fall on each pattern, a multinomial draw of n over the patterns' shares
    (draws x P work, whatever n is: two models on a million questions have at most four
    patterns), and the counts times the pattern matrix score every model at once. NumPy's
    multinomial draws a binomial per pattern (tens of ns each) against a few ns per index, so
    with P near n (a thousand models, every question its own pattern) it was the slow way.
    """
    from threadpoolctl import threadpool_limits

    rng = np.random.default_rng(seed)
    models, questions = C.shape
    if models <= 62 or 8 * questions <= n:
        patterns, counts = _patterns(C)
        P = len(counts)
    else:  # many models: their patterns (a row-wise unique, 0.15 s at 94 x 15,000) are not needed to draw indices
        patterns, counts, P = None, None, questions
    index_type = np.uint16 if questions <= 1 << 16 else np.int64
    gather = 8 * P > n  # the multinomial only where patterns are few (docstring)
    # Where the drawn indices cover the questions densely (questions <= n * models), each block's indices are
    # counted per question and one product with C scores every model: the same draws and the same whole-number
    # scores as gathering the rows (float32 sums of at most n < 2**24 ones are exact), without a block x n x
    # models array (1,000 models x 15,000 questions: 0.15 s against 1.2 s).
    dense = gather and questions <= n * models and n < 1 << 24
    rows: np.ndarray = C.T.astype(np.float32 if dense else np.int16 if n < 1 << 15 else np.int64)
    block = max(1, _BLOCK_CELLS // (questions if dense else n * models if gather else P))
    shares = None if counts is None else counts / counts.sum()
    for start in range(0, draws, block):
        size = min(block, draws - start)
        if gather:
            drawn = rng.integers(0, questions, size=(size, n), dtype=index_type)
            if dense:
                flat = (np.arange(size)[:, None] * questions + drawn).ravel()
                per_question = np.bincount(flat, minlength=size * questions).reshape(size, questions)
                with threadpool_limits(1, user_api="blas"):
                    scores = (per_question.astype(np.float32) @ rows).astype(np.float64)
            else:
                scores = rows[drawn].sum(axis=1, dtype=np.float64)
        else:
            assert patterns is not None and shares is not None  # gather is False only where they were found
            W = rng.multinomial(n, shares, size=size)  # drawn questions per pattern
            with threadpool_limits(1, user_api="blas"):  # a thin product: threads only contend
                scores = W.astype(np.float64) @ patterns
        # scores are whole numbers: a jitter in [0, 0.5) orders tied models uniformly at random
        yield scores + rng.random(scores.shape) * 0.5


def _full_order(C: np.ndarray) -> np.ndarray:
    totals = C.sum(axis=1)
    return np.argsort(-totals, kind="stable")  # ties in the full set: lower row first


# Left out of the redraws: models that tie or beat the leader in any draw with total chance below this.
NEGLIGIBLE = 1e-12


def _contenders(C: np.ndarray, top: int, n: int, draws: int) -> np.ndarray:
    """Rows that can matter: the leader and every model not provably (almost) always behind it.

    In one redraw the leader's lead over model j is a sum of n draws of +1, -1, 0 with
    chances p_b, p_c, 1 - p_b - p_c; Chernoff's bound gives P(lead <= 0) <=
    (1 - (sqrt(p_b) - sqrt(p_c))**2)**n when p_b >= p_c. Models are dropped, least likely
    first, while the summed bound over all draws stays below ``NEGLIGIBLE``: with
    probability at least 1 - 1e-12 no dropped model would have changed any draw's winner.
    """
    models, questions = C.shape
    lead = C[top].astype(np.int64)
    p_b = ((lead == 1) & (C == 0)).sum(axis=1) / questions
    p_c = ((lead == 0) & (C == 1)).sum(axis=1) / questions
    gap = np.where(p_b > p_c, (np.sqrt(p_b) - np.sqrt(p_c)) ** 2, 0.0)
    with np.errstate(divide="ignore"):
        log_bound = n * np.log1p(-np.minimum(gap, 1.0)) + np.log(draws)
    bound = np.exp(log_bound)
    bound[top] = np.inf
    order = np.argsort(bound, kind="stable")
    dropped = order[np.cumsum(bound[order]) <= NEGLIGIBLE]
    return np.setdiff1d(np.arange(models), dropped)


def top_stays_top_float(C: Any, n: int, draws: int = 2000, seed: Any = 0, on_block: Any = None) -> float:
    """Share of redraws of ``n`` questions in which the full-set leader is first (a Monte Carlo estimate).

    ``C`` is models x questions, 0/1. The leader is the row with the most correct
    answers on all questions (the lower row on a tie). ``on_block(count)``, if given, is
    called after each block of redraws (for a progress bar); it does not change the result.
    Models that a Chernoff bound shows cannot tie or beat the leader in any draw (total chance
    below 1e-12) are not simulated: at 200 models most of the work goes.

    >>> top_stays_top_float([[1, 1, 1, 1], [0, 0, 0, 0]], 4, draws=100)
    1.0
    """
    C, n, draws = _setup(C, n, draws)
    top = _full_order(C)[0]
    keep = _contenders(C, top, n, draws)
    top = int(np.flatnonzero(keep == top)[0])
    C = C[keep]
    hits = 0
    for s in _redraw_scores(C, n, draws, seed):
        hits += int(np.sum(s.argmax(axis=1) == top))
        if on_block is not None:  # a progress bar: called with the number of redraws just done
            on_block(len(s))
    return hits / draws


def top_three_keep_order_float(C: Any, n: int, draws: int = 2000, seed: Any = 0) -> float:
    """Share of redraws in which the full set's top three come first, second and third, in order.

    >>> top_three_keep_order_float([[1, 1, 1, 1], [1, 1, 0, 0], [0, 0, 0, 0]], 4, draws=1000)  # exactly 15/16
    0.943
    """
    C, n, draws = _setup(C, n, draws)
    if C.shape[0] < 3:
        raise ExactStatsError(f"C must have at least 3 rows (models), got {C.shape[0]}")
    want = _full_order(C)[:3]
    hits = 0
    for s in _redraw_scores(C, n, draws, seed):
        order = np.argsort(-s, axis=1)[:, :3]
        hits += int(np.sum(np.all(order == want, axis=1)))
    return hits / draws


class SplitHalf(NamedTuple):
    agreement: float  # share of splits where the winner of one half also wins the other
    advantage_selected: float  # winner's lead over the best other model, in the half that chose it
    advantage_held_out: float  # the same model's lead in the other half


def split_half_float(C: Any, splits: int = 3000, seed: Any = 0) -> SplitHalf:
    """Split the questions into random halves, pick the winner on one half, test it on the other.

    >>> split_half_float([[1] * 6, [0] * 6], splits=50)
    SplitHalf(agreement=1.0, advantage_selected=1.0, advantage_held_out=1.0)
    """
    C = as_binary_matrix(C, "C")
    splits = as_int(splits, "splits", minimum=1)
    models, questions = C.shape
    if models < 2 or questions < 2:
        raise ExactStatsError(f"C must have at least 2 models and 2 questions, got shape {C.shape}")
    rng = np.random.default_rng(seed)
    half = questions // 2
    base = np.zeros(questions, dtype=np.int8)
    base[:half] = 1
    # one byte per cell (the same permutations as any dtype would get); the products run in chunks,
    # so memory stays at splits x questions bytes plus one chunk of floats
    masks = rng.permuted(np.broadcast_to(base, (splits, questions)), axis=1)
    cf = C.T.astype(np.float64)
    right = cf.sum(axis=0)
    acc_a = np.empty((splits, models))
    step = max(1, _BLOCK_CELLS // questions)
    for start in range(0, splits, step):
        acc_a[start : start + step] = masks[start : start + step].astype(np.float64) @ cf
    acc_b = (right - acc_a) / (questions - half)
    acc_a /= half
    jitter = rng.random(acc_a.shape) * (0.5 / questions)
    winner = np.argmax(acc_a + jitter, axis=1)
    rows = np.arange(splits)
    agree = np.argmax(acc_b + rng.random(acc_b.shape) * (0.5 / questions), axis=1) == winner

    def lead(acc: np.ndarray) -> np.ndarray:
        others = acc.copy()
        others[rows, winner] = -np.inf
        return np.asarray(acc[rows, winner] - others.max(axis=1))

    return SplitHalf(float(agree.mean()), float(lead(acc_a).mean()), float(lead(acc_b).mean()))


REDRAW_TIE_RULES = ("fair", "lose")


def redraw_win_probability(b: int, c: int, questions: int, n: int, ties: str = "fair") -> Fraction:
    """Exact chance that model 1 outscores model 2 when ``n`` of ``questions`` are redrawn with replacement.

    ``b`` questions only model 1 got right and ``c`` only model 2; the rest do not
    move the difference. A draw adds +1, -1 or 0 to the lead with chances
    ``b/Q, c/Q, 1 - (b+c)/Q``; the sum is a trinomial walk. ``ties="fair"`` counts a
    tie as a coin flip (credit 1/2), ``"lose"`` as a loss.

    >>> redraw_win_probability(2, 1, 4, 2)
    Fraction(21, 32)
    """
    questions = as_int(questions, "questions", minimum=1)
    b = as_int(b, "b", minimum=0, maximum=questions)
    c = as_int(c, "c", minimum=0, maximum=questions - b)
    n = as_int(n, "n", minimum=1)
    ties = as_tie_rule(ties, REDRAW_TIE_RULES)
    rho = questions - b - c
    # model 2's draws among m discordant ones must be at most (m - 1) // 2 for a strict win
    wins = truncated_binomial_sums(c, b, [(m - 1) // 2 for m in range(n + 1)])
    num = half_num = _mpz(0)
    central = _mpz(1)  # C(m, m/2) (b c)^(m/2) at even m: a tie
    for m, (weight, g) in enumerate(zip(binomial_weights(n, rho), wins)):
        num += weight * g
        if ties == "fair" and m % 2 == 0:  # a tie (only the fair rule credits it) needs the central term
            half_num += weight * central
            central = central * (m + 1) * (m + 2) // ((m // 2 + 1) ** 2) * b * c
    return reduced_fraction(2 * num + half_num, 2 * _mpz(questions) ** n, radical=2 * questions)


class SplitHalfExact(NamedTuple):
    agreement: Fraction  # chance that the winner of the first half also wins the second (ties: coin flips)
    advantage_selected: Fraction  # expected lead of the first half's winner there (accuracy units)
    advantage_held_out: Fraction  # expected lead of that same model in the second half


def split_half_two_models(b: int, c: int, questions: int) -> SplitHalfExact:
    """Exact split-half for two models: halve the questions at random, pick a winner, test it.

    ``b`` questions only model 1 got right and ``c`` only model 2; ``questions`` is
    even and split into two halves of equal size, every split equally likely. The
    discordant questions that land in the first half follow a multivariate
    hypergeometric law, so the three answers are finite exact sums. A tied half is
    won by a coin flip. This is the two-model core of `split_half_float`: with more
    models the others can only take wins away.

    >>> split_half_two_models(1, 0, 2)
    SplitHalfExact(agreement=Fraction(1, 2), advantage_selected=Fraction(1, 2), advantage_held_out=Fraction(0, 1))
    """
    questions = as_int(questions, "questions", minimum=2)
    if questions % 2:
        raise ExactStatsError(f"questions must be even (two equal halves), got {questions}")
    b = as_int(b, "b", minimum=0, maximum=questions)
    c = as_int(c, "c", minimum=0, maximum=questions - b)
    half, rest = questions // 2, questions - b - c
    rest_ways = [comb(rest, j) for j in range(half + 1)]
    b_ways = [comb(b, x) for x in range(b + 1)]
    c_ways = [comb(c, y) for y in range(c + 1)]
    # numerators over C(questions, half); the agreement carries a factor 2 for the coin flips
    agree2 = sel = held = 0
    for x in range(min(b, half) + 1):
        for y in range(min(c, half - x) + 1):
            if half - x - y > rest:
                continue
            w = b_ways[x] * c_ways[y] * rest_ways[half - x - y]
            first, second = x - y, (b - x) - (c - y)
            sel += w * abs(first)
            if first == 0 or second == 0:
                agree2 += w  # at least one coin: the same winner with chance 1/2
            elif (first > 0) == (second > 0):
                agree2 += 2 * w
            if first:
                held += w * (second if first > 0 else -second)
    total = comb(questions, half)
    return SplitHalfExact(Fraction(agree2, 2 * total), Fraction(sel, total * half), Fraction(held, total * half))


def top_stays_top_clustered_float(S: Any, draws: int = 2000, seed: Any = 0) -> float:
    """Share of redraws of the questions in which the full-set leader is first, when questions repeat.

    ``S`` is models x questions, each entry a model's right answers over that question's samples
    (epochs); a redraw draws whole questions with replacement, never single samples, so the spread
    between questions is what varies. Ties are broken at random; the leader is the row with the
    most right answers (the lower row on a tie).

    >>> top_stays_top_clustered_float([[3, 3, 2, 3], [0, 1, 0, 0]], draws=100)
    1.0
    """
    S = np.asarray(S)
    if S.ndim != 2 or 0 in S.shape or S.dtype.kind not in "iu" or (S < 0).any():
        raise ExactStatsError(f"S must be a models x questions matrix of counts >= 0, got shape {S.shape}")
    draws = as_int(draws, "draws", minimum=1)
    top = int(_full_order(S)[0])
    # the redraws of top_stays_top_float, over whole questions' counts instead of 0/1 answers
    hits = sum(int(np.sum(s.argmax(axis=1) == top)) for s in _redraw_scores(S, S.shape[1], draws, seed))
    return hits / draws
