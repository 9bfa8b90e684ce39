"""Normal quantiles: the one float that interval and power formulas need (z is irrational)."""

from __future__ import annotations

from statistics import NormalDist
from typing import Any

from ._validate import ExactStatsError, as_probability, safe_float


def z_value_float(confidence: Any = "0.95") -> float:
    """Two-sided normal quantile for a confidence level.

    >>> round(z_value_float("0.95"), 6)
    1.959964
    """
    level = as_probability(confidence, "confidence", open_low=True, open_high=True)
    tail = 0.5 + float(level) / 2
    if not 0 < tail < 1:  # a level within about 1e-16 of one has no float quantile
        raise ExactStatsError(f"confidence must be at most 1 - 1e-16 for a normal quantile, got {safe_float(level)!r}")
    return NormalDist().inv_cdf(tail)


def one_sided_z_float(level: Any, name: str = "power") -> float:
    """One-sided normal quantile: the z with ``P(Z <= z) = level``.

    >>> round(one_sided_z_float("0.8"), 4)
    0.8416
    """
    level = as_probability(level, name, open_low=True, open_high=True)
    if not 0 < float(level) < 1:
        raise ExactStatsError(f"{name} must lie within about 1e-16 of neither 0 nor 1 for a normal quantile")
    return NormalDist().inv_cdf(float(level))
