"""Check a number derived from other printed numbers, exactly, over every value those numbers stand for.

A printed input such as ``1.88`` stands for every value from 1.875 to 1.885, so a number computed
from printed inputs is consistent when *some* admissible input reproduces it. :func:`derived_range`
bounds a formula's values over the inputs' rounding box from both sides, exactly:

- *attained*: values the formula takes at the corners of the box (and of its parts, where the box
  is split). A formula built from ``+ - * /``, whole powers, ``abs`` and :func:`sqrt` is continuous
  wherever its enclosure is finite, so every value between two attained ones is attained too;
- *enclosure*: exact interval arithmetic over the box (split into parts where that tightens it), so
  no admissible input gives a value outside it.

:func:`check_derived` compares both with the printed value: ``reproduced`` when the inputs at face
value already print so, ``rounded inputs`` when only other admissible inputs do, ``impossible`` when
the enclosure misses the printed value, ``undetermined`` otherwise. :func:`parse_formula` reads a
formula written as text (a table's column), and :class:`ClaimTable` collects checks of the kinds a
published text makes (exact values, surds, values from rounded inputs, bounds, ranges, Monte Carlo
figures) as rows of a table.

>>> check_derived("13", lambda a, b: (a - b) / a * 100, ["1.88", "1.62"]).verdict   # 13.83 at face value
'rounded inputs'
>>> check_derived("0.25", lambda p: p * (1 - p), ["0.5"]).verdict
'reproduced'
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from typing import Any

from ._validate import ExactStatsError
from .audit import Finding, rounding_interval

__all__ = [
    "Bounds",
    "sqrt",
    "parse_formula",
    "DerivedRange",
    "derived_range",
    "DerivedCheck",
    "check_derived",
    "CLAIM_KINDS",
    "CLAIM_TESTS",
    "ClaimTable",
    "AuditClaim",
    "audit_claims",
]

MAX_INPUTS = 10  # 2^10 corners per part of the box
SQRT_BITS = 128  # a square root's enclosure is this many bits wide (relative to its denominator), or exact
BOXES = 4096  # parts of the rounding box a check may look at before it calls a claim undetermined
# what a function raises when handed a Bounds it cannot compute with (a package function of plain numbers;
# ExactStatsError is a ValueError): it is then evaluated at the corners only
_PLAIN_ONLY = (TypeError, ValueError, AttributeError)


@dataclass(frozen=True)
class Bounds:
    """Every value from ``low`` to ``high`` (exact, closed), with exact interval arithmetic.

    >>> (Bounds(Fraction(1), Fraction(2)) - Bounds(Fraction(0), Fraction(1))) * 2
    Bounds(low=Fraction(0, 1), high=Fraction(4, 1))
    """

    low: Fraction
    high: Fraction

    @classmethod
    def of(cls, value: Any) -> Bounds:
        if isinstance(value, Bounds):
            return value
        exact = Fraction(value)
        return cls(exact, exact)

    def __add__(self, other: Any) -> Bounds:
        o = Bounds.of(other)
        return Bounds(self.low + o.low, self.high + o.high)

    __radd__ = __add__

    def __neg__(self) -> Bounds:
        return Bounds(-self.high, -self.low)

    def __sub__(self, other: Any) -> Bounds:
        return self + -Bounds.of(other)

    def __rsub__(self, other: Any) -> Bounds:
        return Bounds.of(other) - self

    def __mul__(self, other: Any) -> Bounds:
        o = Bounds.of(other)
        ends = [a * b for a in (self.low, self.high) for b in (o.low, o.high)]
        return Bounds(min(ends), max(ends))

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> Bounds:
        o = Bounds.of(other)
        if o.low <= 0 <= o.high:
            raise ZeroDivisionError("the divisor's range contains 0")  # no finite enclosure; caught below
        return self * Bounds(1 / o.high, 1 / o.low)

    def __rtruediv__(self, other: Any) -> Bounds:
        return Bounds.of(other) / self

    def __pow__(self, exponent: int) -> Bounds:
        if not isinstance(exponent, int) or exponent < 0:
            raise ExactStatsError(f"a power must be a whole number 0 or more, got {exponent!r} (use sqrt for roots)")
        ends = (self.low**exponent, self.high**exponent)
        low = Fraction(0) if exponent % 2 == 0 and self.low < 0 < self.high else min(ends)
        return Bounds(low, max(ends))

    def __abs__(self) -> Bounds:
        if self.low >= 0:
            return self
        return Bounds(Fraction(0) if self.high > 0 else -self.high, max(-self.low, self.high))


def _sqrt_bounds(x: Fraction) -> tuple[Fraction, Fraction]:
    """Exact bounds on the square root of ``x >= 0``: equal when it is rational, else 2^-128 / denominator apart."""
    scale = 1 << SQRT_BITS
    num = x.numerator * x.denominator * scale * scale  # sqrt(p/q) = sqrt(p q) / q
    root = math.isqrt(num)
    low = Fraction(root, x.denominator * scale)
    return (low, low) if root * root == num else (low, Fraction(root + 1, x.denominator * scale))


def sqrt(x: Any) -> Bounds:
    """The square root of a value or an :class:`Bounds`, enclosed exactly (a point when it is rational).

    >>> sqrt(Fraction(9, 4))
    Bounds(low=Fraction(3, 2), high=Fraction(3, 2))
    """
    box = Bounds.of(x)
    if box.low < 0:  # undefined for part of the box: no enclosure (caught by derived_range)
        raise ZeroDivisionError("a square root of a negative value")
    return Bounds(_sqrt_bounds(box.low)[0], _sqrt_bounds(box.high)[1])


_BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Pow: operator.pow,
}
_FUNCTIONS: dict[str, Callable[[Any], Any]] = {"sqrt": sqrt, "abs": abs}


def parse_formula(text: str) -> tuple[list[str], Callable[..., Bounds]]:
    """A formula written as text, as its input names (in order of appearance) and a function of them.

    Numbers written in the formula are exact (``1.96`` is 49/25); names are the printed inputs.
    Allowed: ``+ - * /``, ``**`` with a whole exponent, parentheses, ``sqrt`` and ``abs``.

    >>> names, f = parse_formula("(a - b) / a * 100")
    >>> names, f(Fraction("1.88"), Fraction("1.62")).low
    (['a', 'b'], Fraction(650, 47))
    """
    try:
        tree = ast.parse(str(text).strip(), mode="eval")
    except SyntaxError:
        raise ExactStatsError(f"formula {text!r} is not an arithmetic expression") from None
    names: list[str] = []

    def build(node: ast.AST) -> Callable[[dict[str, Bounds]], Bounds]:
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool):
            exact = Bounds.of(Fraction(ast.get_source_segment(text.strip(), node) or str(node.value)))
            return lambda env: exact
        if isinstance(node, ast.Name) and node.id not in _FUNCTIONS:
            if node.id not in names:
                names.append(node.id)
            return lambda env: env[node.id]
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            inner = build(node.operand)
            return (lambda env: -inner(env)) if isinstance(node.op, ast.USub) else inner
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            return _binary(node, build)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS:
            if len(node.args) != 1 or node.keywords:
                raise ExactStatsError(f"formula {text!r}: {node.func.id} takes one argument")
            fn, arg = _FUNCTIONS[node.func.id], build(node.args[0])
            return lambda env: Bounds.of(fn(arg(env)))
        raise ExactStatsError(
            f"formula {text!r}: {ast.unparse(node)!r} is not allowed (numbers, names, + - * / **, sqrt, abs)"
        )

    body = build(tree.body)

    def formula(*values: Any) -> Bounds:
        return Bounds.of(body({name: Bounds.of(v) for name, v in zip(names, values)}))

    return names, formula


_Node = Callable[[dict[str, Bounds]], Bounds]  # a parsed part of a formula: the names' values to its value


def _binary(node: ast.BinOp, build: Callable[[ast.AST], _Node]) -> _Node:
    op, left = _BINARY[type(node.op)], build(node.left)
    if isinstance(node.op, ast.Pow):
        if not (isinstance(node.right, ast.Constant) and isinstance(node.right.value, int)):
            raise ExactStatsError(f"{ast.unparse(node)!r}: a power must be a whole number (use sqrt for roots)")
        exponent = node.right.value
        return lambda env: left(env) ** exponent
    right = build(node.right)
    return lambda env: Bounds.of(op(left(env), right(env)))


@dataclass(frozen=True)
class DerivedRange:
    """A formula's values over a rounding box: ``attained`` (every value in it is taken by some admissible
    input) inside ``enclosure`` (no admissible input gives a value outside it); ``None`` where unknown."""

    attained: tuple[Fraction, Fraction] | None
    enclosure: tuple[Fraction, Fraction] | None


def _halves(box: list[Bounds]) -> list[list[Bounds]]:
    """A box cut in two across its widest side."""
    widths = [b.high - b.low for b in box]
    if not box or max(widths) == 0:
        return []  # a point: nothing left to cut
    i = widths.index(max(widths))
    mid = (box[i].low + box[i].high) / 2
    return [box[:i] + [Bounds(box[i].low, mid)] + box[i + 1 :], box[:i] + [Bounds(mid, box[i].high)] + box[i + 1 :]]


def _boxes(inputs: list[str], splits: int) -> list[list[Bounds]]:
    boxes = [[Bounds(*rounding_interval(x)) for x in inputs]]
    for _ in range(splits):
        boxes = [half for box in boxes for half in _halves(box) or [box]]
    return boxes


def _corners(box: list[Bounds]) -> Iterator[tuple[Fraction, ...]]:
    return product(*[sorted({b.low, b.high}) for b in box])


def _value(f: Callable[..., Any], args: Any) -> Bounds:
    return Bounds.of(f(*args))


def _point(f: Callable[..., Any], point: tuple[Fraction, ...]) -> Bounds | None:
    """The value at one point (enclosed where it has a root), or None where the formula is undefined."""
    try:
        try:
            return _value(f, [Bounds(x, x) for x in point])
        except _PLAIN_ONLY:
            return _value(f, point)
    except ZeroDivisionError:
        return None


def _attained(values: list[Bounds | None]) -> tuple[Fraction, Fraction] | None:
    # each value lies in its (tight) enclosure, so the values from the least upper end to the greatest lower
    # end lie between two attained ones
    found = [v for v in values if v is not None]
    if not found:
        return None
    low, high = min(v.high for v in found), max(v.low for v in found)
    return (low, high) if low <= high else None


def derived_range(f: Callable[..., Any], inputs: list[str], splits: int = 0) -> DerivedRange:
    """The values of ``f`` over the rounding box of the printed ``inputs``, attained and enclosed.

    ``f`` takes one argument per input; written with ``+ - * /``, powers, ``abs`` and :func:`sqrt` it
    accepts intervals, and the enclosure is exact interval arithmetic over the box cut into
    ``2**splits`` parts. A function that does not accept intervals (a package function, say) is
    evaluated at the corners only: then ``enclosure`` is ``None`` and it must be continuous on the box
    for ``attained`` to hold. Where the enclosure is unbounded (a divisor or a square root's argument
    that can reach 0 or below), both are ``None``.

    >>> derived_range(lambda a, b: a - b, ["1.88", "1.62"])
    DerivedRange(attained=(Fraction(1, 4), Fraction(27, 100)), enclosure=(Fraction(1, 4), Fraction(27, 100)))
    """
    if len(inputs) > MAX_INPUTS:
        raise ExactStatsError(f"inputs must hold at most {MAX_INPUTS} printed numbers, got {len(inputs)}")
    boxes = _boxes([str(x) for x in inputs], splits)
    try:
        enclosures = [_value(f, box) for box in boxes]
    except ZeroDivisionError:
        return DerivedRange(None, None)
    except _PLAIN_ONLY:  # a function of plain numbers: its corners
        values = [Fraction(f(*c)) for c in _corners(boxes[0])]  # (it must be defined and continuous on the box)
        return DerivedRange((min(values), max(values)), None)
    attained = _attained([_point(f, c) for box in boxes for c in _corners(box)])
    return DerivedRange(attained, (min(e.low for e in enclosures), max(e.high for e in enclosures)))


@dataclass(frozen=True)
class DerivedCheck:
    """A printed number against the formula of its printed inputs: its value at face value, the range
    over the inputs' rounding, and the verdict (``reproduced``, ``rounded inputs``, ``impossible``,
    ``undetermined``)."""

    verdict: str
    face: Bounds | None  # None where the formula is undefined at the printed values
    range: DerivedRange


def _meets(span: tuple[Fraction, Fraction], target: tuple[Fraction, Fraction], whole: bool) -> bool:
    low, high = span
    if whole:
        return math.ceil(low) <= math.floor(high)
    return low <= target[1] and target[0] <= high


def check_derived(printed: str, f: Callable[..., Any], inputs: list[str], whole: bool = False) -> DerivedCheck:
    """Whether some admissible value of the printed ``inputs`` makes ``f`` print as ``printed``.

    With ``whole``, ``printed`` is ignored and the claim is that ``f`` is a whole number (a count).

    >>> check_derived("37", lambda a, b: (a - b) * 2000, ["0.718", "0.700"]).verdict  # 36 at face value
    'rounded inputs'
    >>> check_derived("", lambda n, s: n / s, ["1500", "57"], whole=True).verdict       # 1,500 / 57
    'impossible'
    """
    target = (Fraction(0), Fraction(0)) if whole else rounding_interval(printed)
    face = _point(f, tuple(Fraction(str(x).rstrip("%")) for x in inputs))
    shown = derived_range(f, inputs)
    if face is not None and _reproduces(face, target, whole):
        return DerivedCheck("reproduced", face, shown)
    if shown.attained is not None and _meets(shown.attained, target, whole):
        return DerivedCheck("rounded inputs", face, shown)
    if shown.enclosure is not None and not _meets(shown.enclosure, target, whole):
        return DerivedCheck("impossible", face, shown)
    if shown.enclosure is None and shown.attained is not None:  # a function of plain numbers: corners only
        return DerivedCheck("undetermined", face, shown)
    # the whole box decided nothing: search its halves; values attained in different parts span the values
    # between them only where the whole box's enclosure is finite (the formula is continuous on it)
    parts = _halves(_boxes([str(x) for x in inputs], 0)[0])
    return DerivedCheck(_search(f, parts, target, whole, continuous=shown.enclosure is not None), face, shown)


def _reproduces(value: Bounds, target: tuple[Fraction, Fraction], whole: bool) -> bool:
    if whole:
        return value.low == value.high and value.low.denominator == 1
    return target[0] <= value.low <= value.high <= target[1]


def _search(
    f: Callable[..., Any], parts: list[list[Bounds]], target: tuple[Fraction, Fraction], whole: bool, continuous: bool
) -> str:
    """Branch and bound over parts of the rounding box: a part whose enclosure misses the target is dropped, a
    part that may reach it is halved along its widest side, and the values at the parts' corners are values
    some input gives. With ``continuous`` (the whole box has a finite enclosure) the values between two
    attained ones in different parts are attained too; otherwise each part counts on its own."""
    looked = 0
    low, high = None, None  # the least upper end and greatest lower end of corner values so far
    while parts and looked < BOXES:
        box = parts.pop()
        looked += 1
        try:
            enclosure = _value(f, box)
        except ZeroDivisionError:  # undefined somewhere in this part (or the enclosure is too loose to tell)
            parts += _halves(box)
            continue
        if not _meets((enclosure.low, enclosure.high), target, whole):
            continue
        here = _attained([_point(f, c) for c in _corners(box)])  # defined on this part: its enclosure is finite
        if here is None:
            parts += _halves(box)
            continue
        if _meets(here, target, whole):
            return "rounded inputs"
        if continuous:
            low = here[0] if low is None else min(low, here[0])
            high = here[1] if high is None else max(high, here[1])
            if low <= high and _meets((low, high), target, whole):
                return "rounded inputs"
        parts += _halves(box)
    return "undetermined" if parts else "impossible"


CLAIM_KINDS = ("exact rational", "exact surd", "exact range", "float")
# what a check can decide: a printed value reproduced; a printed interval centred on its estimate (says
# nothing about the estimate itself); a printed figure on the right side of a bound (a loose bound decides
# little); a printed figure inside the range that vaguer inputs allow
CLAIM_TESTS = ("value", "centring", "bound", "range")


def _show(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value)
    if value.denominator < 10**6:
        return f"{value} = {float(value):.6g}"
    return f"{float(value):.6g} (exact rational, {value.denominator.bit_length()}-bit denominator)"


def _span(span: tuple[Fraction, Fraction] | None) -> str:
    return "unbounded" if span is None else f"{float(span[0]):.4g} to {float(span[1]):.4g}"


@dataclass
class ClaimTable:
    """Claims of a published text, each checked against an exact recomputation, as table rows.

    Every row says what the recomputation is (``kind``: exact rational, exact surd, exact range or a
    float from a simulation) and what the check decides (``test``: a value, an interval's centring, a
    bound or a range); a claim that fails its check has the verdict ``DISAGREES``.

    >>> t = ClaimTable()
    >>> t.exact("000", "one question of 30, in points", "3.3", Fraction(100, 30))
    >>> t.rounded("000", "a gap of 71.8 and 70.0", "1.8", lambda a, b: a - b, ["71.8", "70.0"])
    >>> [(r["verdict"], r["kind"]) for r in t.rows]
    [('agrees', 'exact rational'), ('agrees', 'exact range')]
    """

    rows: list[dict[str, str]] = field(default_factory=list)

    def _add(self, source: str, claim: str, printed: str, recomputed: str, kind: str, ok: bool, verdict: str,
             test: str = "value") -> None:  # fmt: skip
        assert kind in CLAIM_KINDS and test in CLAIM_TESTS, (kind, test)
        row = {"source": source, "claim": claim, "printed": printed, "recomputed": recomputed, "kind": kind}
        self.rows.append(row | {"test": test, "verdict": verdict if ok else "DISAGREES"})

    def exact(self, source: str, claim: str, printed: str, value: Any, unit: Any = 1) -> None:
        """The exact ``value`` (times ``unit``: 100 for percent and points) must print as ``printed``."""
        v = Fraction(value) * unit
        lo, hi = rounding_interval(printed)
        self._add(source, claim, printed, _show(v), "exact rational", lo <= v <= hi, "agrees")

    def surd(self, source: str, claim: str, printed: str, coefficient: Any, radicand: Any, unit: Any = 1) -> None:
        """``coefficient * sqrt(radicand) * unit`` must print as ``printed``; compared by squaring, exactly."""
        a, r = Fraction(coefficient) * unit, Fraction(radicand)
        lo, hi = rounding_interval(printed)
        ok = a > 0 and lo >= 0 and (lo / a) ** 2 <= r <= (hi / a) ** 2
        shown = f"{a}·√({r}) ≈ {float(a) * float(r) ** 0.5:.6g}"
        self._add(source, claim, printed, shown, "exact surd", ok, "agrees")

    def rounded(self, source: str, claim: str, printed: str, f: Callable[..., Any], inputs: list[str],
                unit: Any = 1) -> None:  # fmt: skip
        """``f`` of the printed ``inputs`` must print as ``printed`` at face value, or for some admissible input."""
        found = check_derived(printed, lambda *v: f(*v) * unit, inputs)
        verdicts = {"reproduced": "agrees", "rounded inputs": "agrees (rounded inputs)"}
        shown = _span(found.range.attained or found.range.enclosure)
        self._add(source, claim, printed, shown, "exact range", found.verdict in verdicts,
                  verdicts.get(found.verdict, ""))  # fmt: skip

    def within(self, source: str, claim: str, printed: str, lo: Any, hi: Any, unit: Any = 1,
               kind: str = "exact range") -> None:  # fmt: skip
        """``printed`` must be consistent with a value somewhere in ``[lo, hi]``."""
        span = (Fraction(lo) * unit, Fraction(hi) * unit)
        ok = _meets(span, rounding_interval(printed), whole=False)
        self._add(source, claim, printed, _span(span), kind, ok, "consistent (inside the range)", "range")

    def at_most(self, source: str, claim: str, printed: str, bound: Any, unit: Any = 1, slack: Any = 0) -> None:
        """``printed`` may not exceed an exact upper ``bound``; ``slack`` admits Monte Carlo error (float)."""
        b = Fraction(bound) * unit
        plo, _ = rounding_interval(printed)
        if slack:
            ok = float(plo) <= float(b) + 2 * float(slack) * float(unit)
            shown = f"≤ {float(b):.4g} (Monte Carlo s.e. {float(slack) * float(unit):.2f})"
            verdict, kind = "consistent (bound, within Monte Carlo error)", "float"
        else:
            ok, shown, verdict, kind = plo <= b, f"≤ {float(b):.4g}", "consistent (bound)", "exact rational"
        self._add(source, claim, printed, shown, kind, ok, verdict, "bound")

    def below(self, source: str, claim: str, threshold: str, value: Any) -> None:
        """A claim that an exact quantity is below ``threshold`` ("fewer than three votes")."""
        v = Fraction(value)
        self._add(source, claim, f"less than {threshold}", _show(v), "exact rational", v < Fraction(threshold),
                  "agrees (bound)", "bound")  # fmt: skip

    def centred(self, source: str, claim: str, printed: str, ends: list[str]) -> None:
        """A printed interval's ends must be centred on the printed estimate, up to rounding: a check of
        the interval's arithmetic only, not of the estimate."""
        found = check_derived(printed, lambda a, b: (a + b) / 2, ends)
        ok = found.verdict in ("reproduced", "rounded inputs")
        self._add(source, claim, printed, _span(found.range.attained), "exact range", ok, "centred (rounded ends)",
                  "centring")  # fmt: skip

    def more_than(self, source: str, claim: str, threshold: str, f: Callable[..., Any], inputs: list[str]) -> None:
        """A claim that a quantity exceeds ``threshold`` for every admissible value of the printed inputs."""
        found = derived_range(f, inputs)
        span = found.enclosure or found.attained  # a function of plain numbers: its corners (continuous)
        ok = span is not None and span[0] > Fraction(threshold)
        self._add(source, claim, f"more than {threshold}", _span(span), "exact range", ok, "agrees (rounded inputs)",
                  "bound")  # fmt: skip

    def simulated(self, source: str, claim: str, printed: str, value: Any, standard_error: float,
                  unit: Any = 1) -> None:  # fmt: skip
        """A simulated figure against the exact value it estimates: within two Monte Carlo standard errors."""
        v = float(Fraction(value) * unit)
        lo, hi = rounding_interval(printed)
        gap = max(float(lo) - v, v - float(hi), 0.0)
        se = standard_error * float(unit)
        shown = f"{v:.4g} (Monte Carlo s.e. {se:.2g})"
        self._add(source, claim, printed, shown, "float", gap <= 2 * se, "agrees within Monte Carlo error")


