import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import exactstats as es
from exactstats.report.analysis import analyse as analyse_typed
from exactstats.report.importers import load_results
from exactstats.report.render import to_html, to_markdown


def analyse(rs, **kw):
    """The report as the JSON it prints (plain dicts and lists)."""
    return analyse_typed(rs, **kw).to_json()


ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def wide_csv(path, matrix, models=None, ids=None):
    matrix = np.asarray(matrix)
    models = models or [f"m{i}" for i in range(matrix.shape[0])]
    ids = ids or [f"q{j}" for j in range(matrix.shape[1])]
    df = pd.DataFrame(matrix, columns=ids)
    df.insert(0, "model", models)
    df.to_csv(path, index=False)
    return path


def test_wide_and_long_give_the_same_report(tmp_path):
    rng = np.random.default_rng(0)
    C = (rng.random((4, 300)) < np.array([[0.7], [0.6], [0.58], [0.4]])).astype(int)
    wide = wide_csv(tmp_path / "w.csv", C)
    long = pd.DataFrame(
        [{"model": f"m{i}", "question_id": f"q{j}", "correct": int(C[i, j])} for i in range(4) for j in range(300)]
    )
    long.to_parquet(tmp_path / "l.parquet")
    a = analyse(load_results([str(wide)]), draws=200)
    b = analyse(load_results([str(tmp_path / "l.parquet")]), draws=200)
    assert a["leaderboard"] == b["leaderboard"] and a["adjacent_pairs"] == b["adjacent_pairs"]
    # numbers match the exact functions
    top = a["leaderboard"][0]
    assert top["model"] == "m0" and Fraction(top["accuracy_exact"]) == Fraction(int(C[0].sum()), 300)
    pair = a["adjacent_pairs"][0]
    bb, cc = es.discordance(C[0], C[1])
    assert (pair["b"], pair["c"]) == (bb, cc) and pair["p"] == pytest.approx(
        float(es.mcnemar_p_value(bb, cc)), rel=1e-9
    )
    assert a["tiers"][0][0] == "m0" and a["tiers"][-1][-1] == "m3"


@pytest.mark.skipif(not (ROOT / "data" / "shuffled-2000.matrix.parquet").exists(), reason="no shipped dataset")
def test_golden_on_the_shipped_dataset(tmp_path):
    """The report's numbers equal the book's computations on the same panel."""
    panel = es.load_panel("shuffled").ranked()
    C = panel.correct()
    rows = panel.long[panel.long["model"].isin(panel.models)]  # the models with every question
    rows.to_parquet(tmp_path / "panel.parquet")
    r = analyse(load_results([str(tmp_path / "panel.parquet")]), draws=200)
    complete = r["leaderboard"]
    assert r["questions"] == C.shape[1]
    assert [e["model"] for e in r["leaderboard"]] == panel.models
    for e, row in zip(complete, C):
        assert Fraction(e["accuracy_exact"]) == Fraction(int(row.sum()), C.shape[1])
        assert e["wilson95"] == pytest.approx(es.wilson_interval(int(row.sum()), C.shape[1]).as_floats(), abs=1e-12)
    for a, (i, j) in zip(r["adjacent_pairs"], zip(range(len(C) - 1), range(1, len(C)))):
        b, c = es.discordance(C[i], C[j])
        assert a["p"] == pytest.approx(float(es.mcnemar_p_value(b, c)), rel=1e-9)
    if len(C) >= 2:
        assert r["phi"]["mean"] == pytest.approx(es.mean_phi_float(1 - C), abs=1e-12)
        assert r["majority_vote"]["exact"] == str(
            es.majority_vote_accuracy(panel.choices(), panel.questions["answer"].to_numpy())
        )


