"""Machine-checked proofs: each proof is data, a theorem and a list of steps SymPy verifies.

A :class:`Step` claims ``lhs (relation) rhs``. :meth:`Step.check` verifies it:
identities by simplifying ``lhs - rhs`` to zero (after rewriting binomials as
factorials), inequalities between polynomials in ``p`` by exact real-root
isolation on ``[0, 1]``, finite families by substituting every case. A step
whose general form SymPy cannot settle by itself is split into steps it can
(the binomial theorem is proved from SymPy's summation on ``x <= y`` and the
reflection ``c -> m - c``); nothing is asserted unchecked. :meth:`Proof.check`
raises :class:`ProofError` naming the first step that fails.

>>> PROOFS["effective-votes"].check()
True
>>> sorted(PROOFS)[:2]
['condorcet', 'effective-votes']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property
from typing import Any

import sympy as sp

__all__ = ["ProofError", "Step", "Proof", "PROOFS"]


class ProofError(AssertionError):
    """A proof step did not check."""


p = sp.Symbol("p", positive=True)  # a probability; inequalities are checked on [0, 1]


def _is_zero(expr: sp.Expr) -> bool:
    expr = sp.sympify(expr)
    if expr == 0:
        return True
    attempts: tuple[Callable[[Any], Any], ...] = (
        lambda e: sp.expand(e),
        lambda e: sp.simplify(e),
        lambda e: sp.simplify(sp.combsimp(e.rewrite(sp.factorial))),
        lambda e: sp.expand(sp.powsimp(sp.factor(e), force=True)),
    )
    for attempt in attempts:
        try:
            if attempt(expr) == 0:
                return True
        except (TypeError, ValueError, NotImplementedError):
            continue
    return False


def _poly_sign_on_unit_interval(expr: sp.Expr, strict_inside: bool) -> bool:
    """True when the polynomial ``expr`` in p is >= 0 on [0, 1] (> 0 on (0, 1) if strict_inside)."""
    expr = sp.expand(expr)
    if expr.free_symbols - {p}:
        raise ProofError(f"inequality must be a polynomial in p alone, got symbols {expr.free_symbols}")
    if expr.is_number:
        return bool(expr > 0 if strict_inside else expr >= 0)
    poly = sp.Poly(expr, p)
    roots = sorted({r for r in poly.real_roots() if 0 <= r <= 1}, key=lambda r: float(r))
    cuts = [sp.Integer(0)] + roots + [sp.Integer(1)]
    for a, b in zip(cuts, cuts[1:]):  # the sign is constant between consecutive roots
        mid = (a + b) / 2
        if a == b:
            continue
        value = poly.eval(sp.nsimplify(mid) if not mid.is_Rational else mid)
        if value < 0 or (strict_inside and value == 0):
            return False
    if strict_inside:
        return not any(0 < r < 1 for r in roots)
    return all(poly.eval(x) >= 0 for x in (0, 1))


@dataclass(frozen=True)
class Step:
    """``lhs relation rhs``, with its justification; ``cases`` substitutes a finite family."""

    claim: str  # LaTeX
    justification: str
    lhs: sp.Expr
    rhs: sp.Expr
    relation: str = "="  # "=", "<=", "<" (for "<": strict on (0, 1) when a polynomial in p)
    cases: tuple[dict[str, Any], ...] | None = None
    method: str = "simplify"
    verifier: Callable[[sp.Expr, sp.Expr], bool] | None = None
    cross_check: bool = False  # a case-by-case check of what other steps prove in general: not part of the proof
    finite: bool = False  # a single computation over a finite range (e.g. every m <= 200) standing for all values

    def _holds(self, lhs: sp.Expr, rhs: sp.Expr) -> bool:
        if self.verifier is not None:
            return self.verifier(lhs, rhs)
        if self.relation == "=":
            return _is_zero(lhs - rhs)
        return _poly_sign_on_unit_interval(rhs - lhs, strict_inside=self.relation == "<")

    def check(self) -> bool:
        for case in self.cases or ({},):
            lhs = sp.sympify(self.lhs).subs(case).doit() if case else self.lhs
            rhs = sp.sympify(self.rhs).subs(case).doit() if case else self.rhs
            if not self._holds(lhs, rhs):
                where = f" at {case}" if case else ""
                raise ProofError(f"step does not check{where}: {self.claim}")
        return True

    def mutated(self) -> Step:
        """The same step with its right-hand side changed: its check must fail."""
        if self.relation == "=":
            return replace(self, rhs=sp.sympify(self.rhs) + sp.Rational(1, 7))
        return replace(self, rhs=sp.sympify(self.rhs) - 2)


@dataclass
class Proof:
    name: str
    title: str
    statement: str  # LaTeX
    statement_text: str  # plain text, for the CLI
    build: Callable[[], list[Step]] = field(repr=False)

    @cached_property
    def steps(self) -> list[Step]:
        return self.build()

    def check(self, steps: Sequence[Step] | None = None) -> bool:
        for i, step in enumerate(steps if steps is not None else self.steps, 1):
            try:
                step.check()
            except ProofError as exc:
                raise ProofError(f"{self.name}, step {i}: {exc}") from None
        return True

    def finite_steps(self) -> list[int]:
        """The steps (numbered from 1) that the proof rests on and that are checked only case by case."""
        return [i for i, step in enumerate(self.steps, 1) if (step.cases or step.finite) and not step.cross_check]

    @property
    def general(self) -> bool:
        """True when the check proves the theorem as stated: no step of the proof is a finite check."""
        return not self.finite_steps()

    def scope(self) -> str:
        """What the check establishes: a symbolic proof, or a finite check on the range each step states."""
        finite = self.finite_steps()
        crosses = [i for i, step in enumerate(self.steps, 1) if step.cross_check]
        extra = (
            f" Step{'s' if len(crosses) > 1 else ''} {', '.join(map(str, crosses))} "
            f"{'are' if len(crosses) > 1 else 'is'} a case-by-case cross-check of the general steps, not part of "
            "the proof."
            if crosses
            else ""
        )
        if not finite:
            return (
                "a general proof: every step is a symbolic identity, or an inequality checked on the whole unit "
                "interval, or a cited theorem named in its justification; the check proves the theorem as stated."
                + extra
            )
        which = ", ".join(str(i) for i in finite)
        return (
            f"step{'s' if len(finite) > 1 else ''} {which} {'are' if len(finite) > 1 else 'is'} checked case by "
            "case, on the range its justification states; for those steps the check proves the claim on that "
            "range only (the theorem is stated for all values and the general argument is the one written), "
            "and the other steps are checked symbolically." + extra
        )

    def to_myst(self, label: str | None = None) -> str:
        """MyST source: a ``prf:theorem`` and a ``prf:proof`` listing every checked step."""
        label = label or f"thm-{self.name}"
        lines = [
            f":::{{prf:theorem}} {self.title}",
            f":label: {label}",
            "",
            self.statement,
            ":::",
            "",
            ":::{prf:proof}",
            "",
        ]
        for i, s in enumerate(self.steps, 1):
            scope = f" for all {len(s.cases)} listed cases" if s.cases else ""
            kind = "Cross-check" if s.cross_check else "Step"
            lines += [
                f"**{kind} {i}.** ${s.claim}$",
                "",
                f"{s.justification} *(checked by SymPy: {s.method}{scope})*",
                "",
            ]
        lines += [f"*What the check establishes:* {self.scope()}", "", ":::", ""]
        return "\n".join(lines)


# --- shared lemma: the binomial theorem -----------------------------------------------


def _binomial_theorem_steps() -> list[Step]:
    m = sp.Symbol("m", integer=True, nonnegative=True)
    c = sp.Symbol("c", integer=True, nonnegative=True)
    x, y, s = sp.symbols("x y s", positive=True)
    # Case x <= y, written x = y/(1+s) with s >= 0: SymPy sums the series itself.
    summed = sp.summation(sp.binomial(m, c) * (y / (1 + s)) ** c * y ** (m - c), (c, 0, m))
    reflected = sp.Sum(sp.binomial(m, c) * x**c * y ** (m - c), (c, 0, m)).change_index(c, -c + m)
    swapped = sp.Sum(sp.binomial(m, c) * y**c * x ** (m - c), (c, 0, m))
    return [
        Step(
            r"\sum_{c=0}^{m}\binom{m}{c}x^c y^{m-c} = (x+y)^m \text{ for } 0 < x \le y",
            "binomial series summed by SymPy with x = y/(1+s), s >= 0",
            summed,
            (y / (1 + s) + y) ** m,
        ),
        Step(
            r"\binom{m}{c} = \binom{m}{m-c}",
            "symmetry of binomial coefficients (factorials)",
            sp.binomial(m, c),
            sp.binomial(m, m - c),
        ),
        Step(
            r"\sum_{c}\binom{m}{c}x^c y^{m-c} = \sum_{c}\binom{m}{c}y^c x^{m-c}",
            "reindex c -> m - c and use the symmetry above, so the case x > y is the case y < x",
            reflected.function,
            swapped.function,
        ),
    ]


# --- 1. pass@k unbiased ------------------------------------------------------------------


def _passk_unbiased() -> list[Step]:
    n, k, c = sp.symbols("n k c", integer=True, nonnegative=True)
    m = sp.Symbol("m", integer=True, nonnegative=True)
    ratio_a = sp.binomial(n - c, k) / sp.binomial(n, k)
    ratio_b = sp.binomial(n - k, c) / sp.binomial(n, c)
    steps = [
        Step(
            r"\frac{\binom{n-c}{k}}{\binom{n}{k}} = \frac{\binom{n-k}{c}}{\binom{n}{c}}",
            "both equal (n-c)!(n-k)! / (n!(n-c-k)!), written out in factorials",
            ratio_a,
            ratio_b,
        ),
        Step(
            r"\binom{n}{c}\frac{\binom{n-k}{c}}{\binom{n}{c}} = \binom{n-k}{c}",
            "cancellation",
            sp.binomial(n, c) * ratio_b,
            sp.binomial(n - k, c),
        ),
        Step(
            r"p^c(1-p)^{n-c} = (1-p)^k\, p^c (1-p)^{(n-k)-c}",
            "split the power of 1-p",
            p**c * (1 - p) ** (n - c),
            (1 - p) ** k * p**c * (1 - p) ** ((n - k) - c),
        ),
    ]
    steps += _binomial_theorem_steps()
    steps += [
        Step(
            r"\sum_{c=0}^{n-k}\binom{n-k}{c}p^c(1-p)^{n-k-c} = (p + (1-p))^{n-k} = 1",
            "binomial theorem (steps above) with x = p, y = 1 - p, m = n - k",
            (p + (1 - p)) ** m,
            1,
        ),
        Step(
            r"E\left[\frac{\binom{n-c}{k}}{\binom{n}{k}}\right] = (1-p)^k",
            "steps 1-3 and the binomial theorem: the sum runs over c <= n - k, where the ratio is nonzero",
            (1 - p) ** k * (p + (1 - p)) ** m,
            (1 - p) ** k,
        ),
        Step(
            r"E\left[1 - \frac{\binom{n-c}{k}}{\binom{n}{k}}\right] = 1 - E\left[\frac{\binom{n-c}{k}}{\binom{n}{k}}\right] = 1 - (1-p)^k",
            "linearity of expectation and the step above, symbolic in n, k and p",
            1 - (1 - p) ** k * (p + (1 - p)) ** m,
            1 - (1 - p) ** k,
        ),
        Step(
            r"E\left[1 - \frac{\binom{n-c}{k}}{\binom{n}{k}}\right] = 1 - (1-p)^k",
            "the whole statement expanded as polynomials in p, for every n <= 12 and 1 <= k <= n",
            sp.Symbol("E"),
            sp.Symbol("T"),
            cases=tuple(_passk_cases()),
            method="expand each case to the zero polynomial",
            cross_check=True,
        ),
    ]
    return steps


def _ratio(nn: int, cc: int, kk: int) -> sp.Expr:
    return sp.binomial(nn - cc, kk) / sp.binomial(nn, kk)


def _binomial_mean(nn: int, values: Sequence[sp.Expr]) -> sp.Expr:
    """E[values[c]] for c ~ Binomial(nn, p), as a polynomial in p."""
    return sum(sp.binomial(nn, cc) * p**cc * (1 - p) ** (nn - cc) * values[cc] for cc in range(nn + 1))


def _passk_cases() -> Iterable[dict[str, Any]]:
    E, T = sp.Symbol("E"), sp.Symbol("T")
    for nn in range(1, 13):
        for kk in range(1, nn + 1):
            yield {E: _binomial_mean(nn, [1 - _ratio(nn, cc, kk) for cc in range(nn + 1)]), T: 1 - (1 - p) ** kk}


# --- 1b. the variance of the pass@k estimator, and its unbiased estimate ---------------------


def _passk_variance() -> list[Step]:
    n, k, c = sp.symbols("n k c", integer=True, nonnegative=True)
    ex2, ex = sp.symbols("E_2 E_1")
    return [
        Step(
            r"E[(1-X)^2] - (1 - E[X])^2 = E[X^2] - E[X]^2",
            "the variance of 1 - X, expanded by linearity of expectation (E_1 = E[X], E_2 = E[X^2])",
            (1 - 2 * ex + ex2) - (1 - ex) ** 2,
            ex2 - ex**2,
        ),
        Step(
            r"E[X]^2 = (1-p)^{2k}",
            "E[X] = (1 - p)^k is the pass@k identity proved above",
            ((1 - p) ** k) ** 2,
            (1 - p) ** (2 * k),
        ),
        Step(
            r"\frac{\binom{n-c}{2k}}{\binom{n}{2k}} = \frac{\binom{n-2k}{c}}{\binom{n}{c}}",
            "the first step of the pass@k proof with 2k draws (needs 2k <= n), written out in factorials",
            sp.binomial(n - c, 2 * k) / sp.binomial(n, 2 * k),
            sp.binomial(n - 2 * k, c) / sp.binomial(n, c),
        ),
        Step(
            r"E\left[\binom{n-c}{2k}\Big/\binom{n}{2k}\right] = (1-p)^{2k}",
            "the rest of the pass@k proof with 2k in place of k; checked for every n <= 12 and 2k <= n",
            sp.Symbol("E"),
            sp.Symbol("T"),
            cases=tuple(_passk_two_k_cases()),
            method="expand each case to the zero polynomial",
        ),
        Step(
            r"E\left[X^2 - \binom{n-c}{2k}\Big/\binom{n}{2k}\right] = \operatorname{Var}(1 - X)",
            "linearity with steps 1, 2 and 4: the estimate is unbiased; checked for every n <= 12 and 2k <= n",
            sp.Symbol("E"),
            sp.Symbol("T"),
            cases=tuple(_passk_variance_cases()),
            method="expand each case to the zero polynomial",
        ),
    ]


def _passk_two_k_cases() -> Iterable[dict[str, Any]]:
    E, T = sp.Symbol("E"), sp.Symbol("T")
    for nn in range(2, 13):
        for kk in range(1, nn // 2 + 1):
            yield {E: _binomial_mean(nn, [_ratio(nn, cc, 2 * kk) for cc in range(nn + 1)]), T: (1 - p) ** (2 * kk)}


def _passk_variance_cases() -> Iterable[dict[str, Any]]:
    E, T = sp.Symbol("E"), sp.Symbol("T")
    for nn in range(2, 13):
        for kk in range(1, nn // 2 + 1):
            x = [_ratio(nn, cc, kk) for cc in range(nn + 1)]
            estimate = _binomial_mean(nn, [x[cc] ** 2 - _ratio(nn, cc, 2 * kk) for cc in range(nn + 1)])
            variance = _binomial_mean(nn, [(1 - v) ** 2 for v in x]) - (1 - (1 - p) ** kk) ** 2
            yield {E: estimate, T: variance}


# --- 2. the plug-in estimator is biased low -------------------------------------------------


def _plugin_cases() -> list[tuple[int, dict[Any, Any]]]:
    """(k, case) for every n <= 12 and k <= n: the plug-in estimate's mean (E) beside the true pass@k (T)."""
    E, T = sp.Symbol("E"), sp.Symbol("T")
    cases = []
    for nn in range(1, 13):
        for kk in range(1, nn + 1):
            e = sum(
                sp.binomial(nn, cc) * p**cc * (1 - p) ** (nn - cc) * (1 - (1 - sp.Rational(cc, nn)) ** kk)
                for cc in range(nn + 1)
            )
            cases.append((kk, {E: sp.expand(e), T: 1 - (1 - p) ** kk}))
    return cases


