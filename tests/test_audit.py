"""Auditing published numbers: counts, stderr conventions, interval methods, rankings and pass@k, against
brute force and planted defects; clean tables made from true counts never give an error."""

import json
import math
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

import exactstats as es
from exactstats.audit import AuditRow, audit_rows
from exactstats.cli import main


def printed(value: float | Fraction, decimals: int) -> str:
    """How a paper prints a value: rounded half to even at ``decimals`` places."""
    exact = Decimal(value.numerator) / Decimal(value.denominator) if isinstance(value, Fraction) else Decimal(value)
    return str(exact.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_EVEN))


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 5000), st.data(), st.integers(1, 5))
def test_every_count_that_prints_so_and_no_other(n, data, decimals):
    k = data.draw(st.integers(0, n))
    text = printed(Fraction(k, n), decimals)
    allowed = es.counts_printing_as(text, n)
    assert k in allowed
    lo, hi = es.rounding_interval(text)
    assert all(lo <= Fraction(j, n) <= hi for j in allowed)  # each allowed count prints so
    assert not any(lo <= Fraction(j, n) <= hi for j in (allowed.start - 1, allowed.stop) if 0 <= j <= n)


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 3000), st.data())
def test_stderr_and_interval_conventions_are_recognised(n, data):
    k = data.draw(st.integers(1, n - 1))
    p = k / n
    assert "n" in es.stderr_conventions(printed(math.sqrt(p * (1 - p) / n), 6), k, n)
    assert "n - 1" in es.stderr_conventions(printed(math.sqrt(p * (1 - p) / (n - 1)), 6), k, n)
    lo, hi = es.wilson_interval_float(k, n)
    assert "wilson" in es.interval_methods(printed(lo, 4), printed(hi, 4), k, n)
    lo, hi = es.clopper_pearson_interval_float(k, n)
    assert "clopper-pearson" in es.interval_methods(printed(lo, 4), printed(hi, 4), k, n)


def test_the_best_case_split_is_all_one_way():
    """For a fixed difference d = b - c, the McNemar p-value only grows with c: c = 0 is the best case."""
    for d in range(0, 25):
        values = [es.mcnemar_p_value(d + c, c) for c in range(0, 60)]
        assert values == sorted(values) and values[0] == es.best_case_p_value(d + 100, 100)


def clean_rows(counts, n, decimals=4):
    rows = []
    for i, k in enumerate(counts):
        p = k / n
        lo, hi = es.wilson_interval_float(k, n)
        rows.append(
            AuditRow(
                f"m{i}",
                printed(Fraction(k, n), decimals),
                n=n,
                stderr=printed(math.sqrt(p * (1 - p) / (n - 1)), decimals),
                ci_low=printed(lo, decimals),
                ci_high=printed(hi, decimals),
            )
        )
    return rows


@settings(max_examples=60, deadline=None)
@given(st.integers(30, 3000), st.data())
def test_a_table_from_true_counts_never_gives_an_error(n, data):
    counts = data.draw(st.lists(st.integers(1, n - 1), min_size=1, max_size=6))
    findings = audit_rows(clean_rows(counts, n))
    assert not [f for f in findings if f.severity == "error"], findings
    assert not [f for f in findings if f.check in ("stderr", "interval", "counts") and f.severity != "note"]


def fired(rows):
    return {(f.severity, f.check, f.row) for f in audit_rows(rows)}


def test_every_planted_defect_is_found():
    base = clean_rows([1136, 900], 1319)
    assert not [f for f in audit_rows(base) if f.severity != "note"]
    planted = {
        "a score no count prints": (AuditRow("x", "0.8612", n=1319), ("error", "counts", "x")),
        "a zero stderr": (AuditRow("x", "0.8613", n=1319, stderr="0.0000"), ("error", "stderr", "x")),
        "a doubled stderr": (AuditRow("x", "0.8613", n=1319, stderr="0.0190"), ("warning", "stderr", "x")),
        "an interval of no method": (
            AuditRow("x", "0.8613", n=1319, ci_low="0.8000", ci_high="0.9000"),
            ("warning", "interval", "x"),
        ),
        "a Wald interval at n = 30": (
            AuditRow(
                "x",
                "0.7000",
                n=30,
                ci_low=printed(es.clt_interval_float(21, 30)[0], 4),
                ci_high=printed(es.clt_interval_float(21, 30)[1], 4),
            ),
            ("warning", "interval", "x"),
        ),  # fmt: skip
        "pass@k with k > n": (AuditRow("x", "0.5", k=10, samples=5), ("error", "pass@k", "x pass@10")),
        "pass@10 from one greedy sample": (AuditRow("x", "0.5", k=10, samples=1), ("error", "pass@k", "x pass@10")),
    }
    for what, (row, expected) in planted.items():
        assert expected in fired([row]), what
    below = [AuditRow("x", "0.50", k=1), AuditRow("x", "0.40", k=10)]
    assert ("error", "pass@k", "x pass@10") in fired(below)
    above = [AuditRow("x", "0.10", k=1), AuditRow("x", "0.80", k=10)]  # 1 - 0.9^10 = 0.65 at most
    assert ("warning", "pass@k", "x pass@10") in fired(above)
    close = [AuditRow("a", "0.7100", n=1000), AuditRow("b", "0.7080", n=1000), AuditRow("c", "0.5000", n=1000)]
    assert ("warning", "ranking", "a > b") in fired(close) and not any(f[2] == "b > c" for f in fired(close))


