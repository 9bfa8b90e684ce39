"""Derived claims: exact interval arithmetic, the formula reader, the verdicts and the audit of a claims table."""

import random
import subprocess
import sys
from fractions import Fraction as F
from itertools import product
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import exactstats as es
from exactstats.claims import Bounds, sqrt

ROOT = Path(__file__).resolve().parents[1]
SEED_CLAIMS = ROOT / "book" / "_code" / "seed_claims.csv"

# formulas of one or two inputs, written once as text: the reader, the enclosure and plain Fractions agree
FORMULAS = [
    "a - b",
    "(a - b) / a * 100",
    "a * (1 - a) + b",
    "1.96 * sqrt(a * (1 - a) / 2000 + b * (1 - b) / 2000) * 100",
    "6 / (1 + 5 * a) - b",
    "abs(a - b) ** 2",
    "-a + 2 * b ** 3",
]


def _plain(formula, a, b):
    """The formula on plain Fractions, with a float square root: an independent evaluation."""
    return eval(formula, {"sqrt": lambda x: float(x) ** 0.5, "abs": abs}, {"a": a, "b": b})


def _printed(draw_value, decimals):
    return f"{draw_value:.{decimals}f}"


values = st.integers(min_value=100, max_value=900).map(lambda k: F(k, 1000))  # boxes inside (0, 1)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(FORMULAS), values, values, st.integers(1, 3), st.integers(0, 10**6))
def test_enclosure_holds_every_value_of_the_box(formula, a, b, decimals, seed):
    names, f = es.parse_formula(formula)
    inputs = [f"{float(x):.{decimals}f}" for x in (a, b)][: len(names)]
    found = es.derived_range(f, inputs)
    rng = random.Random(seed)
    boxes = [es.rounding_interval(x) for x in inputs]
    for _ in range(20):
        point = {n: lo + (hi - lo) * F(rng.randrange(1001), 1000) for n, (lo, hi) in zip(names, boxes)}
        value = F(_plain(formula, point.get("a", 0), point.get("b", 0)))
        lo, hi = found.enclosure
        assert lo - F(1, 10**9) <= value <= hi + F(1, 10**9), (formula, inputs, point)
    if found.attained is not None:  # attained inside enclosed
        assert found.enclosure[0] <= found.attained[0] <= found.attained[1] <= found.enclosure[1]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(FORMULAS), values, values, st.integers(1, 3), st.integers(2, 4), st.integers(0, 10**6))
def test_a_claim_printed_from_true_inputs_is_never_impossible(formula, a, b, decimals, shown, seed):
    """The table of true values generated with correct formulas: print the formula at a point inside the
    inputs' rounding box, and the check must never call it impossible (nor undetermined, where it can decide)."""
    names, f = es.parse_formula(formula)
    inputs = [f"{float(x):.{decimals}f}" for x in (a, b)][: len(names)]
    rng = random.Random(seed)
    point = [lo + (hi - lo) * F(rng.randrange(1001), 1000) for lo, hi in (es.rounding_interval(x) for x in inputs)]
    try:
        value = f(*point)
    except ZeroDivisionError:
        return  # the formula is undefined at this point (a root of a negative value)
    printed = f"{float(value.low):.{shown}f}"
    if abs(float(value.low) * 10**shown % 1 - 0.5) < 1e-6:
        return  # a value on a rounding boundary: a float print may go either way
    verdict = es.check_derived(printed, f, inputs).verdict
    assert verdict != "impossible", (formula, inputs, point, printed)
    if es.derived_range(f, inputs).enclosure is not None:  # defined on the whole box: always decided
        assert verdict in ("reproduced", "rounded inputs"), (formula, inputs, point, printed, verdict)


def test_face_value_reproduced_or_not():
    _, f = es.parse_formula("(a - b) / a * 100")
    assert es.check_derived("13.8", f, ["1.88", "1.62"]).verdict == "reproduced"
    assert es.check_derived("13", f, ["1.88", "1.62"]).verdict == "rounded inputs"  # 13.83 at face value
    assert es.check_derived("15", f, ["1.88", "1.62"]).verdict == "impossible"


def test_an_interior_maximum_is_found_and_one_beyond_it_refused():
    """a(1.04 - a) on a in [0.45, 0.55]: corners 0.2655 and 0.2695, maximum 0.2704 at 0.52 inside."""
    f = lambda a: a * (F("1.04") - a)  # noqa: E731
    corners = [f(F(x)) for x in ("0.45", "0.55")]
    assert max(corners) < F("0.27025")  # the corners alone cannot reach 0.2703
    assert es.check_derived("0.2703", f, ["0.5"]).verdict == "rounded inputs"
    assert es.check_derived("0.2705", f, ["0.5"]).verdict == "impossible"  # above the maximum 0.2704
    assert es.check_derived("0.2650", f, ["0.5"]).verdict == "impossible"  # below the minimum 0.2655


