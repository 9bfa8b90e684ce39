"""Argument checking and exact conversion shared by every module.

One exception class, :class:`ExactStatsError`, a :class:`ValueError`, carries
every complaint about bad input; its message names the argument and the range
it must lie in.
"""

from __future__ import annotations

import math
import numbers
import re
import weakref
from collections.abc import Sequence, Sized
from fractions import Fraction
from typing import Any

from ._lazy import np, numpy_loaded


class ExactStatsError(ValueError):
    """Bad input to an exactstats function: the message names the argument and the allowed range."""


# One vocabulary for ties, with one meaning wherever a function accepts a rule.
TIE_RULES = {
    "fair": "broken uniformly at random; exact results credit the expectation (1/t for a t-way tie holding the right answer)",
    "lose": "counted as wrong",
    "win": "counted as right",
    "lowest": "broken towards the lowest option index",
    "exclude": "left out of the count (arena battles, sign tests)",
}


def as_tie_rule(value: Any, allowed: Sequence[str]) -> str:
    """One of ``allowed`` (a subset of :data:`TIE_RULES`), else a clear error listing them."""
    if value not in allowed:
        raise ExactStatsError(f"ties must be one of {', '.join(map(repr, allowed))}, got {value!r}")
    return str(value)


_INT_TEXT = re.compile(r"[+-]?[0-9]+")
# Exact results whose integers would exceed this many bits are refused up front (the float twin is named).
MAX_EXACT_BITS = 1 << 22


def _numpy_types(name: str) -> tuple[type, ...]:
    """NumPy's scalar type ``name`` where NumPy is imported; none otherwise (nothing can be a NumPy scalar
    before NumPy is imported, and the exact core must not import it)."""
    numpy = numpy_loaded()
    return (getattr(numpy, name),) if numpy is not None else ()