@dataclass
class AuditClaim:
    """One published number derived from other printed numbers: a label, the printed value (empty when
    the text states the claim without its number), the formula as text, and its inputs by name as
    printed (``{"a": "0.718"}``). With ``whole``, the claim is that the formula gives a whole number."""

    name: str
    printed: str
    formula: str
    inputs: dict[str, str]
    whole: bool = False


def audit_claims(claims: list[AuditClaim]) -> list[Finding]:
    """A finding for every claim the printed inputs do not reproduce at face value: ``error`` when no
    admissible input reproduces it, ``warning`` when only inputs away from their printed value do,
    ``note`` when it is undetermined or printed without its number (with the value the formula gives).

    >>> found = audit_claims([AuditClaim("share lost", "13", "(a - b) / a * 100", {"a": "1.88", "b": "1.62"})])
    >>> [(f.severity, f.message) for f in found]
    [('warning', 'the printed inputs give 13.8298, which does not print as 13; only inputs away from their printed values reproduce it')]
    """
    findings = []
    for claim in claims:
        names, f = parse_formula(claim.formula)
        if set(names) != set(claim.inputs):
            raise ExactStatsError(
                f"{claim.name}: the formula uses {sorted(names)} but the inputs give {sorted(claim.inputs)}"
            )
        inputs = [claim.inputs[name] for name in names]
        findings += _claim_findings(claim, names, f, inputs)
    return findings


