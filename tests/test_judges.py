"""Agreement between raters: exact coefficients against statsmodels and the krippendorff package, the exact
conditional p-value of kappa against enumeration of every rearrangement and against Fisher's exact test."""

import json
from fractions import Fraction
from itertools import permutations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy.stats import fisher_exact
from statsmodels.stats.inter_rater import aggregate_raters, cohens_kappa, fleiss_kappa, to_table

import exactstats as es
from exactstats import ExactStatsError


def pairs(labels=None, max_size=30):
    labels = st.integers(1, 4) if labels is None else labels
    return st.integers(2, max_size).flatmap(
        lambda n: st.tuples(st.lists(labels, min_size=n, max_size=n), st.lists(labels, min_size=n, max_size=n))
    )


def table(a, b, k=4):
    return to_table(np.array([a, b]).T, bins=list(range(1, k + 2)))[0]


@settings(max_examples=80, deadline=None)
@given(pairs())
def test_kappa_and_weighted_kappa_against_statsmodels(ab):
    a, b = ab
    assume(len(set(a)) > 1 or len(set(b)) > 1 or a[0] != b[0])
    t = table(a, b)
    assert float(es.cohen_kappa(a, b)) == pytest.approx(cohens_kappa(t).kappa, abs=1e-12)
    for w in es.KAPPA_WEIGHTS:
        ref = cohens_kappa(t, wt=w).kappa
        if np.isfinite(ref):
            assert float(es.weighted_kappa(a, b, w)) == pytest.approx(ref, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 12).flatmap(
        lambda n: st.lists(st.lists(st.sampled_from("abc"), min_size=4, max_size=4), min_size=n, max_size=n)
    )
)
def test_fleiss_against_statsmodels(rows):
    labels = sorted({x for r in rows for x in r})
    assume(len(labels) > 1)
    coded = np.array([[labels.index(x) for x in r] for r in rows])
    assert float(es.fleiss_kappa(rows)) == pytest.approx(fleiss_kappa(aggregate_raters(coded)[0]), abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 10).flatmap(
        lambda n: st.lists(
            st.lists(st.one_of(st.none(), st.integers(1, 3)), min_size=3, max_size=3), min_size=n, max_size=n
        )
    ),
    st.sampled_from(["nominal", "interval"]),
)
def test_krippendorff_against_the_reference_package(rows, level):
    krippendorff = pytest.importorskip("krippendorff")
    pairable = [r for r in rows if sum(x is not None for x in r) >= 2]
    values = {x for r in pairable for x in r if x is not None}
    assume(len(values) > 1)
    data = np.array([[np.nan if x is None else x for x in r] for r in rows], dtype=float).T
    ref = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
    assert float(es.krippendorff_alpha(rows, level)) == pytest.approx(ref, abs=1e-10)


def brute(a, b):
    """Every rearrangement of b's labels over the items (items distinct): the matches' distribution."""
    counts = [0] * (len(a) + 1)
    for perm in permutations(b):
        counts[sum(x == y for x, y in zip(a, perm))] += 1
    total = sum(counts)
    return [Fraction(c, total) for c in counts]


@settings(max_examples=60, deadline=None)
@given(pairs(st.sampled_from("xyz"), max_size=7))
def test_agreement_distribution_is_every_rearrangement_counted(ab):
    a, b = ab
    dist = es.agreement_distribution(a, b)
    assert dist == brute(a, b) and sum(dist) == 1
    d = sum(x == y for x, y in zip(a, b))
    assert es.kappa_p_value(a, b) == sum(brute(a, b)[d:])


@settings(max_examples=60, deadline=None)
@given(pairs(st.sampled_from([0, 1]), max_size=40))
def test_two_labels_two_sided_is_fishers_exact_test(ab):
    a, b = ab
    t = [[sum(x == i and y == j for x, y in zip(a, b)) for j in (0, 1)] for i in (0, 1)]
    assert float(es.kappa_p_value(a, b, "two-sided")) == pytest.approx(fisher_exact(t).pvalue, rel=1e-9)
    assert float(es.kappa_p_value(a, b)) == pytest.approx(fisher_exact(t, alternative="greater").pvalue, rel=1e-9)


