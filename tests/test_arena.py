"""Arenas: Bradley-Terry against a brute-force maximiser and the logistic fit FastChat uses, Elo against
FastChat's published update, the existence condition, and the CLI."""

import json
import math
from collections import defaultdict
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import exactstats as es
from exactstats.arena import (
    battle_counts,
    bradley_terry_float,
    bt_certificate,
    bt_covariance_float,
    bt_mle_exists,
    elo_ratings_float,
    elo_replay_exact,
    rank_intervals_float,
    sign_test,
)
from exactstats.cli import main


def random_battles(seed, models=4, n=200, tie_share=0.1):
    rng = np.random.default_rng(seed)
    g = np.exp(rng.normal(size=models))
    names = [f"m{i}" for i in range(models)]
    out = []
    for _ in range(n):
        i, j = rng.choice(models, 2, replace=False)
        u = rng.random()
        winner = "tie" if u < tie_share else ("model_a" if rng.random() < g[i] / (g[i] + g[j]) else "model_b")
        out.append((names[i], names[j], winner))
    return out


def loglik(theta, counts):
    k = len(theta)
    return sum(
        float(counts.wins[i][j]) * -math.log1p(math.exp(theta[j] - theta[i]))
        for i in range(k)
        for j in range(k)
        if i != j
    )


def test_bt_equals_a_brute_force_maximiser():
    from scipy.optimize import minimize

    for seed in range(3):
        counts = battle_counts(random_battles(seed, models=3, n=60))
        if not bt_mle_exists(counts):
            continue
        fit = bradley_terry_float(counts)
        best = minimize(
            lambda t, counts=counts: -loglik(np.r_[0.0, t], counts),
            np.zeros(2),
            method="Nelder-Mead",
            options={"xatol": 1e-10, "fatol": 1e-12, "maxiter": 20000},
        )
        ref = np.r_[0.0, best.x]
        assert fit.theta - fit.theta[0] == pytest.approx(ref - ref[0], abs=1e-5)


def fastchat_logistic(battles, models):
    """FastChat's route (compute_mle_elo): every battle duplicated, a tie made one win for each side, then a
    logistic regression without intercept."""
    import statsmodels.api as sm

    rows, ys = [], []
    for a, b, w in battles:
        x = np.zeros(len(models))
        x[models.index(a)], x[models.index(b)] = 1.0, -1.0
        outcomes = [1.0, 1.0] if w == "model_a" else [0.0, 0.0] if w == "model_b" else [1.0, 0.0]
        for y in outcomes:
            rows.append(x)
            ys.append(y)
    X = np.array(rows)[:, 1:]  # anchor the first model at 0
    fit = sm.Logit(np.array(ys), X).fit(disp=0, method="newton", tol=1e-12, maxiter=200)
    return np.r_[0.0, fit.params]


@given(st.integers(0, 10_000))
def test_bt_equals_the_logistic_fit(seed):
    battles = random_battles(seed, models=4, n=150)
    counts = battle_counts(battles)
    if not bt_mle_exists(counts):
        return  # statsmodels would not converge either; existence is tested on its own below
    fit = bradley_terry_float(counts)
    ref = fastchat_logistic(battles, counts.models)
    assert fit.theta - fit.theta[0] == pytest.approx(ref - ref[0], abs=1e-6)


@given(st.integers(0, 10_000), st.integers(2, 5))
def test_scale_invariance_and_name_permutation(seed, times):
    battles = random_battles(seed, models=4, n=80)
    counts = battle_counts(battles)
    assume(bt_mle_exists(counts))  # no estimate to compare otherwise: Hypothesis draws another case
    fit = bradley_terry_float(counts)
    bigger = bradley_terry_float(battle_counts(battles * times))
    assert bigger.theta == pytest.approx(fit.theta, abs=1e-7)
    renamed = {m: f"z{9 - i}" for i, m in enumerate(counts.models)}  # reverses the alphabetical order
    moved = bradley_terry_float(battle_counts([(renamed[a], renamed[b], w) for a, b, w in battles]))
    for m, r in fit.ratings().items():
        assert moved.ratings()[renamed[m]] == pytest.approx(r, abs=1e-6)


