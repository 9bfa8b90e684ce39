"""The checking chapter's machinery: compare a printed number with an exact recomputation.

A printed number stands for every value within half a unit of its last digit. A
claim *agrees* when the recomputed value lies in that rounding interval; when the
claim's inputs were themselves printed rounded, it agrees when some admissible
input reproduces it (the formulas used are monotone in each input, so the corners
of the rounding box give the exact range). Simulated figures are compared within
two Monte Carlo standard errors, and bounds and ranges say which side they allow.

Each row carries a label saying what kind of number the recomputation is: an exact
rational, an exact surd (a rational times a square root, compared by squaring, so
still exact), a range of exact rationals, or a float (Monte Carlo error, named
approximations).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from typing import Any

import pandas as pd

from exactstats import rounding_interval  # the audit's rounding interval: one code path for the seeds and users

KINDS = ("exact rational", "exact surd", "exact range", "float")
# what a check can decide: a printed value reproduced; a printed interval centred on its estimate (says
# nothing about the estimate itself); a printed figure on the right side of a bound (a loose bound decides
# little); a printed figure inside the range that the article's vaguer inputs allow
TESTS = ("value", "centring", "bound", "range")


def corner_range(f: Callable[..., Any], inputs: list[str]) -> tuple[Fraction, Fraction]:
    """Smallest and largest value of a monotone ``f`` over the rounding box of printed inputs."""
    corners = [Fraction(f(*vals)) for vals in product(*[rounding_interval(x) for x in inputs])]
    return min(corners), max(corners)


def show(value: Fraction) -> str:
    """An exact value as a short fraction, or a decimal when the denominator is long."""
    if value.denominator == 1:
        return str(value)
    if value.denominator < 10**6:
        return f"{value} = {float(value):.6g}"
    return f"{float(value):.6g} (exact rational, {value.denominator.bit_length()}-bit denominator)"


@dataclass
class Checker:
    rows: list[dict[str, str]] = field(default_factory=list)

    def _add(
        self,
        article: str,
        claim: str,
        printed: str,
        recomputed: str,
        kind: str,
        ok: bool,
        verdict: str,
        test: str = "value",
    ) -> None:
        assert kind in KINDS and test in TESTS, (kind, test)
        self.rows.append(
            {
                "article": article,
                "claim": claim,
                "printed": printed,
                "recomputed": recomputed,
                "kind": kind,
                "test": test,
                "verdict": verdict if ok else "DISAGREES",
            }
        )

    def exact(self, article: str, claim: str, printed: str, value: Any, unit: Any = 1) -> None:
        """The exact value must round to ``printed`` (``unit=100`` for percentages and points)."""
        v = Fraction(value) * unit
        lo, hi = rounding_interval(printed)
        self._add(article, claim, printed, show(v), "exact rational", lo <= v <= hi, "agrees")

    def surd(self, article: str, claim: str, printed: str, coefficient: Any, radicand: Any, unit: Any = 1) -> None:
        """``coefficient * sqrt(radicand) * unit`` must round to ``printed``; compared by squaring, exactly."""
        a, r = Fraction(coefficient) * unit, Fraction(radicand)
        lo, hi = rounding_interval(printed)
        ok = a > 0 and lo >= 0 and (lo / a) ** 2 <= r <= (hi / a) ** 2
        shown = f"{a}·√({r}) ≈ {float(a) * float(r) ** 0.5:.6g}"
        self._add(article, claim, printed, shown, "exact surd", ok, "agrees")

    def rounded(
        self, article: str, claim: str, printed: str, f: Callable[..., Any], inputs: list[str], unit: Any = 1
    ) -> None:
        """Some input within the printed inputs' rounding box must reproduce ``printed``."""
        lo, hi = corner_range(lambda *v: Fraction(f(*v)) * unit, inputs)
        plo, phi = rounding_interval(printed)
        shown = f"{float(lo):.4g} to {float(hi):.4g}"
        self._add(article, claim, printed, shown, "exact range", lo <= phi and plo <= hi, "agrees (rounded inputs)")

    def within(
        self, article: str, claim: str, printed: str, lo: Any, hi: Any, unit: Any = 1, kind: str = "exact range"
    ) -> None:
        """``printed`` must be consistent with a value somewhere in ``[lo, hi]``."""
        lo, hi = Fraction(lo) * unit, Fraction(hi) * unit
        plo, phi = rounding_interval(printed)
        shown = f"{float(lo):.4g} to {float(hi):.4g}"
        self._add(
            article, claim, printed, shown, kind, lo <= phi and plo <= hi, "consistent (inside the range)", "range"
        )

    def at_most(self, article: str, claim: str, printed: str, bound: Any, unit: Any = 1, slack: Any = 0) -> None:
        """``printed`` may not exceed an exact upper ``bound``; ``slack`` admits Monte Carlo error (float)."""
        b = Fraction(bound) * unit
        plo, _ = rounding_interval(printed)
        if slack:
            ok = float(plo) <= float(b) + 2 * float(slack) * float(unit)
            shown = f"≤ {float(b):.4g} (Monte Carlo s.e. {float(slack) * float(unit):.2f})"
            verdict, kind = "consistent (bound, within Monte Carlo error)", "float"
        else:
            ok, shown, verdict, kind = plo <= b, f"≤ {float(b):.4g}", "consistent (bound)", "exact rational"
        self._add(article, claim, printed, shown, kind, ok, verdict, "bound")

    def below(self, article: str, claim: str, threshold: str, value: Any) -> None:
        """A claim that an exact quantity is below ``threshold`` ("fewer than three votes")."""
        v = Fraction(value)
        self._add(
            article,
            claim,
            f"less than {threshold}",
            show(v),
            "exact rational",
            v < Fraction(threshold),
            "agrees (bound)",
            "bound",
        )

    def centred(self, article: str, claim: str, printed: str, ends: list[str]) -> None:
        """A printed interval's ends must be centred on the printed estimate (up to rounding): a check of
        the interval's arithmetic only, not of the estimate."""
        lo, hi = corner_range(lambda a, b: (a + b) / 2, ends)
        plo, phi = rounding_interval(printed)
        self._add(
            article,
            claim,
            printed,
            f"{float(lo):.4g} to {float(hi):.4g}",
            "exact range",
            lo <= phi and plo <= hi,
            "centred (rounded ends)",
            "centring",
        )

    def more_than(self, article: str, claim: str, threshold: str, f: Callable[..., Any], inputs: list[str]) -> None:
        """A claim that a quantity exceeds ``threshold``: true for every input in the rounding box."""
        lo, hi = corner_range(f, inputs)
        ok = lo > Fraction(threshold)
        self._add(
            article,
            claim,
            f"more than {threshold}",
            f"{float(lo):.4g} to {float(hi):.4g}",
            "exact range",
            ok,
            "agrees (rounded inputs)",
            "bound",
        )

    def simulated(
        self, article: str, claim: str, printed: str, value: Any, standard_error: float, unit: Any = 1
    ) -> None:
        """A simulated figure against the exact value it estimates: within two Monte Carlo standard errors."""
        v = float(Fraction(value) * unit)
        lo, hi = rounding_interval(printed)
        gap = max(float(lo) - v, v - float(hi), 0.0)
        se = standard_error * float(unit)
        shown = f"{v:.4g} (Monte Carlo s.e. {se:.2g})"
        self._add(article, claim, printed, shown, "float", gap <= 2 * se, "agrees within Monte Carlo error")

    def table(self) -> pd.DataFrame:
        t = pd.DataFrame(self.rows)
        t.index = range(1, len(t) + 1)
        return t