def test_cli_on_lm_eval_inspect_and_pasted_tables(tmp_path, capsys):
    for source in (
        "tests/fixtures/lm-eval/tiny-a",
        "tests/fixtures/inspect/mock-a.json",
        "tests/fixtures/inspect/mock-c.eval",
    ):
        assert main(["audit", source, "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["rows"] >= 1 and out["counts"]["error"] == 0, (source, out)
    log = json.loads(open("tests/fixtures/inspect/mock-a.json").read())  # a clean pass above could check nothing:
    log["results"]["scores"][0]["metrics"]["stderr"]["value"] *= 2  # a doubled stderr must be found in a log
    (tmp_path / "log.json").write_text(json.dumps(log))
    assert main(["audit", str(tmp_path / "log.json"), "--json"]) == 0
    assert [(f["severity"], f["check"]) for f in json.loads(capsys.readouterr().out)["findings"]] == [
        ("warning", "stderr")
    ]
    table = tmp_path / "t.md"
    table.write_text(
        "| model | accuracy | n | stderr |\n|---|---|---|---|\n| A | 86.12% | 1319 | 0.95 |\n| B | 86.13% | 1319 | 0.0 |\n"
    )
    assert main(["audit", str(table), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {(f["severity"], f["row"], f["check"]) for f in out["findings"]} >= {
        ("error", "A", "counts"),  # 86.12% is no count of 1319
        ("error", "B", "stderr"),  # 0.0 points at 86.13%: a zero stderr inside (0, 1)
    }
    csv = tmp_path / "t.csv"
    csv.write_text("name,score,n\nA,0.5,10\nB,0.45,10\n")
    assert main(["audit", str(csv)]) == 0
    assert "# Audit of" in capsys.readouterr().out
    for bad, message in [("name,score\nA,high\n", "not a number"), ("who,what\nA,1\n", "needs a name column")]:
        path = tmp_path / "bad.csv"
        path.write_text(bad)
        assert main(["audit", str(path)]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and message in err[0], err
    assert main(["audit", str(tmp_path / "missing.csv")]) == 2 and "no such file" in capsys.readouterr().err


def test_a_wald_interval_is_flagged_with_its_exact_coverage(tmp_path, capsys):
    lo, hi = es.clt_interval_float(21, 30)
    (finding,) = audit_rows([AuditRow("x", "0.7000", n=30, ci_low=printed(lo, 4), ci_high=printed(hi, 4))])
    exact = es.interval_coverage("wald", 30, Fraction(7, 10))
    assert finding.severity == "warning" and f"{float(exact):.4f}" in finding.computation
    lo, hi = es.clt_interval_float(700, 1000)  # at n = 1,000 it falls short by less than a point: a note
    (finding,) = audit_rows([AuditRow("x", "0.7000", n=1000, ci_low=printed(lo, 4), ci_high=printed(hi, 4))])
    assert finding.severity == "note" and "wald" in finding.message
    table = tmp_path / "t.csv"
    table.write_text(f"model,score,n,ci_low,ci_high\nx,0.7000,30,{printed(lo, 4)},{printed(hi, 4)}\n")
    assert main(["audit", str(table), "--out", str(tmp_path / "a.html")]) == 0
    assert "<h1>Audit of" in (tmp_path / "a.html").read_text() and "# Audit of" in capsys.readouterr().out
    assert main(["audit", str(table), "--out", str(table)]) == 2  # never over its input


def test_samples_files_make_the_count_exact(tmp_path, capsys):
    import shutil

    folder = tmp_path / "run"
    shutil.copytree("tests/fixtures/lm-eval/tiny-a", folder)
    (results,) = folder.glob("results_*.json")
    data = json.loads(results.read_text())
    assert data["results"]["tinymc"]["acc,none"] == 0.25  # the samples hold 6 of 24 right
    assert main(["audit", str(folder), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["counts"]["error"] == 0
    data["results"]["tinymc"]["acc,none"] = 7 / 24  # a score some count prints, but not the samples' count
    results.write_text(json.dumps(data))
    assert main(["audit", str(folder), "--json"]) == 0
    (finding,) = [f for f in json.loads(capsys.readouterr().out)["findings"] if f["check"] == "counts"]
    assert finding["severity"] == "error" and "6 of 24" in finding["message"]


def test_a_t_interval_is_recognised():
    from scipy.stats import t

    k, n = 37, 60
    p = k / n
    half = t.ppf(0.975, n - 1) * math.sqrt(p * (1 - p) / (n - 1))
    assert "t" in es.interval_methods(printed(p - half, 4), printed(p + half, 4), k, n)
