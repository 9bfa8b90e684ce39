"""Questions asked more than once: the exact sign-flip test, its float twin, clustered t intervals, and the
report on repeated samples (Inspect epochs, long tables with an epoch column)."""

import json
import math
from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy import stats

import exactstats as es
from exactstats import ExactStatsError
from exactstats.cli import main

ALTS = ("two-sided", "greater", "less")


def brute_force(differences, alternative="two-sided"):
    """Every one of the 2^G sign patterns, counted."""
    d = [Fraction(x) for x in differences]
    s = sum(d)
    hits = 0
    for signs in product((1, -1), repeat=len(d)):
        t = sum(e * x for e, x in zip(signs, d))
        hits += {"two-sided": abs(t) >= abs(s), "greater": t >= s, "less": t <= s}[alternative]
    return Fraction(hits, 2 ** len(d))


small_ints = st.lists(st.integers(-4, 4), min_size=1, max_size=11)
small_fractions = st.lists(st.fractions(min_value=-2, max_value=2, max_denominator=6).map(str), min_size=1, max_size=9)


@settings(max_examples=150, deadline=None)
@given(small_ints, st.sampled_from(ALTS))
def test_sign_flip_equals_enumeration_of_every_sign_pattern(d, alternative):
    assert es.sign_flip_p_value(d, alternative) == brute_force(d, alternative)


@settings(max_examples=80, deadline=None)
@given(small_fractions, st.sampled_from(ALTS))
def test_sign_flip_on_rational_scores(d, alternative):
    assert es.sign_flip_p_value(d, alternative) == brute_force(d, alternative)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-3, 3), min_size=2, max_size=10))
def test_sign_flip_matches_scipy_permutation_test(d):
    """SciPy's paired permutation test (exact: it enumerates every within-pair swap)."""
    assume(any(d))
    x = np.array([max(v, 0) for v in d], dtype=float)
    y = np.array([max(-v, 0) for v in d], dtype=float)
    ref = stats.permutation_test(
        (x, y), lambda a, b, axis: np.sum(a - b, axis=axis), permutation_type="samples", n_resamples=10**6
    ).pvalue
    assert float(es.sign_flip_p_value(d)) == pytest.approx(ref, rel=1e-12)


@given(st.integers(0, 300), st.integers(0, 300), st.sampled_from(ALTS))
def test_one_sample_per_question_is_mcnemar(b, c, alternative):
    d = [1] * b + [-1] * c + [0] * 5
    assert es.sign_flip_p_value(d, alternative) == es.mcnemar_p_value(b, c, alternative)


def test_sign_flip_holds_its_level_exactly():
    """For fixed sizes |d|, the chance over the 2^G equally likely sign patterns that p <= alpha is at most alpha
    (computed, not simulated), and the bound is attained where the distribution allows."""
    for sizes in ([1, 2, 3, 3, 2, 1, 1, 2], [1, 1, 1, 1, 1, 1, 1, 1, 1, 1], [3, 3, 2, 1, 1], [5, 1, 1, 2, 2, 4, 1]):
        ps = [
            es.sign_flip_p_value([e * v for e, v in zip(signs, sizes)]) for signs in product((1, -1), repeat=len(sizes))
        ]
        for alpha in (Fraction(1, 20), Fraction(1, 10), Fraction(1, 4), Fraction(1, 2)):
            size = Fraction(sum(p <= alpha for p in ps), len(ps))
            assert size <= alpha, (sizes, alpha, size)
        # a p-value equals the chance of a p-value at most as large: the test is exact, not just valid
        for p in set(ps):
            assert Fraction(sum(q <= p for q in ps), len(ps)) == p or p == 1


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(-5, 5), min_size=1, max_size=300), st.sampled_from(ALTS))
def test_float_twin_agrees_with_the_exact_value(d, alternative):
    exact = es.sign_flip_p_value(d, alternative)
    assert es.sign_flip_p_value_float(d, alternative) == pytest.approx(float(exact), rel=1e-9, abs=1e-300)


