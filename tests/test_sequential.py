"""The sequential paired test: exact error rates against enumeration, simulation and Ville's bound.

References independent of the package: enumeration of every question sequence (3**n) with the stopping
decision recomputed from scratch (the mixture e-value from factorials, McNemar from scipy's binomtest,
the posterior from scipy's binomial cdf), SciPy's beta function for the e-value, and Monte Carlo walks.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import threading
import time
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special, stats

import exactstats as es
from exactstats.cli import main
from tests.conftest import ROOT

SHIPPED = ROOT / "data" / "shuffled-2000.matrix.parquet"
LARGE, WEAK, TIED = "qwen2.5-coder-1.5b-instruct", "gemma3-270m", "smollm2-135m-instruct"


# --- independent references -------------------------------------------------------------------


def e_value_reference(b: int, c: int, a: int = 1) -> Fraction:
    """2^m B(b+a, c+a) / B(a, a) from factorials."""
    beta = lambda x, y: Fraction(math.factorial(x - 1) * math.factorial(y - 1), math.factorial(x + y - 1))  # noqa: E731
    return 2 ** (b + c) * beta(b + a, c + a) / beta(a, a)


@functools.cache
def stops_reference(rule: str, b: int, c: int, alpha: Fraction, a: int = 1) -> bool:
    if b == c:
        return False
    if rule == "mixture":
        return e_value_reference(b, c, a) >= 1 / alpha
    if rule == "repeated-mcnemar":
        return stats.binomtest(b, b + c, 0.5).pvalue <= float(alpha) * (1 + 1e-12)
    posterior = stats.binom.cdf(b, b + c + 1, 0.5)  # P(first better | b, c), uniform prior
    return posterior <= float(alpha) * (1 + 1e-12) or posterior >= 1 - float(alpha) * (1 + 1e-12)


def enumerate_rule(n: int, pb: Fraction, pc: Fraction, rule: str, alpha: Fraction) -> tuple[Fraction, ...]:
    """(first, second, expected questions) over all 3^n question sequences."""
    chance = {1: pb, -1: pc, 0: 1 - pb - pc}
    first = second = expected = Fraction(0)
    for seq in itertools.product((1, -1, 0), repeat=n):
        w = math.prod((chance[q] for q in seq), start=Fraction(1))
        b = c = 0
        stop, who = n, None
        for i, q in enumerate(seq):
            b, c = b + (q == 1), c + (q == -1)
            if q and stops_reference(rule, b, c, alpha):
                stop, who = i + 1, "first" if b > c else "second"
                break
        first += w * (who == "first")
        second += w * (who == "second")
        expected += w * stop
    return first, second, expected


# --- the e-value and the thresholds -----------------------------------------------------------


@given(st.integers(0, 60), st.integers(0, 60), st.integers(1, 6))
def test_e_value_matches_factorials_and_scipy_beta(b, c, a):
    e = es.mixture_e_value(b, c, a)
    assert e == e_value_reference(b, c, a)
    log_e = (b + c) * math.log(2) + special.betaln(b + a, c + a) - special.betaln(a, a)
    assert math.log(e) == pytest.approx(log_e, rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("rule", es.RULES)
@pytest.mark.parametrize("alpha", ["0.05", "0.01", "1/7"])
def test_thresholds_match_the_rule_recomputed_from_scratch(rule, alpha):
    a = Fraction(alpha)
    ts = es.stopping_thresholds(120, rule, alpha)
    for m, t in enumerate(ts):
        expected = max([b for b in range((m + 1) // 2) if stops_reference(rule, b, m - b, a)], default=-1)
        assert t == expected, (m, t, expected)
        # the stop set is the two tails: every b at or below t stops, none between
        assert all(stops_reference(rule, b, m - b, a) == (b <= t) for b in range((m + 1) // 2))
    assert np.array_equal(es.stopping_thresholds_float(120, rule, alpha), ts)


# --- exact error rates --------------------------------------------------------------------------


@pytest.mark.parametrize("rule", es.RULES)
@pytest.mark.parametrize(("pb", "pc"), [("1/2", "1/2"), ("1/5", "1/10"), ("1/3", "1/3"), ("0", "3/4"), ("1/4", "0")])
def test_operating_characteristics_equal_enumeration(rule, pb, pc):
    alpha = Fraction(1, 5)  # large, so that short runs can stop at all
    oc = es.operating_characteristics(8, pb, pc, rule, alpha)
    first, second, expected = enumerate_rule(8, Fraction(pb), Fraction(pc), rule, alpha)
    assert (oc.first, oc.second, oc.expected_questions) == (first, second, expected)
    assert oc.stop == first + second
    twin = es.operating_characteristics_float(8, pb, pc, rule, alpha)
    assert twin == pytest.approx([float(first), float(second), float(first + second), float(expected)], abs=1e-12)


def test_mixture_false_alarm_stays_below_alpha_to_ten_thousand_questions():
    curve = es.false_alarm_curve(10_000)
    assert all(x <= y for x, y in itertools.pairwise(curve))  # more looks, never fewer alarms
    assert curve[-1] <= Fraction(1, 20)
    assert float(curve[-1]) > 0.035  # not vacuous: the rule does spend most of its alpha
    naive = es.false_alarm_curve(10_000, "repeated-mcnemar")
    posterior = es.false_alarm_curve(10_000, "posterior-threshold")
    for n in (100, 300, 1_000, 3_000, 10_000):
        assert curve[n] <= Fraction(1, 20) < naive[n] < posterior[n]
    assert naive[10_000] > Fraction(1, 2) and posterior[1_000] > Fraction(7, 10)
    assert es.false_alarm_curve_float(10_000)[[100, 10_000]] == pytest.approx([float(curve[100]), float(curve[-1])])


@pytest.mark.parametrize("alpha", ["0.01", "0.05", "0.1", "1/3"])
@pytest.mark.parametrize("prior", [1, 3, 20])
def test_ville_bound_holds_on_a_grid(alpha, prior):
    assert es.false_alarm_curve(2_000, "mixture", alpha, prior)[-1] <= Fraction(alpha)


def test_exact_false_alarm_agrees_with_simulated_walks():
    rng = np.random.default_rng(7)
    n, runs = 1_000, 20_000
    wins = rng.integers(0, 2, size=(runs, n), dtype=np.int8)  # 1: the first model wins the discordant question
    b = np.cumsum(wins, axis=1, dtype=np.int32)
    m = np.arange(1, n + 1)
    for rule in es.RULES:
        t = np.asarray(es.stopping_thresholds(n, rule))[1:]
        crossed = ((np.minimum(b, m - b) <= t) & (2 * b != m)).any(axis=1)
        exact = float(es.false_alarm_curve(n, rule)[-1])
        se = math.sqrt(exact * (1 - exact) / runs)
        assert abs(crossed.mean() - exact) < 4 * se, rule


def test_discordance_below_one_lowers_the_false_alarm():
    worst = es.false_alarm_probability(300)
    assert es.false_alarm_probability(300, discordance="1/5") < worst
    assert es.false_alarm_probability(300, "repeated-mcnemar", discordance="1/5") > Fraction(1, 20)


def test_power_and_expected_questions_against_simulation():
    pb, pc, n = Fraction(3, 10), Fraction(3, 20), 400
    oc = es.operating_characteristics(n, pb, pc)
    rng = np.random.default_rng(3)
    draws = rng.choice(3, p=[float(pb), float(pc), float(1 - pb - pc)], size=(4_000, n))
    stops = []
    for row in draws:
        r = es.sequential_test((row == 0).astype(int), (row == 1).astype(int))
        stops.append(r.stopped_at or n)
    stops = np.array(stops)
    assert abs(stops.mean() - float(oc.expected_questions)) < 4 * stops.std() / math.sqrt(len(stops))
    assert oc.first > Fraction(9, 10) and oc.second < Fraction(1, 1000)


# --- one run -----------------------------------------------------------------------------------


@settings(max_examples=40)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1)), max_size=120), st.sampled_from(["0.05", "0.2"]))
def test_sequential_test_stops_where_the_e_value_first_reaches_one_over_alpha(rows, alpha):
    x, y = [r[0] for r in rows], [r[1] for r in rows]
    result = es.sequential_test(x, y, alpha)
    b = c = 0
    stop, best = None, Fraction(1)
    for i, (u, v) in enumerate(rows):
        b, c = b + (u > v), c + (v > u)
        best = max(best, e_value_reference(b, c))
        if e_value_reference(b, c) >= 1 / Fraction(alpha):
            stop = i + 1
            break
    assert result.stopped_at == stop
    assert (result.b, result.c, result.e_value) == (b, c, e_value_reference(b, c))
    assert result.p_value == min(Fraction(1), 1 / best)
    assert (result.winner is None) == (stop is None)
    assert result.stopped_at is None or result.p_value <= result.alpha


def test_result_repr_is_short_for_a_long_tied_run():
    x = [1, 0] * 5_000
    r = es.sequential_test(x, x[1:] + x[:1])
    assert r.stopped_at is None and len(repr(r)) < 300 and r.e_value < 1


def test_monitor_refuses_updates_after_it_stopped():
    mon = es.MixtureMonitor()
    for _ in range(8):
        mon.update(1, 0)
    with pytest.raises(es.ExactStatsError, match="stopped after question 8"):
        mon.update(1, 0)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: es.mixture_e_value(-1, 2), "b must"),
        (lambda: es.mixture_e_value(1, 2, prior=0), "prior must"),
        (lambda: es.stopping_thresholds(10, "peek"), "rule must be one of"),
        (lambda: es.stopping_thresholds(10, alpha="0"), "alpha must"),
        (lambda: es.stopping_thresholds(10, "posterior-threshold", alpha="0.6"), r"\(0, 1/2\)"),
        (lambda: es.false_alarm_curve(10**6), "stopping_thresholds_float"),
        (lambda: es.operating_characteristics(10**6, "0.1", "0.1"), "operating_characteristics_float"),
        (lambda: es.operating_characteristics(10, "0.6", "0.6"), "p_b \\+ p_c"),
        (lambda: es.operating_characteristics(20_000, "1/99991", "1/99989"), "operating_characteristics_float"),
        (lambda: es.sequential_test([1, 0], [1]), "same length"),
        (lambda: es.sequential_test([1, 2], [1, 0]), "only 0 and 1"),
        (lambda: es.sequential_test([1, 0], [1, 0], max_n=0), "max_n must"),
    ],
)
def test_bad_input_is_refused_by_name(call, match):
    with pytest.raises(es.ExactStatsError, match=match):
        call()


# --- the command, on the shipped data ------------------------------------------------------------


def run(argv, capsys):
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_stops_early_on_a_separated_pair_and_not_on_a_tied_one(capsys):
    code, out, _ = run(["sequential", str(SHIPPED), "--models", LARGE, WEAK, "--json"], capsys)
    sep = json.loads(out)
    assert code == 0 and sep["stopped"] and sep["winner"] == LARGE and sep["stopped_after_question"] < 500
    code, out, _ = run(["sequential", str(SHIPPED), "--models", WEAK, TIED, "--json"], capsys)
    tied = json.loads(out)
    assert code == 0 and not tied["stopped"] and tied["questions_read"] == 2000
    assert tied["false_alarm_within_read"]["value"] <= 0.05
    # the same verdicts in random question orders, and the text output says them
    for seed in range(3):
        code, out, _ = run(["sequential", str(SHIPPED), "--models", LARGE, WEAK, "--shuffle", str(seed)], capsys)
        assert code == 0 and "STOP after question" in out and f"{LARGE} is better" in out
        code, out, _ = run(["sequential", str(SHIPPED), "--models", WEAK, TIED, "--shuffle", str(seed)], capsys)
        assert code == 0 and "no decision" in out


def test_cli_matches_the_package_on_the_shipped_matrix(capsys):
    m = pd.read_parquet(SHIPPED)
    r = es.sequential_test(m.loc[LARGE].to_numpy(), m.loc[WEAK].to_numpy())
    code, out, _ = run(["sequential", str(SHIPPED), "--models", LARGE, WEAK, "--json"], capsys)
    s = json.loads(out)
    assert (s["stopped_after_question"], s["first_only_right"], s["second_only_right"]) == (r.stopped_at, r.b, r.c)
    assert s["question_id"] == m.columns[r.stopped_at - 1]


def lm_eval_file(path, rows, torn=False):
    text = "".join(json.dumps({"doc_id": i, "acc": v}) + "\n" for i, v in rows)
    path.write_text(text + ('{"doc_id": 99, "ac' if torn else ""))
    return path


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--models", "x", "y"], "unknown model 'x'"),
        ([], "name two with --models"),
        (["--models", LARGE, LARGE], "two different models"),
        (["--models", LARGE, WEAK, "--alpha", "1"], "--alpha must"),
        (["--models", LARGE, WEAK, "--max-n", "0"], "--max-n must"),
        (["--models", LARGE, WEAK, "--prior", "1.5"], "--prior must"),
        (["--models", LARGE, WEAK, "--watch", "--interval", "0"], "--interval must"),
    ],
)
def test_cli_bad_options_exit_2_with_one_line(argv, message, capsys):
    code, _, err = run(["sequential", str(SHIPPED), *argv], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and message in err


def test_cli_bad_files_exit_2_with_one_line(tmp_path, capsys):
    for sub in "abcd":
        (tmp_path / sub).mkdir()
    a = lm_eval_file(tmp_path / "a" / "samples_t.jsonl", [(0, 1), (1, 0)])
    short = lm_eval_file(tmp_path / "b" / "samples_t.jsonl", [(0, 1)])
    code, _, err = run(["sequential", f"a={a}", f"b={short}"], capsys)
    assert code == 2 and "question sets differ" in err
    bad = tmp_path / "c" / "samples_t.jsonl"
    bad.write_text('{"doc_id": 0, "acc": 2}\n{"doc_id": 1, "acc": 0}\n')
    code, _, err = run(["sequential", f"a={a}", f"c={bad}"], capsys)
    assert code == 2 and "must be 0 or 1" in err, err
    code, _, err = run(["sequential", f"b={short}", f"a={a}", "--watch", "--idle", "0"], capsys)
    assert code == 0  # the first file may be shorter while watching
    other = lm_eval_file(tmp_path / "d" / "samples_t.jsonl", [(5, 1)])
    code, _, err = run(["sequential", f"d={other}", f"a={a}", "--watch", "--idle", "0"], capsys)
    assert code == 2 and "unknown ids" in err


def test_watch_follows_a_growing_file_and_stops_with_the_rule(tmp_path, capsys):
    (tmp_path / "base").mkdir()
    (tmp_path / "run").mkdir()
    n = 60
    base = lm_eval_file(tmp_path / "base" / "samples_t.jsonl", [(i, 0) for i in range(n)])
    growing = tmp_path / "run" / "samples_t.jsonl"
    lm_eval_file(growing, [(i, 1) for i in range(3)], torn=True)  # mid-write: the torn line is left out

    def write_more():
        for i in range(3, n):
            time.sleep(0.01)
            with growing.open("r+") as f:
                text = f.read()
                keep = text[: text.rfind("\n") + 1]
                f.seek(0)
                f.write(keep + json.dumps({"doc_id": i, "acc": 1}) + "\n")
                f.truncate()

    writer = threading.Thread(target=write_more)
    writer.start()
    code, out, err = run(["sequential", f"run={growing}", f"base={base}", "--watch", "--interval", "0.02",
                          "--idle", "5"], capsys)  # fmt: skip
    writer.join()
    lines = out.strip().splitlines()
    assert code == 0, err
    assert lines[7].startswith("question      8") and lines[7].endswith("STOP")  # 8 to 0: E = 256/9
    assert all(line.endswith("continue") for line in lines[:7])
    assert "STOP after question 8" in out and "run is better" in out


def test_watch_json_lines(tmp_path, capsys):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = lm_eval_file(tmp_path / "a" / "samples_t.jsonl", [(i, i % 2) for i in range(10)])
    b = lm_eval_file(tmp_path / "b" / "samples_t.jsonl", [(i, 1 - i % 2) for i in range(10)])
    code, out, _ = run(["sequential", f"a={a}", f"b={b}", "--watch", "--idle", "0", "--json"], capsys)
    rows = [json.loads(line) for line in out.strip().splitlines()]
    assert code == 0 and [r["question"] for r in rows[:-1]] == list(range(1, 11))
    assert rows[-1]["stopped"] is False and rows[-1]["questions_read"] == 10


@pytest.mark.parametrize("rule", es.RULES)
def test_stopping_times_match_the_monitor_in_every_order(rule):
    rng = np.random.default_rng(11)
    x, y = rng.integers(0, 2, 300), (rng.random(300) < 0.35).astype(int)
    st = es.stopping_times(x, y, orders=6, seed=4, rule=rule)
    replay = np.random.default_rng(4)
    ts = es.stopping_thresholds(300, rule)
    for k in range(6):
        order = np.arange(300) if k == 0 else replay.permutation(300)
        b = c = 0
        stop, who = 0, 0
        for q, (u, v) in enumerate(zip(x[order], y[order]), 1):
            b, c = b + (u > v), c + (v > u)
            if u != v and b != c and min(b, c) <= ts[b + c]:
                stop, who = q, 1 if b > c else -1
                break
        if rule == "mixture":
            r = es.sequential_test(x[order], y[order])
            assert (r.stopped_at or 0) == stop
        assert (st.questions[k], st.winner[k]) == (stop, who)


def test_posterior_rule_stops_where_the_exact_posterior_leaves_its_band():
    ts = es.stopping_thresholds(60, "posterior-threshold")
    for m, t in enumerate(ts):
        for b in range(m + 1):
            p = es.paired_better_probability(b, m - b)
            leaves = p <= Fraction(1, 20) or p >= Fraction(19, 20)
            assert leaves == (min(b, m - b) <= t and 2 * b != m), (m, b)
