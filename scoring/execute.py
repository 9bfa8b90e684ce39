"""Execute a generation run's completions against their problems' tests, in the sandbox.

Results go to ``executions.jsonl`` beside the samples (one row per problem and sample:
``passed | failed | timeout | error``, the error class, seconds, and the hash of the
completion that ran), with their own manifest (limits, Python, the protections the
sandbox had). Resumable like the other runs; several programs run at once (``workers``),
each in its own sandboxed process.
"""

from __future__ import annotations

import platform
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from pathlib import Path
from typing import Any

from .driver import ResumableRun
from .generate import completion_sha256, generation_folder, sample_key
from .humaneval import load_problems, problems_hash
from .runfolder import RunFolder, RunSettingsMismatch
from .sandbox import STATUSES, Limits, check_completion, execution_protections

FLUSH_EVERY = 25


def execution_folder(run_dir: Path) -> RunFolder:
    return RunFolder(Path(run_dir), sample_key, rows_name="executions.jsonl", manifest_name="executions_manifest.json")


def execute_run(run_dir: Path, limits: Limits = Limits(), workers: int = 2, progress: bool = True) -> dict[str, Any]:
    """Run every not yet executed sample of ``run_dir``; return the execution manifest."""
    from exactstats import __version__

    gen = generation_folder(run_dir)
    gen_manifest = gen.manifest()
    if gen_manifest is None:
        raise FileNotFoundError(f"{run_dir} has no generation manifest (run `scoring generate` first)")
    problems = {p["task_id"]: p for p in load_problems(gen_manifest["settings"]["problems"])}
    if problems_hash(list(problems.values())) != gen_manifest["settings"]["problems_sha256"]:
        raise RunSettingsMismatch(f"{run_dir}: the installed problems differ from the ones the samples were made for")
    samples = gen.rows()
    out = execution_folder(run_dir)
    settings = {"limits": asdict(limits), "python": platform.python_version()}
    out.check_settings(settings)
    done = out.rows(repair=True)
    stale = [k for k, r in done.items() if k in samples and r["completion_sha256"] != samples[k]["completion_sha256"]]
    if stale:
        raise RunSettingsMismatch(
            f"{run_dir}: executions of {len(stale)} samples (e.g. {stale[0]}) ran other completions"
        )
    todo = [r for k, r in samples.items() if k not in done]
    run = ResumableRun(out)
    manifest = {
        "settings": settings,
        "exactstats_version": __version__,
        "protections": execution_protections(),
        "workers": workers,
        "generation_rows": len(samples),
    }
    run.start(manifest)
    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        results = pool.map(lambda row: _execute_one(problems[row["task_id"]], row, limits), todo)
        run.work(
            _pieces(results, FLUSH_EVERY),
            total=len(samples),
            initial=len(samples) - len(todo),
            desc="execute",
            unit="program",
            progress=progress,
            weight=len,
        )
    timing = run.finish()
    assert timing is not None  # one process: it is the main one
    rows = timing.rows.values()
    manifest.update(
        {
            "complete": len(timing.rows) == len(samples),
            **timing.fields(),
            "statuses": {s: sum(1 for r in rows if r["status"] == s) for s in STATUSES},
        }
    )
    out.write_manifest(manifest)
    return manifest


def _execute_one(problem: dict[str, Any], row: dict[str, Any], limits: Limits) -> dict[str, Any]:
    """One sample run against its problem's tests in the sandbox; the verdict comes from the parent."""
    result = check_completion(problem, row["completion"], limits)
    return {
        "task_id": row["task_id"],
        "sample": row["sample"],
        "completion_sha256": row["completion_sha256"],
        "status": result.status,
        "error": result.error,
        "stage": result.stage,
        "seconds": result.seconds,
    }


def _pieces(rows: Iterator[dict[str, Any]], size: int) -> Iterator[list[dict[str, Any]]]:
    """Rows in lists of ``size`` as they come (the last one shorter): each list is written at once."""
    piece: list[dict[str, Any]] = []
    for row in rows:
        piece.append(row)
        if len(piece) >= size:
            yield piece
            piece = []
    if piece:
        yield piece


def verify_completion_hashes(run_dir: Path) -> int:
    """Check every stored completion against its recorded sha256; return how many were checked."""
    rows = generation_folder(run_dir).rows()
    bad = [k for k, r in rows.items() if completion_sha256(r["completion"]) != r["completion_sha256"]]
    if bad:
        raise RunSettingsMismatch(f"{run_dir}: completion hash mismatch for {bad[:3]}")
    return len(rows)
