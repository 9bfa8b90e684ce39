"""A tiny random-weight causal LM and tokenizer, built locally for offline tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CORPUS = [
    "The following are multiple choice questions (with answers) about tiny testing.",
    "Answer: A",
    "Answer: B",
    "Answer: C",
    "Answer: D",
    "A. B. C. D.",
    "What is two plus two? Which colour is the sky? Pick the prime number. four five six seven blue green red",
]


def build_tiny_model(folder: Path, max_positions: int = 512, seed: int = 0) -> Path:
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    folder = Path(folder)
    tok = Tokenizer(models.BPE(unk_token=None))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=400, special_tokens=["<eos>"], initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
    )
    tok.train_from_iterator(CORPUS * 20, trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<eos>", pad_token="<eos>")
    fast.save_pretrained(folder)
    torch.manual_seed(seed)
    config = LlamaConfig(
        vocab_size=tok.get_vocab_size(),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=max_positions,
        eos_token_id=0,
        pad_token_id=0,
        bos_token_id=0,
    )
    LlamaForCausalLM(config).save_pretrained(folder)
    return folder


def write_questions(path: Path, count: int = 30, subjects=("alpha", "beta", "gamma")) -> Path:
    import json

    with open(path, "w") as f:
        for i in range(count):
            s = subjects[i % len(subjects)]
            f.write(
                json.dumps(
                    {
                        "subject": s,
                        "question": f"What is two plus two? item {i}",
                        "choices": ["four", f"five {i}", "six", "seven"],
                        "answer": i % 4,
                    }
                )
                + "\n"
            )
    return path


def cli(*args, **kw):
    """``python -m scoring ARGS`` from the repository, as a process with piped output."""
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


def run_tiny(tiny, questions_file, out, **kw):
    """Score every question of ``questions_file`` with the tiny model into ``out``; the manifest and the model."""
    from scoring.questions import load_jsonl
    from scoring.run import RunConfig, score_questions
    from scoring.scorer import load_model

    lm = load_model(str(tiny), threads=1)
    qs = load_jsonl(questions_file)
    cfg = RunConfig(model=str(tiny), questions_source=str(questions_file), n=None, **kw)
    return score_questions(lm, qs, qs, cfg, out, progress=False), lm


def quiet_run_stderr(model: str, questions_file, n: int, out) -> str:
    """stderr of a finished `scoring run --no-progress` (it must succeed)."""
    args = ["--questions", str(questions_file), "--n", str(n), "--threads", "1", "--no-progress", "--out", str(out)]
    p = cli("run", "--model", model, *args)
    assert p.wait(timeout=300) == 0
    return p.stderr.read()
