"""pass^k's variance and the samples-per-problem planner: exact unbiasedness by summing over every count,
and the planner's within-problem part checked against subsampling the shipped HumanEval samples."""

from fractions import Fraction
from math import comb

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import exactstats as es
from exactstats import ExactStatsError

rates = st.fractions(min_value=0, max_value=1, max_denominator=7)


def binomial(n, p, c):
    return comb(n, c) * p**c * (1 - p) ** (n - c)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 12), st.integers(1, 12), rates)
def test_pass_hat_k_variance_by_summing_over_every_count(n, k, p):
    if k > n:
        k = n
    direct = sum((binomial(n, p, c) * es.pass_hat_k(n, c, k) ** 2 for c in range(n + 1)), Fraction(0)) - p ** (2 * k)
    assert es.pass_hat_k_variance(n, k, p) == direct


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 12), st.integers(1, 6), rates)
def test_pass_hat_k_variance_estimate_is_unbiased(n, k, p):
    k = min(k, n // 2)
    expected = sum((binomial(n, p, c) * es.pass_hat_k_variance_estimate(n, c, k) for c in range(n + 1)), Fraction(0))
    assert expected == es.pass_hat_k_variance(n, k, p)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 11), st.integers(1, 5), st.integers(0, 11), rates, st.sampled_from(es.MEASURES))
def test_within_variance_estimate_is_unbiased_for_every_planned_m(n, k, m, p, measure):
    """Averaged over c ~ Binomial(n, p), the estimate equals the exact variance with m samples."""
    k = min(k, n // 2)
    m = min(max(m, k), n)
    truth = es.pass_at_k_variance(m, k, p) if measure == "pass@k" else es.pass_hat_k_variance(m, k, p)
    expected = sum(
        (binomial(n, p, c) * es.within_variance_estimate(n, c, k, m, measure) for c in range(n + 1)), Fraction(0)
    )
    assert expected == truth


@given(st.integers(2, 15), st.integers(0, 15), st.integers(1, 7))
def test_within_at_the_samples_drawn_is_the_variance_estimate(n, c, k):
    c, k = min(c, n), min(k, n // 2)
    assert es.within_variance_estimate(n, c, k, n) == es.pass_at_k_variance_estimate(n, c, k)
    assert es.within_variance_estimate(n, c, k, n, "pass^k") == es.pass_hat_k_variance_estimate(n, c, k)


def humaneval_counts():
    df = pd.read_parquet("data/humaneval-sampled.parquet")
    df["passed"] = (df["status"] == "passed").astype(int)
    counts = df.groupby(["model", "task_id"])["passed"].agg(["size", "sum"])
    model = counts.groupby(level=0)["size"].min().idxmax()  # the model with the most samples per problem
    table = counts.loc[model]
    return df[df["model"] == model], [(int(n), int(c)) for n, c in zip(table["size"], table["sum"])]


@pytest.mark.parametrize("measure", es.MEASURES)
def test_planner_within_part_matches_subsampling_our_humaneval_samples(measure):
    """Drawing m of each problem's n samples at random: the variance of the mean estimate over the draws is
    (1/P^2) sum_i [within_i(m) - within_i(n)] (an identity of the unbiased parts), checked by simulation."""
    rows, table = humaneval_counts()
    n = min(t[0] for t in table)
    k, m, draws = 2, n // 2, 3000
    predicted = (
        sum(
            float(
                es.within_variance_estimate(nn, c, k, m, measure) - es.within_variance_estimate(nn, c, k, nn, measure)
            )
            for nn, c in table
        )
        / len(table) ** 2
    )
    rng = np.random.default_rng(0)
    flags = [g["passed"].to_numpy() for _, g in rows.groupby("task_id")]
    estimate = es.pass_at_k_float if measure == "pass@k" else None
    means = []
    for _ in range(draws):
        c_sub = np.array([f[rng.permutation(len(f))[:m]].sum() for f in flags])
        if estimate:
            means.append(estimate(np.full(len(flags), m), c_sub, k).mean())
        else:
            means.append(np.mean([float(es.pass_hat_k(m, int(c), k)) for c in c_sub]))
    observed = np.var(means, ddof=1)
    # the sample variance of 3,000 draws is within about 4 * sqrt(2 / 3000) of its expectation, relatively
    assert observed == pytest.approx(predicted, rel=4 * (2 / draws) ** 0.5)


def test_planner_finds_the_fewest_samples_and_says_when_none_suffice():
    _, table = humaneval_counts()
    for measure in es.MEASURES:
        se_now = es.standard_error_at_float(table, 2, 10, measure)
        plan = es.samples_per_problem_float(table, 2, se_now * 1.0001, measure)
        assert plan.n is not None and plan.n <= 10 and plan.standard_error <= se_now * 1.0001
        if plan.n > 2:
            assert es.standard_error_at_float(table, 2, plan.n - 1, measure) > se_now * 1.0001
        never = es.samples_per_problem_float(table, 2, plan.floor * 0.99, measure)
        assert never.n is None and never.standard_error > plan.floor * 0.99
        far = es.samples_per_problem_float(table, 2, (plan.floor + se_now) / 2, measure, max_n=100_000)
        assert far.n is not None and far.standard_error <= (plan.floor + se_now) / 2
    # identical problems: no between part, the floor is 0 and any target is reachable
    same = es.samples_per_problem_float([(10, 5)] * 6, 1, "0.01")
    assert same.floor == 0 and same.n is not None


def test_planner_refuses_bad_input():
    for call, match in (
        (lambda: es.samples_per_problem_float([(10, 5)], 1, "0.1"), "at least 2 problems"),
        (lambda: es.samples_per_problem_float([(10, 5), (4, 1)], 3, "0.1"), "half the fewest"),
        (lambda: es.samples_per_problem_float([(10, 5), (10, 1)], 1, "0"), "target"),
        (lambda: es.samples_per_problem_float([(10, 5), (10, 1)], 1, "0.1", measure="pass@1"), "measure"),
        (lambda: es.within_variance_estimate(10, 11, 1, 5), "c"),
        (lambda: es.within_variance_estimate(10, 4, 2, 1), "m"),
        (lambda: es.within_variance_estimate(3, 1, 2, 3), "n/2"),
    ):
        with pytest.raises(ExactStatsError, match=match):
            call()
