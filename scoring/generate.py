"""Sampled code completions for HumanEval-style problems, resumable, one problem per batch.

The prompt is the problem's ``prompt`` as is (signature and docstring, no chat template),
and the completion is the model's continuation up to the first stop sequence of the
Codex paper (Chen et al. 2021): a new top-level ``class``, ``def``, ``#``, ``if`` or
``print``. The ``n`` samples of a problem share one forward pass over the prompt and are
decoded together; a finished sample leaves the batch at once.

Every sample draws from its own random generator, seeded from ``(seed, task_id, sample)``
alone, so a sample does not depend on which process or batch produced it, and a rerun
with the same settings reproduces the same completions (on the same hardware and
library versions: floating-point results can differ across them). Temperature 0 is
greedy decoding (one sample). Rows are written per problem; a rerun skips finished
problems and refuses other settings before the model loads.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .driver import ResumableRun
from .runfolder import RunFolder

STOP_SEQUENCES = ("\nclass", "\ndef", "\n#", "\nif", "\nprint")
PROMPT_TEMPLATE = (
    "humaneval-completion-v1: the problem's prompt as is, no chat template; the completion is "
    "the continuation up to the first stop sequence"
)
FINISH_REASONS = ("stop", "eos", "length")


def sample_key(row: dict[str, Any]) -> str:
    return f"{row['task_id']}#{row['sample']}"


@dataclass
class GenerationConfig:
    model: str
    problems: str = "humaneval"
    samples: int = 10
    temperature: float = 0.8
    top_p: float = 0.95
    max_new_tokens: int = 256
    seed: int = 0
    dtype: str = "auto"
    device: str = "auto"
    threads: int | None = None
    limit: int | None = None  # only the first N problems (smoke tests)

    def validate(self) -> None:
        if self.samples < 1:
            raise ValueError(f"--samples must be >= 1, got {self.samples}")
        if self.temperature < 0:
            raise ValueError(f"--temperature must be >= 0, got {self.temperature}")
        if self.temperature == 0 and self.samples != 1:
            raise ValueError("--temperature 0 is greedy decoding: every sample would be the same; use --samples 1")
        if not 0 < self.top_p <= 1:
            raise ValueError(f"--top-p must lie in (0, 1], got {self.top_p}")
        if self.max_new_tokens < 1:
            raise ValueError(f"--max-new-tokens must be >= 1, got {self.max_new_tokens}")


def sample_seed(seed: int, task_id: str, sample: int) -> int:
    """The random seed of one sample: a hash of (seed, task_id, sample), never of its batch or process."""
    digest = hashlib.sha256(f"{seed}|{task_id}|{sample}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def truncate_at_stop(text: str, stops: Sequence[str] = STOP_SEQUENCES) -> tuple[str, bool]:
    """``text`` cut before the earliest stop sequence, and whether one was found.

    >>> truncate_at_stop("    return 1\\n\\ndef other():\\n")
    ('    return 1\\n', True)
    """
    cut = min((i for i in (text.find(s) for s in stops) if i >= 0), default=-1)
    return (text, False) if cut < 0 else (text[:cut], True)


def generation_settings(
    cfg: GenerationConfig, model_name: str, sha: str | None, dtype: str, problems_sha: str
) -> dict[str, Any]:
    return {
        "model": model_name,
        "model_source": cfg.model,
        "model_sha256": sha,
        "problems": cfg.problems,
        "problems_sha256": problems_sha,
        "prompt_template": PROMPT_TEMPLATE,
        "stop_sequences": list(STOP_SEQUENCES),
        "samples": cfg.samples,
        "temperature": cfg.temperature,
        "top_p": cfg.top_p,
        "max_new_tokens": cfg.max_new_tokens,
        "seed": cfg.seed,
        "dtype": dtype,
        "limit": cfg.limit,
    }


def _next_tokens(logits: Any, generators: Sequence[Any], temperature: float, top_p: float) -> list[int]:
    """One token per row: greedy at temperature 0, else nucleus sampling with each row's generator."""
    import torch

    if temperature == 0:
        return list(logits.argmax(dim=-1).tolist())
    probs = torch.softmax(logits.float() / temperature, dim=-1)
    tokens = []
    for row, gen in zip(probs, generators):
        if top_p < 1:
            sorted_p, order = torch.sort(row, descending=True)
            keep = (sorted_p.cumsum(0) - sorted_p) < top_p  # the smallest set whose mass reaches top_p
            sorted_p = sorted_p * keep
            pick = torch.multinomial(sorted_p / sorted_p.sum(), 1, generator=gen)
            tokens.append(int(order[pick]))
        else:
            tokens.append(int(torch.multinomial(row, 1, generator=gen)))
    return tokens