def _plugin_biased_low() -> list[Step]:
    y = sp.Symbol("y", positive=True)
    k = sp.Symbol("k", integer=True, positive=True)
    E, T = sp.Symbol("E"), sp.Symbol("T")
    cases = _plugin_cases()
    plug = [case for _, case in cases]
    strict = [case for kk, case in cases if kk > 1]
    bias = sum(
        sp.binomial(5, cc) * p**cc * (1 - p) ** (5 - cc) * (1 - (1 - sp.Rational(cc, 5)) ** 2) for cc in range(6)
    ) - (1 - (1 - p) ** 2)
    return [
        Step(
            r"\frac{d^2}{dx^2}(1-x)^k = \frac{d^2}{dy^2}y^k\Big|_{y=1-x} = k(k-1)(1-x)^{k-2} \ge 0",
            "chain rule with y = 1 - x (the sign of dy/dx = -1 squares away), then differentiate twice",
            sp.diff(y**k, y, 2),
            k * (k - 1) * y ** (k - 2),
        ),
        Step(
            r"E[c/n] = p",
            "mean of a binomial, for every n <= 12 as polynomials in p",
            sp.Symbol("M"),
            p,
            cases=tuple(
                {
                    sp.Symbol("M"): sum(
                        sp.binomial(nn, cc) * p**cc * (1 - p) ** (nn - cc) * sp.Rational(cc, nn) for cc in range(nn + 1)
                    )
                }
                for nn in range(1, 13)
            ),
            method="expand each case",
        ),
        Step(
            r"E\left[1-(1-c/n)^k\right] \le 1-(1-p)^k",
            "Jensen: (1-x)^k is convex on [0,1] (step 1), so E[(1-c/n)^k] >= (1-E[c/n])^k = (1-p)^k; checked for every n <= 12, k <= n",
            E,
            T,
            relation="<=",
            cases=tuple(plug),
            method="real-root isolation of the gap on [0, 1]",
        ),
        Step(
            r"E\left[1-(1-c/n)^k\right] < 1-(1-p)^k \text{ for } 1 < k \le n,\ 0 < p < 1",
            "strict convexity for k >= 2; the gap has no root inside (0, 1)",
            E,
            T,
            relation="<",
            cases=tuple(strict),
            method="real-root isolation",
        ),
        Step(
            r"\text{bias at } n=5,k=2,p=2/5 = -\tfrac{6}{125}",
            "the seed's example, exactly",
            bias.subs(p, sp.Rational(2, 5)),
            sp.Rational(-6, 125),
        ),
    ]


