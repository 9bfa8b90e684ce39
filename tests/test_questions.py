"""Questions and prompts: loaders, filters, option permutations and few-shot choice (no model)."""

import json

import pandas as pd
import pytest

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
from tests.conftest import mmlu_dir


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


def test_shots_shared_within_subject(questions_file):
    qs = load_jsonl(questions_file)
    same = [q for q in qs if q.subject == qs[0].subject]
    shot_sets = {tuple(s.id for s in pick_shots(q, qs, 2, 0)) for q in same}
    assert 1 < len(shot_sets) <= 3  # shared, except where a question is itself a shot


def test_duplicate_question_ids_are_refused(tmp_path):
    from scoring.questions import load_questions

    path = tmp_path / "q.jsonl"
    row = {"subject": "s", "question": "Q?", "choices": ["a", "b", "c", "d"], "answer": 0, "id": "s/1"}
    path.write_text(json.dumps(row) + "\n" + json.dumps(row) + "\n")
    with pytest.raises(QuestionFormatError, match="'s/1' appears more than once"):
        load_questions(path)


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
