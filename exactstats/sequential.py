"""Stopping a paired evaluation early, safely: an anytime-valid test whose error rates are exact.

Two models answer the same questions one at a time. Only a *discordant* question (one model right,
the other wrong) says anything about which is better. If the two are equally good, in the sense that
on every question "only the first right" and "only the second right" are equally likely, each
discordant question goes to either model like a fair coin, whatever came before. After ``m``
discordant questions the record is a walk: ``b`` won by the first model, ``c = m - b`` by the second.

A stopping rule looks after every question and stops, declaring a winner, once ``min(b, c)`` falls to
its threshold ``t_m``. Its false-alarm rate is the chance that a fair walk crosses a threshold before
the horizon; because the walk moves one step at a time that chance is a finite sum over paths, computed
here exactly, in integers, by dynamic programming over ``(m, b)``. Three rules (:data:`RULES`):

``"mixture"`` (valid under continuous monitoring)
    The likelihood ratio of "the first model wins each discordant question with chance theta" against
    theta = 1/2, averaged over a Beta(a, a) prior on theta: ``E = 2**m B(b + a, c + a) / B(a, a)``, a
    rational number (:func:`mixture_e_value`). For equal models it is a nonnegative martingale with mean 1,
    so by Ville's inequality it ever reaches ``1/alpha`` with chance at most ``alpha``, however long one
    watches. Stop when ``E >= 1/alpha``; ``1/max E`` so far is an anytime-valid p-value.
``"repeated-mcnemar"``
    Stop at the first look where the exact two-sided McNemar p-value is at most ``alpha``: valid for one
    look at a fixed horizon, not for many.
``"posterior-threshold"``
    Stop when the posterior chance that the first model is better (uniform prior on theta),
    ``P(Bin(b + c + 1, 1/2) <= b)``, is at most ``alpha`` or at least ``1 - alpha``: the shape of
    bayesbench's rule (0.05 / 0.95).

Questions arrive with chances ``p_b`` (only the first right), ``p_c`` (only the second right) and
``1 - p_b - p_c`` (both right or both wrong); equal models have ``p_b = p_c``. The false-alarm rate over
``n`` questions is largest when every question is discordant (more discordant steps, more chances to
cross), so :func:`false_alarm_curve` gives that worst case for every horizon at once.

What it does not protect against: the guarantee is about the order the questions are asked in; a
reader who reorders a finished run, or restarts a run until it stops, loses it. It tests "equally good
on every question", not equal accuracy on a fixed benchmark whose questions were not drawn at random.

>>> mixture_e_value(9, 1)  # 9 of 10 discordant questions to the first model: E = 2**10 / (11 * 10)
Fraction(512, 55)
>>> float(false_alarm_probability(100, "repeated-mcnemar")) > 0.05 > float(false_alarm_probability(100))
True
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

from ._binomial import _mpz, binomial_weights, comb, reduced_fraction, trinomial_integers
from ._lazy import np
from ._validate import (
    ExactStatsError,
    as_beta_prior,
    as_binary_vector,
    as_cell_probabilities,
    as_choice,
    as_int,
    as_probability,
    refuse_if_too_big,
    same_length,
)

__all__ = [
    "RULES",
    "MAX_EXACT_QUESTIONS",
    "mixture_e_value",
    "stopping_thresholds",
    "stopping_thresholds_float",
    "OperatingCharacteristics",
    "operating_characteristics",
    "operating_characteristics_float",
    "false_alarm_probability",
    "false_alarm_curve",
    "false_alarm_curve_float",
    "SequentialResult",
    "MixtureMonitor",
    "sequential_test",
    "StoppingTimes",
    "stopping_times",
]

RULES = ("mixture", "repeated-mcnemar", "posterior-threshold")
MAX_EXACT_QUESTIONS = 20_000  # the exact walk at 20,000 steps takes seconds; beyond, the float twins
WALK_BITS = 300_000


# --- the rules' thresholds ----------------------------------------------------------------------


def _alpha(alpha: Any, rule: str) -> Fraction:
    a = as_probability(alpha, "alpha", open_low=True, open_high=True)
    if rule == "posterior-threshold" and a >= Fraction(1, 2):
        raise ExactStatsError(f"alpha must lie in (0, 1/2) for the posterior-threshold rule, got {a}")
    return a


def mixture_e_value(b: int, c: int, prior: int = 1) -> Fraction:
    """E-value of the Beta(prior, prior) mixture after ``b`` discordant questions won by the first model
    and ``c`` by the second: ``2**(b+c) B(b + prior, c + prior) / B(prior, prior)``, exactly.

    >>> mixture_e_value(0, 0), mixture_e_value(3, 0), mixture_e_value(5, 5)
    (Fraction(1, 1), Fraction(2, 1), Fraction(256, 693))
    >>> mixture_e_value(3, 0, prior=2)
    Fraction(8, 5)
    """
    b = as_int(b, "b", minimum=0)
    c = as_int(c, "c", minimum=0)
    a = as_beta_prior(prior)
    num, den = _mixture_terms(b + c, b, a)
    return reduced_fraction(num, den)


def _mixture_terms(m: int, b: int, a: int) -> tuple[int, int]:
    """(numerator, denominator) of the mixture e-value, unreduced:
    ``2**m (2a-1) C(2a-2, a-1) / ((m+2a-1) C(m+2a-2, b+a-1))``."""
    return (2 * a - 1) * comb(2 * a - 2, a - 1) << m, (m + 2 * a - 1) * comb(m + 2 * a - 2, b + a - 1)


def _mixture_thresholds(horizon: int, alpha: Fraction, a: int) -> list[int]:
    """Largest ``t < m/2`` with ``E(m, t) >= 1/alpha`` for each m (E falls as b rises to m/2)."""
    an, ad = alpha.numerator, alpha.denominator

    def stops(m: int, t: int) -> bool:
        num, den = _mixture_terms(m, t, a)
        return num * an >= den * ad

    out, t = [], -1
    for m in range(horizon + 1):
        cap = (m + 1) // 2 - 1  # b = c never stops: there is no winner to declare
        t = min(t, cap)
        while t + 1 <= cap and stops(m, t + 1):
            t += 1
        while t >= 0 and not stops(m, t):
            t -= 1
        out.append(t)
    return out


def stopping_thresholds(horizon: int, rule: str = "mixture", alpha: Any = "0.05", prior: int = 1) -> list[int]:
    """``t_m`` for m = 0..horizon discordant questions: ``rule`` stops once ``min(b, c) <= t_m`` with
    ``b != c`` (-1: it cannot stop yet). Exact integer comparisons throughout.

    >>> stopping_thresholds(12)  # the mixture first stops at 8 to 0 (E = 256/9), then 11 to 1
    [-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 1]
    >>> stopping_thresholds(12, "repeated-mcnemar")
    [-1, -1, -1, -1, -1, -1, 0, 0, 0, 1, 1, 1, 2]
    """
    horizon = as_int(horizon, "horizon", minimum=0)
    rule = as_choice(rule, "rule", RULES)
    alpha = _alpha(alpha, rule)
    a = as_beta_prior(prior)
    if horizon > MAX_EXACT_QUESTIONS:
        raise ExactStatsError(
            f"horizon must be at most {MAX_EXACT_QUESTIONS:,} for exact thresholds, got {horizon:,}; "
            "use stopping_thresholds_float"
        )
    from .power import mcnemar_rejection_thresholds

    if rule == "mixture":
        return _mixture_thresholds(horizon, alpha, a)
    if rule == "repeated-mcnemar":
        return mcnemar_rejection_thresholds(horizon, alpha)
    # posterior: P(Bin(m+1, 1/2) <= b) <= alpha is McNemar's two-sided region at level 2 alpha on m + 1
    return mcnemar_rejection_thresholds(horizon + 1, 2 * alpha)[1:]


def stopping_thresholds_float(horizon: int, rule: str = "mixture", alpha: Any = "0.05", prior: int = 1) -> np.ndarray:
    """Float twin of :func:`stopping_thresholds` (lgamma and SciPy's binomial cdf), for any horizon.

    >>> stopping_thresholds_float(12).tolist()
    [-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 1]
    """
    from scipy import special, stats

    horizon = as_int(horizon, "horizon", minimum=0)
    rule = as_choice(rule, "rule", RULES)
    al = float(_alpha(alpha, rule))
    a = as_beta_prior(prior)
    m = np.arange(horizon + 1)
    cap = (m + 1) // 2 - 1
    b = np.arange(horizon // 2 + 1)
    t = np.full(horizon + 1, -1)
    for i in range(horizon + 1):  # vectorised over b for each m; fine to a million steps
        bs = b[: cap[i] + 1]
        if rule == "mixture":
            log_e = i * math.log(2) + special.betaln(bs + a, i - bs + a) - special.betaln(a, a)
            ok = log_e >= math.log(1 / al) - 1e-12
        elif rule == "repeated-mcnemar":
            ok = 2 * stats.binom.cdf(bs, i, 0.5) <= al * (1 + 1e-12)
        else:
            ok = stats.binom.cdf(bs, i + 1, 0.5) <= al * (1 + 1e-12)
        t[i] = int(np.flatnonzero(ok)[-1]) if ok.any() else -1
    return t


# --- the walk ------------------------------------------------------------------------------------


def _running(lo: int, size: int, m: int, t: int) -> tuple[int, int]:
    """The b of the walks still running after step m, ``[keep_lo, keep_hi]``, from those at ``lo .. lo+size-1``:
    the rule stops at ``min(b, m - b) <= t`` (capped below m/2: b = c never stops)."""
    t = min(int(t), (m + 1) // 2 - 1)
    return max(lo, t + 1), min(lo + size - 1, m - t - 1)


def _walk(thresholds: Sequence[int], beta: int, gamma: int) -> Iterator[tuple[Any, Any]]:
    """For m = 0, 1, ...: the weight of the walks stopped by step m for the first model (b high) and for
    the second, each walk weighted ``beta**b gamma**c`` and scaled by ``(beta + gamma)**m``."""
    total = beta + gamma
    unit = beta == gamma == 1
    v = np.array([_mpz(1)], dtype=object)  # weights of the running walks at b = lo, lo + 1, ...
    lo = 0
    first = second = _mpz(0)
    for m, t in enumerate(thresholds):
        if m > 0:
            first, second = first * total, second * total
            up, stay = (v, v) if unit else (v * beta, v * gamma)
            w = np.empty(len(v) + 1, dtype=object)
            w[0], w[-1] = stay[0], up[-1]
            w[1:-1] = up[:-1] + stay[1:]
            v = w
        keep_lo, keep_hi = _running(lo, len(v), m, t)
        if keep_lo > lo:
            second += sum(v[: keep_lo - lo], _mpz(0))
        if keep_hi < lo + len(v) - 1:
            first += sum(v[max(keep_hi + 1 - lo, 0) :], _mpz(0))
        v = v[keep_lo - lo : keep_hi - lo + 1] if keep_lo <= keep_hi else v[:0]
        lo = keep_lo
        yield first, second


class OperatingCharacteristics(NamedTuple):
    """What a stopping rule does within ``n`` questions: the chance it stops declaring the first model
    better, the second, either (``stop``), and the expected number of questions asked, ``E[min(T, n)]``."""

    first: Fraction
    second: Fraction
    stop: Fraction
    expected_questions: Fraction


def _check_size(n: int, twin: str) -> None:
    if n > MAX_EXACT_QUESTIONS:
        raise ExactStatsError(f"n must be at most {MAX_EXACT_QUESTIONS:,} for the exact walk, got {n:,}; use {twin}")


def operating_characteristics(
    n: int, p_b: Any, p_c: Any, rule: str = "mixture", alpha: Any = "0.05", prior: int = 1
) -> OperatingCharacteristics:
    """Exact chances that ``rule`` stops within ``n`` questions (for each model) and the expected number
    of questions it asks, when each question is "only the first right" with ``p_b`` and "only the second
    right" with ``p_c``, independently. ``p_b = p_c`` gives false alarms; ``p_b != p_c`` power.

    The expected count uses ``sum_{t<n} P(M_t = m) = P(M_n > m) / (p_b + p_c)`` for the binomial number
    ``M_t`` of discordant questions among the first t: one walk, one binomial, no sum over question orders.

    >>> oc = operating_characteristics(20, "1/2", "1/2", "repeated-mcnemar")
    >>> oc.stop, oc.first == oc.second  # twice the 5% a single look at question 20 would allow
    (Fraction(27949, 262144), True)
    """
    n = as_int(n, "n", minimum=1)
    pb, pc = as_cell_probabilities(p_b, p_c)
    _check_size(n, "operating_characteristics_float")
    if pb + pc == 0:  # no question is ever discordant: the rule never stops (its arguments still checked)
        stopping_thresholds(0, rule, alpha, prior)
        return OperatingCharacteristics(Fraction(0), Fraction(0), Fraction(0), Fraction(n))
    den, beta, gamma, rho = trinomial_integers(pb, pc)
    # the walk's weights grow to n log2(den) bits: beyond about 300,000 a run takes minutes
    refuse_if_too_big(n * math.log2(den), "operating_characteristics", "operating_characteristics_float", WALK_BITS)
    s = beta + gamma
    stopped = list(_walk(stopping_thresholds(n, rule, alpha, prior), beta, gamma))
    weights = list(binomial_weights(n, rho))  # C(n, m) rho^(n-m): m discordant questions, in any order
    first = sum((w * f for w, (f, _) in zip(weights, stopped)), _mpz(0))
    second = sum((w * g for w, (_, g) in zip(weights, stopped)), _mpz(0))
    scale = _mpz(den) ** n
    # E[min(T, n)] = (den / s) sum_{m<n} (1 - S_m / s^m) P(M_n > m), over the common denominator s^(n+1) den^(n-1)
    tail, expected, s_pow = _mpz(0), _mpz(0), [_mpz(1)]
    for _ in range(n):
        s_pow.append(s_pow[-1] * s)
    for m in range(n - 1, -1, -1):
        tail += weights[m + 1] * s_pow[m + 1]  # den^n P(M_n > m)
        f, g = stopped[m]
        expected += (s_pow[m] - f - g) * s_pow[n - m] * tail
    return OperatingCharacteristics(
        reduced_fraction(first, scale),
        reduced_fraction(second, scale),
        reduced_fraction(first + second, scale),
        reduced_fraction(expected * den, s_pow[n] * s * scale),
    )


def operating_characteristics_float(
    n: int, p_b: Any, p_c: Any, rule: str = "mixture", alpha: Any = "0.05", prior: int = 1
) -> tuple[float, float, float, float]:
    """Float twin of :func:`operating_characteristics`: the walk in float64, SciPy's binomial weights.

    >>> [round(x, 6) for x in operating_characteristics_float(20, "1/2", "1/2", "repeated-mcnemar")][:3]
    [0.053308, 0.053308, 0.106617]
    """
    from scipy import stats

    n = as_int(n, "n", minimum=1)
    pb, pc = as_cell_probabilities(p_b, p_c)
    ts = stopping_thresholds_float(n, rule, alpha, prior)
    d = float(pb + pc)
    if d == 0:
        return 0.0, 0.0, 0.0, float(n)
    f, g = _walk_float(ts, float(pb / (pb + pc)))
    pmf = stats.binom.pmf(np.arange(n + 1), n, d)
    first, second = float(pmf @ f), float(pmf @ g)
    survive = 1 - f[:n] - g[:n]
    expected = float(survive @ stats.binom.sf(np.arange(n), n, d)) / d
    return first, second, first + second, expected


def _walk_float(thresholds: Any, theta: float) -> tuple[np.ndarray, np.ndarray]:
    """Float twin of :func:`_walk`: chances (not weights) stopped by each step, for each model."""
    v, lo = np.ones(1), 0
    first, second = np.zeros(len(thresholds)), np.zeros(len(thresholds))
    f = g = 0.0
    for m, t in enumerate(thresholds):
        if m > 0:
            w = np.zeros(len(v) + 1)
            w[1:] += v * theta
            w[:-1] += v * (1 - theta)
            v = w
        keep_lo, keep_hi = _running(lo, len(v), m, t)
        g += v[: max(keep_lo - lo, 0)].sum()
        f += v[max(keep_hi + 1 - lo, 0) :].sum()
        v = v[keep_lo - lo : keep_hi - lo + 1] if keep_lo <= keep_hi else v[:0]
        lo = keep_lo
        first[m], second[m] = f, g
    return first, second


def false_alarm_probability(
    n: int, rule: str = "mixture", alpha: Any = "0.05", prior: int = 1, discordance: Any = 1
) -> Fraction:
    """Exact chance that ``rule`` declares a winner within ``n`` questions between two equally good models
    whose answers differ on a share ``discordance`` of questions (1, the default, is the worst case).

    >>> false_alarm_probability(10, "repeated-mcnemar")  # 6 to 0 first, or 9 to 1 later, either way round
    Fraction(7, 128)
    """
    d = as_probability(discordance, "discordance")
    return operating_characteristics(n, d / 2, d / 2, rule, alpha, prior).stop


def false_alarm_curve(horizon: int, rule: str = "mixture", alpha: Any = "0.05", prior: int = 1) -> list[Fraction]:
    """Worst-case false-alarm chance (every question discordant) within n = 0..horizon questions, one walk.

    >>> [str(p) for p in false_alarm_curve(8, "repeated-mcnemar")[5:]]
    ['0', '1/32', '1/32', '1/32']
    """
    ts = stopping_thresholds(horizon, rule, alpha, prior)
    return [reduced_fraction(f + g, _mpz(1) << m) for m, (f, g) in enumerate(_walk(ts, 1, 1))]


def false_alarm_curve_float(horizon: int, rule: str = "mixture", alpha: Any = "0.05", prior: int = 1) -> np.ndarray:
    """Float twin of :func:`false_alarm_curve`, for any horizon.

    >>> false_alarm_curve_float(8, "repeated-mcnemar")[5:].tolist()
    [0.0, 0.03125, 0.03125, 0.03125]
    """
    f, g = _walk_float(stopping_thresholds_float(horizon, rule, alpha, prior), 0.5)
    total: np.ndarray = f + g
    return total


# --- one run ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SequentialResult:
    """The mixture rule applied to one run, question by question in the order asked.

    ``stopped_at``: the question (1-based) after which the rule stopped, or None; ``winner``: "first",
    "second" or None; ``questions``: questions read; ``b``, ``c``: discordant questions won by each model
    up to then; ``e_value``: the mixture's value there; ``p_value``: ``min(1, 1 / max e-value so far)``,
    valid however the run was monitored.
    """

    stopped_at: int | None
    winner: str | None
    questions: int
    b: int
    c: int
    e_value: Fraction
    p_value: Fraction
    alpha: Fraction
    prior: int

    def __repr__(self) -> str:  # the e-value of a long tied run has thousands of digits: show it rounded
        return (
            f"SequentialResult(stopped_at={self.stopped_at}, winner={self.winner!r}, questions={self.questions}, "
            f"b={self.b}, c={self.c}, e_value~{float(self.e_value):.6g}, p_value~{float(self.p_value):.6g}, "
            f"alpha={self.alpha}, prior={self.prior})"
        )


def _outcome(value: Any, name: str) -> int:
    """One 0/1 outcome (a bool, or a whole number 0 or 1), checked without building an array."""
    if value in (0, 1) and not isinstance(value, float):
        return int(value)
    return as_int(value, name, minimum=0, maximum=1)


class MixtureMonitor:
    """The mixture rule one question at a time, for a run that is still going.

    >>> mon = MixtureMonitor()
    >>> [mon.update(1, 0) for _ in range(8)][-2:]  # 7 to 0 gives E = 16; 8 to 0 gives 256/9 >= 20
    [False, True]
    >>> mon.result().stopped_at, mon.e_value
    (8, Fraction(256, 9))
    """

    def __init__(self, alpha: Any = "0.05", prior: int = 1) -> None:
        self.alpha = _alpha(alpha, "mixture")
        self.prior = as_beta_prior(prior)
        self.b = self.c = self.questions = 0
        self.stopped_at: int | None = None
        self._num, self._den = _mixture_terms(0, 0, self.prior)  # E = num / den, kept unreduced
        self._best = (self._num, self._den)

    def update(self, first_right: int, second_right: int) -> bool:
        """Add the next question's two 0/1 outcomes; True once the rule has stopped (later calls are refused)."""
        if self.stopped_at is not None:
            raise ExactStatsError(f"the rule stopped after question {self.stopped_at}; start a new monitor")
        x, y = _outcome(first_right, "first_right"), _outcome(second_right, "second_right")
        self.questions += 1
        if x != y:  # E(m+1) = E(m) * 2 (wins + a) / (m + 2a): one exact multiplication per discordant question
            wins = self.b if x else self.c
            self._num *= 2 * (wins + self.prior)
            self._den *= self.b + self.c + 2 * self.prior
            self.b, self.c = (self.b + 1, self.c) if x else (self.b, self.c + 1)
            best_num, best_den = self._best
            if self._num * best_den > best_num * self._den:
                self._best = (self._num, self._den)
            if self._num * self.alpha.numerator >= self._den * self.alpha.denominator:
                self.stopped_at = self.questions
        return self.stopped_at is not None

    @property
    def e_value(self) -> Fraction:
        return reduced_fraction(self._num, self._den)

    def e_value_float(self) -> float:
        return self._num / self._den  # integer true division: correctly rounded, no overflow below 1e308

    @property
    def p_value(self) -> Fraction:
        """``min(1, 1 / max e-value so far)``: valid at any moment of the run."""
        num, den = self._best
        return reduced_fraction(den, num) if den < num else Fraction(1)

    def result(self) -> SequentialResult:
        winner = None if self.stopped_at is None else "first" if self.b > self.c else "second"
        return SequentialResult(
            self.stopped_at, winner, self.questions, self.b, self.c, self.e_value, self.p_value, self.alpha, self.prior
        )


class StoppingTimes(NamedTuple):
    """Per question order: ``questions`` asked when the rule stopped (0: it did not stop) and ``winner``
    (1: the first model, -1: the second, 0: none)."""

    questions: np.ndarray
    winner: np.ndarray


def stopping_times(
    x: Any, y: Any, orders: int = 100, seed: int = 0, rule: str = "mixture", alpha: Any = "0.05", prior: int = 1
) -> StoppingTimes:
    """Where ``rule`` stops on the same results asked in ``orders`` random orders (NumPy's generator seeded
    with ``seed``; the first order is the given one). Exact: the rule's integer thresholds, integer counts.

    >>> x, y = [1] * 12 + [0] * 88, [0] * 100
    >>> st = stopping_times(x, y, orders=3)
    >>> int(st.questions[0]), int(st.winner[0])  # in the given order: 8 to 0 after question 8
    (8, 1)
    >>> bool((st.winner[1:] >= 0).all())
    True
    """
    xs, ys = as_binary_vector(x, "x"), as_binary_vector(y, "y")
    same_length("x", xs, "y", ys)
    orders = as_int(orders, "orders", minimum=1, maximum=100_000)
    seed = as_int(seed, "seed", minimum=0)
    step = (xs - ys)[xs != ys]  # +1: the first model wins a discordant question; -1: the second
    where = np.flatnonzero(xs != ys) + 1  # the question each discordant one is
    thresholds = np.asarray(stopping_thresholds(len(step), rule, alpha, prior))[1:]
    rng = np.random.default_rng(seed)
    questions, winner = np.zeros(orders, dtype=np.int64), np.zeros(orders, dtype=np.int64)
    for k in range(orders):
        order = np.arange(len(xs)) if k == 0 else rng.permutation(len(xs))
        rank = np.empty(len(xs), dtype=np.int64)
        rank[order] = np.arange(1, len(xs) + 1)  # when each question is asked
        when = rank[where - 1]  # when each discordant question is asked
        by_time = np.argsort(when)
        asked, steps = when[by_time], step[by_time]
        b = np.cumsum(steps == 1)
        m = np.arange(1, len(steps) + 1)
        hit = np.flatnonzero((np.minimum(b, m - b) <= thresholds) & (2 * b != m))
        if hit.size:
            questions[k] = asked[hit[0]]
            winner[k] = 1 if 2 * b[hit[0]] > m[hit[0]] else -1
    return StoppingTimes(questions, winner)


def sequential_test(x: Any, y: Any, alpha: Any = "0.05", prior: int = 1, max_n: int | None = None) -> SequentialResult:
    """Run the mixture rule over two models' 0/1 outcomes ``x``, ``y`` in the order the questions were
    asked, stopping at the first question where the e-value reaches ``1/alpha`` (or after ``max_n``).

    >>> r = sequential_test([1] * 9 + [0], [0] * 9 + [0])
    >>> r.stopped_at, r.winner, r.b, r.c, r.e_value
    (8, 'first', 8, 0, Fraction(256, 9))
    >>> r.stopped_at is None or r.p_value <= r.alpha
    True
    """
    xs = as_binary_vector(x, "x")
    ys = as_binary_vector(y, "y")
    same_length("x", xs, "y", ys)
    monitor = MixtureMonitor(alpha, prior)
    limit = len(xs) if max_n is None else min(len(xs), as_int(max_n, "max_n", minimum=1))
    for u, v in zip(xs[:limit].tolist(), ys[:limit].tolist()):
        if monitor.update(u, v):
            break
    return monitor.result()