# --- 3. Condorcet -----------------------------------------------------------------------------


def _condorcet() -> list[Step]:
    return _condorcet_recurrence() + _condorcet_limit()


_ODD_VOTERS = range(1, 52, 2)  # the recurrence and the bound are checked case by case for these k


def _majority_right(kk: int) -> Any:
    """The chance that a majority of kk independent voters is right, as a polynomial in p."""
    return sum(sp.binomial(kk, i) * p**i * (1 - p) ** (kk - i) for i in range(kk // 2 + 1, kk + 1))


def _condorcet_cases() -> tuple[tuple[dict[Any, Any], ...], tuple[dict[Any, Any], ...]]:
    """Per odd k: the step P_{k+2} - P_k against its split form, and against its closed form."""
    P, D, R, odd = _majority_right, sp.Symbol("D"), sp.Symbol("R"), _ODD_VOTERS
    recurrence = tuple(
        {
            D: P(kk + 2) - P(kk),
            R: sp.binomial(kk, (kk + 1) // 2) * p ** ((kk + 1) // 2) * (1 - p) ** ((kk + 1) // 2) * (2 * p - 1),
        }
        for kk in odd
    )
    split = tuple(
        {
            D: P(kk + 2) - P(kk),
            R: sp.binomial(kk, (kk - 1) // 2) * p ** ((kk - 1) // 2) * (1 - p) ** ((kk + 1) // 2) * p**2
            - sp.binomial(kk, (kk + 1) // 2) * p ** ((kk + 1) // 2) * (1 - p) ** ((kk - 1) // 2) * (1 - p) ** 2,
        }
        for kk in odd
    )
    return split, recurrence


def _condorcet_recurrence() -> list[Step]:
    """P_{k+2} - P_k in closed form: positive exactly when p > 1/2."""
    j = sp.Symbol("m", integer=True, positive=True)
    C = sp.Symbol("C", positive=True)
    D, R = sp.Symbol("D"), sp.Symbol("R")
    split, recurrence = _condorcet_cases()
    A, a, b0 = sp.symbols("A a b_0", nonnegative=True)
    return [
        Step(
            r"P_{k+2}-P_k = \left(A + a\,(1-(1-p)^2) + b_0\,p^2\right) - (A + a) = b_0\,p^2 - a\,(1-p)^2,\ k = 2m+1",
            "condition on the two added voters X, Y: S_k + X + Y >= m + 2 when S_k >= m + 2 (chance A), when "
            "S_k = m + 1 (chance a) and X + Y >= 1, or when S_k = m (chance b_0 = P(S_k = m)) and X + Y = 2; "
            "P_k = A + a. Symbolic in A, a, b_0 and p",
            (A + a * (1 - (1 - p) ** 2) + b0 * p**2) - (A + a),
            b0 * p**2 - a * (1 - p) ** 2,
        ),
        Step(
            r"P_{k+2}-P_k = P(S_k=m)\,p^2 - P(S_k=m+1)\,(1-p)^2",
            "the step above, expanded for every odd k <= 51",
            D,
            R,
            cases=split,
            method="expand each case",
            cross_check=True,
        ),
        Step(
            r"\binom{2m+1}{m} = \binom{2m+1}{m+1}",
            "symmetry of binomial coefficients",
            sp.binomial(2 * j + 1, j),
            sp.binomial(2 * j + 1, j + 1),
        ),
        Step(
            r"C p^m(1-p)^{m+1}p^2 - C p^{m+1}(1-p)^m(1-p)^2 = C\,p^{m+1}(1-p)^{m+1}(2p-1)",
            "factor out p^{m+1}(1-p)^{m+1}, symbolic in m",
            C * p**j * (1 - p) ** (j + 1) * p**2 - C * p ** (j + 1) * (1 - p) ** j * (1 - p) ** 2,
            C * p ** (j + 1) * (1 - p) ** (j + 1) * (2 * p - 1),
        ),
        Step(
            r"P_{k+2}-P_k = \binom{k}{\frac{k+1}{2}}p^{\frac{k+1}{2}}(1-p)^{\frac{k+1}{2}}(2p-1)",
            "the steps above, with P(S_k = m) = C(k, m) p^m (1-p)^{m+1}: checked directly for every odd k <= 51",
            D,
            R,
            cases=recurrence,
            method="expand each case",
            cross_check=True,
        ),
    ]


def _condorcet_limit() -> list[Step]:
    """Chebyshev's bound on 1 - P_k, checked exactly, and its limit: P_k -> 1 for p > 1/2."""
    P, odd = _majority_right, _ODD_VOTERS
    pp = sp.Symbol("q", positive=True)
    kk_ = sp.Symbol("k", positive=True)
    return [
        Step(
            r"\frac{\operatorname{Var}(S_k)}{k^2(p-\frac12)^2} = \frac{p(1-p)}{k(p-\frac12)^2},\ \operatorname{Var}(S_k) = k\,p(1-p)",
            "for p > 1/2, S_k <= k/2 implies |S_k - kp| >= k(p - 1/2); Chebyshev's inequality (a cited theorem) "
            "bounds that chance by Var(S_k) / (k(p - 1/2))^2, and Var(S_k) is k Bernoulli variances p(1-p)",
            kk_ * p * (1 - p) / (kk_**2 * (p - sp.Rational(1, 2)) ** 2),
            p * (1 - p) / (kk_ * (p - sp.Rational(1, 2)) ** 2),
        ),
        Step(
            r"1 - P_k \le \frac{p(1-p)}{k(p-\frac12)^2} \text{ for } p > \tfrac12",
            "Chebyshev's inequality with E[S_k] = kp and Var(S_k) = kp(1-p); checked exactly for odd k <= 51 at p = 3/5, 7/10, 9/10",
            sp.Symbol("L"),
            sp.Symbol("U"),
            relation="<=",
            cases=tuple(
                {
                    sp.Symbol("L"): 1 - P(kk).subs(p, v),
                    sp.Symbol("U"): v * (1 - v) / (kk * (v - sp.Rational(1, 2)) ** 2),
                }
                for kk in odd
                for v in (sp.Rational(3, 5), sp.Rational(7, 10), sp.Rational(9, 10))
            ),
            method="exact rational comparison",
            cross_check=True,
        ),
        Step(
            r"\lim_{k\to\infty}\frac{p(1-p)}{k(p-\frac12)^2} = 0",
            "the bound vanishes, so P_k -> 1 for p > 1/2",
            sp.limit(pp * (1 - pp) / (kk_ * (pp - sp.Rational(1, 2)) ** 2), kk_, sp.oo),
            0,
        ),
    ]


# --- 4. McNemar ---------------------------------------------------------------------------------


def _mcnemar_p(b: int, c: int, alpha_mid: bool = False) -> Fraction:
    from .paired import mcnemar_p_value

    return mcnemar_p_value(b, c, mid_p=alpha_mid)


def _size(m: int, alpha: Fraction, mid: bool) -> Fraction:
    from math import comb

    return sum((Fraction(comb(m, b), 2**m) for b in range(m + 1) if _mcnemar_p(b, m - b, mid) <= alpha), Fraction(0))


def _mcnemar_tail_cases() -> tuple[dict[Any, Any], ...]:
    """For every m <= 40 and b <= m: the two-sided tail summed directly (X), by the formula (Y), by the package (Z)."""
    from math import comb

    cases = []
    for mm in range(1, 41):
        for bb in range(mm + 1):
            d = abs(2 * bb - mm)
            direct = sum((Fraction(comb(mm, i), 2**mm) for i in range(mm + 1) if abs(2 * i - mm) >= d), Fraction(0))
            formula = min(Fraction(1), 2 * Fraction(sum(comb(mm, i) for i in range(min(bb, mm - bb) + 1)), 2**mm))
            cases.append(
                {
                    sp.Symbol("X"): sp.Rational(direct.numerator, direct.denominator),
                    sp.Symbol("Y"): sp.Rational(formula.numerator, formula.denominator),
                    sp.Symbol("Z"): sp.Rational(*_as_pair(_mcnemar_p(bb, mm - bb))),
                }
            )
    return tuple(cases)


def _mcnemar() -> list[Step]:
    b, m = sp.symbols("b m", integer=True, nonnegative=True)
    pi = sp.Symbol("pi", positive=True)
    alpha = Fraction(1, 20)
    sizes = [_size(mm, alpha, False) for mm in range(1, 201)]
    mid_sizes = [_size(mm, alpha, True) for mm in range(1, 201)]
    worst_mid = max(range(200), key=lambda i: mid_sizes[i])
    extreme = _mcnemar_tail_cases()
    return [
        Step(
            r"P(b \mid b+c=m) = \frac{\binom{m}{b}\pi^b\pi^{m-b}}{(2\pi)^m} = \binom{m}{b}2^{-m}",
            "under the null both discordant cells have probability pi; condition on m",
            sp.binomial(m, b) * pi**b * pi ** (m - b) / (2 * pi) ** m,
            sp.binomial(m, b) / 2**m,
        ),
        Step(
            r"\sum_{|2i-m| \ge |2b-m|}\binom{m}{i}2^{-m} = \min\left(1, 2\sum_{i \le \min(b,c)}\binom{m}{i}2^{-m}\right)",
            "outcomes at least as extreme as b, by symmetry of Binomial(m, 1/2); every m <= 40 and b <= m",
            sp.Symbol("X"),
            sp.Symbol("Y"),
            cases=extreme,
            method="exact rationals",
        ),
        Step(
            r"\mathtt{mcnemar\_p\_value}(b, m-b) = \min\left(1, 2\sum_{i \le \min(b,c)}\binom{m}{i}2^{-m}\right)",
            "the package's implementation equals the formula; every m <= 40 and b <= m",
            sp.Symbol("Z"),
            sp.Symbol("Y"),
            cases=extreme,
            method="exact rationals",
        ),
        Step(
            r"\max_{1 \le m \le 200} P_{H_0}(p \le 0.05 \mid m) \le 0.05",
            "size of the exact test, by enumerating every outcome for every m <= 200 (exactstats.levels computes "
            "it for any m: conditional_sizes)",
            sp.Rational(*_as_pair(max(sizes))),
            sp.Rational(1, 20),
            relation="<=",
            verifier=lambda lhs, rhs: bool(lhs <= rhs),
            method="enumeration",
            finite=True,
        ),
        Step(
            rf"P_{{H_0}}(p_{{mid}} \le 0.05 \mid m={worst_mid + 1}) = {sp.latex(sp.Rational(*_as_pair(mid_sizes[worst_mid])))} > 0.05",
            "the mid-p variant is not guaranteed to hold its size: the largest size over m <= 200 exceeds alpha",
            sp.Rational(1, 20),
            sp.Rational(*_as_pair(mid_sizes[worst_mid])),
            relation="<",
            verifier=lambda lhs, rhs: bool(lhs < rhs),
            method="enumeration",
        ),
    ]


def _as_pair(f: Fraction) -> tuple[int, int]:
    return f.numerator, f.denominator


# --- 5. effective votes ---------------------------------------------------------------------------


def _effective_votes() -> list[Step]:
    k = sp.Symbol("k", positive=True)
    phi, s2, t = sp.symbols("phi sigma2 t", positive=True)
    var_mean = (k * s2 + k * (k - 1) * phi * s2) / k**2
    neff = s2 / (s2 / k * (1 + (k - 1) * phi))
    gap = 1 / phi - k / (1 + (k - 1) * phi)
    return [
        Step(
            r"\operatorname{Var}\left(\tfrac1k\sum_i e_i\right) = \tfrac{1}{k^2}\left(k\sigma^2 + k(k-1)\varphi\sigma^2\right) = \tfrac{\sigma^2}{k}(1+(k-1)\varphi)",
            "k variances and k(k-1) covariances phi sigma^2",
            var_mean,
            s2 / k * (1 + (k - 1) * phi),
        ),
        Step(
            r"n_{\mathrm{eff}} = \frac{\sigma^2}{\operatorname{Var}(\bar e)} = \frac{k}{1+(k-1)\varphi}",
            "the number of independent votes with the same variance",
            neff,
            k / (1 + (k - 1) * phi),
        ),
        Step(
            r"\frac1\varphi - \frac{k}{1+(k-1)\varphi} = \frac{1-\varphi}{\varphi(1+(k-1)\varphi)}",
            "common denominator",
            gap,
            (1 - phi) / (phi * (1 + (k - 1) * phi)),
        ),
        Step(
            r"\frac{1-\varphi}{\varphi(1+(k-1)\varphi)} \ge 0 \text{ for } 0 < \varphi \le 1,\ k \ge 1",
            "write phi = 1/(1+t) with t >= 0 and k = 1 + u with u >= 0: every factor is nonnegative",
            sp.Integer(0),
            ((1 - phi) / (phi * (1 + (k - 1) * phi))).subs({phi: 1 / (1 + t), k: 1 + sp.Symbol("u", nonnegative=True)}),
            relation="<=",
            verifier=lambda lhs, rhs: bool(sp.simplify(rhs - lhs).is_nonnegative),
            method="sign of factors",
        ),
    ]


PROOFS: dict[str, Proof] = {
    proof.name: proof
    for proof in [
        Proof(
            "passk-unbiased",
            "The pass@k estimator is unbiased",
            r"If $c \sim \mathrm{Binomial}(n, p)$ and $1 \le k \le n$, then $E\left[1 - \binom{n-c}{k}/\binom{n}{k}\right] = 1 - (1-p)^k$.",
            "E[1 - C(n-c,k)/C(n,k)] = 1 - (1-p)^k for c ~ Binomial(n, p)",
            _passk_unbiased,
        ),
        Proof(
            "passk-variance",
            "The variance of the pass@k estimate, and an unbiased estimate of it",
            r"With $c \sim \mathrm{Binomial}(n, p)$ and $X = \binom{n-c}{k}/\binom{n}{k}$, the pass@k estimate $1 - X$ has variance $E[X^2] - (1-p)^{2k}$, a polynomial in $p$; for $2k \le n$, $X^2 - \binom{n-c}{2k}/\binom{n}{2k}$ is an unbiased estimate of it.",
            "Var(1 - X) = E[X^2] - (1-p)^(2k); X^2 - C(n-c,2k)/C(n,2k) is unbiased for it when 2k <= n",
            _passk_variance,
        ),
        Proof(
            "plugin-biased-low",
            "The plug-in pass@k is biased low",
            r"If $c \sim \mathrm{Binomial}(n,p)$ then $E[1-(1-c/n)^k] \le 1-(1-p)^k$, strictly for $1 < k \le n$ and $0<p<1$.",
            "E[1 - (1 - c/n)^k] <= 1 - (1-p)^k, strict for 1 < k <= n, 0 < p < 1",
            _plugin_biased_low,
        ),
        Proof(
            "condorcet",
            "Condorcet's jury theorem, step by step",
            r"For odd $k$, $P_{k+2} - P_k = \binom{k}{(k+1)/2} p^{(k+1)/2}(1-p)^{(k+1)/2}(2p-1)$, so the majority improves with $k$ exactly when $p > 1/2$, and $P_k \to 1$.",
            "P_{k+2} - P_k = C(k,(k+1)/2) p^((k+1)/2) (1-p)^((k+1)/2) (2p-1) for odd k",
            _condorcet,
        ),
        Proof(
            "mcnemar-exact",
            "McNemar's exact test and its size",
            r"Given $m$ discordant pairs, under the null $b \sim \mathrm{Binomial}(m, 1/2)$; the two-sided exact p-value is $\min(1, 2\sum_{i\le\min(b,c)}\binom{m}{i}/2^m)$ and the test's size never exceeds $\alpha$.",
            "b | m ~ Binomial(m, 1/2); p = min(1, 2 sum_{i<=min(b,c)} C(m,i)/2^m); size <= alpha",
            _mcnemar,
        ),
        Proof(
            "effective-votes",
            "Effective votes of a correlated panel",
            r"For $k$ equicorrelated errors, $\operatorname{Var}(\bar e) = \frac{\sigma^2}{k}(1+(k-1)\varphi)$, so $n_{\mathrm{eff}} = \frac{k}{1+(k-1)\varphi} \le \frac1\varphi$.",
            "Var(mean) = (sigma^2/k)(1 + (k-1) phi), n_eff = k/(1 + (k-1) phi) <= 1/phi",
            _effective_votes,
        ),
    ]
}