def fastchat_online_elo(battles, K=4, SCALE=400, BASE=10, INIT_RATING=1000):
    """FastChat's compute_online_elo, written out from its published formula."""
    rating = defaultdict(lambda: INIT_RATING)
    for model_a, model_b, winner in battles:
        ra, rb = rating[model_a], rating[model_b]
        ea = 1 / (1 + BASE ** ((rb - ra) / SCALE))
        eb = 1 / (1 + BASE ** ((ra - rb) / SCALE))
        sa = 1 if winner == "model_a" else 0 if winner == "model_b" else 0.5
        rating[model_a] += K * (sa - ea)
        rating[model_b] += K * (1 - sa - eb)
    return dict(rating)


def test_elo_matches_fastchat_and_depends_on_order():
    battles = random_battles(1, models=5, n=300)
    ours = elo_ratings_float(battles)
    ref = fastchat_online_elo(battles)
    assert ours == pytest.approx(ref, abs=1e-9)
    assert elo_ratings_float(battles[::-1]) != pytest.approx(ours, abs=1e-6)


def test_exact_replay_shows_order_dependence_exactly():
    import sympy

    battles = [("a", "b", "model_a"), ("b", "c", "model_a"), ("c", "a", "model_a")]
    one = elo_replay_exact(battles)
    other = elo_replay_exact(battles[::-1])
    first = elo_replay_exact(battles[:1])
    assert first["a"] == 1002 and first["b"] == 998  # a battle between equals: exact rationals
    assert sympy.simplify(one["a"] - other["a"]) != 0  # the orders end differently, proved symbolically
    assert float(one["a"]) == pytest.approx(elo_ratings_float(battles)["a"], abs=1e-9)
    with pytest.raises(es.ExactStatsError, match="elo_ratings_float"):
        elo_replay_exact(battles * 5)


def test_existence_condition_and_its_error():
    chain = [("a", "b", "model_a"), ("b", "c", "model_a"), ("c", "b", "model_a")]
    counts = battle_counts(chain)
    assert not bt_mle_exists(counts)
    with pytest.raises(es.ExactStatsError, match=r"no model outside \{a\}"):
        bradley_terry_float(counts)
    assert bt_mle_exists(battle_counts(chain + [("b", "a", "model_a")]))
    # a tie credits half a win both ways, so it connects the graph under the fair rule only
    tied = [("a", "b", "model_a"), ("a", "b", "tie")]
    assert bt_mle_exists(battle_counts(tied)) and not bt_mle_exists(battle_counts(tied, ties="exclude"))


def test_sign_test_is_the_exact_binomial_test():
    from scipy.stats import binomtest

    battles = [("a", "b", "model_a")] * 14 + [("b", "a", "model_a")] * 5 + [("a", "b", "tie")] * 3
    counts = battle_counts(battles)
    assert float(sign_test(counts, "a", "b")) == pytest.approx(binomtest(14, 19).pvalue, rel=1e-12)
    assert float(sign_test(counts, "a", "b", ties="fair")) == pytest.approx(binomtest(15, 21).pvalue, rel=1e-12)


def test_certificate_residuals_are_exact_and_small():
    counts = battle_counts(random_battles(4, models=5, n=400))
    cert = bt_certificate(counts, bradley_terry_float(counts))
    assert all(isinstance(r, Fraction) for r in cert.residuals)
    assert sum(cert.residuals) == 0  # total wins equal total expected wins at any strengths
    assert cert.max_residual < Fraction(1, 10**5) and cert.newton_step < 1e-6
    rough = bradley_terry_float(counts, tol=1e-2)
    assert bt_certificate(counts, rough, denominator=10).max_residual > cert.max_residual


