"""A judge's bias corrected: prediction-powered inference against ppi_py, and coverage by simulation."""

import json
import sys
import types
from fractions import Fraction

import numpy as np
import pytest

import exactstats as es


@pytest.fixture(scope="module")
def ppi_py():
    """ppi_py 0.2.3 imported with numba and scikit-learn stubbed: the mean functions use neither."""
    saved = {k: sys.modules.get(k) for k in ("numba", "sklearn", "sklearn.linear_model", "sklearn.isotonic")}
    numba = types.ModuleType("numba")
    numba.njit = lambda *a, **k: a[0] if a and callable(a[0]) else (lambda f: f)
    sklearn, linear, isotonic = (types.ModuleType(n) for n in ("sklearn", "sklearn.linear_model", "sklearn.isotonic"))
    linear.LogisticRegression = linear.PoissonRegressor = linear.LinearRegression = object
    isotonic.IsotonicRegression = object
    sys.modules.update(
        {"numba": numba, "sklearn": sklearn, "sklearn.linear_model": linear, "sklearn.isotonic": isotonic}
    )
    try:
        import ppi_py

        yield ppi_py
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v


def labels(rng, n, big_n, rate=0.6, miss=0.1, false_alarm=0.05):
    """People's labels and a judge that misses ``miss`` of the positives and flags ``false_alarm`` of the negatives."""
    y = (rng.random(n + big_n) < rate).astype(int)
    flip = np.where(y == 1, rng.random(n + big_n) < miss, rng.random(n + big_n) < false_alarm)
    f = np.where(flip, 1 - y, y)
    return y[:n], f[:n], f[n:], y[n:]


@pytest.mark.parametrize("seed", range(5))
def test_ppi_matches_ppi_py(ppi_py, seed):
    rng = np.random.default_rng(seed)
    y, f, u, _ = labels(rng, 60 + 20 * seed, 2000)
    assert float(es.ppi_mean(y, f, u)) == pytest.approx(ppi_py.ppi_mean_pointestimate(y, f, u, lam=1)[0], abs=1e-12)
    lo, hi = es.ppi_mean_interval_normal_float(y, f, u, confidence="0.9")
    ref = ppi_py.ppi_mean_ci(y, f, u, alpha=0.1, lam=1)
    assert (lo, hi) == pytest.approx((float(ref[0][0]), float(ref[1][0])), abs=1e-9)


def test_ppi_estimate_is_exact_and_unbiased():
    """E[estimate] = the true rate, summed exactly over every outcome of two labelled items and one unlabelled."""
    p10, p01, q = (
        Fraction(1, 5),
        Fraction(1, 10),
        Fraction(1, 2),
    )  # P(human 1, judge 0), P(human 0, judge 1), judge rate
    p11 = q - p01
    cells = {(1, 0): p10, (0, 1): p01, (1, 1): p11, (0, 0): 1 - p10 - p01 - p11}
    mean = Fraction(0)
    for a in cells:
        for b in cells:
            for u in (0, 1):
                chance = cells[a] * cells[b] * (q if u else 1 - q)
                mean += chance * es.ppi_mean([a[0], b[0]], [a[1], b[1]], [u])
    assert mean == q + p10 - p01 == p10 + p11  # the rate people would give


def test_the_union_bound_interval_holds_its_coverage_where_the_normal_one_falls_short():
    rng = np.random.default_rng(11)
    runs, covered, covered_normal = 400, 0, 0
    for _ in range(runs):  # few labels and rare disagreements: where the normal interval is too short
        y, f, u, rest = labels(rng, 25, 3000, rate=0.9, miss=0.02, false_alarm=0.3)
        truth = 0.9
        lo, hi = es.ppi_mean_interval_float(y, f, u)
        covered += lo <= truth <= hi
        nlo, nhi = es.ppi_mean_interval_normal_float(y, f, u)
        covered_normal += nlo <= truth <= nhi
    assert covered / runs >= 0.95
    assert covered_normal / runs < 0.93  # the normal approximation misses more than it says


def test_the_planner_reaches_its_width():
    rng = np.random.default_rng(3)
    n = es.ppi_labels_needed_float("0.03", "0.6", "0.05", "0.03", 5000)
    widths = []
    for _ in range(200):
        y, f, u, _ = labels(rng, n, 5000, rate=0.6, miss=0.05 / 0.6, false_alarm=0.03 / 0.4)
        lo, hi = es.ppi_mean_interval_normal_float(y, f, u)
        widths.append((hi - lo) / 2)
    assert np.mean(widths) == pytest.approx(0.03, rel=0.05)
    alone = es.z_value_float() ** 2 * 0.6 * 0.4 / 0.03**2
    assert n < alone / 2  # a good judge halves (here more than halves) the human labels needed
    with pytest.raises(ValueError, match="half_width must exceed"):
        es.ppi_labels_needed_float("0.001", "0.5", "0.05", "0.05", 1000)
    assert es.ppi_labels_needed_float("0.05", "0.5", "0", "0", 10_000) == 1  # a perfect judge