def test_brute_force_agrees_with_the_verdicts():
    """On a fine grid of the box, a printed value some grid point reproduces is never impossible, and one
    the check calls reproducible by rounding is near a grid value."""
    _, f = es.parse_formula("a * (1 - a) * 4 - b")
    inputs = ["0.5", "0.1"]
    (alo, ahi), (blo, bhi) = (es.rounding_interval(x) for x in inputs)
    grid = [f(alo + (ahi - alo) * i / 40, blo + (bhi - blo) * j / 40).low for i in range(41) for j in range(41)]
    for printed in ("0.85", "0.88", "0.90", "0.95", "0.96", "1.00", "0.84"):
        lo, hi = es.rounding_interval(printed)
        reached = any(lo <= v <= hi for v in grid)
        verdict = es.check_derived(printed, f, inputs).verdict
        if reached:
            assert verdict in ("reproduced", "rounded inputs"), printed
        if verdict == "impossible":
            assert not reached, printed
    assert es.check_derived("0.96", f, inputs).verdict == "impossible"  # at most 1 - 0.05 = 0.95


def test_a_whole_number_claim():
    assert es.check_derived("", lambda n, s: n / s, ["1500", "57"], whole=True).verdict == "impossible"
    assert es.check_derived("", lambda n, s: n / s, ["1500", "60"], whole=True).verdict == "reproduced"
    assert es.check_derived("", lambda x: x * 3, ["3.3"], whole=True).verdict == "rounded inputs"


def test_undefined_formulas_are_never_called_impossible_or_reproduced():
    assert es.check_derived("1", lambda a: 1 / a, ["0.0"]).verdict == "undetermined"
    assert es.check_derived("2", lambda a: sqrt(a - 1), ["0.5"]).verdict == "undetermined"
    assert es.check_derived("3", lambda a: 1 / a, ["0.3"]).verdict == "reproduced"


def test_interval_arithmetic_against_corners():
    rng = random.Random(7)
    for _ in range(200):
        lo1, lo2 = F(rng.randrange(-50, 50), 10), F(rng.randrange(-50, 50), 10)
        x, y = Bounds(lo1, lo1 + F(rng.randrange(0, 30), 10)), Bounds(lo2, lo2 + F(rng.randrange(1, 30), 10))
        pts = [(a, b) for a, b in product((x.low, x.high), (y.low, y.high))]
        for op in ("+", "-", "*"):
            got = eval(f"x {op} y")
            want = [eval(f"a {op} b") for a, b in pts]
            assert (got.low, got.high) == (min(want), max(want))
        square = x**2
        assert square.low == (0 if x.low < 0 < x.high else min(x.low**2, x.high**2))
        assert (abs(x).low, abs(x).high) == (
            (0 if x.low < 0 < x.high else min(abs(x.low), abs(x.high))),
            max(abs(x.low), abs(x.high)),
        )
    with pytest.raises(ZeroDivisionError):
        Bounds(F(1), F(2)) / Bounds(F(-1), F(1))


@pytest.mark.parametrize("x", [F(2), F(1, 3), F(10**12 + 39, 7), F(9, 4), F(0)])
def test_square_root_enclosure(x):
    r = sqrt(x)
    assert r.low**2 <= x <= r.high**2
    assert r.high - r.low <= F(1, 2**100)
    if x in (F(9, 4), F(0)):
        assert r.low == r.high  # rational roots are exact


HOSTILE = [
    "__import__('os').system('true')",
    "a.__class__",
    "(lambda: 1)()",
    "a if b else 1",
    "sqrt(a, b)",
    "a ** 0.5",
    "a ** b",
    "open('x')",
    "a[0]",
    "a +",
    "'text'",
    "True + a",
    "x == 1",
]


@pytest.mark.parametrize("formula", HOSTILE)
def test_a_formula_outside_arithmetic_is_refused(formula):
    with pytest.raises(es.ExactStatsError, match="formula|power"):
        es.parse_formula(formula)


def test_numbers_written_in_a_formula_are_exact():
    names, f = es.parse_formula("1.96 * a + 0.1")
    assert names == ["a"] and f(F(1)).low == F(49, 25) + F(1, 10)


