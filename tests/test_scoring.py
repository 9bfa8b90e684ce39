"""Letter-probability scoring runs with a tiny local model: rows, resuming, settings, timing."""

import json
import signal
import subprocess
import sys
import time

import pytest

from scoring.matrix import long_table, wide_matrix
from scoring.prompts import pick_shots
from scoring.questions import (
    load_jsonl,
)
from scoring.run import RunConfig, RunSettingsMismatch, read_done, score_questions
from scoring.scorer import TokenizerError, letter_token_ids, load_model
from tests.conftest import ROOT
from tests.tiny import build_tiny_model, cli, run_tiny, write_questions


def test_letter_tokens_and_refusal(tiny):
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(tiny)
    ids = letter_token_ids(tok)
    assert all(len(v) >= 1 for v in ids.values())

    class Spelled:
        def encode(self, text, add_special_tokens=False):
            return [ord(c) for c in text] + [0]  # every letter is two tokens

    with pytest.raises(TokenizerError, match="single token"):
        letter_token_ids(Spelled())


def test_end_to_end_results_and_matrix(tiny, questions_file, tmp_path):
    manifest, lm = run_tiny(tiny, questions_file, tmp_path / "run1")
    assert manifest["complete"] and manifest["rows"] == 30
    for key in ("transformers_version", "torch_version", "exactstats_version", "questions_per_s", "wall_s_total"):
        assert key in manifest
    assert manifest["settings"]["prompt_template_sha256"] and manifest["settings"]["seed"] == 0
    rows = list(read_done(tmp_path / "run1" / "results.jsonl").values())
    for r in rows:
        probs = [r["p_A"], r["p_B"], r["p_C"], r["p_D"]]
        assert sum(probs) == pytest.approx(1) and 0 < r["letter_mass"] <= 1
        assert r["chosen"] == max(range(4), key=probs.__getitem__)
        assert r["correct"] == int(r["chosen"] == r["answer"])
        perm = tuple(int(c) for c in r["permutation"])
        assert perm[" ABCD".index(r["chosen_letter"]) - 1] == r["chosen"]
    # same seed: identical outputs
    again, _ = run_tiny(tiny, questions_file, tmp_path / "run2")
    a = read_done(tmp_path / "run1" / "results.jsonl")
    b = read_done(tmp_path / "run2" / "results.jsonl")
    assert a == b
    # matrix
    long = long_table([tmp_path / "run1"])
    wide = wide_matrix(long)
    assert wide.shape == (1, 30) and set(wide.values.ravel()) <= {0, 1}


def test_refuses_to_mix_settings(tiny, questions_file, tmp_path):
    run_tiny(tiny, questions_file, tmp_path / "run")
    with pytest.raises(RunSettingsMismatch, match="seed"):
        run_tiny(tiny, questions_file, tmp_path / "run", seed=1)


def test_shots_dropped_to_fit_context(tmp_path, questions_file):
    small = build_tiny_model(tmp_path / "small", max_positions=80)
    lm = load_model(str(small), threads=1)
    qs = load_jsonl(questions_file)
    cfg = RunConfig(model=str(small), questions_source="q", n=None, shots=5)
    score_questions(lm, qs[:6], qs, cfg, tmp_path / "run", progress=False)
    rows = read_done(tmp_path / "run" / "results.jsonl").values()
    assert all(r["shots"] < 5 and r["prompt_tokens"] <= 80 for r in rows)


def test_torn_line_is_never_read(tmp_path):
    p = tmp_path / "results.jsonl"
    p.write_text('{"question_id": "a/0", "correct": 1}\n{"question_id": "a/1", "corr')
    assert list(read_done(p)) == ["a/0"]
    assert not p.read_text().endswith("}\n")  # readers leave the file alone
    assert list(read_done(p, repair=True)) == ["a/0"]
    assert p.read_text().endswith("}\n")


def test_resume_after_kill_equals_uninterrupted(tiny, tmp_path):
    qfile = write_questions(tmp_path / "q.jsonl", 400)
    args = ["run", "--model", str(tiny), "--questions", str(qfile), "--threads", "1", "--no-progress"]
    full = cli(*args, "--out", str(tmp_path / "full"))
    assert full.wait(timeout=600) == 0, full.stderr.read()
    proc = cli(*args, "--out", str(tmp_path / "cut"))
    results = tmp_path / "cut" / "results.jsonl"
    deadline = time.time() + 300
    while time.time() < deadline:
        if results.exists() and results.read_text().count("\n") >= 20:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    partial = read_done(results)
    assert 20 <= len(partial) < 400, "the run finished before it could be interrupted"
    again = cli(*args, "--out", str(tmp_path / "cut"))
    assert again.wait(timeout=600) == 0, again.stderr.read()
    assert read_done(results) == read_done(tmp_path / "full" / "results.jsonl")


