"""Resumable scoring runs: one output folder per (model, settings), rows appended as they finish.

``results.jsonl`` gets one line per question and ``manifest.json`` the settings and
provenance, through :class:`scoring.runfolder.RunFolder` (fsync per batch, torn last
line cut on resume, other settings refused before the model loads). A rerun with the
same settings skips the questions already scored.

A run over a larger question set can start from a finished run over a subset
(``reuse_from``): rows are copied when every setting but the question set is the
same, because a row depends only on the model, the settings and the question
(the option permutation is keyed by question id, not by position in the sample).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .driver import ResumableRun
from .prompts import PROMPT_TEMPLATE_VERSION, option_permutation, pick_shots, template_hash, to_original
from .questions import LETTERS, Question
from .runfolder import RunFolder, RunSettingsMismatch, read_rows

__all__ = [
    "RunConfig",
    "RunSettingsMismatch",
    "score_questions",
    "run_settings",
    "question_set_hash",
    "read_done",
    "copy_rows_from",
    "result_row",
    "run_folder",
]

RESULTS = "results.jsonl"
MANIFEST = "manifest.json"
# Settings added after runs were first written: what a manifest without them meant.
LEGACY_DEFAULTS = {
    "prefix_reuse": False,
    "letter_spelling": "both",
    "cross_reference_filter": "v1",
    "format": "letter",
    "shots_from": "pool",
    "shots_source_sha256": None,
}
FORMATS = ("letter", "cloze")


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
    letter_spelling: str = "space"
    cross_reference_filter: str = "v2"
    format: str = "letter"  # "cloze": score each option's text as the continuation (scoring.cloze)
    shots_from: str = "pool"  # "dev": the subject's first k questions of MMLU's dev split, as lm-eval

    def validate(self) -> None:
        """Refuse settings no run can have (before anything loads)."""
        if self.shots_from not in ("pool", "dev"):
            raise ValueError(f"shots_from must be pool or dev, got {self.shots_from!r}")
        if self.format not in FORMATS:
            raise ValueError(f"format must be one of {', '.join(FORMATS)}, got {self.format!r}")

    @property
    def reusing_prefix(self) -> bool:
        return (
            self.reuse_prefix
            and self.shots > 0
            and self.batch_size == 1
            and not self.chat_template
            and self.format == "letter"
        )


def _question_key(row: dict[str, Any]) -> str:
    return str(row["question_id"])


def run_folder(out_dir: Path) -> RunFolder:
    return RunFolder(Path(out_dir), _question_key, RESULTS, MANIFEST, legacy_defaults=LEGACY_DEFAULTS)


def read_done(path: Path, repair: bool = False) -> dict[str, dict[str, Any]]:
    """Complete rows of a ``results.jsonl`` by question id; a torn trailing line is never read."""
    return read_rows(Path(path), _question_key, repair=repair)


def question_set_hash(questions: Sequence[Question]) -> str:
    h = hashlib.sha256()
    for q in questions:
        h.update(json.dumps(q.to_json(), sort_keys=True).encode())
    return h.hexdigest()[:16]


def run_settings(
    cfg: RunConfig, model_name: str, sha: str | None, qhash: str, dtype: str, shots_hash: str | None = None
) -> dict[str, Any]:
    """What a row depends on; a folder holds rows of one setting only."""
    from .cloze import CLOZE_TEMPLATE_VERSION

    template = PROMPT_TEMPLATE_VERSION if cfg.format == "letter" else CLOZE_TEMPLATE_VERSION
    return {
        "model": model_name,
        "model_source": cfg.model,
        "model_sha256": sha,
        "format": cfg.format,
        "prompt_template": template,
        "prompt_template_sha256": template_hash() if cfg.format == "letter" else template_hash(template),
        "chat_template": cfg.chat_template,
        "seed": cfg.seed,
        "shots": cfg.shots,
        "shuffle": cfg.shuffle,
        "dtype": dtype,
        "question_set_sha256": qhash,
        "prefix_reuse": cfg.reusing_prefix,
        "letter_spelling": cfg.letter_spelling,
        "cross_reference_filter": cfg.cross_reference_filter if cfg.shuffle_safe_only else "off",
        "shots_from": cfg.shots_from,
        "shots_source_sha256": shots_hash if cfg.shots_from == "dev" else None,
    }


def copy_rows_from(
    sources: Sequence[Path], questions: Sequence[Question], settings: dict[str, Any], folder: RunFolder
) -> dict[str, int]:
    """Append rows of finished runs with the same settings (bar the question set); return counts per source.

    Only rows for questions in ``questions`` not yet in ``folder`` are copied, and
    each copied row must agree with the question (subject, answer, error label).
    """
    wanted = {q.id: q for q in questions}
    copied: dict[str, int] = {}
    for src in map(Path, sources):
        source = run_folder(src)
        if source.manifest() is None:
            raise FileNotFoundError(f"reuse_from: {src} has no {MANIFEST}")
        try:
            source.check_settings(settings, ignore=("question_set_sha256",))
        except RunSettingsMismatch as exc:
            raise RunSettingsMismatch(f"reuse_from: {exc}") from None
        done = folder.rows(repair=True)
        rows = [r for qid, r in source.rows().items() if qid in wanted and qid not in done]
        for r in rows:
            q = wanted[r["question_id"]]
            if (r["subject"], r["answer"], r["error_type"]) != (q.subject, q.answer, q.error_type):
                raise RunSettingsMismatch(f"reuse_from: {src} row for {q.id} does not match the question")
        folder.append(rows)
        copied[str(src)] = len(rows)
    return copied


def result_row(
    model_name: str,
    q: Question,
    perm: Sequence[int],
    shots_used: int,
    prompt_tokens: int,
    p_presented: Sequence[float],
    mass: float,
) -> dict[str, Any]:
    """One question's row: the letter the model put most probability on, mapped back to the original option."""
    shown = max(range(4), key=lambda j: p_presented[j])
    p_orig = to_original(p_presented, perm)
    chosen = perm[shown]
    return {
        "model": model_name,
        "question_id": q.id,
        "subject": q.subject,
        "permutation": "".join(map(str, perm)),
        "chosen_letter": LETTERS[shown],
        "chosen": chosen,
        "answer": q.answer,
        "correct": int(chosen == q.answer),
        "p_A": p_orig[0],
        "p_B": p_orig[1],
        "p_C": p_orig[2],
        "p_D": p_orig[3],
        "letter_mass": mass,
        "shots": shots_used,
        "prompt_tokens": prompt_tokens,
        "error_type": q.error_type,
    }