def sample_completions(
    lm: Any,
    prompt: str,
    seeds: Sequence[int],
    temperature: float,
    top_p: float,
    max_new_tokens: int,
    stops: Sequence[str] = STOP_SEQUENCES,
) -> list[dict[str, Any]]:
    """Decode ``len(seeds)`` continuations of ``prompt`` together; one dict per sample."""
    import torch

    from .scorer import encode

    prompt_ids = encode(lm, prompt, False)
    n = len(seeds)
    generators = [torch.Generator().manual_seed(s) for s in seeds]
    eos = _eos_ids(lm)
    with torch.inference_mode():
        out = lm.model(input_ids=torch.tensor([prompt_ids], device=lm.device), use_cache=True, logits_to_keep=1)
        cache = out.cache if getattr(out, "cache", None) is not None else out.past_key_values
        cache.batch_repeat_interleave(n)
        logits = out.logits[:, -1, :].repeat(n, 1)
        generated: list[list[int]] = [[] for _ in range(n)]
        results: list[dict[str, Any] | None] = [None] * n
        active = list(range(n))
        for step in range(max_new_tokens):
            tokens = _next_tokens(logits, [generators[i] for i in active], temperature, top_p)
            still = []
            for row, tok in zip(active, tokens):
                if tok in eos:
                    results[row] = _finish(lm, generated[row], "eos", stops)
                    continue
                generated[row].append(tok)
                text, stopped = truncate_at_stop(lm.tokenizer.decode(generated[row], skip_special_tokens=True), stops)
                if stopped:
                    results[row] = {"completion": text, "finish_reason": "stop", "new_tokens": len(generated[row])}
                elif step == max_new_tokens - 1:
                    results[row] = _finish(lm, generated[row], "length", stops)
                else:
                    still.append(row)
            if not still:
                break
            if len(still) < len(active):
                positions = [active.index(r) for r in still]
                cache.batch_select_indices(torch.tensor(positions, device=lm.device))
            active = still
            position = len(prompt_ids) + step
            out = lm.model(
                input_ids=torch.tensor([[generated[r][-1]] for r in active], device=lm.device),
                cache=cache,
                use_cache=True,
                position_ids=torch.full((len(active), 1), position, device=lm.device),
                logits_to_keep=1,
            )
            logits = out.logits[:, -1, :]
    return [r for r in results if r is not None]


def _eos_ids(lm: Any) -> set[int]:
    """Token ids that end a sample: the tokenizer's and the generation config's (either may be a list)."""
    found = [lm.tokenizer.eos_token_id, getattr(lm.model.generation_config, "eos_token_id", None)]
    return {i for ids in found for i in (ids if isinstance(ids, list) else [ids]) if i is not None}


def _finish(lm: Any, ids: list[int], reason: str, stops: Sequence[str]) -> dict[str, Any]:
    text, _ = truncate_at_stop(lm.tokenizer.decode(ids, skip_special_tokens=True), stops)
    return {"completion": text, "finish_reason": reason, "new_tokens": len(ids)}


def completion_sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def generate_completions(
    lm: Any,
    problems: Sequence[dict[str, Any]],
    cfg: GenerationConfig,
    folder: RunFolder,
    settings: dict[str, Any],
    progress: bool = True,
    parallel: Any = None,
) -> dict[str, Any]:
    """Generate every missing (problem, sample) into ``folder`` (resuming) and return the manifest.

    ``settings``: the run's settings, already checked against ``folder`` (before the model loaded).
    ``parallel``: an ``accelerate.PartialState`` of several processes; see :mod:`scoring.driver`.
    A sample depends only on (seed, problem, sample), so the merged run equals a one-process run.
    """
    from .scorer import model_provenance

    run = ResumableRun(folder, parallel)
    manifest = {
        "settings": settings,
        **model_provenance(lm),
        "problems": len(problems),
        "samples_per_problem": cfg.samples,
        "processes": run.world,
    }
    done = run.start(manifest)
    todo = run.share([p for p in problems if any(f"{p['task_id']}#{s}" not in done for s in range(cfg.samples))])
    run.work(
        (_problem_rows(lm, p, cfg, done) for p in todo),
        total=len(problems),
        initial=len(problems) - len(todo),
        desc=f"{lm.name} generate",
        unit="problem",
        progress=progress,
    )
    timing = run.finish()
    if timing is None:
        return manifest  # a worker process: the main process merges and writes the manifest
    written = timing.rows.values()
    manifest.update(
        {
            "complete": len(timing.rows) == len(problems) * cfg.samples,
            **timing.fields(),
            "this_run_samples": timing.new_rows,
            "samples_per_s": timing.rate(),
            "finish_reasons": {r: sum(1 for x in written if x["finish_reason"] == r) for r in FINISH_REASONS},
        }
    )
    folder.write_manifest(manifest)
    return manifest


def _problem_rows(
    lm: Any, problem: dict[str, Any], cfg: GenerationConfig, done: dict[str, Any]
) -> list[dict[str, Any]]:
    """The rows of one problem's samples not yet in ``done``, decoded together."""
    t0 = time.time()
    seeds = [sample_seed(cfg.seed, problem["task_id"], s) for s in range(cfg.samples)]
    samples = sample_completions(lm, problem["prompt"], seeds, cfg.temperature, cfg.top_p, cfg.max_new_tokens)
    seconds = round(time.time() - t0, 3)
    return [
        {
            "model": lm.name,
            "task_id": problem["task_id"],
            "sample": s,
            "seed": seeds[s],
            **r,
            "completion_sha256": completion_sha256(r["completion"]),
            "problem_seconds": seconds,
        }
        for s, r in enumerate(samples)
        if f"{problem['task_id']}#{s}" not in done
    ]


def generation_folder(out: Path) -> RunFolder:
    return RunFolder(Path(out), sample_key, rows_name="samples.jsonl")
