"""Checking a student's answer to a book exercise without revealing the answer.

Each exercise with a checkable answer is stored as the salted SHA-256 of its canonical
answer (an exact fraction, an integer, a decimal at a stated precision, or a small list),
plus, for exact answers and lists, the hashes of the value (every value of a list, together)
rounded to a few decimals, so a close decimal can be told "close: give an exact fraction".
The salt includes the exercise's label, so two exercises with the same answer store
different hashes. Nothing else about the answer is stored. Exercise ids are the book's numbers ("5.1" is Exercise 5.1). An exercise that
asks for an explanation ends with a short check (a letter among a few statements, or a
word) stored the same way; with a handful of options such a check can be guessed, so it
confirms an explanation rather than replacing it.

>>> check("1.1", "0.6826")[0]
'close'
>>> check("1.1", "1/2")[0]
'wrong'
"""

from __future__ import annotations

import hashlib
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from ._validate import ExactStatsError, as_fraction

SALT = "exactstats-exercises-v2"
CLOSE_PLACES = (3, 4, 5, 6)

# id -> (label in the book, kind, data). kind "exact": data = {"hash", "close": {places: hash}};
# "decimal": data = {"places", "hash"}; "list": data = {"hash", "n", "close": {places: hash}} over a list
# of exact values (the close hashes are of the whole list rounded, never of one value alone);
# "choice": data = {"hash"} over the normalised text (a letter, a word, "c>a");
# "prose": an explanation, no automatic check.
EXERCISES: dict[str, tuple[str, str, dict[str, Any]]] = {}


def canonical(value: Any) -> str:
    """Canonical text of an exact answer: a reduced fraction ``p/q`` (or an integer), lists comma-joined."""
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(canonical(v) for v in value) + "]"
    f = Fraction(value)
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def digest(text: str, label: str) -> str:
    """Salted hash of an answer's canonical text; the exercise's label is part of the salt."""
    return hashlib.sha256(f"{SALT}|{label}|{text}".encode()).hexdigest()[:32]


def _round(value: Fraction, places: int) -> str:
    q = Decimal(1).scaleb(-places)
    return str((Decimal(value.numerator) / Decimal(value.denominator)).quantize(q))


def _rounded_list(values: Any, places: int) -> str:
    return "[" + ",".join(_round(Fraction(v), places) for v in values) + "]"


def entry(label: str, answer: Any, kind: str = "exact", places: int | None = None) -> tuple[str, str, dict[str, Any]]:
    """Build a registry entry from a canonical answer (used by the test that keeps the registry in sync)."""
    if kind == "exact":
        f = Fraction(answer)
        close = {str(p): digest(_round(f, p), label) for p in CLOSE_PLACES}
        return label, kind, {"hash": digest(canonical(f), label), "close": close}
    if kind == "decimal":
        assert places is not None
        return label, kind, {"places": places, "hash": digest(_round(Fraction(answer), places), label)}
    if kind == "list":
        values = list(answer)
        close = {str(p): digest(_rounded_list(values, p), label) for p in CLOSE_PLACES}
        return label, kind, {"hash": digest(canonical(values), label), "n": len(values), "close": close}
    if kind == "choice":
        return label, kind, {"hash": digest(_normalise(str(answer)), label)}
    return label, "prose", {}


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


def check(exercise: str, answer: Any) -> tuple[str, str]:
    """``(verdict, message)`` with verdict ``right``, ``wrong``, ``close`` or ``unchecked``.

    ``answer`` is a Fraction, an int, a decimal string, or for list answers a list or a
    comma-separated string.
    """
    if exercise not in EXERCISES:
        raise ExactStatsError(
            f"exercise must be one of {', '.join(sorted(EXERCISES, key=exercise_order))}, got {exercise!r}"
        )
    label, kind, data = EXERCISES[exercise]
    if kind == "prose":
        return (
            "unchecked",
            f"Exercise {exercise} asks for an explanation: compare yours with a classmate or your teacher.",
        )
    if kind == "choice":
        ok = digest(_normalise(str(answer)), label) == data["hash"]
        return ("right", "right") if ok else ("wrong", "wrong")
    if kind == "list":
        items = answer if isinstance(answer, (list, tuple)) else str(answer).strip("[] ").split(",")
        values = [_parse_exact(str(v)) for v in items]
        if digest(canonical(values), label) == data["hash"]:
            return "right", "right"
        if len(values) != data["n"]:
            return "wrong", f"wrong: give {data['n']} values, separated by commas"
        typed = min(_typed_places(str(t)) for t in items)
        if _close(typed, lambda p: _rounded_list(values, p), label, data):
            return "close", "close: give every value as an exact fraction"
        return "wrong", "wrong: check each value and the order"
    text = str(answer)
    value = answer if isinstance(answer, Fraction) else _parse_exact(text)
    if kind == "decimal":
        places = data["places"]
        ok = digest(_round(value, places), label) == data["hash"]
        return ("right", f"right (to {places} decimals)") if ok else ("wrong", f"wrong (give {places} decimals)")
    if digest(canonical(value), label) == data["hash"]:
        return "right", "right"
    if _close(_typed_places(text), lambda p: _round(value, p), label, data):
        return "close", "close: give an exact fraction"
    return "wrong", "wrong"


def _typed_places(text: str) -> int:
    """Decimal places a typed number carries: those after its point; none for an integer or a fraction."""
    text = text.strip()
    if "/" in text or not _is_decimal(text):
        return 0
    exponent = Decimal(text).as_tuple().exponent
    return -exponent if isinstance(exponent, int) else 0


def _close(typed: int, rounded: Any, label: str, data: dict[str, Any]) -> bool:
    """Typed to at least ``p`` places, and rounding to ``p`` places like the answer, for some ``p``."""
    return any(typed >= p and digest(rounded(p), label) == data["close"][str(p)] for p in CLOSE_PLACES)


def _is_decimal(text: str) -> bool:
    try:
        Decimal(text.strip())
    except InvalidOperation:
        return False
    return True


def exercise_order(exercise_id: str) -> tuple[int, ...]:
    """The sort key of an exercise id: "3.10" after "3.9"."""
    return tuple(int(x) for x in exercise_id.split("."))


def _load() -> None:
    from ._exercise_answers import REGISTRY

    EXERCISES.update(REGISTRY)  # type: ignore[arg-type]  # generated literal: mypy widens the dict values


_load()
