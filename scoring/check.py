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
