"""Soft accuracy: exact mean and variance against Python's statistics module, the float twins against the
exact functions, lm-eval log-likelihoods read as the gold option's softmax share, and the report's section."""

import json
import statistics
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import exactstats as es
from exactstats import ExactStatsError
from exactstats.cli import main

probs = st.lists(st.fractions(min_value=0, max_value=1, max_denominator=50), min_size=2, max_size=40)


@given(probs)
def test_soft_accuracy_and_variance_against_statistics(p):
    assert es.soft_accuracy(p) == statistics.mean(p)
    assert es.soft_accuracy_variance(p) == statistics.variance(p) / len(p)


@given(st.lists(st.booleans(), min_size=2, max_size=50))
def test_zero_one_probabilities_give_accuracy_and_its_variance(flags):
    p = [int(f) for f in flags]
    k, n = sum(p), len(p)
    assert es.soft_accuracy(p) == Fraction(k, n)
    assert es.soft_accuracy_variance(p) == es.accuracy_variance(k, n, ddof=1)


@given(
    probs.flatmap(
        lambda a: st.tuples(
            st.just(a), st.lists(st.fractions(0, 1, max_denominator=50), min_size=len(a), max_size=len(a))
        )
    )
)
def test_paired_difference_exact_and_float(pair):
    a, b = pair
    d = es.paired_soft_difference(a, b)
    diffs = [x - y for x, y in zip(a, b)]
    assert d.difference == statistics.mean(diffs) and d.variance == statistics.variance(diffs) / len(diffs)
    gap, se = es.paired_soft_difference_float([float(x) for x in a], [float(x) for x in b])
    assert gap == pytest.approx(float(d.difference), abs=1e-12) and se == pytest.approx(
        float(d.variance) ** 0.5, abs=1e-12
    )
    assert d.lower == pytest.approx(float(d.difference) - 1.959963984540054 * se, abs=1e-9)


@settings(max_examples=50)
@given(probs)
def test_float_summary_against_exact(p):
    correct = [int(x >= Fraction(1, 2)) for x in p]
    s = es.soft_summary_float([float(x) for x in p], correct)
    assert s.soft == pytest.approx(float(es.soft_accuracy(p)), abs=1e-12)
    assert s.soft_se == pytest.approx(float(es.soft_accuracy_variance(p)) ** 0.5, abs=1e-12)
    assert s.accuracy_se == pytest.approx(float(es.soft_accuracy_variance(correct)) ** 0.5, abs=1e-12)


def test_right_option_share_and_bad_input():
    P = np.array([[2.0, 1.0, 1.0], [0.0, 0.5, 0.5]])
    assert es.right_option_probability_float(P, [0, 2]).tolist() == [0.5, 0.5]
    for call, match in (
        (lambda: es.soft_accuracy([1]), "at least 2"),
        (lambda: es.soft_accuracy(["0.5", "1.5"]), r"probabilities\[1\] must be a probability"),
        (lambda: es.soft_accuracy(["0.5", "x"]), r"probabilities\[1\]"),
        (lambda: es.paired_soft_difference([0, 1], [0, 1, 1]), "same questions"),
        (lambda: es.right_option_probability_float(P, [0, 3]), "option indices"),
        (lambda: es.right_option_probability_float([[0.0, 0.0], [1.0, 0.0]], [0, 0]), "sum to 0"),
        (lambda: es.right_option_probability_float([[np.nan, 1.0], [1.0, 0.0]], [0, 0]), "finite"),
        (lambda: es.soft_summary_float([0.5, 0.2], [1, 0, 1]), "one length"),
        (lambda: es.soft_summary_float([0.5, 1.2], [1, 0]), r"\[0, 1\]"),
    ):
        with pytest.raises(ExactStatsError, match=match):
            call()


def test_lm_eval_log_likelihoods_give_the_gold_share():
    from exactstats.report.importers import read_source

    folder = Path("tests/fixtures/lm-eval/tiny-a")
    (rows,) = read_source(str(folder))
    samples = [json.loads(line) for f in sorted(folder.glob("samples_*.jsonl")) for line in f.read_text().splitlines()]
    for s, share, acc in zip(samples, rows.right_prob, rows.correct):
        ll = np.array([float(r[0]) for r in s["filtered_resps"]])
        gold = int(s["target"])
        assert share == pytest.approx(np.exp(ll[gold]) / np.exp(ll).sum(), rel=1e-12)
        assert acc == int(np.argmax(ll) == gold)  # the same log-likelihoods lm-eval scored


def test_report_adds_a_labelled_soft_section_on_our_panel(capsys):
    assert main(["report", "data/original-2000.long.parquet", "--json", "--draws", "20"]) == 0
    r = json.loads(capsys.readouterr().out)
    df = pd.read_parquet("data/original-2000.long.parquet")
    letters = [c for c in ("p_A", "p_B", "p_C", "p_D") if c in df.columns]
    for e in r["soft"]:
        g = df[df["model"] == e["model"]]
        P = g[letters].to_numpy(dtype=float)
        answer = g["answer"].map(lambda a: "ABCD".index(a) if isinstance(a, str) else int(a)).to_numpy()
        share = P[np.arange(len(P)), answer] / P.sum(axis=1)
        assert e["soft"] == pytest.approx(share.mean(), rel=1e-12)
        assert e["soft_se"] == pytest.approx(share.std(ddof=1) / len(share) ** 0.5, rel=1e-9)
        assert e["soft_se"] < e["accuracy_se"]  # on our panel the soft error bars are narrower for every model
    top = r["soft_pairs"][0]
    assert top["soft_z"] > top["accuracy_z"] > 0
    assert main(["report", "data/original-2000.long.parquet", "--draws", "20"]) == 0
    text = capsys.readouterr().out
    assert "Soft accuracy (mean probability of the right option: a different quantity)" in text
    assert "never in its place" in text
