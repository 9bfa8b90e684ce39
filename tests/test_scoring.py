import json
import os
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest

from scoring.matrix import long_table, wide_matrix
from scoring.prompts import PERMUTATIONS, build_prompt, option_permutation, pick_shots, to_original
from scoring.questions import (
    Question,
    QuestionFormatError,
    filter_shuffle_safe,
    load_jsonl,
    load_mmlu_csv_dir,
    load_redux,
    load_redux_file,
    sample_questions,
)
from scoring.run import RunConfig, RunSettingsMismatch, read_done, score_questions
from scoring.scorer import TokenizerError, letter_token_ids, load_model
from tests.conftest import ROOT, launch_two_processes, mmlu_dir
from tests.tiny import build_tiny_model, write_questions


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return build_tiny_model(tmp_path_factory.mktemp("tiny"))


@pytest.fixture(scope="module")
def questions_file(tmp_path_factory):
    return write_questions(tmp_path_factory.mktemp("q") / "q.jsonl", 30)


def cli(*args, **kw):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "scoring", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kw,
    )


# --- option order ---------------------------------------------------------------


def test_all_24_permutations_map_back():
    q = Question("s/0", "s", "Q?", ("w", "x", "y", "z"), 2)
    for perm in PERMUTATIONS:
        prompt = build_prompt(q, perm)
        shown = [line[3:] for line in prompt.splitlines() if line[:3] in ("A. ", "B. ", "C. ", "D. ")]
        assert shown == [q.choices[i] for i in perm]
        # the letter at which the key is shown maps back to the key
        letter = shown.index("y")
        assert perm[letter] == q.answer
        assert to_original(list("ABCD"), perm)[perm[letter]] == "ABCD"[letter]


def test_permutation_deterministic_and_model_dependent():
    ids = [f"s/{i}" for i in range(200)]
    a = [option_permutation(i, "model-a", 0) for i in ids]
    assert a == [option_permutation(i, "model-a", 0) for i in ids]
    assert a != [option_permutation(i, "model-b", 0) for i in ids]
    assert a != [option_permutation(i, "model-a", 1) for i in ids]
    assert {option_permutation(i, "m", 0, "original") for i in ids} == {(0, 1, 2, 3)}
    assert [option_permutation(i, "x", 0, "shared") for i in ids] == [
        option_permutation(i, "y", 0, "shared") for i in ids
    ]
    assert len(set(a)) == 24


def test_shots_exclude_the_question_and_stay_in_subject(questions_file):
    qs = load_jsonl(questions_file)
    shots = pick_shots(qs[0], qs, 5, 0)
    assert len(shots) == 5 and all(s.subject == qs[0].subject and s.id != qs[0].id for s in shots)
    assert shots == pick_shots(qs[0], qs, 5, 0)


# --- loaders ----------------------------------------------------------------------


@pytest.mark.skipif(mmlu_dir() is None, reason="shared MMLU-Redux folder not present")
def test_every_redux_file_loads():
    qs = load_redux(mmlu_dir())
    assert len(qs) == 5700 and len({q.subject for q in qs}) == 57
    assert len({q.id for q in qs}) == 5700
    labels = {q.error_type for q in qs}
    assert (
        "ok" in labels
        and "wrong_groundtruth" in labels
        and labels
        <= {
            "ok",
            "wrong_groundtruth",
            "no_correct_answer",
            "multiple_correct_answers",
            "bad_question_clarity",
            "bad_options_clarity",
            "expert",
        }
    )
    kept, dropped = filter_shuffle_safe(qs)
    assert len(kept) + len(dropped) == 5700 and 0 < len(dropped) < 500
    sample = sample_questions(kept, 2000, seed=0, stratify=True)
    assert len(sample) == 2000 and sample == sample_questions(kept, 2000, seed=0, stratify=True)
    per_subject = pd.Series([q.subject for q in sample]).value_counts()
    sizes = pd.Series([q.subject for q in kept]).value_counts()
    assert ((per_subject - 2000 * sizes / len(kept)).abs() < 1).all()  # proportional allocation


def test_malformed_inputs_name_file_and_row(tmp_path):
    header = "question,choices,answer,error_type\n"
    cases = {
        "mmlu_missing.csv": ("question,choices,answer\nQ,\"['a','b','c','d']\",1\n", "missing column"),
        "mmlu_range.csv": (header + "Q,\"['a','b','c','d']\",4,ok\n", "row 2: answer index 4 out of range"),
        "mmlu_three.csv": (
            header + "Q,\"['a','b','c','d']\",1,ok\nQ2,\"['a','b','c']\",1,ok\n",
            "row 3: expected 4 choices, got 3",
        ),
        "mmlu_empty.csv": ("", "empty file"),
        "mmlu_label.csv": (header + "Q,\"['a','b','c','d']\",1,weird\n", "unknown error_type"),
    }
    for name, (text, match) in cases.items():
        p = tmp_path / name
        p.write_text(text)
        with pytest.raises(QuestionFormatError, match=match) as err:
            load_redux_file(p)
        assert name in str(err.value)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"subject": "s", "question": "q", "choices": ["a", "b", "c", "d"]}\n')
    with pytest.raises(QuestionFormatError, match="bad.jsonl, line 1: missing field 'answer'"):
        load_jsonl(bad)


