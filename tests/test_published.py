"""Published results of strong models: the readers on the real files and on small synthetic copies.

The real files live in ../shared/data/real-evals (present in CI); the synthetic copies have the same
columns, so every rule (one answer key, null predictions wrong, pairing on shared ids, ties as ties,
raters kept) is checked on numbers we can count by hand.
"""

import json
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import exactstats as es
from exactstats.cli import main
from exactstats.report.published import (
    llmfao_battles,
    load_arena_pair_counts,
    load_llmfao,
    load_mmlu_pro,
    real_evals_dir,
)

REAL = Path(os.environ.get("EXACTSTATS_REAL_EVALS", Path(__file__).resolve().parents[2] / "shared/data/real-evals"))
real = pytest.mark.skipif(not REAL.is_dir(), reason="the published data are not on this machine")


def _mmlu_pro(tmp_path, rows):
    cols = ["model", "question_id", "category", "src", "pred", "answer_own", "answer_latest", "correct_latest"]
    df = pd.DataFrame(rows, columns=cols)
    path = tmp_path / "mmlu-pro-outputs.long.parquet"
    df.to_parquet(path)
    return path


def test_mmlu_pro_rules_on_a_synthetic_copy(tmp_path):
    rows = [
        # model, qid, category, src, pred, own key, latest key, correct_latest
        ("m1", 1, "law", "s", "A", "A", "A", 1),
        ("m1", 2, "law", "s", None, "B", "B", 0),  # no letter extracted: wrong
        ("m1", 3, "law", "s", "C", "C", "D", 0),  # the key changed: right by its own key, wrong by the latest
        ("m2", 1, "law", "s", "B", "A", "A", 0),
        ("m2", 2, "law", "s", "B", "B", "B", 1),
        ("m2", 3, "law", "s", "D", "D", "D", 1),
        ("m2", 4, "law", "s", "A", "A", "A", 1),  # only m2 answered question 4: not paired
    ]
    path = _mmlu_pro(tmp_path, rows)
    rs = load_mmlu_pro(path)
    assert rs.models == ["m1", "m2"] and rs.question_ids == ["1", "2", "3"] and rs.dropped == 1
    assert rs.correct.tolist() == [[1, 0, 0], [0, 1, 1]]
    assert rs.choices.tolist() == [[0, 10, 2], [1, 1, 3]]  # "no letter" is option 10, which no key holds
    assert any("null predictions" in n for n in rs.notes) and any("left out" in n for n in rs.notes)
    own = load_mmlu_pro(path, key="own")
    assert own.correct.tolist() == [[1, 0, 1], [0, 1, 1]] and own.answers is None
    assert load_mmlu_pro(path, models=["m2"]).question_ids == ["1", "2", "3", "4"]


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda d: load_mmlu_pro(d / "nowhere.parquet"), "no such file; it is derived from MMLU-Pro"),
        (lambda d: load_mmlu_pro(d / "wrong.parquet"), "missing columns"),
        (lambda d: load_mmlu_pro(d / "mmlu-pro-outputs.long.parquet", key="newest"), "key must be one of"),
        (lambda d: load_mmlu_pro(d / "mmlu-pro-outputs.long.parquet", models=["gpt-5"]), "unknown: gpt-5"),
        (lambda d: load_mmlu_pro(d / "disjoint.parquet"), "no question is shared"),
        (lambda d: load_arena_pair_counts(d / "nowhere.parquet"), "leaderbot==0.4.3"),
        (lambda d: load_arena_pair_counts(d / "wrong.parquet"), "missing columns"),
        (lambda d: load_llmfao(d, judge="claude"), "judge must be one of"),
        (lambda d: load_llmfao(d / "llmfao"), "no such file"),
        (lambda d: real_evals_dir(d / "nowhere"), "no such folder"),
    ],
)
def test_hostile_published_inputs(tmp_path, call, match):
    _mmlu_pro(tmp_path, [("m1", 1, "law", "s", "A", "A", "A", 1), ("m2", 1, "law", "s", "A", "A", "A", 1)])
    pd.DataFrame({"model": ["a"], "x": [1]}).to_parquet(tmp_path / "wrong.parquet")
    cols = ["model", "question_id", "category", "src", "pred", "answer_own", "answer_latest", "correct_latest"]
    pd.DataFrame(
        [("m1", 1, "c", "s", "A", "A", "A", 1), ("m2", 2, "c", "s", "A", "A", "A", 1)], columns=cols
    ).to_parquet(tmp_path / "disjoint.parquet")
    (tmp_path / "llmfao").mkdir()
    with pytest.raises(es.ExactStatsError, match=match):
        call(tmp_path)


