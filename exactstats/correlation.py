"""Correlated errors: phi, effective votes, the design effect.

When two models' errors are correlated, a second vote adds less than a second
independent opinion. For ``k`` voters whose errors have pairwise correlation
``phi`` the variance of their mean error is ``(sigma^2/k)(1 + (k-1) phi)``, so
they are worth ``n_eff = k / (1 + (k-1) phi)`` independent votes, never more than
``1/phi`` however many are added (Kish's design effect).

>>> effective_votes(7, "0.3")
Fraction(5, 2)
>>> effective_votes_ceiling("0.3")
Fraction(10, 3)
>>> phi_squared([1, 1, 0, 0], [1, 0, 0, 0])
Fraction(1, 3)
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:  # SymPy loads only when an exact surd is asked for
    import sympy

from ._blockwise import co_occurrence, phi_from_counts
from ._lazy import np
from ._validate import ExactStatsError, as_binary_matrix, as_binary_vector, as_fraction, as_int

__all__ = [
    "error_correlation_from_phi",
    "phi_squared",
    "phi",
    "phi_float",
    "phi_matrix_float",
    "mean_phi_float",
    "design_effect",
    "effective_votes",
    "phi_for_effective_votes",
    "effective_votes_ceiling",
    "effective_votes_eigen_float",
    "effective_votes_float",
    "ErrorCorrelation",
    "error_correlation_float",
]


def _table(x: Any, y: Any) -> tuple[int, int, int, int]:
    x = as_binary_vector(x, "x")
    y = as_binary_vector(y, "y")
    if x.shape != y.shape:
        raise ExactStatsError(f"x and y must have the same length, got {x.size} and {y.size}")
    n11 = int(np.sum(x & y))
    n10 = int(np.sum(x & (1 - y)))
    n01 = int(np.sum((1 - x) & y))
    n00 = x.size - n11 - n10 - n01
    if min(n11 + n10, n01 + n00, n11 + n01, n10 + n00) == 0:
        raise ExactStatsError("x and y must each hold both 0s and 1s: phi is undefined for a constant vector")
    return n11, n10, n01, n00


def phi_squared(x: Any, y: Any) -> Fraction:
    """Exact phi^2 of two 0/1 vectors (e.g. two models' error indicators).

    >>> phi_squared([1, 1, 0, 0], [1, 0, 0, 0])
    Fraction(1, 3)
    """
    n11, n10, n01, n00 = _table(x, y)
    num = n11 * n00 - n10 * n01
    return Fraction(num * num, (n11 + n10) * (n01 + n00) * (n11 + n01) * (n10 + n00))


def phi(x: Any, y: Any) -> sympy.Expr:
    """phi as an exact SymPy surd: ``(n11 n00 - n10 n01) / sqrt(n1. n0. n.1 n.0)``.

    >>> phi([1, 1, 0, 0], [1, 0, 0, 0])
    sqrt(3)/3
    """
    n11, n10, n01, n00 = _table(x, y)
    num = n11 * n00 - n10 * n01
    import sympy

    return sympy.Integer(num) / sympy.sqrt(sympy.Integer((n11 + n10) * (n01 + n00) * (n11 + n01) * (n10 + n00)))


def phi_float(x: Any, y: Any) -> float:
    """Float twin of :func:`phi`.

    >>> round(phi_float([1, 1, 0, 0], [1, 0, 0, 0]), 6)
    0.57735
    """
    n11, n10, n01, n00 = _table(x, y)
    return float((n11 * n00 - n10 * n01) / float((n11 + n10) * (n01 + n00) * (n11 + n01) * (n10 + n00)) ** 0.5)


def phi_matrix_float(errors: Any) -> np.ndarray:
    """Pairwise phi of the rows of a models x questions 0/1 matrix (phi is Pearson's r on 0/1 data).

    >>> phi_matrix_float([[1, 1, 0, 0], [1, 0, 0, 0]]).round(4).tolist()
    [[1.0, 0.5774], [0.5774, 1.0]]
    """
    e = as_binary_matrix(errors, "errors")
    if e.shape[0] < 2:
        raise ExactStatsError(f"errors must have at least 2 rows (models), got {e.shape[0]}")
    # phi from the exact counts, the co-occurrences taken blockwise (no float copy of the matrix)
    return phi_from_counts(e.sum(axis=1), co_occurrence(e), e.shape[1], "errors")


def mean_phi_float(errors: Any) -> float:
    """Mean off-diagonal phi of a panel.

    >>> round(mean_phi_float([[1, 1, 0, 0], [1, 0, 0, 0], [1, 1, 1, 0]]), 6)
    0.496011
    """
    r = phi_matrix_float(errors)
    k = r.shape[0]
    return float((r.sum() - np.trace(r)) / (k * (k - 1)))


def _k_phi(k: Any, phi_value: Any) -> tuple[int, Fraction]:
    k = as_int(k, "k", minimum=1)
    ph = as_fraction(phi_value, "phi")
    if ph > 1 or (k > 1 and 1 + (k - 1) * ph <= 0):
        low = Fraction(-1, k - 1) if k > 1 else None
        raise ExactStatsError(f"phi must lie in ({low}, 1] for k = {k} voters, got {ph}")
    return k, ph


def design_effect(k: Any, phi_value: Any) -> Fraction:
    """Kish design effect ``1 + (k - 1) phi``: how much the variance of the mean grows.

    >>> design_effect(7, "0.3")
    Fraction(14, 5)
    """
    k, ph = _k_phi(k, phi_value)
    return Fraction(1 + (k - 1) * ph)


def effective_votes(k: Any, phi_value: Any) -> Fraction:
    """Independent votes that ``k`` voters with error correlation ``phi`` are worth: ``k/(1+(k-1)phi)``.

    >>> effective_votes(7, "0.3")
    Fraction(5, 2)
    """
    k, ph = _k_phi(k, phi_value)
    return Fraction(k / (1 + (k - 1) * ph))


def phi_for_effective_votes(k: Any, votes: Any) -> Fraction:
    """The error correlation at which ``k`` voters are worth ``votes`` independent ones: the inverse of
    :func:`effective_votes`, ``phi = (k/votes - 1) / (k - 1)``.

    >>> phi_for_effective_votes(7, "5/2")
    Fraction(3, 10)
    """
    k = as_int(k, "k", minimum=2)
    votes = as_fraction(votes, "votes")
    if not 0 < votes:
        raise ExactStatsError(f"votes must be > 0, got {votes}")
    phi_value = (k / votes - 1) / (k - 1)
    _k_phi(k, phi_value)  # the same range check as effective_votes
    return Fraction(phi_value)


def effective_votes_ceiling(phi_value: Any) -> Fraction:
    """``1/phi``: the limit of :func:`effective_votes` as ``k`` grows (phi > 0).

    >>> effective_votes_ceiling("0.3")
    Fraction(10, 3)
    """
    ph = as_fraction(phi_value, "phi")
    if not 0 < ph <= 1:
        raise ExactStatsError(f"phi must lie in (0, 1] for a finite ceiling, got {ph}")
    return 1 / ph


def effective_votes_eigen_float(errors: Any) -> float:
    """Eigenvalue estimate ``k / lambda_max`` of the error correlation matrix (float).

    With equal correlations phi, ``lambda_max = 1 + (k-1) phi`` and this equals
    :func:`effective_votes`; with unequal ones it weights the dominant shared factor.

    >>> round(effective_votes_eigen_float([[1, 1, 0, 0], [1, 0, 0, 0], [0, 1, 1, 0]]), 4)
    1.6515
    """
    r = phi_matrix_float(errors)
    return float(r.shape[0] / np.linalg.eigvalsh(r)[-1])


def effective_votes_float(errors: Any) -> float:
    """Float twin of :func:`effective_votes` at a panel's own mean phi: ``k / (1 + (k-1) mean_phi)`` from
    its error indicators (a float: phi is a surd). A negative mean phi gives more than ``k`` votes, as the
    exact function does; whether that reading means anything is the caller's to say.

    >>> round(effective_votes_float([[1, 1, 0, 0], [1, 0, 0, 0], [1, 1, 1, 0]]), 4)
    1.506
    """
    ec = error_correlation_float(errors)
    if ec.effective_votes is None:
        k = ec.matrix.shape[0]
        raise ExactStatsError(
            f"errors' mean phi must exceed -1/(k-1) = {-1 / (k - 1):.4g} for k = {k}, got {ec.mean_phi:.4g}"
        )
    return ec.effective_votes


class ErrorCorrelation(NamedTuple):
    """A panel's error correlation, from one phi matrix: its mean, the effective votes by the formula (None
    where the mean phi reaches -1/(k-1), as for two models with complementary errors, and the formula has no
    value) and by the largest eigenvalue, and the ceiling ``1/phi`` (None unless the mean phi is positive)."""

    matrix: np.ndarray
    mean_phi: float
    effective_votes: float | None
    effective_votes_eigen: float
    ceiling: float | None


def error_correlation_float(errors: Any) -> ErrorCorrelation:
    """Every correlation summary of a panel from one phi matrix (mean phi, effective votes two ways, ceiling).

    >>> ec = error_correlation_float([[1, 1, 0, 0], [1, 0, 0, 0], [1, 1, 1, 0]])
    >>> round(ec.mean_phi, 6), round(ec.effective_votes, 4), round(ec.ceiling, 4)
    (0.496011, 1.506, 2.0161)
    """
    return error_correlation_from_phi(phi_matrix_float(errors))


def error_correlation_from_phi(r: np.ndarray) -> ErrorCorrelation:
    """:func:`error_correlation_float`'s summaries of a phi matrix already computed (k >= 2).

    >>> round(error_correlation_from_phi(np.array([[1.0, 0.5], [0.5, 1.0]])).effective_votes, 6)
    1.333333
    """
    k = r.shape[0]
    mean = float((r.sum() - np.trace(r)) / (k * (k - 1)))
    denominator = 1 + (k - 1) * mean
    votes = k / denominator if denominator > 1e-12 else None
    return ErrorCorrelation(r, mean, votes, float(k / np.linalg.eigvalsh(r)[-1]), 1 / mean if mean > 0 else None)