def test_original_mmlu_layout_and_cp1252(tmp_path):
    (tmp_path / "astronomy_test.csv").write_text('What is it?,a,b,c,d,C\n"Which, exactly?",e,f,g,h,A\n')
    qs = load_mmlu_csv_dir(tmp_path)
    assert [q.id for q in qs] == ["astronomy/0", "astronomy/1"] and qs[0].answer == 2
    (tmp_path / "bad_test.csv").write_text("Q,a,b,c,d,E\n")
    with pytest.raises(QuestionFormatError, match="bad_test.csv, row 1: answer 'E'"):
        load_mmlu_csv_dir(tmp_path)
    p = tmp_path / "mmlu_caf\u00e9.csv"
    p.write_bytes("question;choices;answer;error_type\nCaf\u00e9?;['a','b','c','d'];0;OK\n".encode("cp1252"))
    assert load_redux_file(p)[0].question == "Caf\u00e9?"


# --- scoring with a tiny local model ------------------------------------------------


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


def run_tiny(tiny, questions_file, out, **kw):
    lm = load_model(str(tiny), threads=1)
    qs = load_jsonl(questions_file)
    cfg = RunConfig(model=str(tiny), questions_source=str(questions_file), n=None, **kw)
    return score_questions(lm, qs, qs, cfg, out, progress=False), lm


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


def test_cli_errors_are_one_line(tmp_path):
    p = cli(
        "run",
        "--model",
        "smollm2-135m-instruct",
        "--questions",
        str(tmp_path / "none.jsonl"),
        "--out",
        str(tmp_path / "o"),
    )
    assert p.wait(timeout=120) == 2
    err = p.stderr.read().strip().splitlines()
    assert len(err) == 1 and "No such file" in err[0] and "Traceback" not in err[0]


# --- a real model from a PyPI package, on real questions ------------------------------


@pytest.mark.model
@pytest.mark.slow
@pytest.mark.skipif(mmlu_dir() is None, reason="shared MMLU-Redux folder not present")
def test_real_smollm2_on_20_real_questions(tmp_path):
    from scoring.models import PACKAGED_MODELS

    m = PACKAGED_MODELS["smollm2-135m-instruct"]
    m.path(verify=True)  # installed by `make` from requirements-nodeps.txt; sha256 checked
    p = cli(
        "run",
        "--model",
        m.name,
        "--questions",
        str(mmlu_dir()),
        "--n",
        "20",
        "--threads",
        "2",
        "--no-progress",
        "--json",
        "--out",
        str(tmp_path / "real"),
    )
    out, err = p.communicate(timeout=900)
    assert p.returncode == 0, err
    manifest = json.loads(out)
    assert manifest["rows"] == 20 and manifest["settings"]["model_sha256"] == m.sha256
    rows = read_done(tmp_path / "real" / "results.jsonl").values()
    assert all(r["letter_mass"] > 0 for r in rows)
    assert len({r["subject"] for r in rows}) >= 10


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


def test_shots_shared_within_subject(questions_file):
    qs = load_jsonl(questions_file)
    same = [q for q in qs if q.subject == qs[0].subject]
    shot_sets = {tuple(s.id for s in pick_shots(q, qs, 2, 0)) for q in same}
    assert 1 < len(shot_sets) <= 3  # shared, except where a question is itself a shot


@pytest.mark.model
@pytest.mark.slow
@pytest.mark.skipif(mmlu_dir() is None, reason="shared MMLU-Redux folder not present")
def test_data_check_rescoring_matches_committed_rows():
    """`make data-check`: re-score committed rows of the two small models across conditions; they must match."""
    from scoring.check import check_dataset
    from scoring.models import PACKAGED_MODELS, ModelUnavailable

    installed = []
    for name in ("smollm2-135m-instruct", "gemma3-270m"):  # SmolLM2 comes with `make venv`; Gemma with `make data`
        try:
            PACKAGED_MODELS[name].part_paths()
            installed.append(name)
        except ModelUnavailable:
            pass
    ok, report = check_dataset(ROOT / "data", n=12, models=installed)
    assert ok, report
    assert "original-2000" in report and "shuffled-2000" in report
    assert all(name in report for name in installed)
    if (ROOT / "data" / "runs" / "cloze-2000" / "smollm2-135m-instruct").exists():
        assert "cloze-2000/smollm2-135m-instruct" in report  # answer-text rows are re-scored in their own format


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


