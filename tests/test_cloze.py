"""Answer-text (cloze) scoring with a tiny local model: cache reuse against plain full sequences."""

import math

import pytest
import torch

from scoring.cloze import cloze_prompt, cloze_row, cloze_scores
from scoring.questions import load_jsonl
from scoring.run import RunConfig, RunSettingsMismatch, read_done, score_questions
from scoring.scorer import load_model
from tests.tiny import build_tiny_model, write_questions


@pytest.fixture(scope="module")
def lm(tmp_path_factory):
    return load_model(str(build_tiny_model(tmp_path_factory.mktemp("tiny"))), threads=1)


@pytest.fixture(scope="module")
def questions(tmp_path_factory):
    return load_jsonl(write_questions(tmp_path_factory.mktemp("q") / "q.jsonl", 12))


def reference_loglik(lm, context, option):
    """Sum of log p(token) over the option's tokens, from one forward pass of context + option, no cache."""
    ctx = lm.tokenizer.encode(context, add_special_tokens=True)
    whole = lm.tokenizer.encode(context + " " + option, add_special_tokens=True)
    assert whole[: len(ctx)] == ctx
    with torch.inference_mode():
        logits = lm.model(input_ids=torch.tensor([whole])).logits[0].float()
    total = 0.0
    for pos in range(len(ctx), len(whole)):
        total += float(torch.log_softmax(logits[pos - 1], dim=-1)[whole[pos]])
    return total, len(whole) - len(ctx)


def test_cached_scores_equal_full_sequences(lm, questions):
    for q in questions[:6]:
        sums, tokens, prompt_tokens = cloze_scores(lm, q)
        context = cloze_prompt(q)
        assert prompt_tokens == len(lm.tokenizer.encode(context, add_special_tokens=True))
        for j, choice in enumerate(q.choices):
            want, n_tokens = reference_loglik(lm, context, str(choice).strip())
            assert sums[j] == pytest.approx(want, abs=1e-4) and tokens[j] == n_tokens


def test_prompt_shows_no_options_and_shots_end_in_answer_text(questions):
    q, shots = questions[0], questions[3:5]
    text = cloze_prompt(q, shots)
    assert text.endswith("\nAnswer:") and "A." not in text
    for s in shots:
        assert f"Answer: {str(s.choices[s.answer]).strip()}\n\n" in text


def test_row_choices_and_length_normalisation(questions):
    q = questions[0]
    sums = [-12.0, -3.0, -9.0, -30.0]
    row = cloze_row("m", q, 0, 10, sums, [3, 1, 2, 6])
    chars = [len(" " + str(c).strip()) for c in q.choices]
    assert row["chosen"] == 1 and row["correct"] == int(q.answer == 1)
    assert row["chosen_norm"] == max(range(4), key=lambda j: sums[j] / chars[j])
    probs = [row[f"p_{L}"] for L in "ABCD"]
    assert sum(probs) == pytest.approx(1) and probs[1] == pytest.approx(1 / sum(math.exp(s + 3) for s in sums))


def test_cloze_run_resumes_and_refuses_the_letter_format(lm, questions, tmp_path):
    cfg = RunConfig(model="tiny", questions_source="q", n=None, format="cloze")
    manifest = score_questions(lm, questions, questions, cfg, tmp_path / "run", progress=False)
    assert manifest["complete"] and manifest["settings"]["format"] == "cloze"
    assert "cloze" in manifest["settings"]["prompt_template"]
    rows = read_done(tmp_path / "run" / "results.jsonl")
    assert len(rows) == 12 and all(r["format"] == "cloze" for r in rows.values())
    again = score_questions(lm, questions, questions, cfg, tmp_path / "run", progress=False)
    assert again["this_run_scored"] == 0
    with pytest.raises(RunSettingsMismatch, match="format"):
        score_questions(
            lm,
            questions,
            questions,
            RunConfig(model="tiny", questions_source="q", n=None),
            tmp_path / "run",
            progress=False,
        )


def test_unknown_format_is_refused(lm, questions, tmp_path):
    with pytest.raises(ValueError, match="format must be one of letter, cloze"):
        score_questions(
            lm,
            questions,
            questions,
            RunConfig(model="t", questions_source="q", n=None, format="text"),
            tmp_path / "x",
            progress=False,
        )


def test_the_prompt_cache_is_used_not_the_fallback(lm, questions, monkeypatch):
    import scoring.cloze as cloze

    def refuse(*a, **k):
        raise AssertionError("fell back to full sequences")

    monkeypatch.setattr(cloze, "_full_sequence_logprob", refuse)
    sums, _, _ = cloze_scores(lm, questions[0])
    assert len(sums) == 4