def test_float_twin_is_accurate_far_in_the_tail():
    """p-values far below the smallest float are where a plain float convolution underflows to 0."""
    rng = np.random.default_rng(5)
    for g, lean in ((400, 0.9), (1500, 0.8)):
        d = (rng.integers(1, 4, size=g) * np.where(rng.random(g) < lean, 1, -1)).tolist()
        exact = es.sign_flip_p_value(d)
        log10_exact = (math.log2(exact.numerator) - math.log2(exact.denominator)) * math.log10(2)
        f = es.sign_flip_p_value_float(d)
        if log10_exact > -300:
            assert f == pytest.approx(float(exact), rel=1e-9)
        else:
            assert f == 0.0  # beyond the float range, as mcnemar_p_value_float; never a wrong positive number
    # the tilted tail needs no underflowing intermediate: a p-value near 1e-193, far below where a plain float
    # convolution of the pattern counts (each about 2^-2400) underflows
    d = [1] * 1100 + [2] * 900 + [-1] * 100 + [-2] * 300
    exact = es.sign_flip_p_value(d)
    assert exact < Fraction(1, 10**190)
    assert es.sign_flip_p_value_float(d) == pytest.approx(float(exact), rel=1e-9)


def test_sign_flip_refuses_what_will_not_finish_and_bad_input():
    balanced = [v if v % 2 else -v for v in range(1, 3000)] * 4
    with pytest.raises(ExactStatsError, match="sign_flip_p_value_float"):
        es.sign_flip_p_value(balanced)
    with pytest.raises(ExactStatsError, match="fewer decimal places"):
        es.sign_flip_p_value_float(balanced)  # a float sum over 9 million reachable totals: refused, not hours
    assert 0.4 < es.sign_flip_p_value_float(balanced[:1000]) <= 1
    with pytest.raises(ExactStatsError, match="fewer decimal places"):
        es.sign_flip_p_value_float([0.123456789123, -0.2, 0.3] * 50)
    for bad, match in (([], "at least one"), (["x"], r"differences\[0\]"), ([1, float("nan")], r"differences\[1\]")):
        with pytest.raises(ExactStatsError, match=match):
            es.sign_flip_p_value(bad)
    with pytest.raises(ExactStatsError, match="alternative"):
        es.sign_flip_p_value([1, 2], alternative="bigger")
    assert es.sign_flip_p_value([0, 0, 0]) == 1 and es.sign_flip_p_value_float([0, 0]) == 1.0
    assert es.sign_flip_p_value([2, -2, 1, -1]) == 1


def test_cluster_sums_and_differences_against_pandas():
    import pandas as pd

    rng = np.random.default_rng(0)
    C = rng.integers(0, 2, size=(4, 60))
    clusters = rng.integers(0, 13, size=60).astype(str).tolist()
    S, rows = es.cluster_sums(C, clusters)
    order = list(dict.fromkeys(clusters))
    ref = pd.DataFrame(C.T).groupby(pd.Series(clusters)).sum().loc[order].to_numpy().T
    assert (S == ref).all() and rows.tolist() == [clusters.count(g) for g in order]
    d, r = es.cluster_differences(C[0], C[1], clusters)
    assert d == (S[0] - S[1]).tolist() and r == rows.tolist()


def test_clustered_t_interval_matches_statsmodels():
    """statsmodels' cluster-robust OLS on a constant with t inference uses G/(G-1) and G - 1 degrees of freedom."""
    import statsmodels.api as sm

    rng = np.random.default_rng(1)
    for g, per in ((6, 3), (25, 2), (40, 1)):
        clusters = np.repeat(np.arange(g), per)
        x = (rng.random(g * per) < 0.6).astype(float)
        fit = sm.OLS(x, np.ones_like(x)).fit(cov_type="cluster", cov_kwds={"groups": clusters}, use_t=True)
        lo, hi = fit.conf_int(alpha=0.05)[0]
        ours = es.clustered_interval_float(x.tolist(), clusters.tolist())
        assert ours.lower == pytest.approx(lo, rel=1e-10) and ours.upper == pytest.approx(hi, rel=1e-10)
    normal = es.clustered_interval_float([1, 0, 1, 1], ["a", "a", "b", "b"], reference="normal")
    wide = es.clustered_interval_float([1, 0, 1, 1], ["a", "a", "b", "b"])
    assert wide.upper - wide.lower > normal.upper - normal.lower
    with pytest.raises(ExactStatsError, match="reference"):
        es.clustered_interval_float([1, 0], ["a", "b"], reference="z")
    with pytest.raises(ExactStatsError, match="at least 2 clusters"):
        es.clustered_interval_float([1, 0], ["a", "a"])