def test_build_data_writes_tables_and_fills_the_datasheet(tiny, questions_file, tmp_path):
    from scoring.build import END, START, build

    data = tmp_path / "data"
    manifest, _ = run_tiny(tiny, questions_file, data / "runs" / "shuffled-2000" / "tiny")
    (data / "README.md").write_text(f"# sheet\n\n{START}\nstale\n{END}\n\nafter\n")
    summary = build(data)
    entry = summary["shuffled-2000"][manifest["settings"]["model"]]
    rows = read_done(data / "runs" / "shuffled-2000" / "tiny" / "results.jsonl").values()
    assert entry["correct"] == sum(r["correct"] for r in rows) and entry["rows"] == 30
    sheet = (data / "README.md").read_text()
    assert "stale" not in sheet and sheet.endswith(f"{END}\n\nafter\n")
    assert f"| {entry['correct'] / 30:.4f} |" in sheet and "### shuffled-2000" in sheet
    assert entry["per_category"]["not MMLU"]["correct"] == entry["correct"]  # the tiny subjects are not MMLU's
    from scoring.questions import CATEGORY_OF, MMLU_CATEGORIES

    assert len(CATEGORY_OF) == 57 and sorted(MMLU_CATEGORIES) == ["humanities", "other", "social_sciences", "stem"]
    build(data)
    assert (data / "README.md").read_text() == sheet  # rebuilding changes nothing
    assert pd.read_parquet(data / "shuffled-2000.matrix.parquet").shape == (1, 30)
    # a cloze condition: no letters, both accuracies with their intervals
    run_tiny(tiny, questions_file, data / "runs" / "cloze-2000" / "tiny", format="cloze")
    summary = build(data)
    cz = summary["cloze-2000"][manifest["settings"]["model"]]
    rows = read_done(data / "runs" / "cloze-2000" / "tiny" / "results.jsonl").values()
    assert cz["format"] == "cloze" and cz["chosen_letter_share"] is None
    assert cz["correct_norm"] == sum(r["correct_norm"] for r in rows)
    assert "accuracy (per character)" in (data / "README.md").read_text()


@pytest.mark.slow
def test_data_check_reexecutes_stored_completions():
    """`make data-check`, pass@k part: stored completions re-executed in the sandbox give the stored status."""
    from scoring.check import check_passk

    ok, report = check_passk(ROOT / "data", n=12)
    assert ok, report


def test_duplicate_question_ids_are_refused(tmp_path):
    from scoring.questions import load_questions

    path = tmp_path / "q.jsonl"
    row = {"subject": "s", "question": "Q?", "choices": ["a", "b", "c", "d"], "answer": 0, "id": "s/1"}
    path.write_text(json.dumps(row) + "\n" + json.dumps(row) + "\n")
    with pytest.raises(QuestionFormatError, match="'s/1' appears more than once"):
        load_questions(path)


def test_unknown_model_lists_the_packaged_ones(tmp_path):
    p = cli("run", "--model", "no-such-model", "--questions", "redux", "--out", str(tmp_path / "o"))
    assert p.wait(timeout=120) == 2
    err = p.stderr.read().strip().splitlines()
    assert len(err) == 1 and "smollm2-135m-instruct" in err[0]


def quiet_run_stderr(model: str, questions_file, n: int, out) -> str:
    """stderr of a finished `scoring run --no-progress` (it must succeed)."""
    args = ["--questions", str(questions_file), "--n", str(n), "--threads", "1", "--no-progress", "--out", str(out)]
    p = cli("run", "--model", model, *args)
    assert p.wait(timeout=300) == 0
    return p.stderr.read()


def test_no_progress_silences_every_bar(tiny, questions_file, tmp_path):
    err = quiet_run_stderr(str(tiny), questions_file, 3, tmp_path / "o")
    assert "it/s" not in err and "%|" not in err, err


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


def test_filter_v2_reads_option_letters_as_capitals():
    from scoring.questions import refers_to_other_options

    lower = Question("m/1", "m", "Which holds?", ("a and b commute", "x", "y", "z"), 0)
    upper = Question("m/2", "m", "Which holds?", ("Both A and B", "x", "y", "z"), 0)
    words = Question("m/3", "m", "Which holds?", ("All of the above", "x", "y", "z"), 0)
    assert refers_to_other_options(lower, "v1") and not refers_to_other_options(lower, "v2")
    assert all(refers_to_other_options(q, v) for q in (upper, words) for v in ("v1", "v2"))