def test_audit_claims_finds_the_seed_inconsistencies():
    """Every finding on the seeds' table is one of the claims chapter's inconsistencies; the rest are clean."""
    from exactstats.report.audit_run import read_rows

    claims = read_rows(str(SEED_CLAIMS))
    found = {f.row: f for f in es.audit_claims(claims)}
    expected = {
        "net lead in questions": "warning",
        "share of the edge lost": "warning",
        "unpaired 95% half-width": "warning",
        "questions needed at the median q": "note",
        "spread evenly": "error",
        "six models at mean phi 0.41": "warning",
    }
    assert len(found) == len(expected)
    for words, severity in expected.items():
        (row,) = [r for r in found if words in r]
        assert found[row].severity == severity, row
    assert len(claims) > 2 * len(found)  # clean claims yield no finding


def test_a_claim_needs_its_inputs_named_exactly():
    with pytest.raises(es.ExactStatsError, match="formula uses"):
        es.audit_claims([es.AuditClaim("x", "1", "a - b", {"a": "1"})])
    with pytest.raises(es.ExactStatsError, match="formula uses"):
        es.audit_claims([es.AuditClaim("x", "1", "a", {"a": "1", "c": "2"})])


def _audit(tmp_path, text, name="claims.csv", *extra):
    path = tmp_path / name
    path.write_text(text)
    return subprocess.run([sys.executable, "-m", "exactstats", "audit", str(path), *extra], capture_output=True,
                          text=True)  # fmt: skip


def test_cli_reads_a_markdown_claims_table(tmp_path):
    text = (
        "| claim | printed | formula | inputs |\n|---|---|---|---|\n"
        "| gap | 1.8 | a - b | a=71.8, b=70.0 |\n| lead | 37 | (a - b) * 2000 | a=0.718, b=0.700 |\n"
    )
    run = _audit(tmp_path, text, "claims.md", "--json")
    assert run.returncode == 0, run.stderr
    import json

    out = json.loads(run.stdout)
    assert out["rows"] == 2 and out["counts"] == {"error": 0, "warning": 1, "note": 0}
    assert out["findings"][0]["row"] == "lead"


@pytest.mark.parametrize(
    "text, words",
    [
        ("claim,printed,formula,inputs\nx,1,a +,a=1\n", "not an arithmetic expression"),
        ("claim,printed,formula,inputs\nx,1,a,a=one\n", "input a 'one' is not a number"),
        ("claim,printed,formula,inputs\nx,1,a,a 1\n", "inputs must read like"),
        ("claim,printed,formula,inputs\nx,1,a,a=1; a=2\n", "inputs must read like"),
        ("claim,printed,formula,inputs,check\nx,1,a,a=1,maybe\n", "check must be value or whole"),
        ("claim,formula\nx,a\n", "needs the columns printed"),
        ("claim,printed,formula,inputs\nx,1,b,a=1\n", "formula uses"),
        ("claim,printed,formula,inputs\nx,abc,a,a=1\n", "printed must be a decimal"),
    ],
)
def test_cli_refuses_a_bad_claims_table_in_one_line(tmp_path, text, words):
    run = _audit(tmp_path, text)
    assert run.returncode == 2 and words in run.stderr and len(run.stderr.strip().splitlines()) == 1, run.stderr


def test_claim_table_rows():
    t = es.ClaimTable()
    t.rounded("s", "13 from 1.88 and 1.62", "13", lambda a, b: (a - b) / a, ["1.88", "1.62"], unit=100)
    t.rounded("s", "gap", "1.8", lambda a, b: a - b, ["71.8", "70.0"])
    t.rounded("s", "wrong", "5", lambda a, b: a - b, ["71.8", "70.0"])
    t.centred("s", "centre", "71.2", ["69.2", "73.2"])
    t.more_than("s", "more", "9", lambda a, b: a - b, ["83.8", "74.4"])
    t.more_than("s", "not more", "10", lambda a, b: a - b, ["83.8", "74.4"])
    t.rounded("s", "package function", "2.5", lambda ph: es.effective_votes(7, ph), ["0.3"])
    verdicts = [r["verdict"] for r in t.rows]
    assert verdicts == ["agrees (rounded inputs)", "agrees", "DISAGREES", "centred (rounded ends)",
                        "agrees (rounded inputs)", "DISAGREES", "agrees"]  # fmt: skip


def test_a_formula_undefined_at_its_printed_inputs_is_a_finding_not_a_crash():
    found = es.audit_claims([
        es.AuditClaim("x", "3", "1 / a", {"a": "0.0"}),
        es.AuditClaim("y", "", "1 / a", {"a": "0.0"}),
    ])  # fmt: skip
    assert [f.severity for f in found] == ["note", "note"]
    assert "undefined at the printed inputs" in found[0].message and "undefined" in found[1].message