def test_kappa_p_value_holds_its_level_exactly():
    """Over the exact reference distribution, P(p <= alpha) <= alpha for every alpha (the test is valid)."""
    a = list("xxxxyyyzzz")
    b = list("xxyyyyzzzx")
    dist = es.agreement_distribution(a, b)
    for alpha in (Fraction(1, 100), Fraction(1, 20), Fraction(1, 10), Fraction(1, 3)):
        size = sum(p for d, p in enumerate(dist) if sum(dist[d:]) <= alpha)
        assert size <= alpha


def test_monte_carlo_twin_agrees_with_the_exact_p_value():
    a = list("xxxxxyyyyzzzxxyyzz")
    b = list("xxxxyyyyzzzzxyyzzx")
    exact = float(es.kappa_p_value(a, b))
    mc = es.kappa_p_value_float(a, b, draws=40_000, seed=3)
    assert abs(mc - exact) < 4 * (exact * (1 - exact) / 40_000) ** 0.5 + 1 / 40_000


def test_the_kappa_paradox_and_gwet():
    """90% of items on one label: 80% agreement, kappa below zero, AC1 high (the paradox AC1 answers)."""
    a = ["y"] * 9 + ["n"]
    b = ["y"] * 8 + ["n", "y"]
    assert es.percent_agreement(a, b) == Fraction(4, 5) and es.cohen_kappa(a, b) < 0
    pi_y = Fraction(18, 20)
    pe = 2 * pi_y * (1 - pi_y)
    assert es.gwet_ac1(a, b) == (Fraction(4, 5) - pe) / (1 - pe) > Fraction(3, 4)


def test_bad_input_is_refused_by_name():
    for call, match in (
        (lambda: es.cohen_kappa([1], [1]), "at least 2"),
        (lambda: es.cohen_kappa([1, 2], [1]), "same length"),
        (lambda: es.cohen_kappa([1, None], [1, 2]), r"a\[1\] is missing"),
        (lambda: es.cohen_kappa([1, 1], [1, 1]), "undefined"),
        (lambda: es.fleiss_kappa([[1, 2], [1]]), "same number"),
        (lambda: es.fleiss_kappa([[1, 1], [1, 1]]), "undefined"),
        (lambda: es.krippendorff_alpha([[1, None], [2, None]]), "two or more ratings"),
        (lambda: es.krippendorff_alpha([[1, 1], [1, 1]]), "undefined"),
        (lambda: es.krippendorff_alpha([[1, "x"], [2, 2]], "interval"), "ratings"),
        (lambda: es.weighted_kappa([1, 2], [2, 1], "cubic"), "weights"),
        (lambda: es.kappa_p_value([1, 2], [2, 1], "less"), "alternative"),
        (lambda: es.gwet_ac1([1, 1], [1, 1]), "2 labels"),
        (lambda: es.agreement_distribution(list(range(500)) * 3, list(range(500)) * 3), "kappa_p_value_float"),
        (lambda: es.kappa_p_value_float([1, 2], [2, 1], draws=0), "draws"),
    ):
        with pytest.raises(ExactStatsError, match=match):
            call()


# --- the command line -----------------------------------------------------------------------------------


def ratings_file(tmp_path, rows, name="r.csv"):
    path = tmp_path / name
    path.write_text("item,rater,label\n" + "".join(f"{i},{r},{lab}\n" for i, r, lab in rows))
    return str(path)