def as_int(value: Any, name: str, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """Return ``value`` as an int: whole numbers, and exact values that are whole (``"5.0"``, ``Fraction(10, 2)``).

    Bools and non-whole values are refused, as is anything out of range.
    """
    if isinstance(value, bool):
        raise ExactStatsError(f"{name} must be a whole number, got {value!r}")
    if not isinstance(value, (numbers.Integral, *_numpy_types("integer"))):
        if isinstance(value, str) and _INT_TEXT.fullmatch(value.strip()) and len(value.strip()) <= 4000:
            value = int(value.strip())
        else:
            try:
                exact = as_fraction(value, name)
            except ExactStatsError:
                raise ExactStatsError(f"{name} must be a whole number, got {value!r}") from None
            if exact.denominator != 1:
                raise ExactStatsError(f"{name} must be a whole number, got {value!r}")
            value = exact.numerator
    value = int(value)
    if minimum is not None and value < minimum:
        raise ExactStatsError(f"{name} must be >= {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise ExactStatsError(f"{name} must be <= {maximum}, got {value}")
    return int(value)


def as_fraction(value: Any, name: str) -> Fraction:
    """Exact rational from an int, Fraction, decimal string or float.

    A float stands for its shortest decimal repr, so ``0.7`` means ``7/10``
    (not the binary double nearest to it); NaN and infinities are refused.
    """
    if isinstance(value, bool):
        raise ExactStatsError(f"{name} must be a number, got {value!r}")
    if isinstance(value, Fraction):
        return value
    if isinstance(value, (numbers.Integral, *_numpy_types("integer"))):
        whole: Any = value  # an int or a NumPy integer scalar
        return Fraction(int(whole))
    if isinstance(value, (float, *_numpy_types("floating"))):
        real: Any = value  # a float or a NumPy floating scalar
        if not math.isfinite(real):
            raise ExactStatsError(f"{name} must be finite, got {value!r}")
        return Fraction(repr(float(real)))
    if isinstance(value, numbers.Rational):
        return Fraction(int(value.numerator), int(value.denominator))
    if isinstance(value, str):
        text = value.strip()
        if not text.isascii() or len(text) > 4000:
            raise ExactStatsError(f"{name} must be a number such as 0.7 or 7/10, got {value[:40]!r}")
        exponent = re.search(r"[eE]([+-]?[0-9]+)$", text)
        if exponent and abs(int(exponent.group(1))) > 4000:
            raise ExactStatsError(f"{name} must have a decimal exponent within +-4000, got {text!r}")
        try:
            return Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise ExactStatsError(f"{name} must be a number such as 0.7 or 7/10, got {value!r}") from None
    try:  # decimal.Decimal and other exact number types
        return Fraction(value)
    except (TypeError, ValueError, OverflowError, ArithmeticError):
        raise ExactStatsError(f"{name} must be a finite number, got {value!r}") from None


def as_probability(value: Any, name: str, *, open_low: bool = False, open_high: bool = False) -> Fraction:
    """Exact rational in [0, 1] (or an open end where asked)."""
    p = as_fraction(value, name)
    low_bad = p <= 0 if open_low else p < 0
    high_bad = p >= 1 if open_high else p > 1
    if low_bad or high_bad:
        lo = "(0" if open_low else "[0"
        hi = "1)" if open_high else "1]"
        raise ExactStatsError(f"{name} must lie in {lo}, {hi}, got {p}")
    return p


def as_choice(value: Any, name: str, allowed: Sequence[str]) -> str:
    if value not in allowed:
        raise ExactStatsError(f"{name} must be one of {', '.join(map(repr, allowed))}, got {value!r}")
    return str(value)


def as_binary_vector(values: Any, name: str) -> np.ndarray:
    """A 1-D array of 0/1 integers; bools are accepted as data, anything else 0/1-valued too."""
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ExactStatsError(f"{name} must be a one-dimensional sequence of 0/1 values, got shape {arr.shape}")
    return _binary(arr, name)


# Matrices already scanned, by id, with a weak reference that proves the id still names the same
# array. A checked matrix is read-only, so it cannot stop holding 0/1 after its scan; a caller that
# assembles a matrix scans it once, and every core function it is passed to then trusts it.
_CHECKED: dict[int, weakref.ref[np.ndarray]] = {}


def _is_checked(arr: Any) -> bool:
    ref = _CHECKED.get(id(arr))
    return ref is not None and ref() is arr


def _remember(arr: np.ndarray) -> np.ndarray:
    arr.flags.writeable = False
    key = id(arr)
    _CHECKED[key] = weakref.ref(arr, lambda _ref: _CHECKED.pop(key, None))
    return arr


def checked_binary_matrix(values: Any, name: str, *, owned: bool = False) -> np.ndarray:
    """:func:`as_binary_matrix`, read-only and remembered: passing it again costs no second scan.

    ``owned=True`` is for a caller handing over an int64 array nobody else holds (an importer's fresh
    matrix): it is checked and made read-only in place, not copied (0.3 s at 15 million cells).

    >>> C = checked_binary_matrix([[1, 0], [0, 1]], "C")
    >>> as_binary_matrix(C, "C") is C, C.flags.writeable
    (True, False)
    """
    arr = np.asarray(values)
    if owned and not _is_checked(arr) and arr.dtype == np.int64 and arr.ndim == 2 and 0 not in arr.shape:
        return _remember(_binary(arr, name, copy=False))  # any other array takes the checks below
    arr = as_binary_matrix(values, name)  # a new array (or one already remembered): the caller's stays writable
    return arr if _is_checked(arr) else _remember(arr)


def checked_selection(matrix: np.ndarray, rows: Any, columns: Any = None) -> np.ndarray:
    """Rows (and columns) of a checked matrix, reordered or subset, itself checked without a scan.

    >>> C = checked_binary_matrix([[1, 0], [0, 1]], "C")
    >>> as_binary_matrix(checked_selection(C, [1, 0]), "C").tolist()
    [[0, 1], [1, 0]]
    """
    if not _is_checked(matrix):
        raise ExactStatsError("checked_selection needs a matrix from checked_binary_matrix")
    picked = matrix[np.asarray(rows, dtype=np.int64)]
    if columns is not None:
        picked = picked[:, np.asarray(columns, dtype=np.int64)]
    return _remember(np.ascontiguousarray(picked))


def checked_complement(matrix: np.ndarray) -> np.ndarray:
    """``1 - matrix`` of a checked matrix (errors from correctness), itself checked without a scan.

    >>> checked_complement(checked_binary_matrix([[1, 0]], "C")).tolist()
    [[0, 1]]
    """
    if not _is_checked(matrix):
        raise ExactStatsError("checked_complement needs a matrix from checked_binary_matrix")
    return _remember(1 - matrix)


def as_binary_matrix(values: Any, name: str) -> np.ndarray:
    """A 2-D array (rows x columns) of 0/1 integers."""
    arr = np.asarray(values)  # the same object when it is already an array
    if _is_checked(arr):
        return arr
    if arr.ndim != 2:
        raise ExactStatsError(f"{name} must be a two-dimensional 0/1 matrix, got shape {arr.shape}")
    if 0 in arr.shape:
        raise ExactStatsError(f"{name} must have at least one row and one column, got shape {arr.shape}")
    return _binary(arr, name)


def _binary(arr: np.ndarray, name: str, copy: bool = True) -> np.ndarray:
    if arr.dtype == bool:
        return arr.astype(np.int64)
    if arr.dtype.kind not in "iuf":
        raise ExactStatsError(f"{name} must hold 0/1 values, got dtype {arr.dtype}")
    bad = (arr != 0) & (arr != 1)
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ExactStatsError(f"{name} must hold only 0 and 1, found {arr[where]!r} at index {where}")
    return arr.astype(np.int64, copy=copy)


def same_length(name_a: str, a: Sized, name_b: str, b: Sized) -> None:
    if len(a) != len(b):
        raise ExactStatsError(f"{name_a} and {name_b} must have the same length, got {len(a)} and {len(b)}")


MAX_PRIOR = 10_000  # a Beta(a, a) prior with a beyond this says nothing a rational prior could not


def as_beta_prior(value: Any, name: str = "prior") -> int:
    """The whole ``a`` of a Beta(a, a) prior, in [1, 10,000]."""
    return as_int(value, name, minimum=1, maximum=MAX_PRIOR)


def as_sample_counts(n: Any, c: Any, k: Any) -> tuple[int, int, int]:
    """``n`` samples of which ``c`` pass, and a ``k`` of at least 1 (each caller bounds k by n as it needs)."""
    n = as_int(n, "n", minimum=1)
    return n, as_int(c, "c", minimum=0, maximum=n), as_int(k, "k", minimum=1)


def as_cell_probabilities(p_b: Any, p_c: Any) -> tuple[Fraction, Fraction]:
    """The chances of the two discordant cells of a paired comparison: each in [0, 1], their sum at most 1."""
    pb = as_probability(p_b, "p_b")
    pc = as_probability(p_c, "p_c")
    if pb + pc > 1:
        raise ExactStatsError(f"p_b + p_c must be <= 1, got {pb + pc}")
    return pb, pc


def refuse_if_too_big(bits: float, what: str, twin: str, limit: int = MAX_EXACT_BITS) -> None:
    """Refuse exact work whose integers would exceed ``limit`` bits, naming the float twin."""
    if bits > limit:
        size = f"about {bits:,.0f} bits" if bits < 1e18 else "more bits than can be counted"
        raise ExactStatsError(
            f"{what} needs integers of {size}, over the exact limit of {limit:,}; use {twin} for a float answer"
        )


def refuse_if_slow(cost: float, limit: float, what: str, twin: str, allow_slow: Any) -> None:
    """Refuse, unless ``allow_slow``, exact work past the size at which it was measured to take more than
    ten times as long as its float twin (``make bench``, group "exact sums"): the caller chooses the wait.

    ``cost`` and ``limit`` are in the caller's own unit of work (bits of its integers, or terms).
    """
    if allow_slow is not True and allow_slow is not False:
        raise ExactStatsError(f"allow_slow must be True or False, got {allow_slow!r}")
    if cost > limit and not allow_slow:
        raise ExactStatsError(
            f"{what} is past the size at which the exact sum takes over ten times as long as its float twin; "
            f"use {twin} for a float answer, or pass allow_slow=True to wait for the exact one"
        )


def log2_comb(n: int, k: int) -> float:
    """log2 C(n, k), from lgamma (sizes only; never used for a result)."""
    k = min(k, n - k)
    if k <= 0:
        return 0.0
    try:
        return (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)) / math.log(2)
    except OverflowError:  # n beyond the float range: C(n, k) >= n for 0 < k < n, and n alone is too big
        return float(n.bit_length())


def safe_float(x: Any) -> float:
    """``float(x)``, or +-inf where the value is beyond the float range (never OverflowError).

    >>> safe_float(Fraction(10**400)), safe_float(Fraction(1, 3))
    (inf, 0.3333333333333333)
    """
    try:
        return float(x)
    except OverflowError:
        return math.inf if x > 0 else -math.inf