def test_pair_counts_keep_ties_as_ties(tmp_path):
    df = pd.DataFrame(
        {
            "model_a": ["x", "x"],
            "model_b": ["y", "z"],
            "wins_a": [3, 0],
            "wins_b": [1, 2],
            "tie": [2, 0],
            "tie_bothbad": [1, 0],
        }
    )
    df.to_parquet(tmp_path / "counts.parquet")
    c = load_arena_pair_counts(tmp_path / "counts.parquet")
    x, y = c.index("x"), c.index("y")
    assert (c.beats[x][y], c.beats[y][x], c.ties[x][y]) == (3, 1, 3) and es.battles_in(c) == 9
    # the same battles one by one give the same counts and the same fit
    battles = (
        [("x", "y", "model_a")] * 3 + [("x", "y", "model_b")] + [("x", "y", "tie")] * 3 + [("x", "z", "model_b")] * 2
    )
    assert es.battle_counts(battles, "exclude").beats == c.beats


def test_arena_from_counts_equals_arena_from_battles(capsys, tmp_path):
    """The counts path (no battle list) gives the battles path's ratings and intervals."""
    rng = np.random.default_rng(3)
    models = ["a", "b", "c", "d"]
    battles = []
    for _ in range(400):
        i, j = rng.choice(4, 2, replace=False)
        battles.append((models[i], models[j], rng.choice(["model_a", "model_b", "tie"], p=[0.45, 0.35, 0.2])))
    from exactstats.report.arena_report import arena_summary

    by_battles = arena_summary(battles)
    raw = es.battle_counts(battles, "exclude")
    by_counts = arena_summary(raw)
    for e1, e2 in zip(by_battles.leaderboard, by_counts.leaderboard):
        assert e1.model == e2.model and e1.rating == pytest.approx(e2.rating, abs=1e-9)
        assert e1.sandwich95 == pytest.approx(e2.sandwich95, abs=1e-9)
    assert by_battles.battles == by_counts.battles == 400


def test_llmfao_as_battles_with_raters(tmp_path):
    folder = tmp_path / "llmfao"
    folder.mkdir()
    (folder / "crowd-comparisons.csv").write_text(
        "id,prompt,model_x,model_y,worker,winner,left,right\n0,8,1,2,58,left,A,B\n0,8,1,2,83,tie,A,B\n1,3,2,1,58,right,B,A\n"
    )
    j = load_llmfao(folder)
    assert j["rater"].tolist() == ["58", "83", "58"] and j["winner"].tolist() == ["model_a", "tie", "model_b"]
    assert llmfao_battles(j)[2] == ("B", "A", "model_b")
    (folder / "crowd-comparisons.csv").write_text(
        "id,prompt,model_x,model_y,worker,winner,left,right\n0,8,1,2,58,up,A,B\n"
    )
    with pytest.raises(es.ExactStatsError, match="row 2: winner must be left, right or tie"):
        load_llmfao(folder)


@real
def test_the_real_files_load_as_documented():
    rs = load_mmlu_pro(REAL)
    assert rs.correct.shape == (31, 10225) and rs.dropped == 1807
    acc = dict(zip(rs.models, rs.correct.mean(axis=1)))
    assert max(acc, key=acc.get) == "gpt-4o-2024-05-13"
    counts = load_arena_pair_counts(REAL)
    assert len(counts.models) == 129 and es.battles_in(counts) == 1_670_250
    crowd = load_llmfao(REAL)
    assert len(crowd) == 8931 and crowd["rater"].nunique() == 124
    assert len(load_llmfao(REAL, "gpt4")) == len(load_llmfao(REAL, "gpt3")) > 0


@real
def test_the_cli_reproduces_the_tables(capsys):
    assert main(["report", str(REAL / "mmlu-pro-outputs.long.parquet"), "--intersect", "--json", "--draws", "20"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["leaderboard"][0]["model"] == "gpt-4o-2024-05-13" and len(r["leaderboard"]) == 31
    assert main(["arena", str(REAL / "chatbot-arena-20240814.paircounts.parquet"), "--json"]) == 0
    a = json.loads(capsys.readouterr().out)
    assert a["battles"] == 1_670_250 and a["models"] == 129 and a["certificate"]["max_score_residual"] < 1e-6
