"""``make data-check``: whole-file consistency checks on every committed row, then re-score a sample and compare.

:func:`check_files` reads every run folder and checks each row against itself and its manifest
(cheap, every row): no torn last line, the model and settings of every row are the manifest's,
``correct`` agrees with ``chosen`` and ``answer``, execution rows ran the stored completion and
carry a known status, and the manifest's counts are the rows' counts. A forged row, a renamed
model or a failed run marked passed is caught without re-scoring everything.

Re-scoring (:func:`check_dataset`): the chosen option must match exactly; the four probabilities and the letter mass
(cloze rows: the option log-likelihoods, relative to their size) within
``TOLERANCE``, which allows for float summation order across CPUs and library builds.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

from scoring.questions import Question, load_redux
from scoring.run import RunConfig, read_done, score_questions

TOLERANCE = 1e-4


def _cut_off(path: Path) -> bool:
    """A rows file whose last byte is not a newline: a run stopped while writing (only that byte is read)."""
    if not path.exists() or path.stat().st_size == 0:
        return False
    with open(path, "rb") as f:
        f.seek(-1, 2)
        return f.read(1) != b"\n"


def _folder_problems(run_dir: Path) -> list[str]:
    """Whole-file checks of one scoring or generation run folder; an empty list when all hold."""
    from scoring.execute import execution_folder
    from scoring.generate import generation_folder
    from scoring.run import run_folder
    from scoring.runfolder import CorruptRunFile
    from scoring.sandbox import STATUSES

    scores, samples_folder, executions = run_folder(run_dir), generation_folder(run_dir), execution_folder(run_dir)
    out = [
        f"{f.rows_path}: the last line is cut off (a run stopped while writing it)"
        for f in (scores, samples_folder, executions)
        if _cut_off(f.rows_path)
    ]
    try:
        manifest = scores.manifest()  # the same file for scoring and generation runs; checked as it is read
        if manifest is None:
            return out + [f"{run_dir}/manifest.json: missing"]
        settings = manifest["settings"]
        if scores.rows_path.exists():
            for key, row in scores.rows().items():
                if row.get("model") != settings.get("model"):
                    out.append(
                        f"{run_dir}: row {key} names model {row.get('model')!r}, the manifest {settings.get('model')!r}"
                    )
                if "chosen" in row and "answer" in row and row.get("correct") != int(row["chosen"] == row["answer"]):
                    out.append(f"{run_dir}: row {key}: correct = {row.get('correct')!r} contradicts chosen and answer")
        if executions.rows_path.exists():
            samples, rows = samples_folder.rows(), executions.rows()
            for key, row in rows.items():
                if row.get("status") not in STATUSES:
                    out.append(f"{run_dir}: execution {key} has status {row.get('status')!r}")
                if key not in samples or samples[key]["completion_sha256"] != row.get("completion_sha256"):
                    out.append(f"{run_dir}: execution {key} did not run the stored completion")
            recorded = (executions.manifest() or {}).get("statuses")
            counted = {s: sum(1 for r in rows.values() if r.get("status") == s) for s in STATUSES}
            if recorded is not None and recorded != counted:
                out.append(f"{run_dir}: the execution manifest counts {recorded}, the rows {counted}")
    except (CorruptRunFile, KeyError, TypeError) as exc:
        out.append(f"{run_dir}: {exc}")
    return out


def check_files(data_dir: Path) -> tuple[bool, str]:
    """Every committed run folder, every row: the cheap checks of :func:`_folder_problems`."""
    folders = [d for d in sorted((data_dir / "runs").glob("*/*")) if d.is_dir()]
    problems = [p for d in folders for p in _folder_problems(d)]
    head = f"checked every row of {len(folders)} run folders against themselves and their manifests"
    return not problems, "\n".join([head] + problems[:50] + ([] if problems else ["OK"]))


def check_dataset(data_dir: Path, n: int = 20, models: list[str] | None = None, seed: int = 0) -> tuple[bool, str]:
    """Re-score ``n`` committed rows spread over the conditions, models and subjects, and compare.

    Rows are drawn round-robin over (condition, model) groups, each group's rows in a seeded
    random order with one row per subject before a subject repeats. ``models`` limits the
    models (the test suite re-scores the two small ones; ``make data-check`` all of them).
    """
    from scoring.scorer import load_model

    by_id = {q.id: q for q in load_redux()}
    committed, skipped = _committed_runs(data_dir, models)
    picked = _round_robin({group: _spread(run["rows"], f"{seed}|{run['dir']}") for group, run in committed.items()}, n)
    problems: list[str] = []
    worst, checked = 0.0, 0
    loaded: dict[tuple[str, ...], object] = {}
    # groups that need the same loaded model run together: each model is loaded once per spelling
    for group, ids in sorted(picked.items(), key=lambda kv: _model_key(committed[kv[0]]["settings"])):
        if not ids:
            continue
        settings = committed[group]["settings"]
        key = _model_key(settings)
        if key not in loaded:
            loaded.clear()  # one model in memory at a time
            loaded[key] = load_model(
                settings["model_source"],
                dtype=settings["dtype"],
                threads=1,
                letter_spelling=settings["letter_spelling"],
            )
        fresh = _rescore(loaded[key], settings, [by_id[i] for i in ids], list(by_id.values()))
        found, difference = _compare("/".join(group), settings, committed[group]["rows"], fresh, ids)
        problems += found
        worst = max(worst, difference)
        checked += len(ids)
    if worst > TOLERANCE:
        problems.append(f"largest probability difference {worst:.2e} exceeds {TOLERANCE:.0e}")
    where = ", ".join(f"{c}/{m}: {len(ids)}" for (c, m), ids in picked.items() if ids)
    head = f"re-scored {checked} committed rows ({where}): largest probability difference {worst:.2e}"
    notes = [f"not re-scored: {', '.join(skipped)}"] if skipped else []
    return not problems, "\n".join([head] + notes + problems + (["OK"] if not problems else []))


def _committed_runs(
    data_dir: Path, models: list[str] | None
) -> tuple[dict[tuple[str, str], dict[str, Any]], list[str]]:
    """Scoring run folders by (condition, model): folder, rows and recorded settings; and those left out."""
    from scoring.run import run_folder

    committed: dict[tuple[str, str], dict[str, Any]] = {}
    skipped: list[str] = []
    for run_dir in sorted((data_dir / "runs").glob("*/*")):
        folder = run_folder(run_dir)
        settings = folder.recorded_settings() if (run_dir / "results.jsonl").exists() else None
        if settings is None or (models is not None and settings["model"] not in models):
            continue
        if settings["shots_from"] == "dev":  # its shots come from a dev split the dataset does not ship
            skipped.append(f"{run_dir.parent.name}/{settings['model']} (dev-split shots, not shipped)")
            continue
        committed[(run_dir.parent.name, settings["model"])] = {
            "dir": run_dir,
            "rows": folder.rows(),
            "settings": settings,
        }
    return committed, skipped


def _spread(rows: dict[str, dict[str, Any]], seed: str) -> list[str]:
    """Question ids in a seeded order that takes one per subject before any subject repeats."""
    rng = random.Random(seed)
    by_subject: dict[str, list[str]] = {}
    for qid in sorted(rows):
        by_subject.setdefault(rows[qid]["subject"], []).append(qid)
    for ids in by_subject.values():
        rng.shuffle(ids)
    subjects = sorted(by_subject)
    rng.shuffle(subjects)
    deepest = max(map(len, by_subject.values()), default=0)
    return [by_subject[s][r] for r in range(deepest) for s in subjects if r < len(by_subject[s])]


def _round_robin(groups: dict[tuple[str, str], list[str]], n: int) -> dict[tuple[str, str], list[str]]:
    """``n`` ids taken one group at a time, in each group's order."""
    picked: dict[tuple[str, str], list[str]] = {key: [] for key in groups}
    queues = {key: list(ids) for key, ids in groups.items()}
    total = 0
    while total < n and any(queues.values()):
        for key, ids in queues.items():
            if ids and total < n:
                picked[key].append(ids.pop(0))
                total += 1
    return picked