@pytest.mark.parametrize(
    "content, match",
    [
        ("", "empty file"),
        ("model,q0,q1\nm0,1,0\nm1,1,\n", r"row 3 \(model m1\): ragged matrix"),
        ("model,q0,q1\nm0,1,0\nm1,1,2\n", r"row 3, question 'q1': correctness must be 0 or 1, got 2"),
        ("model,q0,q1\nm0,1,0\nm0,1,1\n", "appears twice"),
        ("model\nm0\n", "no question columns"),
        ("a,b\n1,2\n", "needs a 'model' column"),
    ],
)
def test_bad_tables(tmp_path, content, match):
    p = tmp_path / "bad.csv"
    p.write_text(content)
    with pytest.raises(es.ExactStatsError, match=match) as err:
        load_results([str(p)])
    assert "bad.csv" in str(err.value) or "appears twice" in str(err.value)


def test_long_table_errors(tmp_path):
    p = tmp_path / "long.csv"
    p.write_text("model,question_id,correct\nm0,a,1\nm0,a,0\n")
    with pytest.raises(es.ExactStatsError, match="question id 'a' appears twice for model 'm0'"):
        load_results([str(p)])
    p.write_text("model,question_id,correct\nm0,a,1\nm0,b,0\nm1,a,1\n")
    with pytest.raises(es.ExactStatsError, match="question sets differ.*--intersect"):
        load_results([str(p)])
    rs = load_results([str(p)], intersect=True)
    assert rs.dropped == 1 and rs.question_ids == ["a"]
    p.write_text("model,question_id,correct\nm0,a,0.5\n")
    with pytest.raises(es.ExactStatsError, match=r"long.csv, row 2 \(model m0\): correctness must be 0 or 1"):
        load_results([str(p)])


