"""Normal quantiles: the one float that interval and power formulas need (z is irrational)."""

from __future__ import annotations

from statistics import NormalDist
from typing import Any

from ._validate import as_probability


def z_value_float(confidence: Any = "0.95") -> float:
    """Two-sided normal quantile for a confidence level.

    >>> round(z_value_float("0.95"), 6)
    1.959964
    """
    level = as_probability(confidence, "confidence", open_low=True, open_high=True)
    return NormalDist().inv_cdf(0.5 + float(level) / 2)


def one_sided_z_float(level: Any, name: str = "power") -> float:
    """One-sided normal quantile: the z with ``P(Z <= z) = level``.

    >>> round(one_sided_z_float("0.8"), 4)
    0.8416
    """
    level = as_probability(level, name, open_low=True, open_high=True)
    return NormalDist().inv_cdf(float(level))