def _model_key(settings: dict[str, Any]) -> tuple[str, ...]:
    """What a loaded model depends on (recorded settings: legacy defaults filled in)."""
    return (settings["model_source"], settings["dtype"], settings["letter_spelling"])


def _rescore(
    lm: object, settings: dict[str, Any], questions: list[Question], pool: list[Question]
) -> dict[str, dict[str, Any]]:
    """The rows a fresh run with the recorded settings writes for ``questions``."""
    cfg = RunConfig(
        model=settings["model_source"],
        questions_source="redux",
        n=None,
        seed=settings["seed"],
        shots=settings["shots"],
        shuffle=settings["shuffle"],
        chat_template=settings["chat_template"],
        letter_spelling=settings["letter_spelling"],
        cross_reference_filter=settings["cross_reference_filter"],
        format=settings["format"],
        shots_from=settings["shots_from"],
    )
    with tempfile.TemporaryDirectory() as tmp:
        score_questions(lm, questions, pool, cfg, Path(tmp), progress=False)
        return read_done(Path(tmp) / "results.jsonl")


def _compare(
    where: str, settings: dict[str, Any], rows: dict[str, Any], fresh: dict[str, Any], ids: list[str]
) -> tuple[list[str], float]:
    """Fields that differ between committed and re-scored rows, and the largest probability difference."""
    cloze = settings["format"] == "cloze"
    exact_fields = ("chosen", "chosen_norm") if cloze else ("chosen", "chosen_letter", "permutation")
    close_fields = ("p_A", "p_B", "p_C", "p_D") + (() if cloze else ("letter_mass",))
    problems: list[str] = []
    worst = 0.0
    for i in ids:
        a, b = rows[i], fresh[i]
        for field in (*exact_fields, "correct", "answer"):
            if a[field] != b[field]:
                problems.append(f"{where} {i}: {field} committed {a[field]!r}, re-scored {b[field]!r}")
        worst = max(worst, *(abs(a[f] - b[f]) for f in close_fields))
        if cloze:  # log-likelihoods: relative to their size
            worst = max(
                worst, *(abs(a[f"loglik_{L}"] - b[f"loglik_{L}"]) / max(1.0, abs(a[f"loglik_{L}"])) for L in "ABCD")
            )
    return problems, worst


def check_passk(data_dir: Path, n: int = 20, seed: int = 0) -> tuple[bool, str]:
    """Re-execute ``n`` stored completions (spread over models and statuses, timeouts left out) and compare.

    Each completion's hash must match its stored hash, and its status must be the stored one.
    Timeouts are not re-run here: each costs the full wall-clock limit and depends on load.
    """
    from scoring.execute import verify_completion_hashes
    from scoring.humaneval import load_problems
    from scoring.sandbox import check_completion

    from .passk_data import PREFIX, run_rows

    problems = {p["task_id"]: p for p in load_problems()}
    rows = []
    for run_dir in sorted((data_dir / "runs").glob(f"{PREFIX}*/*")):
        if (run_dir / "samples.jsonl").exists():
            verify_completion_hashes(run_dir)
            rows += [r for r in run_rows(run_dir) if r["status"] != "timeout"]
    if not rows:
        return True, "no executed completions committed yet: nothing to re-execute"
    rng = random.Random(seed)
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault((r["model"], r["status"]), []).append(r)
    picked: list[dict[str, Any]] = []
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
