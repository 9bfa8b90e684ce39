"""Leaderboards over tasks: exact sign-flip tests over tasks, Holm, tiers, and the task report."""

import json
import os
from fractions import Fraction
from itertools import product
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import exactstats as es
from exactstats import ExactStatsError
from exactstats.cli import main

decimals = st.integers(0, 1000).map(lambda v: Fraction(v, 1000))
tables = st.integers(2, 4).flatmap(
    lambda k: st.integers(2, 9).flatmap(
        lambda t: st.lists(st.lists(decimals, min_size=t, max_size=t), min_size=k, max_size=k)
    )
)


def brute_p(d):
    s = sum(d)
    hits = sum(abs(sum(e * x for e, x in zip(signs, d))) >= abs(s) for signs in product((1, -1), repeat=len(d)))
    return Fraction(hits, 2 ** len(d)) if s else Fraction(1)


@settings(max_examples=60, deadline=None)
@given(tables, st.sampled_from(["adjacent", "all"]))
def test_pairs_against_enumeration_scipy_and_holm(S, which):
    got = es.compare_on_tasks(S, which)
    ps = []
    for r in got:
        d = [a - b for a, b in zip(S[r.first], S[r.second])]
        assert r.p == brute_p(d)
        assert r.mean_difference == sum(d, Fraction(0)) / len(d)
        assert (r.wins, r.losses) == (sum(x > 0 for x in d), sum(x < 0 for x in d))
        if len(set(d)) > 1:  # SciPy's paired t interval, T - 1 degrees of freedom
            ci = stats.ttest_rel([float(x) for x in S[r.first]], [float(x) for x in S[r.second]]).confidence_interval()
            assert r.interval.lower == pytest.approx(ci.low, abs=1e-9) and r.interval.upper == pytest.approx(
                ci.high, abs=1e-9
            )
        ps.append(r.p)
    assert [r.holm for r in got] == es.holm_adjust(ps) and [r.bh for r in got] == es.bh_adjust(ps)


@settings(max_examples=40, deadline=None)
@given(tables)
def test_tiers_are_separation_tiers_of_the_holm_matrix(S):
    k = len(S)
    adj = [[0] * k for _ in range(k)]
    for r in es.compare_on_tasks(S, "all"):
        adj[r.first][r.second] = r.holm
    assert es.task_tiers(S) == es.separation_tiers(adj)


def test_smallest_p_value_is_attained_and_nothing_is_smaller():
    for t in range(2, 9):
        floor = es.smallest_p_value(t)
        assert floor == brute_p([1] * t)
        values = [-2, -1, 0, 1, 3]
        assert min(brute_p(list(d)) for d in product(values, repeat=min(t, 5))) >= es.smallest_p_value(min(t, 5))
    assert es.tasks_needed(es.smallest_p_value(12)) == 12
    assert es.smallest_p_value(es.tasks_needed(Fraction(1, 9300))) <= Fraction(1, 9300)
    assert es.smallest_p_value(es.tasks_needed(Fraction(1, 9300)) - 1) > Fraction(1, 9300)


def test_bad_tables_are_refused_by_name():
    for bad, match in (
        ([[1, 2], [1]], "same length"),
        ([[1], [2]], "at least 2 tasks"),
        ([[1, "x"], [1, 2]], r"scores\[0\]\[1\]"),
        (5, "table"),
    ):
        with pytest.raises(ExactStatsError, match=match):
            es.as_task_scores(bad)
    with pytest.raises(ExactStatsError, match="two models"):
        es.compare_on_tasks([[1, 2]])
    with pytest.raises(ExactStatsError, match="which"):
        es.compare_on_tasks([[1, 2], [2, 1]], which="neighbours")


# --- the report ---------------------------------------------------------------------------------------


def write(path, text):
    path.write_text(text)
    return str(path)


def test_long_and_wide_tables_give_one_report(tmp_path, capsys):
    long = write(
        tmp_path / "long.csv",
        "model,task,score\n"
        + "".join(
            f"{m},t{t},{v}\n"
            for m, row in (("a", [0.9, 0.8, 0.85, 0.7, 0.95, 0.6]), ("b", [0.5, 0.4, 0.45, 0.3, 0.55, 0.2]))
            for t, v in enumerate(row)
        ),
    )
    wide = write(
        tmp_path / "wide.csv", "model,t0,t1,t2,t3,t4,t5\nb,0.5,0.4,0.45,0.3,0.55,0.2\na,0.9,0.8,0.85,0.7,0.95,0.6\n"
    )
    assert main(["report", long, "--json"]) == 0
    r1 = json.loads(capsys.readouterr().out)
    assert main(["report", wide, "--scores", "--json"]) == 0
    r2 = json.loads(capsys.readouterr().out)
    for r in (r1, r2):
        assert (r["models"], r["tasks"]) == (2, 6)
        assert r["leaderboard"][0]["model"] == "a" and r["leaderboard"][0]["mean_exact"] == "4/5"
        pair = r["adjacent_pairs"][0]
        assert (pair["wins"], pair["p_exact"]) == (6, "1/32") and pair["separated"]
        assert r["smallest_p_exact"] == "1/32"
    assert r1["adjacent_pairs"] == r2["adjacent_pairs"]
    out = tmp_path / "r.html"
    assert main(["report", long, "--out", str(out)]) == 0
    assert "Task leaderboard: 2 models x 6 tasks" in capsys.readouterr().out
    assert out.read_text().startswith("<!doctype html>") and "data:image/png" in out.read_text()