def test_prefix_reuse_matches_full_prompts(tiny, questions_file, tmp_path):
    lm = load_model(str(tiny), threads=1)
    qs = load_jsonl(questions_file)
    common = dict(model=str(tiny), questions_source="q", n=None, shots=3)
    m1 = score_questions(lm, qs, qs, RunConfig(**common, reuse_prefix=True), tmp_path / "reuse", progress=False)
    m2 = score_questions(lm, qs, qs, RunConfig(**common, reuse_prefix=False), tmp_path / "full", progress=False)
    assert m1["prefix_cache"]["reused"] > 0 and m1["settings"]["prefix_reuse"] and not m2["settings"]["prefix_reuse"]
    a = read_done(tmp_path / "reuse" / "results.jsonl")
    b = read_done(tmp_path / "full" / "results.jsonl")
    for qid in a:
        assert a[qid]["chosen"] == b[qid]["chosen"]
        for key in ("p_A", "p_B", "p_C", "p_D", "letter_mass"):
            assert a[qid][key] == pytest.approx(b[qid][key], abs=1e-5)


def test_batched_left_padding_matches_batch_of_one(tiny, questions_file, tmp_path):
    m1, _ = run_tiny(tiny, questions_file, tmp_path / "b1")
    m4, _ = run_tiny(tiny, questions_file, tmp_path / "b4", batch_size=4)
    a = read_done(tmp_path / "b1" / "results.jsonl")
    b = read_done(tmp_path / "b4" / "results.jsonl")
    for qid in a:
        assert a[qid]["chosen"] == b[qid]["chosen"]
        assert a[qid]["p_A"] == pytest.approx(b[qid]["p_A"], abs=1e-4)