def test_cli_report_html_json_and_errors(tmp_path):
    rng = np.random.default_rng(1)
    C = (rng.random((3, 200)) < 0.6).astype(int)
    wide = wide_csv(tmp_path / "w.csv", C)
    out = tmp_path / "r.html"
    r = subprocess.run(
        [sys.executable, "-m", "exactstats", "report", str(wide), "--out", str(out), "--json", "--draws", "100"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["models"] == 3 and len(data["adjacent_pairs"]) == 2
    page = out.read_text()
    assert (
        page.startswith("<!doctype html>")
        and page.count("<svg") == 3
        and "data:image/png;base64," in page  # the heatmap's cells
        and "http" not in page.split("<body>")[0]
    )
    bad = subprocess.run(
        [sys.executable, "-m", "exactstats", "report", str(tmp_path / "missing.csv")],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and "no such file" in bad.stderr


def test_lm_eval_logs_written_by_lm_eval():
    files = sorted(str(p) for p in (FIXTURES / "lm-eval").glob("*/samples_*.jsonl"))
    rs = load_results(files)
    assert rs.models == ["tiny-a", "tiny-b"] and rs.correct.shape == (2, 24)
    raw = [json.loads(line) for line in Path(files[0]).read_text().splitlines()]
    assert rs.correct[0].tolist() == [int(r["acc"]) for r in raw]
    assert rs.question_ids[0] == "tinymc/0"
    r = analyse(rs, draws=100)
    assert r["adjacent_pairs"][0]["p"] == pytest.approx(
        float(es.mcnemar_p_value(r["adjacent_pairs"][0]["b"], r["adjacent_pairs"][0]["c"])), rel=1e-9
    )
    named = load_results([f"first={files[0]}", f"second={files[1]}"])
    assert named.models == ["first", "second"]
    with pytest.raises(es.ExactStatsError, match="no metric 'acc_norm'"):
        load_results(files, metric="acc_norm")


def test_inspect_logs_written_by_inspect():
    a, b, c = (FIXTURES / "inspect" / n for n in ("mock-a.json", "mock-b.json", "mock-c.eval"))
    with pytest.raises(es.ExactStatsError, match="appears twice"):
        load_results([str(a), str(b)])  # both logs say mockllm/model
    rs = load_results([f"a={a}", f"b={b}", f"c={c}"])
    assert rs.correct.shape == (3, 12)
    # the mock models answered fixed letters; the keys cycle A, B, C, D
    index = [int(q.split("/q")[1]) for q in rs.question_ids]  # logs list samples in id order as strings
    for row, answers in zip(rs.correct, ["ABCDABCDAAAA", "ABBBABCCDDDA", "AAAAAAAAAAAA"]):
        assert row.tolist() == [int(answers[i] == "ABCD"[i % 4]) for i in index]


def test_inspect_and_lm_eval_bad_files(tmp_path):
    p = tmp_path / "samples_x.jsonl"
    p.write_text('{"doc_id": 0, "acc": 1.0}\n{"doc_id": 1, "acc": 0.5}\n')
    with pytest.raises(es.ExactStatsError, match=r"samples_x.jsonl, line 2: correctness must be 0 or 1"):
        load_results([str(p)])
    q = tmp_path / "log.json"
    q.write_text(json.dumps({"eval": {"model": "m", "task": "t"}, "samples": []}))
    with pytest.raises(es.ExactStatsError, match="holds no samples"):
        load_results([str(q)])
    q.write_text("{}")
    with pytest.raises(es.ExactStatsError, match="not an Inspect log"):
        load_results([str(q)])


def test_markdown_and_html_say_the_same_things(tmp_path):
    rng = np.random.default_rng(2)
    C = (rng.random((3, 150)) < np.array([[0.8], [0.6], [0.55]])).astype(int)
    report = analyse_typed(load_results([str(wide_csv(tmp_path / "w.csv", C, models=["a|b", "c", "d"]))]), draws=50)
    md, page = to_markdown(report), to_html(report)
    assert "a\\|b" in md  # a '|' in a model name does not break the table
    for e in report.leaderboard:
        assert f"{e.accuracy:.4f}" in md and f"{e.accuracy:.4f}" in page
    for tier in report.tiers:
        assert ", ".join(tier) in md
    assert page.count("<table>") == md.count("\n|---") == 2


def test_draws_must_be_positive(tmp_path):
    rs = load_results([str(wide_csv(tmp_path / "w.csv", [[1, 0, 1], [0, 0, 1]]))])
    with pytest.raises(es.ExactStatsError, match="draws must be >= 1"):
        analyse_typed(rs, draws=0)


@pytest.mark.parametrize("seed", range(6))
def test_screened_decisions_equal_all_exact(seed):
    """Holm over all pairs from float p-values (exact near the thresholds) decides as Holm on exact p-values."""
    rng = np.random.default_rng(seed)
    k, q = int(rng.integers(3, 9)), int(rng.integers(50, 400))
    C = (rng.random((k, q)) < rng.uniform(0.4, 0.8, size=(k, 1))).astype(int)
    from exactstats.report.analysis import pair_table

    fast, slow = pair_table(C), pair_table(C, exact_all=True)
    assert fast.separated == slow.separated
    exact = es.holm_adjust([es.mcnemar_p_value(int(fast.b[i, j]), int(fast.b[j, i])) for i, j in fast.separated])
    assert [bool(p <= Fraction(1, 20)) for p in exact] == list(fast.separated.values())


@pytest.mark.parametrize("seed", range(6))
def test_adjacent_separations_equal_exact_holm(seed):
    """The adjacent-pairs table decides from screened float p-values exactly as Holm on exact p-values does."""
    rng = np.random.default_rng(100 + seed)
    k, q = int(rng.integers(3, 12)), int(rng.integers(60, 500))
    C = (rng.random((k, q)) < np.sort(rng.uniform(0.3, 0.9, size=k))[::-1, None]).astype(int)
    C = C[np.argsort(-C.sum(axis=1), kind="stable")]
    from exactstats.report.analysis import adjacent_pairs, pair_table

    models = [f"m{i}" for i in range(k)]
    fast = adjacent_pairs(C, models, pair_table(C))
    slow = adjacent_pairs(C, models, pair_table(C, exact_all=True), exact_all=True)
    exact = es.holm_adjust([es.mcnemar_p_value(*es.discordance(C[i], C[i + 1])) for i in range(k - 1)])
    want = [bool(p <= Fraction(1, 20)) for p in exact]
    assert [a.separated for a in fast] == [a.separated for a in slow] == want
    assert all(a.p == pytest.approx(b.p, rel=1e-9) for a, b in zip(fast, slow))


def test_screening_computes_exactly_at_the_threshold():
    # with b = 15, c = 5 the exact p is 0.0414; build float p-values sitting on alpha / r
    ps = [0.05 / 3, 0.05 / 2 + 1e-15, 0.9]
    exact = {0: Fraction(1, 60), 1: Fraction(1, 40) + Fraction(1, 10**18), 2: Fraction(9, 10)}
    reject, computed = es.holm_reject_screened(ps, lambda i: exact[i])
    assert set(computed) == {0, 1} and reject == [True, False, False]


def test_fdr_option_matches_the_exact_adjustment(tmp_path):
    rng = np.random.default_rng(4)
    C = (rng.random((6, 300)) < np.linspace(0.75, 0.55, 6)[:, None]).astype(int)
    rs = load_results([str(wide_csv(tmp_path / "w.csv", C))])
    report = analyse_typed(rs, draws=20, fdr="bh")
    exact = es.bh_adjust([es.mcnemar_p_value(t.b, t.c) for t in report.all_pairs])
    assert [t.q_bh for t in report.all_pairs] == pytest.approx([float(q) for q in exact], rel=1e-9)
    assert report.extra["fdr"]["discoveries"] == sum(q <= Fraction(1, 20) for q in exact)
    assert any("False-discovery" in n for n in report.notes)
    by = analyse_typed(rs, draws=20, fdr="by")
    assert all(b.q_bh >= a.q_bh for a, b in zip(report.all_pairs, by.all_pairs))


def test_scoring_run_folders_and_logs_are_read_directly(tmp_path):
    """A `python -m scoring run` folder (or its results.jsonl) is a long table; a torn last line is not read."""
    rows = [
        {
            "model": "m1",
            "question_id": f"s/{i}",
            "subject": "s" if i < 3 else "t",
            "chosen": i % 4,
            "answer": 0,
            "correct": int(i % 4 == 0),
            "p_A": 0.25,
        }
        for i in range(8)
    ]
    run = tmp_path / "run"
    run.mkdir()
    (run / "manifest.json").write_text("{}")
    text = "".join(json.dumps(r) + "\n" for r in rows)
    (run / "results.jsonl").write_text(text + '{"model": "m1", "question_id": "s/8", "cor')  # a run in progress
    other = tmp_path / "other.jsonl"
    other.write_text(text.replace('"m1"', '"m2"'))
    res = load_results([str(run), str(other)])
    assert res.models == ["m1", "m2"] and len(res.question_ids) == 8
    assert len(res.notes) == 1 and "line 9 is incomplete" in res.notes[0]  # said, not silently dropped
    assert res.correct.tolist() == [[r["correct"] for r in rows]] * 2
    assert list(res.clusters) == [r["subject"] for r in rows]
    named = load_results([f"mine={run}"])
    assert named.models == ["mine"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(rows[0]) + "\n" + "not json\n")
    with pytest.raises(es.ExactStatsError, match=r"bad.jsonl, line 2: not a JSON object"):
        load_results([str(bad)])
    contradiction = tmp_path / "contra.jsonl"
    contradiction.write_text(json.dumps({**rows[1], "correct": 1}) + "\n")
    with pytest.raises(es.ExactStatsError, match="contradicts"):
        load_results([str(contradiction)])


def test_calibration_section_when_option_probabilities_are_given(tmp_path):
    """Inputs with p_A, p_B, ... get Brier and ECE per model, the same numbers as the calibration module."""
    rng = np.random.default_rng(8)
    rows = []
    answer = rng.integers(0, 4, 60)  # one key for both models
    for m in ("m1", "m2"):
        probs = rng.dirichlet(np.ones(4), size=60)
        for i in range(60):
            chosen = int(np.argmax(probs[i]))
            rows.append(
                {
                    "model": m,
                    "question_id": f"q{i}",
                    "chosen": chosen,
                    "answer": int(answer[i]),
                    "correct": int(chosen == answer[i]),
                    **{f"p_{L}": float(probs[i, j]) for j, L in enumerate("ABCD")},
                }
            )
    pd.DataFrame(rows).to_csv(tmp_path / "long.csv", index=False)
    rs = load_results([str(tmp_path / "long.csv")])
    r = analyse_typed(rs, draws=50)
    for entry in r.calibration:
        i = rs.models.index(entry["model"])
        want = es.brier_score_float(rs.probabilities[i], rs.answers)
        assert entry["brier"] == pytest.approx([want.value, want.lower, want.upper])
        assert entry["ece10"][0] == pytest.approx(
            es.expected_calibration_error_float(rs.probabilities[i], rs.answers).value
        )
    assert "Calibration" in to_markdown(r)
    no_probs = pd.DataFrame(rows).drop(columns=["p_A", "p_B", "p_C", "p_D"])
    no_probs.to_csv(tmp_path / "plain.csv", index=False)
    assert analyse_typed(load_results([str(tmp_path / "plain.csv")]), draws=50).calibration is None
    bad = pd.DataFrame(rows).astype({"p_B": object})
    bad.loc[3, "p_B"] = "x"
    bad.to_csv(tmp_path / "bad.csv", index=False)
    with pytest.raises(es.ExactStatsError, match="option probabilities must be numbers"):
        load_results([str(tmp_path / "bad.csv")])


def test_json_report_is_the_dataclass_tree_without_a_deep_copy(tmp_path):
    """to_json walks the report shallowly (asdict deep-copied 500k pair objects at 1,000 models): same content."""
    import dataclasses

    rng = np.random.default_rng(11)
    C = (rng.random((7, 300)) < np.linspace(0.8, 0.5, 7)[:, None]).astype(int)
    report = analyse_typed(load_results([str(wide_csv(tmp_path / "w.csv", C))]), draws=20)
    want = dataclasses.asdict(report)
    want["all_pairs"] = [dataclasses.asdict(t) for t in report.all_pairs]  # the rows are held as columns
    want.pop("extra")
    want = {k: v for k, v in want.items() if v is not None}
    assert json.dumps(report.to_json(), sort_keys=True) == json.dumps(want, sort_keys=True)


def test_the_matrix_is_scanned_once_per_report(monkeypatch, tmp_path):
    """The assembled matrix is checked once, at construction; every core function the report calls trusts it."""
    import exactstats._validate as validate
    from exactstats.cli import main

    scans = []
    real = validate._binary
    monkeypatch.setattr(validate, "_binary", lambda arr, name, **kw: scans.append(arr.shape) or real(arr, name, **kw))
    assert main(["report", str(ROOT / "data" / "shuffled-2000.matrix.parquet"), "--out", str(tmp_path / "r.html")]) == 0
    assert scans == [(4, 2000)]
    C = validate.checked_binary_matrix([[1, 0], [0, 1]], "C")
    with pytest.raises(ValueError, match="read-only"):
        C[0, 0] = 5  # a checked matrix cannot stop holding 0/1
    assert validate.as_binary_matrix(C, "C") is C and len(scans) == 2  # passed again: not scanned
    assert validate.as_binary_matrix(C.copy(), "C") is not C and len(scans) == 3  # a writable copy is


def test_the_shipped_panel_is_the_reader_layers_result_set():
    """load_panel reads the long table through the same reader as `exactstats report`: one matrix type."""
    panel = es.load_panel("shuffled")
    read = load_results([str(ROOT / "data" / "shuffled-2000.long.parquet")])
    same = read.subset(panel.models, list(panel.matrix.columns))
    assert np.array_equal(panel.results.correct, same.correct) and np.array_equal(panel.correct(), panel.matrix)
    assert np.array_equal(panel.results.choices, same.choices) and np.array_equal(panel.results.answers, same.answers)
    assert np.allclose(panel.results.probabilities, panel.probabilities())
    ranked = panel.ranked()
    right = ranked.correct().sum(axis=1)
    assert list(right) == sorted(right, reverse=True) and not ranked.results.correct.flags.writeable
    with pytest.raises(ValueError, match="models must be among"):
        panel.results.subset(["no-such-model"])


def test_long_table_models_in_the_same_order_or_not_align_alike(tmp_path):
    """Models whose rows list the questions in the same order share one id list (aligned without a lookup);
    in another order they are aligned by id. Both give the same matrix."""
    import pandas as pd

    from exactstats.report.importers import load_results

    rng = np.random.default_rng(4)
    q = [f"q{j}" for j in range(50)]
    a, b = rng.integers(0, 2, 50), rng.integers(0, 2, 50)
    same = pd.DataFrame({"model": ["a"] * 50 + ["b"] * 50, "question_id": q + q, "correct": np.r_[a, b]})
    flipped = pd.DataFrame({"model": ["a"] * 50 + ["b"] * 50, "question_id": q + q[::-1], "correct": np.r_[a, b[::-1]]})
    same.to_csv(tmp_path / "same.csv", index=False)
    flipped.to_csv(tmp_path / "flipped.csv", index=False)
    one, two = load_results([str(tmp_path / "same.csv")]), load_results([str(tmp_path / "flipped.csv")])
    assert one.question_ids == two.question_ids == q
    assert (one.correct == two.correct).all() and one.correct.tolist() == [a.tolist(), b.tolist()]


@pytest.mark.parametrize("fdr", [None, "bh"])
def test_json_text_written_from_the_pair_columns_equals_json_dumps(tmp_path, fdr, monkeypatch):
    """The report's JSON text splices the all-pairs rows in from their columns: it must parse equal to
    json.dumps of the report's dict (orjson spells floats its own way), and be that very text where orjson is
    absent, row for row (with q-values under --fdr, without them otherwise), and the rows still read as
    a sequence of PairTest."""
    from exactstats.report import analysis
    from exactstats.report.analysis import PairRows, PairTest
    from exactstats.report.render import to_json

    rng = np.random.default_rng(8)
    C = (rng.random((7, 200)) < np.linspace(0.8, 0.5, 7)[:, None]).astype(int)
    rs = load_results([str(wide_csv(tmp_path / "w.csv", C))])
    report = analyse_typed(rs, draws=20, fdr=fdr)
    assert isinstance(report.all_pairs, PairRows) and len(report.all_pairs) == 21
    assert json.loads(to_json(report)) == json.loads(json.dumps(report.to_json()))
    with monkeypatch.context() as m:
        m.setattr(analysis, "orjson_text", lambda value: None)  # orjson not installed: the f-string writer
        assert to_json(report) == json.dumps(report.to_json())
    rows = json.loads(to_json(report))["all_pairs"]
    assert rows == [vars(t) for t in report.all_pairs] and all(isinstance(t, PairTest) for t in report.all_pairs)
    assert report.all_pairs[-1] == list(report.all_pairs)[-1] and report.all_pairs[1:3] == list(report.all_pairs)[1:3]
    assert all((r["q_bh"] is None) == (fdr is None) for r in rows)
    b, c = es.discordance_matrices(C)
    row_of = {m: i for i, m in enumerate(rs.models)}  # the report lists pairs in ranked order
    want = [(int(b[row_of[r["a"]], row_of[r["b_model"]]]), int(c[row_of[r["a"]], row_of[r["b_model"]]])) for r in rows]
    assert [(r["b"], r["c"]) for r in rows] == want and len({(r["a"], r["b_model"]) for r in rows}) == 21


def test_json_of_a_large_panel_splices_its_phi_matrix_and_keeps_every_value(tmp_path):
    """Past 100 models the phi matrix is written by orjson too: the parsed report equals json.dumps' parse,
    a model name beyond ASCII takes the f-string writer, and both hold the same values."""
    from exactstats.report.render import to_json

    rng = np.random.default_rng(3)
    C = (rng.random((102, 300)) < np.linspace(0.9, 0.3, 102)[:, None]).astype(int)
    rs = load_results([str(wide_csv(tmp_path / "w.csv", C))])
    report = analyse_typed(rs, draws=20)
    text = to_json(report)
    assert '"matrix": [[1.0,' in text  # spliced: orjson writes no space after a comma
    assert json.loads(text) == json.loads(json.dumps(report.to_json()))
    report.all_pairs.models[0] = "modèle-0"  # not ASCII: the pair rows fall back to json's escapes
    assert json.loads(to_json(report)) == json.loads(json.dumps(report.to_json()))
