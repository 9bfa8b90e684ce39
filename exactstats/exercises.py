"""Checking a student's answer to a book exercise, against that student's own version of it.

Every checkable exercise is a generator (:mod:`exactstats.variants`): a student id draws the exercise's
numbers, and the answer is computed from them, exactly, when it is checked. Nothing about an answer is
stored, so there is no table of answers (or of their hashes) to read or invert; without a student id the
numbers are the book's. Exercise ids are the book's numbers ("5.1" is Exercise 5.1). Feedback: ``right``;
``close`` when a decimal typed to enough places rounds like the exact answer (give an exact fraction) or,
for a list, when every value does; ``wrong``, saying how many values a list needs; ``unchecked`` for an
explanation. A choice exercise's short check confirms an explanation rather than replacing it: with a
handful of options it can be guessed.

>>> check("1.1", "0.6826")[0]
'close'
>>> check("1.1", "1/2")[0]
'wrong'
>>> check("1.1", "0.6826", student="ada")[0]    # ada's voters and rate are her own
'wrong'
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from . import variants
from ._validate import ExactStatsError, as_fraction

CLOSE_PLACES = (3, 4, 5, 6)


def _round(value: Fraction, places: int) -> str:
    q = Decimal(1).scaleb(-places)
    return str((Decimal(value.numerator) / Decimal(value.denominator)).quantize(q))


def _normalise(text: str) -> str:
    """A choice as typed: case, spaces, brackets and a final full stop do not matter ("(B)." is "b")."""
    return "".join(text.lower().split()).strip("().")


def _parse_exact(text: str) -> Fraction:
    try:
        value = as_fraction(text, "answer")
    except ExactStatsError:
        raise ExactStatsError(f"answer must be a number such as 7/10, 3 or 0.7, got {text[:40]!r}") from None
    if max(abs(value.numerator), value.denominator).bit_length() > 10_000:  # no exercise has such an answer
        raise ExactStatsError(f"answer must be a number of at most a few thousand digits, got {text[:40]!r}...")
    return value


def check(exercise: str, answer: Any, student: str | None = None) -> tuple[str, str]:
    """``(verdict, message)`` with verdict ``right``, ``wrong``, ``close`` or ``unchecked``, against the version
    of ``exercise`` that ``student`` got (the book's without an id).

    ``answer`` is a Fraction, an int, a decimal string, or for list answers a list or a comma-separated string.
    """
    ex = variants.variant(exercise)
    if ex is None:
        return (
            "unchecked",
            f"Exercise {exercise} asks for an explanation: compare yours with a classmate or your teacher.",
        )
    want = ex.answer(variants.numbers(exercise, student))
    if ex.kind == "choice":
        return ("right", "right") if _normalise(str(answer)) == _normalise(str(want)) else ("wrong", "wrong")
    if ex.kind == "list":
        return _check_list(answer, [Fraction(w) for w in want])
    text = str(answer)
    value = answer if isinstance(answer, Fraction) else _parse_exact(text)
    if ex.kind == "decimal":
        places = ex.places
        ok = _round(value, places) == _round(Fraction(want), places)
        return ("right", f"right (to {places} decimals)") if ok else ("wrong", f"wrong (give {places} decimals)")
    if value == Fraction(want):
        return "right", "right"
    if any(_typed_places(text) >= p and _round(value, p) == _round(Fraction(want), p) for p in CLOSE_PLACES):
        return "close", "close: give an exact fraction"
    return "wrong", "wrong"


def _check_list(answer: Any, want: list[Fraction]) -> tuple[str, str]:
    # a list typed as "3,9", "3, 9" or "3 9" (a class file's cell, say)
    items = answer if isinstance(answer, (list, tuple)) else re.split(r"[,\s]+", str(answer).strip("[] "))
    values = [_parse_exact(str(v)) for v in items]
    if values == want:
        return "right", "right"
    if len(values) != len(want):
        return "wrong", f"wrong: give {len(want)} values, separated by commas"
    typed = min(_typed_places(str(t)) for t in items)
    if any(typed >= p and [_round(v, p) for v in values] == [_round(w, p) for w in want] for p in CLOSE_PLACES):
        return "close", "close: give every value as an exact fraction"
    return "wrong", "wrong: check each value and the order"


def _typed_places(text: str) -> int:
    """Decimal places a typed number carries: those after its point; none for an integer or a fraction."""
    text = text.strip()
    if "/" in text or not _is_decimal(text):
        return 0
    exponent = Decimal(text).as_tuple().exponent
    return -exponent if isinstance(exponent, int) else 0


def _is_decimal(text: str) -> bool:
    try:
        Decimal(text.strip())
    except InvalidOperation:
        return False
    return True


def exercise_order(exercise_id: str) -> tuple[int, ...]:
    """The sort key of an exercise id: "3.10" after "3.9"."""
    return tuple(int(x) for x in exercise_id.split("."))