@pytest.mark.parametrize(
    "call, names",
    [
        (lambda: es.ppi_mean([1, 0], [1], [1]), "human and judge_labelled must label the same items"),
        (lambda: es.ppi_mean([], [], [1]), "ppi needs labelled and unlabelled items"),
        (lambda: es.ppi_mean([1, 2], [1, 0], [1]), "human must hold only 0 and 1"),
        (lambda: es.ppi_mean_interval_float([1], [1], [], confidence="0.9"), "ppi needs labelled and unlabelled"),
        (lambda: es.ppi_mean_interval_normal_float([1], [0], [1], confidence="1"), "confidence must lie in"),
        (lambda: es.ppi_labels_needed_float("0.02", "0.5", "0.6", "0.6", 100), "human_only_rate \\+ judge_only_rate"),
    ],
)
def test_bad_input_is_named(call, names):
    with pytest.raises(ValueError, match=names):  # the argument named, not any ValueError
        call()


def write(path, rows):
    path.write_text("item,label\n" + "".join(f"{i},{label}\n" for i, label in rows))
    return str(path)


def test_judge_correct_cli_reports_every_estimate(tmp_path, capsys):
    from exactstats.cli import main

    rng = np.random.default_rng(5)
    y, f, u, _ = labels(rng, 120, 1500)
    judge = write(tmp_path / "j.csv", [(f"q{i}", "yes" if v else "no") for i, v in enumerate(list(f) + list(u))])
    human = write(tmp_path / "h.csv", [(f"q{i}", "yes" if v else "no") for i, v in enumerate(y)])
    assert main(["judge-correct", "--human", human, "--judge", judge, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["human_labelled"] == 120 and out["judge_only"] == 1500 and out["positive"] == "yes"
    by = {(e["method"], e["guarantee"].split(":")[0]): e for e in out["estimates"]}
    ppi = by[("prediction-powered", "union bound")]
    assert Fraction(ppi["estimate_exact"]) == es.ppi_mean(y, f, u)
    assert ppi["interval"] == pytest.approx(list(es.ppi_mean_interval_float(y, f, u)))
    normal = by[("prediction-powered", "normal approximation (as ppi_py)")]
    assert normal["interval"] == pytest.approx(list(es.ppi_mean_interval_normal_float(y, f, u)))
    tp, fn = int(((y == 1) & (f == 1)).sum()), int(((y == 1) & (f == 0)).sum())
    tn, fp = int(((y == 0) & (f == 0)).sum()), int(((y == 0) & (f == 1)).sum())
    rg = by[("Rogan-Gladen", "union bound over Clopper-Pearson boxes")]
    assert Fraction(rg["estimate_exact"]) == es.rogan_gladen(int(u.sum()), len(u), tp, fn, tn, fp)
    assert out["kappa"] == pytest.approx(float(es.cohen_kappa(list(y), list(f))))
    assert main(["judge-correct", "--human", human, "--judge", judge]) == 0
    text = capsys.readouterr().out
    assert text.startswith("# Judge correction: 1620 items, 120 labelled by people too") and "| Rogan-Gladen |" in text


@pytest.mark.parametrize(
    "human, judge, extra, message",
    [
        ([("a", "1"), ("z", "0")], [("a", "1"), ("b", "0")], [], "have no judge label"),
        ([("a", "1"), ("a", "0")], [("a", "1"), ("b", "0")], [], "again (first on line 2)"),
        ([("a", "1")], [("a", "1"), ("b", "0"), ("c", "maybe")], [], "two values"),
        ([("a", "good")], [("a", "good"), ("b", "bad")], [], "--positive"),
        ([("a", "good")], [("a", "good"), ("b", "bad")], ["--positive", "fine"], "not one of the labels"),
        ([("a", "1"), ("b", "0")], [("a", "1"), ("b", "0")], [], "nothing to correct"),
        ([("a", "1")], [("a", "1"), ("b", "0")], ["--confidence", "2"], "confidence"),
    ],
)
def test_judge_correct_refusals_are_one_line(tmp_path, capsys, human, judge, extra, message):
    from exactstats.cli import main

    h, j = write(tmp_path / "h.csv", human), write(tmp_path / "j.csv", judge)
    assert main(["judge-correct", "--human", h, "--judge", j, *extra]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0], err