def test_rank_intervals_and_covariances():
    battles = random_battles(7, models=4, n=2000, tie_share=0.0)
    counts = battle_counts(battles)
    fit = bradley_terry_float(counts)
    model, sandwich = (bt_covariance_float(battles, fit, kind=k) for k in ("model", "sandwich"))
    assert np.allclose(model.sum(axis=1), 0, atol=1e-9)  # centred: the all-equal direction carries no variance
    assert np.diag(sandwich) == pytest.approx(np.diag(model), rel=0.3)  # the model is right: both agree roughly
    ranks = rank_intervals_float(fit, sandwich)
    order = sorted(fit.models, key=lambda m: -fit.ratings()[m])
    assert ranks[order[0]][0] == 1 and all(lo <= hi for lo, hi in ranks.values())


def test_cli_arena(tmp_path, capsys):
    path = tmp_path / "b.csv"
    path.write_text("model_a,model_b,winner\n" + "\n".join(",".join(b) for b in random_battles(3, n=300)) + "\n")
    assert main(["arena", str(path), "--bootstrap", "30", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["models"] == 4 and len(out["leaderboard"]) == 4 and out["mle_exists"]
    ratings = [e["rating"] for e in out["leaderboard"]]
    assert ratings == sorted(ratings, reverse=True) and np.mean(ratings) == pytest.approx(1000)
    assert main(["arena", str(path), "--out", str(tmp_path / "arena.html")]) == 0
    text = capsys.readouterr().out  # Markdown from the report's one renderer, the same blocks as the HTML
    best = out["leaderboard"][0]["model"]
    assert text.startswith("# Arena: 4 models, 300 battles") and f"| 1 | {best} |" in text
    page = (tmp_path / "arena.html").read_text()
    assert "<h2>Pairwise sign tests" in page and page.count("<img") == 1 and f"<td>{best}</td>" in page
    assert main(["arena", str(path), "--out", str(path)]) == 2  # never overwrites its input
    assert path.read_text().startswith("model_a,model_b,winner") and "overwrite" in capsys.readouterr().err
    for bad, content in {
        "self": "model_a,model_b,winner\na,a,model_a\n",
        "label": "model_a,model_b,winner\na,b,win\n",
        "empty": "",
        "columns": "x,y\n1,2\n",
        "disconnected": "model_a,model_b,winner\na,b,model_a\nb,c,model_a\n",
    }.items():
        p = tmp_path / f"{bad}.csv"
        p.write_text(content)
        assert main(["arena", str(p)]) == 2, bad
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1, (bad, err)
    assert main(["arena", str(path), "--anchor", "nobody"]) == 2


def test_counts_read_as_columns_equal_the_battle_by_battle_counts(tmp_path):
    from exactstats.report.battles import read_arena_counts, read_battles

    rng = np.random.default_rng(3)
    rows = ["model_a,model_b,winner"]
    for _ in range(2000):
        a, b = rng.choice(6, 2, replace=False)
        rows.append(f"m{a},m{b},{rng.choice(['model_a', 'model_b', 'tie', 'tie (bothbad)'])}")
    path = tmp_path / "b.csv"
    path.write_text("\n".join(rows) + "\n")
    fast, slow = read_arena_counts(path), es.battle_counts(read_battles(path), "exclude")
    assert (fast.models, fast.wins, fast.ties, fast.beats) == (slow.models, slow.wins, slow.ties, slow.beats)
    for bad, message in [("x,x,model_a", "row 3: model 'x' plays itself"), ("x,y,win", "row 3: winner must be")]:
        path.write_text(f"model_a,model_b,winner\na,b,tie\n{bad}\n")
        for reader in (read_arena_counts, read_battles):
            with pytest.raises(ValueError, match=message.replace("(", r"\(")):
                reader(path)
