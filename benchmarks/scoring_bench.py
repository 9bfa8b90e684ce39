"""Scoring throughput on this CPU: batch size, dtype, few-shot prefix reuse, and whether argmax answers agree.

Times are wall seconds per question of the scoring loop (model loading excluded).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from benchmarks.common import row
from scoring.models import PACKAGED_MODELS, ModelUnavailable
from scoring.questions import default_mmlu_dir, filter_shuffle_safe, load_redux, sample_questions
from scoring.run import RunConfig, read_done, score_questions
from scoring.scorer import load_model

QUESTIONS = 40


def _run(lm, qs, pool, **kw):
    with tempfile.TemporaryDirectory() as tmp:
        cfg = RunConfig(model=lm.source, questions_source="bench", n=None, **kw)
        manifest = score_questions(lm, qs, pool, cfg, Path(tmp), progress=False)
        rows = read_done(Path(tmp) / "results.jsonl")
    return manifest["this_run_wall_s"] / len(qs), {q: r["chosen"] for q, r in rows.items()}


def _agree(a: dict, b: dict) -> str:
    same = sum(a[q] == b[q] for q in a)
    return f"argmax agrees on {same}/{len(a)}"


def bench_scoring() -> None:
    mmlu = default_mmlu_dir()
    if mmlu is None:
        print("scoring: MMLU-Redux folder not found, skipped")
        return
    pool = load_redux(mmlu)
    kept = filter_shuffle_safe(pool)[0]
    qs = sample_questions(kept, QUESTIONS, seed=5, stratify=True)
    # few-shot: consecutive questions of two subjects, as in a real run (sorted by subject)
    subjects = ("high_school_biology", "marketing")
    qs_shots = [q for s in subjects for q in [q for q in kept if q.subject == s][: QUESTIONS // 2]]
    for name in ("smollm2-135m-instruct", "gemma3-270m", "qwen2.5-coder-0.5b-instruct"):
        try:
            PACKAGED_MODELS[name].path(verify=True)
        except ModelUnavailable:
            print(f"scoring: {name} not installed, skipped")
            continue
        lm = load_model(name, dtype="float32", threads=2)
        base, base_ans = _run(lm, qs, pool)
        batched, b_ans = _run(lm, qs, pool, batch_size=8)
        row(
            "scoring",
            f"{name}: zero-shot, batch 8 vs batch 1",
            "batch 8",
            batched,
            "batch 1",
            base,
            _agree(b_ans, base_ans),
        )
        full5, f_ans = _run(lm, qs_shots, pool, shots=5, reuse_prefix=False)
        reuse5, r_ans = _run(lm, qs_shots, pool, shots=5, reuse_prefix=True)
        row(
            "scoring",
            f"{name}: 5-shot, prefix KV reuse vs full prompts",
            "prefix reuse",
            reuse5,
            "full prompt",
            full5,
            _agree(r_ans, f_ans),
        )
        lm16 = load_model(name, dtype="bfloat16", threads=2)
        bf16, h_ans = _run(lm16, qs, pool)
        row("scoring", f"{name}: zero-shot, bf16 vs float32", "bf16", bf16, "float32", base, _agree(h_ans, base_ans))
        print(f"scoring: {name} float32 batch 1: {1 / base:.2f} questions/s")