def _score_batch(
    lm: Any, batch: Sequence[Question], pool: Sequence[Question], cfg: RunConfig, prefix_cache: Any
) -> list[dict[str, Any]]:
    """Encode, score and turn into rows one batch of questions."""
    from .scorer import encode_question, letter_probabilities

    if cfg.format == "cloze":
        return [_score_cloze(lm, q, pool, cfg) for q in batch]

    encoded = []
    for q in batch:
        perm = option_permutation(q.id, lm.name, cfg.seed, cfg.shuffle)
        shots = pick_shots(q, pool, cfg.shots, cfg.seed, cfg.shots_from)
        ids, prefix_len, used = encode_question(lm, q, perm, shots, cfg.chat_template)
        encoded.append((q, perm, used, ids, prefix_len))
    if prefix_cache is not None and encoded[0][4] is not None:
        probs = [prefix_cache.probabilities(encoded[0][3][: encoded[0][4]], encoded[0][3])]
    else:
        probs = letter_probabilities(lm, [e[3] for e in encoded])
    return [
        result_row(lm.name, q, perm, used, len(ids), p, mass)
        for (q, perm, used, ids, _), (p, mass) in zip(encoded, probs)
    ]


def _score_cloze(lm: Any, q: Question, pool: Sequence[Question], cfg: RunConfig) -> dict[str, Any]:
    from .cloze import cloze_row, cloze_scores

    shots = pick_shots(q, pool, cfg.shots, cfg.seed, cfg.shots_from)
    while True:
        sums, tokens, prompt_tokens = cloze_scores(lm, q, shots)
        if prompt_tokens + max(tokens) <= lm.context_limit or not shots:
            return cloze_row(lm.name, q, len(shots), prompt_tokens, sums, tokens)
        shots = shots[:-1]  # too long for the context window: drop shots from the end


