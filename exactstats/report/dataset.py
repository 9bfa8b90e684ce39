"""The shipped correctness dataset: real open models x MMLU-Redux questions.

Produced by the project's own ``scoring`` pipeline (see ``data/README.md``).
Reading it needs only pandas and pyarrow, never torch.

>>> load_panel("shuffled").matrix.shape[1]    # questions in the main condition
2000
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .._validate import ExactStatsError, as_choice
from .importers import ResultSet, assemble, long_table_rows
from .tables import folder_setting

__all__ = ["Panel", "load_panel", "data_dir", "CONDITIONS", "PasskSamples", "load_passk_samples", "PASSK_CONDITIONS"]

CONDITIONS = {
    "shuffled": "shuffled-2000",
    "original": "original-2000",
    "shuffled-all": "shuffled-all",
    "cloze": "cloze-2000",  # answer text scored as the continuation; no letters shown
}


DATA_ENV = "EXACTSTATS_DATA_DIR"


def data_dir(path: str | Path | None = None) -> Path:
    """The folder of the shipped dataset: ``path``, else ``$EXACTSTATS_DATA_DIR``.

    The dataset is the ``data/`` folder of an exactstats checkout; it is not inside the installed
    package, and the package never guesses where a checkout is (the Makefile, the test suite and
    the book's build set the variable to the checkout's ``data/``).

    >>> (data_dir() / "README.md").exists()
    True
    """
    return folder_setting(path, DATA_ENV, "the dataset: data/ of an exactstats checkout")


@dataclass
class Panel:
    """A condition of the shipped dataset: its :class:`ResultSet` (the reader layer's one matrix type,
    read from the long table and checked once) with pandas views of it and of the rows it came from."""

    condition: str
    results: ResultSet
    long: pd.DataFrame  # one row per model x question (probabilities, chosen letter, ...)
    questions: pd.DataFrame  # per question: subject, answer, MMLU-Redux error label
    matrix: pd.DataFrame = field(init=False)  # index: model, columns: question id, values 0/1 (int8, as stored)

    def __post_init__(self) -> None:
        self.matrix = pd.DataFrame(
            self.results.correct.astype(np.int8),
            index=pd.Index(self.results.models, name="model"),
            columns=pd.Index(self.results.question_ids, name="question_id"),
        )

    @property
    def models(self) -> list[str]:
        return list(self.results.models)

    def correct(self) -> np.ndarray:
        """models x questions 0/1 (a writable copy)."""
        return self.results.correct.copy()

    def ranked(self) -> Panel:
        """The same panel with models ordered by accuracy, best first (ties keep their order)."""
        right = self.results.correct.sum(axis=1)
        order = sorted(range(len(right)), key=lambda i: -int(right[i]))
        return Panel(
            self.condition,
            self.results.subset(models=[self.results.models[i] for i in order]),
            self.long,
            self.questions,
        )

    def probabilities(self) -> np.ndarray:
        """models x questions x 4 option probabilities (original option order)."""
        cols = ["p_A", "p_B", "p_C", "p_D"]
        out = np.empty((len(self.models), self.matrix.shape[1], 4))
        for i, m in enumerate(self.models):
            rows = self.long[self.long["model"] == m].set_index("question_id").loc[self.matrix.columns]
            out[i] = rows[cols].to_numpy()
        return out

    def choices(self) -> np.ndarray:
        """models x questions chosen option index (original order)."""
        return np.asarray(
            self.long.pivot(index="model", columns="question_id", values="chosen")
            .loc[self.models, self.matrix.columns]
            .to_numpy(dtype=np.int64)
        )


def load_panel(condition: str = "shuffled", models: list[str] | None = None, path: str | Path | None = None) -> Panel:
    """Load a condition: ``"shuffled"`` (main: per-model option shuffle, 2,000 questions),
    ``"original"`` (control: original option order), ``"shuffled-all"``, ``"cloze"`` (the same
    2,000 questions, each option's text scored as the continuation; only the models finished so far).
    ``path``: the dataset folder (default: :func:`data_dir`).

    >>> panel = load_panel("original")
    >>> panel.matrix.shape, panel.condition
    ((4, 2000), 'original')
    """
    condition = as_choice(condition, "condition", tuple(CONDITIONS))
    base = data_dir(path)
    name = CONDITIONS[condition]
    mpath, lpath = base / f"{name}.matrix.parquet", base / f"{name}.long.parquet"
    if not mpath.exists():
        raise ExactStatsError(f"condition {condition!r} has no matrix yet ({mpath} missing)")
    matrix = pd.read_parquet(mpath)
    long = pd.read_parquet(lpath)
    if models is not None:
        missing = [m for m in models if m not in matrix.index]
        if missing:
            raise ExactStatsError(f"models must be in {list(matrix.index)}, got {missing}")
        matrix = matrix.loc[models]
    long = long[long["model"].isin(matrix.index)].reset_index(drop=True)
    # the matrix file names the complete models and the question order; the rows come through the reader layer
    results = assemble(long_table_rows(long, lpath)).subset(list(matrix.index), list(matrix.columns))
    if not np.array_equal(results.correct, matrix.to_numpy()):
        raise ExactStatsError(f"{mpath} and {lpath} disagree: rebuild them (python -m tools build-data data)")
    questions = (
        long.drop_duplicates("question_id")
        .set_index("question_id")
        .loc[matrix.columns, ["subject", "answer", "error_type"]]
    )
    return Panel(condition, results, long, questions)


PASSK_CONDITIONS = {"sampled": "humaneval-sampled", "greedy": "humaneval-greedy"}


@dataclass
class PasskSamples:
    """Executed HumanEval completions of our models: one row per (model, problem, sample)."""

    condition: str
    rows: pd.DataFrame  # model, task_id, sample, status, error, new_tokens, finish_reason, completion, ...

    @property
    def models(self) -> list[str]:
        return sorted(self.rows["model"].unique())

    def counts(self, model: str, complete_only: bool = True) -> pd.DataFrame:
        """Per problem: ``n`` samples executed and ``c`` passed (only problems with every sample, by default)."""
        rows = self.rows[self.rows["model"] == model]
        if rows.empty:
            raise ExactStatsError(f"model must be one of {self.models}, got {model!r}")
        per = rows.groupby("task_id").agg(n=("sample", "size"), c=("status", lambda s: int((s == "passed").sum())))
        if complete_only:
            per = per[per["n"] == int(rows["samples_per_problem"].iloc[0])]
        return per.sort_index()


def load_passk_samples(condition: str = "sampled", path: str | Path | None = None) -> PasskSamples:
    """Load the pass@k data: ``"sampled"`` (temperature 0.8, n samples per problem) or ``"greedy"`` (one each).

    ``path``: the dataset folder (default: :func:`data_dir`).

    >>> data = load_passk_samples("sampled")
    >>> set(data.rows["status"]) <= {"passed", "failed", "timeout", "error"}
    True
    """
    condition = as_choice(condition, "condition", tuple(PASSK_CONDITIONS))
    file = data_dir(path) / f"{PASSK_CONDITIONS[condition]}.parquet"
    if not file.exists():
        raise ExactStatsError(f"condition {condition!r} has no data yet ({file} missing)")
    return PasskSamples(condition, pd.read_parquet(file))
