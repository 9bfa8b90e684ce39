"""``exactstats report`` on a models x tasks table of scores (HELM's scenarios, MTEB's datasets, categories).

Read a long table (``model``, ``task``, ``score``) or, with ``--scores``, a wide one (a ``model``
column and one column per task); scores stay exact (read as text: ``0.8734`` is ``8734/10000``).
Each number is one call of :mod:`exactstats.tasks`: models ranked by their mean score, neighbours
compared by the exact sign-flip test over tasks with Holm, tiers from Holm over every pair, and
the smallest p-value the number of tasks allows, which says whether any pair can be separated.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from fractions import Fraction
from pathlib import Path
from typing import Any

from .._validate import ExactStatsError, as_fraction
from ..errorbars import clustered_interval_float
from ..multiplicity import bh_adjust, tiers_from_separation
from ..tasks import compare_on_tasks, smallest_p_value, tasks_needed
from .csv_rows import read_csv_rows
from .render import Block, html_from_blocks, markdown_from_blocks

__all__ = ["TaskTable", "TaskReport", "analyse_tasks", "is_task_table", "read_task_table", "task_markdown"]

ALPHA = Fraction(1, 20)
LONG_COLUMNS = {"model", "task", "score"}


@dataclass
class TaskTable:
    models: list[str]
    tasks: list[str]
    scores: list[list[Fraction]]  # models x tasks
    source: str
    dropped_tasks: list[str] = field(default_factory=list)


def is_task_table(columns: Any) -> bool:
    """A long table of scores per model and task (and not of 0/1 per question)."""
    return LONG_COLUMNS <= set(columns) and "question_id" not in set(columns)


def read_task_table(path: str, wide: bool = False, intersect: bool = False) -> TaskTable:
    """Scores per model and task from a CSV, exact; a missing score is an error naming its model and task
    unless ``intersect`` (then tasks some model lacks are dropped, and the report says which)."""
    if Path(path).suffix != ".csv":
        raise ExactStatsError(f"{path}: a table of task scores must be a .csv file")
    header, rows = read_csv_rows(path)
    cells = _wide_cells(path, header, rows) if wide else _long_cells(path, header, rows)
    models = list(dict.fromkeys(m for m, _ in cells))
    tasks = list(dict.fromkeys(t for _, t in cells))
    missing = [(m, t) for m in models for t in tasks if (m, t) not in cells]
    dropped: list[str] = []
    if missing and not intersect:
        m, t = missing[0]
        raise ExactStatsError(
            f"{path}: model {m!r} has no score for task {t!r} ({len(missing)} missing in all); "
            "pass --intersect to keep only the tasks every model has"
        )
    if missing:
        dropped = sorted({t for _, t in missing}, key=tasks.index)
        tasks = [t for t in tasks if t not in dropped]
    if len(models) < 2 or len(tasks) < 2:
        raise ExactStatsError(
            f"{path}: a task leaderboard needs at least 2 models and 2 shared tasks, got {len(models)} and {len(tasks)}"
        )
    return TaskTable(models, tasks, [[cells[(m, t)] for t in tasks] for m in models], str(path), dropped)


def _score(path: str, line: int, text: str, what: str) -> Fraction:
    try:
        return as_fraction(text.strip(), "score")
    except ExactStatsError:
        raise ExactStatsError(f"{path}, line {line}: {what} must be a number, got {text!r}") from None


def _long_cells(path: str, header: list[str], rows: list[tuple[int, list[str]]]) -> dict[tuple[str, str], Fraction]:
    if not LONG_COLUMNS <= set(header):
        raise ExactStatsError(f"{path}: a long table of task scores needs columns model, task, score")
    col = {name: header.index(name) for name in LONG_COLUMNS}
    cells: dict[tuple[str, str], Fraction] = {}
    for line, row in rows:
        model, task, text = row[col["model"]].strip(), row[col["task"]].strip(), row[col["score"]]
        if not model or not task:
            raise ExactStatsError(f"{path}, line {line}: empty model or task name")
        if not text.strip():
            continue  # a missing score: reported with the other missing cells
        if (model, task) in cells:
            raise ExactStatsError(f"{path}, line {line}: a second score for model {model!r} on task {task!r}")
        cells[(model, task)] = _score(path, line, text, f"the score of {model!r} on {task!r}")
    return cells


def _wide_cells(path: str, header: list[str], rows: list[tuple[int, list[str]]]) -> dict[tuple[str, str], Fraction]:
    if "model" not in header:
        raise ExactStatsError(f"{path}: a wide table of task scores needs a 'model' column and one column per task")
    dups = sorted({h for h in header if header.count(h) > 1})
    if dups:
        raise ExactStatsError(f"{path}: column {dups[0]!r} appears more than once in the header")
    m = header.index("model")
    cells: dict[tuple[str, str], Fraction] = {}
    seen: set[str] = set()
    for line, row in rows:
        model = row[m].strip()
        if not model:
            raise ExactStatsError(f"{path}, line {line}: empty model name")
        if model in seen:
            raise ExactStatsError(f"{path}, line {line}: model {model!r} appears twice")
        seen.add(model)
        for task, text in zip(header, row):
            if task != "model" and text.strip():
                cells[(model, task)] = _score(path, line, text, f"the score of {model!r} on {task!r}")
    return cells


# --- the report -------------------------------------------------------------------------------------


@dataclass
class TaskEntry:
    model: str
    mean: float
    mean_exact: str
    t95: list[float]  # over tasks: Student t on T - 1 degrees of freedom


@dataclass
class TaskPairRow:
    better: str
    worse: str
    wins: int
    losses: int
    ties: int
    mean_difference: float
    paired95: list[float]
    p: float
    p_exact: str
    p_holm: float
    separated: bool


@dataclass
class TaskReport:
    models: int
    tasks: int
    source: str
    leaderboard: list[TaskEntry]
    adjacent_pairs: list[TaskPairRow]
    tiers: list[list[str]]
    smallest_p: float
    smallest_p_exact: str
    pairs_separable: bool  # can any pair pass Holm over all pairs at 5%, whatever the scores?
    dropped_tasks: list[str] = field(default_factory=list)
    fdr: dict[str, Any] | None = None
    provenance: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        for key in ("leaderboard", "adjacent_pairs"):
            out[key] = [dict(vars(row)) for row in out[key]]
        return {k: v for k, v in out.items() if v is not None}


def analyse_tasks(table: TaskTable, fdr: str | None = None, provenance: dict[str, Any] | None = None) -> TaskReport:
    """Rank the models by mean score over tasks and compare them over the tasks (see the module docstring)."""
    t = len(table.tasks)
    means = [sum(row, Fraction(0)) / t for row in table.scores]
    order = sorted(range(len(means)), key=lambda i: -means[i])
    models = [table.models[i] for i in order]
    scores = [table.scores[i] for i in order]
    board = [
        TaskEntry(m, float(means[i]), str(means[i]), list(clustered_interval_float([float(x) for x in row], range(t))))
        for m, i, row in zip(models, order, scores)
    ]
    adjacent = compare_on_tasks(scores, "adjacent")
    every = compare_on_tasks(scores, "all")  # once: the tiers (Holm) and --fdr (BH/BY) read the same p-values
    separated = {(r.first, r.second): r.holm <= ALPHA for r in every}
    pairs = [
        TaskPairRow(
            models[r.first],
            models[r.second],
            r.wins,
            r.losses,
            t - r.wins - r.losses,
            float(r.mean_difference),
            [r.interval.lower, r.interval.upper],
            float(r.p),
            str(r.p),
            float(r.holm),
            r.holm <= ALPHA,
        )
        for r in adjacent
    ]
    floor = smallest_p_value(t)
    n_pairs = len(models) * (len(models) - 1) // 2
    report = TaskReport(
        models=len(models),
        tasks=t,
        source=table.source,
        leaderboard=board,
        adjacent_pairs=pairs,
        tiers=[
            [models[i] for i in tier] for tier in tiers_from_separation(lambda i, j: separated[(i, j)], len(models))
        ],
        smallest_p=float(floor),
        smallest_p_exact=str(floor),
        pairs_separable=floor <= ALPHA / n_pairs,
        dropped_tasks=list(table.dropped_tasks),
        provenance=dict(provenance or {}),
    )
    if fdr is not None:
        report.fdr = _fdr([r.p for r in every], fdr)
    report.notes = _notes(report, len(adjacent))
    return report


def _fdr(ps: list[Fraction], method: str) -> dict[str, Any]:
    if method not in ("bh", "by"):
        raise ExactStatsError(f"fdr must be 'bh' or 'by', got {method!r}")
    qs = bh_adjust(ps, "any" if method == "by" else "independent")
    return {"method": method, "discoveries": sum(q <= ALPHA for q in qs), "pairs": len(qs)}


def _notes(r: TaskReport, adjacent: int) -> list[str]:
    """What a reader must know, chosen from the results."""
    out = [
        f"Tasks are the units: with {r.tasks} tasks the sign-flip test has 2^{r.tasks} equally likely sign "
        f"patterns, so no p-value is below {r.smallest_p_exact} ({r.smallest_p:.3g}), whatever the scores."
    ]
    n_pairs = r.models * (r.models - 1) // 2
    if not r.pairs_separable:
        out.append(
            f"Holm over all {n_pairs} pairs needs p <= {float(ALPHA / n_pairs):.3g} for the first separation, "
            f"which takes at least {tasks_needed(ALPHA / n_pairs)} tasks: with {r.tasks} the tiers cannot split "
            "however large the gaps."
        )
    if smallest_p_value(r.tasks) > ALPHA / max(adjacent, 1):
        out.append(
            f"Holm over the {adjacent} adjacent pairs needs p <= {float(ALPHA / adjacent):.3g}: no neighbours can "
            "be separated either."
        )
    if r.dropped_tasks:
        out.append(
            f"{len(r.dropped_tasks)} task{'s' if len(r.dropped_tasks) > 1 else ''} some model lacks "
            f"{'were' if len(r.dropped_tasks) > 1 else 'was'} dropped (--intersect): {', '.join(r.dropped_tasks)}."
        )
    if r.tasks < 20:
        out.append(f"The t intervals over {r.tasks} tasks rest on few units; read them as rough.")
    out.append("Mean scores weigh every task alike and take the scores as given: tasks on other scales weigh more.")
    return out


def task_blocks(r: TaskReport) -> list[Block]:
    """The task report's content, format-neutral (written by the package's one block renderer)."""
    out: list[Block] = [("h1", f"Task leaderboard: {r.models} models x {r.tasks} tasks"), ("ul", [r.source])]
    if r.provenance:
        p = r.provenance
        out.insert(1, ("p", f"exactstats {p.get('version', '?')}, {p.get('date', '?')}: `{p.get('command', '')}`"))
    out += [
        ("h2", "Leaderboard (mean score over tasks; 95% t interval over tasks)"),
        (
            "table",
            (
                ["#", "model", "mean", "95% over tasks"],
                [
                    [str(i), e.model, f"{e.mean:.4g}", f"[{e.t95[0]:.4g}, {e.t95[1]:.4g}]"]
                    for i, e in enumerate(r.leaderboard, 1)
                ],
            ),
        ),
        ("h2", "Adjacent pairs (exact sign-flip test over tasks, Holm over adjacent pairs)"),
        (
            "table",
            (
                ["pair", "tasks won", "lost", "tied", "mean gap", "paired 95%", "p", "Holm p", "separated"],
                [
                    [
                        f"{a.better} vs {a.worse}",
                        str(a.wins),
                        str(a.losses),
                        str(a.ties),
                        f"{a.mean_difference:.4g}",
                        f"[{a.paired95[0]:.4g}, {a.paired95[1]:.4g}]",
                        f"{a.p:.4g}",
                        f"{a.p_holm:.4g}",
                        "yes" if a.separated else "no",
                    ]
                    for a in r.adjacent_pairs
                ],
            ),
        ),
        ("h2", "Tiers (no pair within a tier is separated; Holm over all pairs, 5% level)"),
        ("ol", [", ".join(t) for t in r.tiers]),
    ]
    if r.fdr:
        f = r.fdr
        name = "Benjamini-Hochberg" if f["method"] == "bh" else "Benjamini-Yekutieli"
        out.append(("p", f"False-discovery control ({name}, 5%): {f['discoveries']} of {f['pairs']} pairs differ."))
    out += [("h2", "Notes"), ("ul", r.notes)]
    return out


def task_figures(r: TaskReport) -> list[Any]:
    from .figures import interval_figure

    return [
        interval_figure(
            [e.model for e in r.leaderboard],
            [e.mean for e in r.leaderboard],
            {"95% t over tasks": [(e.t95[0], e.t95[1]) for e in r.leaderboard]},
            xlabel="mean score over tasks",
            title="task leaderboard",
        )
    ]


def task_markdown(r: TaskReport) -> str:
    return markdown_from_blocks(task_blocks(r))


def task_html(r: TaskReport) -> str:
    return html_from_blocks(task_blocks(r), task_figures(r), title="Task leaderboard")
