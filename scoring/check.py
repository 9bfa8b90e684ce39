"""``make data-check``: re-score committed rows with the smallest model and compare.

The chosen option must match exactly; the four probabilities and the letter mass
within ``TOLERANCE`` (absolute), which allows for float summation order across
CPUs and library builds.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from .questions import load_redux
from .run import RunConfig, read_done, score_questions

TOLERANCE = 1e-4
CHECK_RUN = Path("runs") / "shuffled-2000" / "smollm2-135m-instruct"


def check_dataset(data_dir: Path, n: int = 20) -> tuple[bool, str]:
    from .scorer import load_model

    run_dir = data_dir / CHECK_RUN
    manifest = json.loads((run_dir / "manifest.json").read_text())
    settings = manifest["settings"]
    committed = read_done(run_dir / "results.jsonl")
    ids = sorted(committed)[:n]
    by_id = {q.id: q for q in load_redux()}
    questions = [by_id[i] for i in ids]
    lm = load_model(settings["model_source"], dtype=settings["dtype"], threads=2)
    cfg = RunConfig(
        model=settings["model_source"],
        questions_source="redux",
        n=None,
        seed=settings["seed"],
        shots=settings["shots"],
        shuffle=settings["shuffle"],
        chat_template=settings["chat_template"],
    )
    with tempfile.TemporaryDirectory() as tmp:
        score_questions(lm, questions, list(by_id.values()), cfg, Path(tmp), progress=False)
        fresh = read_done(Path(tmp) / "results.jsonl")
    problems = []
    worst = 0.0
    for i in ids:
        a, b = committed[i], fresh[i]
        for key in ("chosen", "chosen_letter", "correct", "permutation", "answer"):
            if a[key] != b[key]:
                problems.append(f"{i}: {key} committed {a[key]!r}, re-scored {b[key]!r}")
        for key in ("p_A", "p_B", "p_C", "p_D", "letter_mass"):
            worst = max(worst, abs(a[key] - b[key]))
    if worst > TOLERANCE:
        problems.append(f"largest probability difference {worst:.2e} exceeds {TOLERANCE:.0e}")
    head = f"re-scored {len(ids)} committed rows of {settings['model']}: largest probability difference {worst:.2e}"
    return not problems, "\n".join([head] + problems + (["OK"] if not problems else []))


def check_passk(data_dir: Path, n: int = 20, seed: int = 0) -> tuple[bool, str]:
    """Re-execute ``n`` stored completions (spread over models and statuses, timeouts left out) and compare.

    Each completion's hash must match its stored hash, and its status must be the stored one.
    Timeouts are not re-run here: each costs the full wall-clock limit and depends on load.
    """
    import random

    from .execute import verify_completion_hashes
    from .humaneval import load_problems
    from .passk_data import PREFIX, run_rows
    from .sandbox import check_completion

    problems = {p["task_id"]: p for p in load_problems()}
    rows = []
    for run_dir in sorted((data_dir / "runs").glob(f"{PREFIX}*/*")):
        if (run_dir / "samples.jsonl").exists():
            verify_completion_hashes(run_dir)
            rows += [r for r in run_rows(run_dir) if r["status"] != "timeout"]
    if not rows:
        return True, "no executed completions committed yet: nothing to re-execute"
    rng = random.Random(seed)
    groups: dict[tuple, list[dict]] = {}
    for r in rows:
        groups.setdefault((r["model"], r["status"]), []).append(r)
    picked: list[dict] = []
    while len(picked) < min(n, len(rows)):  # round-robin over (model, status) groups
        for g in groups.values():
            if g and len(picked) < n:
                picked.append(g.pop(rng.randrange(len(g))))
    problems_found = [
        f"{r['model']} {r['task_id']}#{r['sample']}: stored {r['status']}, re-executed {s}"
        for r in picked
        if (s := check_completion(problems[r["task_id"]], r["completion"]).status) != r["status"]
    ]
    head = f"re-executed {len(picked)} stored completions of {len({r['model'] for r in picked})} model(s)"
    return not problems_found, "\n".join([head] + problems_found + ([] if problems_found else ["OK"]))
