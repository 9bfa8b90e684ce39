"""Resumable scoring runs: one output folder per (model, settings), rows appended as they finish.

``results.jsonl`` gets one line per question, written and flushed as each batch
finishes, so a crash or Ctrl-C loses at most the batch in flight. A torn last
line (no newline) is cut off on resume and never read as a result. A rerun with
the same settings skips the questions already scored; a rerun with different
settings (model file, template, seed, shots, shuffle, dtype, question set) into
the same folder is refused. ``manifest.json`` records the provenance.

A run over a larger question set can start from a finished run over a subset
(``reuse_from``): rows are copied when every setting but the question set is the
same, because a row depends only on the model, the settings and the question
(the option permutation is keyed by question id, not by position in the sample).
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from .prompts import (
    PROMPT_TEMPLATE_VERSION,
    build_prefix,
    build_prompt,
    format_question,
    option_permutation,
    pick_shots,
    template_hash,
    to_original,
)
from .questions import LETTERS, Question

RESULTS = "results.jsonl"
# Settings added after runs were first written: what a manifest without them meant.
LEGACY_DEFAULTS = {"prefix_reuse": False}
MANIFEST = "manifest.json"


class RunSettingsMismatch(RuntimeError):
    """The output folder holds a run with different settings."""


@dataclass
class RunConfig:
    model: str
    questions_source: str
    n: int | None
    seed: int = 0
    shots: int = 0
    shuffle: str = "per-model"
    chat_template: bool = False
    batch_size: int = 1
    dtype: str = "auto"
    device: str = "auto"
    stratify: bool = True
    shuffle_safe_only: bool = True
    threads: int | None = None
    reuse_prefix: bool = True  # reuse the few-shot prefix's key/value cache (batch size 1, no chat template)


def question_set_hash(questions: Sequence[Question]) -> str:
    h = hashlib.sha256()
    for q in questions:
        h.update(json.dumps(q.to_json(), sort_keys=True).encode())
    return h.hexdigest()[:16]


def read_done(path: Path, repair: bool = False) -> dict[str, dict]:
    """Complete rows already in ``results.jsonl``; a torn trailing line is never read.

    ``repair=True`` (the runner, before it appends) also cuts the torn line off the
    file; readers leave the file alone, since a run may be appending to it.
    """
    if not path.exists():
        return {}
    data = path.read_bytes()
    end = data.rfind(b"\n") + 1
    if repair and end < len(data):
        with open(path, "r+b") as f:
            f.truncate(end)
    rows = {}
    for line in data[:end].splitlines():
        if line.strip():
            row = json.loads(line)
            rows[row["question_id"]] = row
    return rows


def _settings(cfg: RunConfig, model_name: str, sha: str | None, qhash: str, dtype: str) -> dict:
    return {
        "model": model_name,
        "model_source": cfg.model,
        "model_sha256": sha,
        "prompt_template": PROMPT_TEMPLATE_VERSION,
        "prompt_template_sha256": template_hash(),
        "chat_template": cfg.chat_template,
        "seed": cfg.seed,
        "shots": cfg.shots,
        "shuffle": cfg.shuffle,
        "dtype": dtype,
        "question_set_sha256": qhash,
        "prefix_reuse": _reusing(cfg),
    }


def copy_rows_from(sources: Sequence[Path], questions: Sequence[Question], settings: dict,
                   results_path: Path) -> dict[str, int]:
    """Append rows of finished runs with the same settings (bar the question set); return counts per source.

    Only rows for questions in ``questions`` not yet in ``results_path`` are copied, and
    each copied row must agree with the question (subject, answer, error label).
    """
    wanted = {q.id: q for q in questions}
    copied: dict[str, int] = {}
    for src in map(Path, sources):
        manifest_path = src / MANIFEST
        if not manifest_path.exists():
            raise FileNotFoundError(f"reuse_from: {src} has no {MANIFEST}")
        theirs = {**LEGACY_DEFAULTS, **json.loads(manifest_path.read_text())["settings"]}
        diff = sorted(k for k in settings if k != "question_set_sha256" and theirs.get(k) != settings[k])
        if diff:
            raise RunSettingsMismatch(f"reuse_from: {src} was run with other settings ({', '.join(diff)})")
        done = read_done(results_path, repair=True)
        rows = [r for qid, r in read_done(src / RESULTS).items() if qid in wanted and qid not in done]
        for r in rows:
            q = wanted[r["question_id"]]
            if (r["subject"], r["answer"], r["error_type"]) != (q.subject, q.answer, q.error_type):
                raise RunSettingsMismatch(f"reuse_from: {src} row for {q.id} does not match the question")
        if rows:
            with open(results_path, "a", encoding="utf-8") as out:
                out.write("".join(json.dumps(r) + "\n" for r in rows))
                out.flush()
                os.fsync(out.fileno())
        copied[str(src)] = len(rows)
    return copied


def _encode_prompt(lm, q: Question, perm, shots, chat_template: bool) -> tuple[list[int], int | None]:
    """Token ids of the prompt, and the length of its shared few-shot prefix.

    Few-shot prompts are tokenized as prefix + question, separately, so that the
    prefix's tokens (and key/value cache) are the same for every question of a
    subject; a tokenizer may merge differently across the boundary otherwise.
    Zero-shot and chat-template prompts are tokenized whole.
    """
    from .scorer import encode

    if chat_template or not shots:
        return encode(lm, build_prompt(q, perm, shots), chat_template), None
    prefix = encode(lm, build_prefix(q, shots), False)
    return prefix + lm.tokenizer.encode(format_question(q, perm), add_special_tokens=False), len(prefix)


def _reusing(cfg: RunConfig) -> bool:
    return cfg.reuse_prefix and cfg.shots > 0 and cfg.batch_size == 1 and not cfg.chat_template


def score_questions(lm, questions: Sequence[Question], pool: Sequence[Question], cfg: RunConfig, out_dir: Path,
                    progress: bool = True, reuse_from: Sequence[Path] = ()) -> dict:
    """Score ``questions`` with a loaded model into ``out_dir`` (resuming), return the manifest.

    ``reuse_from``: finished run folders whose rows are copied first (see :func:`copy_rows_from`).
    """
    import torch
    import transformers

    from exactstats import __version__

    out_dir.mkdir(parents=True, exist_ok=True)
    qhash = question_set_hash(questions)
    settings = _settings(cfg, lm.name, lm.sha256, qhash, lm.dtype)
    manifest_path = out_dir / MANIFEST
    previous_wall = 0.0
    copied_before: dict[str, int] = {}
    if manifest_path.exists():
        old_manifest = json.loads(manifest_path.read_text())
        old = {**LEGACY_DEFAULTS, **old_manifest["settings"]}
        previous_wall = float(old_manifest.get("wall_s_total") or 0.0)
        copied_before = dict(old_manifest.get("rows_copied_from") or {})
        diff = sorted(k for k in settings if old.get(k) != settings[k])
        if diff:
            raise RunSettingsMismatch(f"{out_dir} holds a run with other settings ({', '.join(diff)}); use another --out")
    results_path = out_dir / RESULTS
    copied = dict(copied_before)
    for src, count in copy_rows_from(reuse_from, questions, settings, results_path).items():
        key = os.path.relpath(src, out_dir)  # stays valid when the data folder moves
        copied[key] = copied.get(key, 0) + count
    done = read_done(results_path, repair=True)
    todo = [q for q in questions if q.id not in done]
    manifest = {
        "settings": settings,
        "exactstats_version": __version__,
        "transformers_version": transformers.__version__,
        "torch_version": torch.__version__,
        "python": platform.python_version(),
        "device": lm.device,
        "threads": torch.get_num_threads(),
        "questions": len(questions),
        "questions_source": cfg.questions_source,
        "letter_token_ids": lm.letter_ids,
        "rows_copied_from": copied,
    }
    manifest_path.write_text(json.dumps({**manifest, "complete": False, "wall_s_total": previous_wall}, indent=2))
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(questions), initial=len(questions) - len(todo), desc=lm.name, unit="q", dynamic_ncols=True)
    from .scorer import PrefixCache, letter_probabilities

    prefix_cache = PrefixCache(lm) if _reusing(cfg) else None

    started = time.time()
    scored = 0
    with open(results_path, "a", encoding="utf-8") as out:
        for start in range(0, len(todo), cfg.batch_size):
            batch = todo[start : start + cfg.batch_size]
            encoded, meta = [], []
            for q in batch:
                perm = option_permutation(q.id, lm.name, cfg.seed, cfg.shuffle)
                shots = pick_shots(q, pool, cfg.shots, cfg.seed)
                while True:  # drop shots until the prompt fits the context window
                    ids, prefix_len = _encode_prompt(lm, q, perm, shots, cfg.chat_template)
                    if len(ids) <= lm.context_limit or not shots:
                        break
                    shots = shots[:-1]
                encoded.append(ids)
                meta.append((q, perm, len(shots), len(ids)))
            if prefix_cache is not None and prefix_len is not None:
                probs = [prefix_cache.probabilities(encoded[0][:prefix_len], encoded[0])]
            else:
                probs = letter_probabilities(lm, encoded)
            lines = []
            for (q, perm, used, length), (p_presented, mass) in zip(meta, probs):
                shown = max(range(4), key=lambda j: p_presented[j])
                p_orig = to_original(p_presented, perm)
                chosen = perm[shown]
                lines.append(json.dumps({
                    "model": lm.name,
                    "question_id": q.id,
                    "subject": q.subject,
                    "permutation": "".join(map(str, perm)),
                    "chosen_letter": LETTERS[shown],
                    "chosen": chosen,
                    "answer": q.answer,
                    "correct": int(chosen == q.answer),
                    "p_A": p_orig[0], "p_B": p_orig[1], "p_C": p_orig[2], "p_D": p_orig[3],
                    "letter_mass": mass,
                    "shots": used,
                    "prompt_tokens": length,
                    "error_type": q.error_type,
                }))
            out.write("\n".join(lines) + "\n")
            out.flush()
            os.fsync(out.fileno())
            scored += len(batch)
            if bar:
                bar.update(len(batch))
    if bar:
        bar.close()
    wall = time.time() - started
    rows = read_done(results_path)
    manifest.update({
        "complete": len(rows) == len(questions),
        "rows": len(rows),
        "this_run_scored": scored,
        "this_run_wall_s": round(wall, 2),
        "this_run_questions_per_s": round(scored / wall, 4) if wall > 0 and scored else None,
        "prefix_cache": {"reused": prefix_cache.reused, "fallbacks": prefix_cache.fallbacks,
                         "enabled": prefix_cache.enabled, "reason": prefix_cache.reason} if prefix_cache is not None else None,
        "wall_s_total": round(previous_wall + wall, 2),
    })
    scored_total = len(rows) - sum(copied.values())  # copied rows cost no time here
    manifest["questions_per_s"] = round(scored_total / manifest["wall_s_total"], 4) if manifest["wall_s_total"] and scored_total else None
    manifest_path.write_text(json.dumps(manifest, indent=2))
    return manifest

