"""Pieces shared by the normal intervals of paired comparisons and of pass@k differences (private)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ._normal import z_value_float
from ._validate import ExactStatsError, as_fraction, as_int


def normal_bounds(difference: Fraction, variance: Fraction, z: float) -> tuple[Fraction, Fraction, float, float, float]:
    """``(difference, variance, z, lower, upper)``: the exact centre and variance with the float ends."""
    half = z * float(variance) ** 0.5
    d = float(difference)
    return difference, variance, z, d - half, d + half


def check_ddof(ddof: Any, n: int) -> int:
    """0 (divide by n) or 1 (by n - 1), with at least one degree of freedom left."""
    ddof = as_int(ddof, "ddof", minimum=0, maximum=1)
    if n - ddof < 1:
        raise ExactStatsError(f"n must be > ddof = {ddof}, got n = {n}")
    return int(ddof)


def z_from(z: Any, confidence: Any) -> float:
    """A given z (an exact rational such as "1.96", used at its value) or the normal quantile of ``confidence``."""
    if z is None:
        return z_value_float("0.95" if confidence is None else confidence)
    if confidence is not None:
        raise ExactStatsError("give z or confidence, not both (z is the quantile of a confidence level)")
    zf = as_fraction(z, "z")
    if not 0 < zf <= 40:
        raise ExactStatsError(f"z must lie in (0, 40], got {float(zf):g}")
    return float(zf)