def test_agreement_command_reports_the_library_values(tmp_path, capsys):
    from exactstats.cli import main

    rows = [
        (i, r, lab)
        for i, labs in enumerate(["AAA", "BBA", "TAT", "AA-", "B-B", "BBB", "ABA", "TTT"])
        for r, lab in zip(("ann", "bob", "gpt4"), labs)
        if lab != "-"
    ]
    path = ratings_file(tmp_path, rows)
    assert main(["agreement", path, "--json"]) == 0
    s = json.loads(capsys.readouterr().out)
    by_item = {}
    for i, r, lab in rows:
        by_item.setdefault(i, {})[r] = lab
    for p in s["pairs"]:
        x, y = p["raters"]
        shared = [i for i in by_item if x in by_item[i] and y in by_item[i]]
        a, b = [by_item[i][x] for i in shared], [by_item[i][y] for i in shared]
        assert p["kappa"] == str(es.cohen_kappa(a, b)) and p["kappa_p_exact"] == str(es.kappa_p_value(a, b))
        assert p["ac1"] == str(es.gwet_ac1(a, b)) and p["items"] == len(shared)
    matrix = [[by_item[i].get(r) for r in ("ann", "bob", "gpt4")] for i in by_item]
    assert s["krippendorff_alpha_nominal"] == str(es.krippendorff_alpha(matrix))
    assert s["fleiss_kappa"] is None  # two items have two ratings, the others three
    lo, hi = s["krippendorff_alpha_nominal_bootstrap95"]  # over items, seeded
    assert [lo, hi] == list(es.krippendorff_alpha_bootstrap_float(matrix, draws=1000)) and lo <= hi
    assert main(["agreement", path, "--json", "--bootstrap", "0"]) == 0
    assert json.loads(capsys.readouterr().out)["krippendorff_alpha_nominal_bootstrap95"] is None
    assert main(["agreement", path]) == 0
    assert "Agreement: 3 raters, 8 items" in capsys.readouterr().out