def test_exactstats_does_not_import_torch():
    code = (
        "import sys, exactstats, exactstats.report.analysis, exactstats.report.dataset; print('torch' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.strip() == "False", out.stderr


def test_manifest_from_before_a_new_setting_still_resumes(tiny, questions_file, tmp_path):
    run_tiny(tiny, questions_file, tmp_path / "run")
    path = tmp_path / "run" / "manifest.json"
    manifest = json.loads(path.read_text())
    del manifest["settings"]["prefix_reuse"]  # as written before the setting existed
    path.write_text(json.dumps(manifest))
    again, _ = run_tiny(tiny, questions_file, tmp_path / "run")
    assert again["this_run_scored"] == 0 and again["complete"]


def test_rows_reused_from_a_subset_run_equal_fresh_scoring(tiny, questions_file, tmp_path):
    lm = load_model(str(tiny), threads=1)
    qs = load_jsonl(questions_file)
    cfg = RunConfig(model=str(tiny), questions_source=str(questions_file), n=None)
    subset = [q for i, q in enumerate(qs) if i % 3 == 0]  # not a prefix: positions differ between the runs
    score_questions(lm, subset, qs, cfg, tmp_path / "subset", progress=False)
    grown = score_questions(lm, qs, qs, cfg, tmp_path / "all", progress=False, reuse_from=[tmp_path / "subset"])
    fresh, _ = run_tiny(tiny, questions_file, tmp_path / "fresh")
    assert grown["this_run_scored"] == len(qs) - len(subset)
    assert grown["rows_copied_from"] == {"../subset": len(subset)}
    assert read_done(tmp_path / "all" / "results.jsonl") == read_done(tmp_path / "fresh" / "results.jsonl")
    # resuming again copies nothing twice and keeps the record
    again = score_questions(lm, qs, qs, cfg, tmp_path / "all", progress=False, reuse_from=[tmp_path / "subset"])
    assert again["rows"] == len(qs) and again["rows_copied_from"] == {"../subset": len(subset)}
    # a source run with other settings is refused
    other = RunConfig(model=str(tiny), questions_source=str(questions_file), n=None, seed=1)
    score_questions(lm, subset, qs, other, tmp_path / "seed1", progress=False)
    with pytest.raises(RunSettingsMismatch, match="seed"):
        score_questions(lm, qs, qs, cfg, tmp_path / "all2", progress=False, reuse_from=[tmp_path / "seed1"])


def test_letter_spelling_choices(tiny):
    from transformers import AutoTokenizer

    from scoring.scorer import letter_token_ids

    tok = AutoTokenizer.from_pretrained(tiny)
    both, space, bare = (letter_token_ids(tok, s) for s in ("both", "space", "bare"))
    for letter in "ABCD":
        assert set(space[letter]) | set(bare[letter]) == set(both[letter])
        assert space[letter] == tok.encode(" " + letter, add_special_tokens=False)
    with pytest.raises(ValueError, match="letter-spelling"):
        letter_token_ids(tok, "loud")


def test_hub_model_from_a_local_cache_in_the_hub_layout(tiny, tmp_path, monkeypatch):
    """`--model hf:ORG/NAME` reads the Hugging Face cache (no network here: the cache is laid out by hand)."""
    import shutil
    from pathlib import Path

    from scoring.scorer import resolve_source

    snapshot = tmp_path / "hub" / "models--tinyorg--tiny" / "snapshots" / "0123abc"
    shutil.copytree(tiny, snapshot)
    (tmp_path / "hub" / "models--tinyorg--tiny" / "refs").mkdir()
    (tmp_path / "hub" / "models--tinyorg--tiny" / "refs" / "main").write_text("0123abc")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    import huggingface_hub.constants as constants

    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    folder, gguf, sha, name = resolve_source("hf:tinyorg/tiny")
    assert Path(folder).resolve() == snapshot.resolve() and gguf is None and name == "tiny"
    assert sha == resolve_source(str(tiny))[2]
    lm = load_model("hf:tinyorg/tiny", threads=1)
    assert lm.name == "tiny" and lm.sha256 == sha


def test_shots_from_the_dev_split_are_the_first_k_in_order(tiny, questions_file, tmp_path):
    """--shots-from dev: the subject's first k dev questions in file order (lm-eval's first_n), recorded."""

    qs = load_jsonl(questions_file)
    dev = load_jsonl(write_questions(tmp_path / "dev.jsonl", 12, subjects=("alpha", "beta", "gamma")))
    dev = [type(d)(f"dev-{d.id}", d.subject, d.question, d.choices, d.answer) for d in dev]
    q = qs[0]
    want = [d for d in dev if d.subject == q.subject][:3]
    assert pick_shots(q, dev, 3, seed=0, shots_from="dev") == want
    assert pick_shots(q, dev, 3, seed=7, shots_from="dev") == want  # no seed involved
    manifest, _ = run_tiny(tiny, questions_file, tmp_path / "run", shots=2, shots_from="dev")
    assert manifest["settings"]["shots_from"] == "dev" and manifest["settings"]["shots_source_sha256"]
    lm = load_model(str(tiny), threads=1)
    cfg = RunConfig(model=str(tiny), questions_source="q", n=None, shots=2, shots_from="dev")
    m = score_questions(lm, qs[:4], dev, cfg, tmp_path / "run2", progress=False)
    assert m["settings"]["shots_source_sha256"] and all(
        r["shots"] == 2 for r in read_done(tmp_path / "run2" / "results.jsonl").values()
    )
    with pytest.raises(RunSettingsMismatch, match="shots_from"):
        score_questions(
            lm,
            qs[:4],
            qs,
            RunConfig(model=str(tiny), questions_source="q", n=None, shots=2),
            tmp_path / "run2",
            progress=False,
        )


@pytest.mark.parametrize("checkpoint_s", [float("inf"), 0.0])
def test_speed_counts_only_rows_whose_time_was_recorded(tiny, questions_file, tmp_path, monkeypatch, checkpoint_s):
    """A killed run writes no final timing; its rows must not later count as if they cost nothing."""
    import scoring.driver as driver_module
    import scoring.run as run_module

    real = run_module._score_batch
    calls = []

    def slow(*args, **kwargs):  # the tiny model is so fast that a run's wall time could round to 0.00 s
        time.sleep(0.02)
        return real(*args, **kwargs)

    def killed_after_three_batches(*args, **kwargs):
        calls.append(1)
        if len(calls) > 3:
            raise KeyboardInterrupt
        return slow(*args, **kwargs)

    monkeypatch.setattr(run_module, "_score_batch", killed_after_three_batches)
    monkeypatch.setattr(driver_module, "CHECKPOINT_S", checkpoint_s)  # inf: no checkpoint; 0: after every batch
    with pytest.raises(KeyboardInterrupt):
        run_tiny(tiny, questions_file, tmp_path / "run")
    left = json.loads((tmp_path / "run" / "manifest.json").read_text())
    before = len(read_done(tmp_path / "run" / "results.jsonl"))
    assert 0 < before < 30
    if checkpoint_s == 0:
        assert left["timed_rows"] == before and left["wall_s_total"] > 0
    else:
        assert left["timed_rows"] == 0 and left["wall_s_total"] == 0
    monkeypatch.setattr(run_module, "_score_batch", slow)
    manifest, _ = run_tiny(tiny, questions_file, tmp_path / "run")
    timed = 30 if checkpoint_s == 0 else 30 - before
    assert manifest["timed_rows"] == timed and manifest["this_run_scored"] == 30 - before
    assert manifest["questions_per_s"] == round(timed / manifest["wall_s_total"], 4)


def test_speeds_of_older_manifests_are_read_conservatively():
    from scoring.runfolder import measured_rate, previous_timing

    # written by a resumed run before timed_rows existed: 994 rows of a killed run left no wall time
    old = {
        "rows": 2000,
        "wall_s_total": 2143.69,
        "this_run_wall_s": 2143.69,
        "this_run_scored": 1006,
        "questions_per_s": 0.933,
    }
    assert measured_rate(old) == round(1006 / 2143.69, 4)
    assert previous_timing(old) == (2143.69, 1006)
    assert previous_timing({"rows": 994, "wall_s_total": 0.0}) == (0.0, 0)
    generation = {
        "rows": 164,
        "wall_s_total": 318.73,
        "this_run_wall_s": 318.73,
        "this_run_samples": 13,
        "samples_per_s": 0.5145,
    }
    assert measured_rate(generation) == round(13 / 318.73, 4)
    assert measured_rate({"wall_s_total": 0.0, "timed_rows": 0}) is None
