"""Execute a generation run's completions against their problems' tests, in the sandbox.

Results go to ``executions.jsonl`` beside the samples (one row per problem and sample:
``passed | failed | timeout | error``, the error class, seconds, and the hash of the
completion that ran), with their own manifest (limits, Python, the protections the
sandbox had). Resumable like the other runs; several programs run at once (``workers``),
each in its own sandboxed process.
"""

from __future__ import annotations

import platform
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from pathlib import Path

from .generate import completion_sha256, generation_folder, sample_key
from .humaneval import load_problems, problems_hash
from .runfolder import RunFolder, RunSettingsMismatch
from .sandbox import STATUSES, Limits, check_completion, execution_protections

FLUSH_EVERY = 25


def execution_folder(run_dir: Path) -> RunFolder:
    return RunFolder(Path(run_dir), sample_key, rows_name="executions.jsonl", manifest_name="executions_manifest.json")


def execute_run(run_dir: Path, limits: Limits = Limits(), workers: int = 2, progress: bool = True) -> dict:
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
    protections = execution_protections()
    manifest = {
        "settings": settings,
        "exactstats_version": __version__,
        "protections": protections,
        "workers": workers,
        "generation_rows": len(samples),
    }
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(
            total=len(samples), initial=len(samples) - len(todo), desc="execute", unit="program", dynamic_ncols=True
        )
    started = time.time()

    def run_one(row: dict) -> dict:
        result = check_completion(problems[row["task_id"]], row["completion"], limits)
        return {
            "task_id": row["task_id"],
            "sample": row["sample"],
            "completion_sha256": row["completion_sha256"],
            "status": result.status,
            "error": result.error,
            "stage": result.stage,
            "seconds": result.seconds,
        }

    pending: list[dict] = []
    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        for row in pool.map(run_one, todo):
            pending.append(row)
            if bar:
                bar.update(1)
            if len(pending) >= FLUSH_EVERY:
                out.append(pending)
                pending = []
    out.append(pending)
    if bar:
        bar.close()
    rows = out.rows()
    manifest.update(
        {
            "complete": len(rows) == len(samples),
            "rows": len(rows),
            "this_run_wall_s": round(time.time() - started, 2),
            "statuses": {s: sum(1 for r in rows.values() if r["status"] == s) for s in STATUSES},
        }
    )
    out.write_manifest(manifest)
    return manifest


def verify_completion_hashes(run_dir: Path) -> int:
    """Check every stored completion against its recorded sha256; return how many were checked."""
    rows = generation_folder(run_dir).rows()
    bad = [k for k, r in rows.items() if completion_sha256(r["completion"]) != r["completion_sha256"]]
    if bad:
        raise RunSettingsMismatch(f"{run_dir}: completion hash mismatch for {bad[:3]}")
    return len(rows)