def test_agreement_command_refuses_bad_files(tmp_path, capsys):
    from exactstats.cli import main

    cases = {
        "single": ([(1, "a", "x"), (1, "b", "x"), (2, "a", "y")], [], "item '2' has one rating"),
        "label": ([(1, "a", "x"), (1, "b", "z")], ["--labels", "x,y"], "line 3: label 'z' is not one of x, y"),
        "overlap": ([(1, "a", "x"), (1, "b", "x"), (2, "c", "y"), (2, "d", "y")], [], "no two raters"),
        "ordinal": ([(1, "a", "x"), (1, "b", "x"), (2, "a", "1"), (2, "b", "2")], ["--ordinal"], "numeric labels"),
    }
    for name, (rows, extra, message) in cases.items():
        assert main(["agreement", ratings_file(tmp_path, rows, f"{name}.csv"), *extra]) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1, (name, err)
    twice = tmp_path / "twice.csv"
    twice.write_text("item,rater,label\n1,a,x\n1,a,y\n")
    assert main(["agreement", str(twice)]) == 2 and "labels item '1' twice" in capsys.readouterr().err
    kept = ratings_file(tmp_path, [(1, "a", "x"), (1, "b", "x"), (2, "a", "y"), (3, "a", "y"), (3, "b", "x")], "k.csv")
    assert main(["agreement", kept, "--drop-single", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["dropped_single"] == 1
    assert main(["agreement", str(tmp_path / "missing.csv")]) == 2 and "no such file" in capsys.readouterr().err


# --- a judge's bias, corrected --------------------------------------------------------------------------


def test_rogan_gladen_inverts_the_judges_errors():
    # true rate 2/3, sensitivity 17/20, specificity 9/10: the judge says positive on 2/3 * 17/20 + 1/3 * 1/10
    q = Fraction(2, 3) * Fraction(17, 20) + Fraction(1, 3) * Fraction(1, 10)
    assert es.rogan_gladen(int(q * 3000), 3000, 85, 15, 90, 10) == Fraction(2, 3)
    with pytest.raises(ExactStatsError, match="no better than chance"):
        es.rogan_gladen(50, 100, 5, 5, 5, 5)
    with pytest.raises(ExactStatsError, match="both people-positive and people-negative"):
        es.rogan_gladen(50, 100, 5, 0, 0, 0)
    with pytest.raises(ExactStatsError, match="judged_positive"):
        es.rogan_gladen(101, 100, 5, 1, 5, 1)
    assert es.rogan_gladen_interval_float(50, 100, 6, 4, 5, 5) == (0.0, 1.0)  # the box admits a chance-level judge


def test_rogan_gladen_interval_holds_its_coverage_where_the_uncorrected_one_does_not():
    """Simulated: true rate 0.3, sensitivity 0.85, specificity 0.9, 60 + 90 calibration items, 1,500 judged."""
    rng = np.random.default_rng(11)
    rate, se, sp, runs = 0.3, 0.85, 0.9, 800
    covered = naive = 0
    for _ in range(runs):
        tp = rng.binomial(60, se)
        tn = rng.binomial(90, sp)
        k = rng.binomial(1500, rate * se + (1 - rate) * (1 - sp))
        lo, hi = es.rogan_gladen_interval_float(int(k), 1500, int(tp), 60 - int(tp), int(tn), 90 - int(tn))
        covered += lo <= rate <= hi
        lo, hi = es.clopper_pearson_interval_float(int(k), 1500)  # the judge's own rate, uncorrected
        naive += lo <= rate <= hi
    assert covered / runs >= 0.95 - 3 * (0.05 * 0.95 / runs) ** 0.5
    assert naive / runs < 0.5  # the check above could fail: the uncorrected interval misses the true rate


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(["a", "b", "c"]), min_size=3, max_size=3), min_size=2, max_size=12),
    st.lists(st.lists(st.one_of(st.none(), st.integers(1, 4)), min_size=3, max_size=3), min_size=2, max_size=12),
)
def test_bootstrap_machinery_at_the_data_itself_is_the_exact_coefficient(fleiss_rows, alpha_rows):
    """One redraw that keeps every item once must give the exact value: the weighted sums are the formulas."""
    from exactstats.judges import (
        _alpha_from_weights,
        _alpha_terms,
        _fleiss_from_weights,
        _fleiss_terms,
        _pairable_units,
    )

    ones = lambda k: np.ones((1, k))  # noqa: E731
    try:
        exact = es.fleiss_kappa(fleiss_rows)
    except ValueError:
        exact = None
    if exact is not None:
        terms = _fleiss_terms(fleiss_rows)
        assert _fleiss_from_weights(terms, ones(len(fleiss_rows)))[0] == pytest.approx(float(exact), abs=1e-12)
    for level in ("nominal", "interval"):
        try:
            exact = es.krippendorff_alpha(alpha_rows, level)
        except ValueError:
            continue
        coincidences, delta = _alpha_terms(_pairable_units(alpha_rows, level), level)
        value = _alpha_from_weights(coincidences, delta, ones(len(coincidences)))[0]
        assert value == pytest.approx(float(exact), abs=1e-9)


def test_bootstrap_intervals_narrow_with_more_items():
    rng = np.random.default_rng(2)

    def rows(n):  # three raters who agree with a shared truth 80% of the time
        truth = rng.integers(0, 2, n)
        return [[t if rng.random() < 0.8 else 1 - t for _ in range(3)] for t in truth]

    small, large = rows(40), rows(640)
    for fn in (es.fleiss_kappa_bootstrap_float, es.krippendorff_alpha_bootstrap_float):
        lo_s, hi_s = fn(small, seed=1)
        lo_l, hi_l = fn(large, seed=1)
        assert (hi_l - lo_l) < (hi_s - lo_s) / 2.5  # about 1/sqrt(16) = 1/4 as wide
    exact = float(es.fleiss_kappa(large))
    lo, hi = es.fleiss_kappa_bootstrap_float(large, seed=1)
    assert lo < exact < hi and es.fleiss_kappa_bootstrap_float(large, seed=1) == (lo, hi)  # seeded: reproducible
    with pytest.raises(ValueError, match="draws"):
        es.fleiss_kappa_bootstrap_float(large, draws=0)
    with pytest.raises(ValueError, match="confidence"):
        es.krippendorff_alpha_bootstrap_float(large, confidence="1")