def test_clustered_comparison_is_over_questions():
    x = [1, 1, 1, 0, 1, 1, 0, 0, 1, 1, 1, 1]
    y = [0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 1]
    q = [i // 3 for i in range(12)]
    r = es.clustered_paired_comparison(x, y, q)
    assert (r.questions, r.rows) == (4, 12)
    assert r.difference == Fraction(sum(x) - sum(y), 12)
    assert r.p_value == brute_force([3, 1, 0, 1]) == es.sign_flip_p_value([3, 1, 0, 1])
    assert es.clustered_paired_comparison(x, y, q, exact=False).p_value == pytest.approx(float(r.p_value))
    one_each = es.clustered_paired_comparison(x, y, list(range(12)))
    assert one_each.p_value == es.mcnemar_p_value(*es.discordance(x, y))
    with pytest.raises(ExactStatsError, match="at least 2 questions"):
        es.clustered_paired_comparison([1, 0], [0, 0], ["a", "a"])


def test_repeated_samples_break_mcnemar_but_not_the_sign_flip_test():
    """Two equally good models whose answers depend on the question: McNemar over rows rejects far too often,
    the sign-flip test over questions holds its 5% level (simulated, 3 standard errors)."""
    rng = np.random.default_rng(7)
    runs, g, epochs = 600, 20, 5
    flips = rows = 0
    for _ in range(runs):
        ease = rng.beta(0.5, 0.5, size=g)  # a question is mostly easy or mostly hard for both models
        p_a = np.clip(ease + rng.normal(0, 0.25, g), 0, 1)  # each model's own per-question skill...
        p_b = np.clip(ease + rng.normal(0, 0.25, g), 0, 1)  # ...drawn alike: no model is better
        a = (rng.random((g, epochs)) < p_a[:, None]).astype(int).ravel()
        b = (rng.random((g, epochs)) < p_b[:, None]).astype(int).ravel()
        q = np.repeat(np.arange(g), epochs)
        flips += es.clustered_paired_comparison(a, b, q).p_value <= Fraction(1, 20)
        rows += es.mcnemar_p_value(*es.discordance(a, b)) <= Fraction(1, 20)
    limit = 0.05 + 3 * math.sqrt(0.05 * 0.95 / runs)
    assert flips / runs <= limit
    assert rows / runs > limit  # the check above could fail: McNemar over rows does (13% at 5%)


def test_clustered_redraws_draw_whole_questions():
    """Two models, three questions: every one of the 27 redraws enumerated (ties count half)."""
    S = np.array([[3, 0, 2], [1, 2, 1]])
    exact = 0.0
    for draw in product(range(3), repeat=3):
        a, b = S[0, list(draw)].sum(), S[1, list(draw)].sum()
        exact += 1.0 if a > b else 0.5 if a == b else 0.0
    exact /= 27
    share = es.top_stays_top_clustered_float(S, draws=40_000, seed=1)
    assert abs(share - exact) < 3 * math.sqrt(exact * (1 - exact) / 40_000) + 1e-9
    with pytest.raises(ExactStatsError, match="counts"):
        es.top_stays_top_clustered_float([[0.5, 1]])


# --- the report ------------------------------------------------------------------------------------------


def inspect_log(path, model, outcomes):
    samples = [
        {"id": q, "epoch": e + 1, "scores": {"s": {"value": "C" if ok else "I"}}}
        for q, row in enumerate(outcomes)
        for e, ok in enumerate(row)
    ]
    path.write_text(json.dumps({"eval": {"model": model, "task": "t"}, "samples": samples}))
    return str(path)


def test_report_on_inspect_epochs_compares_over_questions(tmp_path, capsys):
    rng = np.random.default_rng(3)
    a = rng.random((10, 3)) < 0.8
    b = rng.random((10, 3)) < 0.4
    files = [inspect_log(tmp_path / "a.json", "a", a), inspect_log(tmp_path / "b.json", "b", b)]
    assert main(["report", *files, "--json", "--draws", "50", "--exact-all"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert (r["questions"], r["rows"]) == (10, 30)
    assert r["paired_test"] == "exact sign-flip test over 10 questions"
    pair = r["adjacent_pairs"][0]
    better, worse = (a, b) if a.sum() >= b.sum() else (b, a)
    exact = es.sign_flip_p_value((better.sum(axis=1).astype(int) - worse.sum(axis=1).astype(int)).tolist())
    assert pair["p"] == pytest.approx(float(exact), rel=1e-12) and pair["unpaired95"] is None
    assert pair["b"] + pair["c"] == int((better != worse).sum())
    assert r["leader_stays_first"]["n"] == 10
    assert any("asked more than once" in n for n in r["notes"])
    assert main(["report", *files]) == 0
    text = capsys.readouterr().out
    assert "x 10 questions" in text and "sign-flip test over 10 questions" in text and "McNemar" not in text


def test_report_with_one_epoch_stays_mcnemar(tmp_path, capsys):
    rng = np.random.default_rng(4)
    files = [inspect_log(tmp_path / f"{m}.json", m, rng.random((30, 1)) < 0.6) for m in "ab"]
    assert main(["report", *files, "--json", "--draws", "20"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert (r["questions"], r["rows"], r["paired_test"]) == (30, 30, "exact McNemar over questions")


def test_long_table_with_an_epoch_column(tmp_path, capsys):
    lines = ["model,question_id,epoch,correct,subject"]
    rng = np.random.default_rng(2)
    for m, skill in (("big", 0.8), ("small", 0.5)):
        for q in range(12):
            for e in range(4):
                lines.append(f"{m},q{q},{e},{int(rng.random() < skill)},s{q % 3}")
    path = tmp_path / "long.csv"
    path.write_text("\n".join(lines) + "\n")
    assert main(["report", str(path), "--json", "--draws", "20"]) == 0
    out = capsys.readouterr()
    r = json.loads(out.out)
    assert (r["questions"], r["rows"]) == (12, 48) and r["leaderboard"][0]["clusters"] == 12
    assert "'subject' is not used" in out.err
    bad = tmp_path / "bad.csv"
    bad.write_text("model,question_id,epoch,correct\na,q1,,1\n")
    assert main(["report", str(bad)]) == 2
    assert "row 2: empty epoch" in capsys.readouterr().err


def test_repeated_and_single_inputs_are_not_mixed(tmp_path, capsys):
    a = inspect_log(tmp_path / "a.json", "a", [[1, 0], [1, 1]])
    table = tmp_path / "b.csv"
    table.write_text("model,question_id,correct,cluster\nb,t/0#1,1,t/0\nb,t/0#2,0,t/0\nb,t/1#1,1,t/1\nb,t/1#2,1,t/1\n")
    assert main(["report", a, str(table)]) == 2
    assert "compare like with like" in capsys.readouterr().err


def test_sequential_refuses_repeated_questions(tmp_path, capsys):
    files = [inspect_log(tmp_path / f"{m}.json", m, [[1, 0], [1, 1], [0, 0]]) for m in "ab"]
    assert main(["sequential", *files]) == 2
    assert "one sample per question" in capsys.readouterr().err


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(-(10**6), 10**6), st.sampled_from([999_983, 1_000_003, 998_244_353, 7919, 104_729])),
        min_size=2,
        max_size=10,
    ),
    st.sampled_from(ALTS),
)
def test_unlike_denominators_are_counted_by_halves(pairs, alternative):
    """Scores with large unlike denominators put the differences on a scale no packed integer can hold; the
    patterns are then counted by meeting in the middle, still exactly."""
    d = [Fraction(a, q) for a, q in pairs]
    assert es.sign_flip_p_value(d, alternative) == brute_force(d, alternative)


def test_many_differences_on_a_fine_scale_are_refused():
    d = [Fraction(i if i % 2 else -i, 10**9 + 7 * i) for i in range(1, 60)]
    with pytest.raises(ExactStatsError, match="sign_flip_p_value_float"):
        es.sign_flip_p_value(d)