def test_missing_and_bad_cells(tmp_path, capsys):
    wide = write(tmp_path / "w.csv", "model,mmlu,gsm8k,arc\na,0.7,0.5,0.8\nb,0.6,,0.7\nc,0.5,0.3,0.6\n")
    assert main(["report", wide, "--scores"]) == 2
    assert "'b' has no score for task 'gsm8k'" in capsys.readouterr().err
    assert main(["report", wide, "--scores", "--intersect", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["tasks"] == 2 and r["dropped_tasks"] == ["gsm8k"] and any("was dropped" in n for n in r["notes"])
    cases = {
        "model,task,score\na,t1,0.5\na,t1,0.6\nb,t1,0.4\n": "second score for model 'a' on task 't1'",
        "model,task,score\na,t1,high\nb,t1,0.4\n": "line 2: the score of 'a' on 't1' must be a number",
        "model,task,score\na,t1,0.5\n": "at least 2 models and 2 shared tasks",
        "model,task,score\n,t1,0.5\n": "line 2: empty model or task name",
        "model,task,score\na,t1,0.5,9\n": "line 2: 4 cells",
        "model,task,score\na,t1,nan\nb,t1,1\n": "must be a number",
    }
    for text, message in cases.items():
        assert main(["report", write(tmp_path / "bad.csv", text)]) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1, (text, err)
    assert main(["report", write(tmp_path / "dup.csv", "model,a,b\nx,1,2\nx,2,1\n"), "--scores"]) == 2
    assert "appears twice" in capsys.readouterr().err
    assert main(["report", wide, wide, "--scores"]) == 2
    assert "read alone" in capsys.readouterr().err


def test_scores_stay_exact(tmp_path, capsys):
    path = write(tmp_path / "x.csv", "model,task,score\na,t1,0.1\na,t2,0.2\nb,t1,0.3\nb,t2,0.15\n")
    assert main(["report", path, "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert [e["mean_exact"] for e in r["leaderboard"]] == ["9/40", "3/20"]


REAL = Path(os.environ.get("EXACTSTATS_REAL_EVALS", "../shared/data/real-evals"))


@pytest.mark.skipif(not (REAL / "mmlu-pro-outputs.long.parquet").exists(), reason="real-evals data not present")
def test_mmlu_pro_categories_cannot_split_any_tier(tmp_path, capsys):
    """MMLU-Pro's 14 categories as tasks, 31 models: 2/2^14 is above Holm's first threshold over 465 pairs."""
    df = pd.read_parquet(REAL / "mmlu-pro-outputs.long.parquet", columns=["model", "category", "correct_latest"])
    acc = df.groupby(["model", "category"])["correct_latest"].mean().round(4).rename("score").reset_index()
    path = tmp_path / "categories.csv"
    acc.rename(columns={"category": "task"}).to_csv(path, index=False)
    assert main(["report", str(path), "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert (r["models"], r["tasks"]) == (31, 14) and not r["pairs_separable"] and len(r["tiers"]) == 1
    assert (
        es.smallest_p_value(14) > Fraction(1, 20) / 465 >= es.smallest_p_value(es.tasks_needed(Fraction(1, 20 * 465)))
    )
    assert any("at least 15 tasks" in n for n in r["notes"])
    scores = acc.pivot(index="model", columns="category", values="score")
    means = scores.mean(axis=1).sort_values(ascending=False)
    assert [e["model"] for e in r["leaderboard"]] == means.index.tolist()
    assert np.allclose([e["mean"] for e in r["leaderboard"]], means.to_numpy())


@pytest.mark.parametrize("name, wide", [("long.csv", False), ("wide.csv", True)])
def test_shipped_example_tables(name, wide, capsys):
    path = Path("tests/fixtures/tasks") / name
    df = (
        pd.read_csv(path, dtype=str)
        if wide
        else pd.read_csv(path, dtype=str).pivot(index="model", columns="task", values="score")
    )
    if wide:
        df = df.set_index("model")
    scores = [[Fraction(v) for v in row] for row in df.to_numpy()]
    means = [sum(r, Fraction(0)) / len(r) for r in scores]
    order = sorted(range(len(means)), key=lambda i: -means[i])
    ranked = [scores[i] for i in order]
    assert main(["report", str(path), "--json"] + (["--scores"] if wide else [])) == 0
    r = json.loads(capsys.readouterr().out)
    assert [e["model"] for e in r["leaderboard"]] == [df.index[i] for i in order]
    assert r["tiers"] == [[df.index[order[i]] for i in tier] for tier in es.task_tiers(ranked)]
    assert [p["p_exact"] for p in r["adjacent_pairs"]] == [str(x.p) for x in es.compare_on_tasks(ranked)]