def _provenance(lm: Any, cfg: RunConfig, questions: Sequence[Question], copied: dict[str, Any]) -> dict[str, Any]:
    from .scorer import model_provenance

    return {
        **model_provenance(lm),
        "questions": len(questions),
        "questions_source": cfg.questions_source,
        "letter_token_ids": lm.letter_ids if cfg.format == "letter" else None,
        "rows_copied_from": copied,
    }


def score_questions(
    lm: Any,
    questions: Sequence[Question],
    pool: Sequence[Question],
    cfg: RunConfig,
    out_dir: Path,
    progress: bool = True,
    reuse_from: Sequence[Path] = (),
    parallel: Any = None,
    settings: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Score ``questions`` with a loaded model into ``out_dir`` (resuming), return the manifest.

    ``reuse_from``: finished run folders whose rows are copied first (see :func:`copy_rows_from`).
    ``parallel``: an ``accelerate.PartialState`` of several processes (``accelerate launch``); see
    :mod:`scoring.driver`. ``settings``: the run's settings, already checked against the folder
    (``python -m scoring run`` checks them before the model loads); computed and checked here when None.
    """
    from .scorer import PrefixCache

    _check_run_fits_model(cfg, lm)
    folder = run_folder(out_dir)
    if settings is None:
        shots_hash = question_set_hash(pool) if cfg.shots_from == "dev" else None
        settings = run_settings(cfg, lm.name, lm.sha256, question_set_hash(questions), lm.dtype, shots_hash)
        folder.check_settings(settings)
    previous = folder.manifest() or {}
    copied = dict(previous.get("rows_copied_from") or {})
    run = ResumableRun(folder, parallel, copied_rows=sum(copied.values()))
    manifest = {"settings": settings, **_provenance(lm, cfg, questions, copied), "processes": run.world}

    def copy_first() -> None:
        _record_copies(copy_rows_from(reuse_from, questions, settings, folder), out_dir, copied)
        run.copied_rows = sum(copied.values())

    done = run.start(manifest, before=copy_first)
    todo = run.share([q for q in questions if q.id not in done])
    prefix_cache = PrefixCache(lm) if cfg.reusing_prefix else None
    batches = (todo[i : i + cfg.batch_size] for i in range(0, len(todo), cfg.batch_size))
    run.work(
        (_score_batch(lm, batch, pool, cfg, prefix_cache) for batch in batches),
        total=len(questions),
        initial=len(questions) - len(todo),
        desc=lm.name,
        unit="q",
        progress=progress,
        weight=len,
    )
    timing = run.finish()
    if timing is None:
        return manifest  # a worker process: the main process merges and writes the manifest
    manifest.update(
        {
            "complete": len(timing.rows) == len(questions),
            **timing.fields(),
            "this_run_scored": timing.new_rows,
            "this_run_questions_per_s": _speed(timing.new_rows, timing.wall_s) if todo else None,
            "prefix_cache": _prefix_cache_stats(prefix_cache),
            "questions_per_s": timing.rate(),
        }
    )
    folder.write_manifest(manifest)
    return manifest


def _record_copies(counts: dict[str, int], out_dir: Path, copied: dict[str, int]) -> None:
    """Add rows copied from other runs to the manifest's record, by path relative to the run folder."""
    for src, count in counts.items():
        key = os.path.relpath(src, out_dir)  # stays valid when the data folder moves
        copied[key] = copied.get(key, 0) + count


def _check_run_fits_model(cfg: RunConfig, lm: Any) -> None:
    cfg.validate()
    if lm.letter_spelling != cfg.letter_spelling:
        raise ValueError(
            f"the model was loaded with letter spelling {lm.letter_spelling!r}, the run asks for "
            f"{cfg.letter_spelling!r}"
        )


def _speed(rows: int, seconds: float) -> float | None:
    return round(rows / seconds, 4) if seconds > 0 else None


def _prefix_cache_stats(cache: Any) -> dict[str, Any] | None:
    if cache is None:
        return None
    return {"reused": cache.reused, "fallbacks": cache.fallbacks, "enabled": cache.enabled, "reason": cache.reason}