@pytest.mark.skipif(mmlu_dir() is None, reason="shared MMLU-Redux folder not present")
def test_filter_v2_keeps_the_three_valid_questions_v1_dropped():
    pool = load_redux(mmlu_dir())
    _, dropped_v1 = filter_shuffle_safe(pool, "v1")
    _, dropped_v2 = filter_shuffle_safe(pool, "v2")
    regained = {q.id for q in dropped_v1} - {q.id for q in dropped_v2}
    assert {"college_computer_science/15", "college_mathematics/8", "econometrics/94"} <= regained
    assert {q.id for q in dropped_v2} <= {q.id for q in dropped_v1}


def test_resumed_and_extended_runs_keep_their_recorded_settings(tmp_path):
    from scoring.__main__ import inherited

    old = tmp_path / "old"
    old.mkdir()
    (old / "manifest.json").write_text(json.dumps({"settings": {"model": "m"}}))  # written before the settings existed
    assert inherited("letter_spelling", None, [tmp_path / "new", old], "space") == "both"  # legacy default
    assert inherited("cross_reference_filter", None, [old], "v2") == "v1"
    assert inherited("letter_spelling", None, [tmp_path / "new"], "space") == "space"
    assert inherited("letter_spelling", "bare", [old], "space") == "bare"


@pytest.mark.slow
def test_two_processes_through_accelerate_equal_one(tiny, tmp_path):
    """`accelerate launch` with two CPU processes (gloo): the merged run holds the single-process rows."""
    qfile = write_questions(tmp_path / "q.jsonl", 24)
    args = ["run", "--model", str(tiny), "--questions", str(qfile), "--threads", "1", "--no-progress"]
    single = cli(*args, "--out", str(tmp_path / "one"))
    assert single.wait(timeout=600) == 0, single.stderr.read()
    one = read_done(tmp_path / "one" / "results.jsonl")
    # an interrupted earlier parallel run left a shard with a few rows: they are kept, not redone
    shard = tmp_path / "two" / "shards" / "results.rank1.jsonl"
    shard.parent.mkdir(parents=True)
    shard.write_text("".join(json.dumps(one[q]) + "\n" for q in sorted(one)[:3]))
    p = launch_two_processes([*args, "--out", str(tmp_path / "two")])
    assert p.returncode == 0, p.stderr[-2000:]
    two = read_done(tmp_path / "two" / "results.jsonl")
    assert two == one
    manifest = json.loads((tmp_path / "two" / "manifest.json").read_text())
    assert manifest["processes"] == 2 and manifest["complete"] and not (tmp_path / "two" / "shards").exists()


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


@pytest.mark.slow
@pytest.mark.skipif(mmlu_dir() is None, reason="shared MMLU-Redux folder not present")
def test_two_processes_on_real_questions(tiny, tmp_path):
    """The same through accelerate on a few real MMLU-Redux questions (the tiny model reads them)."""
    args = ["run", "--model", str(tiny), "--questions", "redux", "--n", "8", "--threads", "1", "--no-progress"]
    single = cli(*args, "--out", str(tmp_path / "one"))
    assert single.wait(timeout=600) == 0, single.stderr.read()
    p = launch_two_processes([*args, "--out", str(tmp_path / "two")])
    assert p.returncode == 0, p.stderr[-2000:]
    assert read_done(tmp_path / "two" / "results.jsonl") == read_done(tmp_path / "one" / "results.jsonl")


@pytest.mark.model
def test_no_progress_silences_the_gguf_conversion_bar_too(questions_file, tmp_path):
    """transformers draws the GGUF conversion bar with plain tqdm: --no-progress must silence it as well."""
    err = quiet_run_stderr("smollm2-135m-instruct", questions_file, 1, tmp_path / "o")
    assert "de-quantizing" not in err and "%|" not in err, err[-500:]


def test_shots_from_the_dev_split_are_the_first_k_in_order(tiny, questions_file, tmp_path):
    """--shots-from dev: the subject's first k dev questions in file order (lm-eval's first_n), recorded."""
    from scoring.prompts import pick_shots

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


def test_data_check_names_runs_it_cannot_rescore(tiny, questions_file, tmp_path):
    """A run whose shots came from a dev split (not shipped) is listed as not re-scored, never re-scored wrongly."""
    from scoring.check import check_dataset

    run_tiny(tiny, questions_file, tmp_path / "data" / "runs" / "dev-shots" / "tiny", shots=1, shots_from="dev")
    ok, report = check_dataset(tmp_path / "data", n=4)
    assert ok and "re-scored 0 committed rows" in report
    assert "not re-scored: dev-shots/" in report and "dev-split shots" in report


@pytest.mark.parametrize("checkpoint_s", [float("inf"), 0.0])
def test_speed_counts_only_rows_whose_time_was_recorded(tiny, questions_file, tmp_path, monkeypatch, checkpoint_s):
    """A killed run writes no final timing; its rows must not later count as if they cost nothing."""
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
    monkeypatch.setattr(run_module, "CHECKPOINT_S", checkpoint_s)  # inf: no checkpoint; 0: after every batch
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