def _claim_findings(claim: AuditClaim, names: list[str], f: Callable[..., Bounds], inputs: list[str]) -> list[Finding]:
    given = ", ".join(f"{n} = {v}" for n, v in zip(names, inputs)) or "no inputs"
    if not claim.whole and not claim.printed.strip():
        face = _point(f, tuple(Fraction(x.rstrip("%")) for x in inputs))
        gives = "is undefined there" if face is None else f"gives {float(face.low):.6g}"
        return [Finding("note", claim.name, "derived", f"no value printed: {claim.formula} {gives}", given)]
    found = check_derived(claim.printed, f, inputs, whole=claim.whole)
    if found.verdict == "reproduced":
        return []
    face = found.face
    shown = "undefined" if face is None else f"{float(face.low):.6g}"
    if inputs:
        computation = f"{claim.formula} at {given}; over the inputs' rounding: {_span(found.range.attained)}"
    else:
        computation = f"{claim.formula} = {_show(face.low) if face is not None and face.low == face.high else shown}"
    if face is None:
        message = f"{claim.formula} is undefined at the printed inputs"
    elif claim.whole:
        message = f"{claim.formula} is {shown}, not a whole number"
    else:
        message = f"the printed inputs give {shown}, which does not print as {claim.printed}"
    severity, tail = {
        "rounded inputs": ("warning", "; only inputs away from their printed values reproduce it"),
        "impossible": ("error", "; no input within the printed rounding does" if inputs else ""),
        "undetermined": ("note", "; whether some admissible input does is undetermined"),
    }[found.verdict]
    return [Finding(severity, claim.name, "derived", message + tail, computation)]
