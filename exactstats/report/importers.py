"""Reading eval results from files: correctness matrices, lm-eval sample logs, Inspect logs.

Everything becomes a :class:`ResultSet`: model names, question ids, and a models x
questions 0/1 matrix, with per-question clusters, chosen options and keys when the
input has them. Nothing is renamed, clipped or dropped silently: a duplicated column
or id, an empty model name, a value that is not 0/1, a ``correct`` that contradicts
``chosen`` and ``answer``, or question sets that differ across models is an error
naming the file and the row (``intersect=True`` keeps the common questions on
purpose and says how many were dropped). Formats:

- wide table (``.csv`` / ``.parquet``): a ``model`` column, then one column per question id, 0/1;
- long table: columns ``model``, ``question_id``, ``correct`` and optionally ``subject`` or
  ``cluster``, ``epoch`` (several samples per question: each row is then ``id#epoch`` and the
  question is its cluster, as for Inspect's epochs), ``chosen``, ``answer`` (option indices 0, 1, ... or letters A, B, ...), and
  ``p_A``, ``p_B``, ... (each option's probability: the report then adds calibration);
- lm-evaluation-harness ``--log_samples`` output: ``samples_{task}_{time}.jsonl`` files (one
  JSON object per line with ``doc_id`` and a 0/1 metric, ``acc`` by default), or a folder
  of them (``--output_path``; one sub-folder per model). A model's tasks are merged (ids
  become ``task/doc_id``); its name comes from ``NAME=path``, else from the
  ``results_*.json`` beside the samples, else from the folder name;
- this project's scoring runs: a run folder (``results.jsonl`` + ``manifest.json``) or its
  ``results.jsonl``: one JSON object per question with ``model``, ``question_id``,
  ``correct``, ``subject`` (the cluster), ``chosen`` and ``answer``, read as a long table;
- Inspect AI eval logs (``.json`` written with ``--log-format=json``, or the zipped ``.eval``
  format): ``eval.model`` names the model, each sample's first score is C (correct) / I
  (incorrect) or a number 0/1. With several epochs each (sample, epoch) is a column
  ``id#epoch`` and the question id is its cluster, so intervals treat repeated samples of
  one question as one unit and the paired tests run over questions (``ResultSet.repeated``).
"""

from __future__ import annotations

import csv
import json
import zipfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._validate import ExactStatsError, checked_binary_matrix, checked_selection
from ..soft import right_option_probability_float

__all__ = ["ResultSet", "ModelRows", "assemble", "load_results", "read_models", "read_source"]


@dataclass
class ResultSet:
    models: list[str]
    question_ids: list[str]
    correct: np.ndarray  # models x questions, int64 0/1
    clusters: np.ndarray | None = None
    # True when each cluster is one question asked several times (epochs): tests then run over questions
    repeated: bool = False
    choices: np.ndarray | None = None
    answers: np.ndarray | None = None
    probabilities: np.ndarray | None = None  # models x questions x options (p_A, p_B, ... columns)
    right_probability: np.ndarray | None = None  # models x questions: the right option's share (soft accuracy)
    dropped: int = 0  # questions dropped by intersect
    sources: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what reading left out, said in the report (torn lines)

    def __post_init__(self) -> None:
        # the one scan of the matrix: read-only from here on, and the core functions trust it
        self.correct = checked_binary_matrix(self.correct, "correct")

    def subset(self, models: Sequence[str] | None = None, question_ids: Sequence[str] | None = None) -> ResultSet:
        """The same results for the models and questions named, in that order (the matrix is not scanned again)."""
        rows = _positions(self.models, models, "models")
        cols = _positions(self.question_ids, question_ids, "question_ids")

        def pick(values: np.ndarray | None, per_model: bool) -> np.ndarray | None:
            if values is None:
                return None
            return values[rows][:, cols] if per_model else values[cols]

        return ResultSet(
            [self.models[i] for i in rows],
            [self.question_ids[j] for j in cols],
            checked_selection(self.correct, rows, cols),
            pick(self.clusters, False),
            self.repeated,
            pick(self.choices, True),
            pick(self.answers, False),
            probabilities=pick(self.probabilities, True),
            right_probability=pick(self.right_probability, True),
            dropped=self.dropped,
            sources=list(self.sources),
            notes=list(self.notes),
        )


def _positions(have: list[str], wanted: Sequence[str] | None, name: str) -> list[int]:
    """Where each wanted name sits in ``have`` (all of them, in order, when ``wanted`` is None)."""
    if wanted is None:
        return list(range(len(have)))
    where = {x: i for i, x in enumerate(have)}
    missing = [w for w in wanted if w not in where]
    if missing:
        raise ExactStatsError(f"{name} must be among the {len(have)} in the results, got {missing[:3]}")
    return [where[w] for w in wanted]


@dataclass
class ModelRows:
    model: str
    source: str
    ids: list[str]
    correct: np.ndarray
    cluster: list[Any] | None = None
    chosen: np.ndarray | None = None
    answer: np.ndarray | None = None
    probs: np.ndarray | None = None  # questions x options, when the input has p_A, p_B, ...
    kind: str = "table"  # table | lm-eval | inspect; an lm-eval model's task files are merged
    notes: list[str] = field(default_factory=list)
    repeated: bool = False  # the cluster is the question, each row one of its samples (epochs)
    right_prob: np.ndarray | None = None  # the right option's probability (lm-eval: softmax of log-likelihoods)


def _binary_array(values: Any, where: Any) -> np.ndarray:
    """0/1 int64 array from a column or block; ``where(index)`` names the first bad cell."""
    arr = np.asarray(values)
    if arr.dtype == bool:
        return arr.astype(np.int64)
    if arr.dtype.kind in "iu":  # read_csv's usual result: compared as integers, no float copy
        num = arr
        bad = (arr < 0) | (arr > 1)
    else:
        if arr.dtype.kind == "f":
            num = arr
        else:
            num = pd.DataFrame(arr.reshape(len(arr), -1)).apply(pd.to_numeric, errors="coerce").to_numpy(dtype=float)
            num = num.reshape(arr.shape)
        bad = ~((num == 0) | (num == 1))  # NaN is neither
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        value = arr[idx].item() if isinstance(arr[idx], np.generic) else arr[idx]
        raise ExactStatsError(f"{where(idx)}: correctness must be 0 or 1, got {value!r}")
    return num.astype(np.int64, copy=False)  # read_csv's int64 block is kept, not copied (0.3 s at 15 M cells)


def _options(values: pd.Series, what: str, where: Any) -> np.ndarray:
    """Option indices from 0, 1, ... or letters A, B, ...; anything else is an error naming the row."""
    out = np.empty(len(values), dtype=np.int64)
    for i, v in enumerate(values.tolist()):
        text = str(v).strip()
        if len(text) == 1 and text.isascii() and text.isalpha():
            out[i] = ord(text.upper()) - ord("A")
            continue
        try:
            f = float(text)
        except ValueError:
            f = float("nan")
        if not (f >= 0 and f == int(f)):
            raise ExactStatsError(
                f"{where(i)}: {what} must be an option index (0, 1, ...) or letter (A, B, ...), got {v!r}"
            )
        out[i] = int(f)
    return out


def _read_table(path: Path) -> pd.DataFrame:
    if path.stat().st_size == 0:
        raise ExactStatsError(f"{path}: empty file")
    try:
        if path.suffix == ".parquet":
            df = pd.read_parquet(path)
        else:
            with open(path, newline="", encoding="utf-8") as f:
                header = next(csv.reader(f), [])
            dups = sorted(h for h, n in Counter(header).items() if n > 1)
            if dups:
                raise ExactStatsError(f"{path}: column {dups[0]!r} appears more than once in the header")
            # text columns as text (a model named 007 or 1e3 stays as written); asking pandas for that
            # per column slows a wide table's parse twofold, so only columns it could mangle are re-read
            df = pd.read_csv(path, keep_default_na=False, na_values=[""])
            text_cols = [
                c for c in ("model", "question_id") if c in df.columns and not pd.api.types.is_string_dtype(df[c])
            ]
            if text_cols:
                again = pd.read_csv(path, usecols=text_cols, dtype=str, keep_default_na=False, na_values=[""])
                for c in text_cols:
                    df[c] = again[c]
    except (ValueError, pd.errors.ParserError, UnicodeDecodeError, OSError) as exc:
        if isinstance(exc, ExactStatsError):
            raise
        raise ExactStatsError(f"{path}: cannot read table ({' '.join(str(exc).split())[:200]})") from None
    if path.suffix != ".parquet" and not isinstance(df.index, pd.RangeIndex):
        _refuse_long_rows(path)
    if df.index.name == "model":
        df = df.reset_index()
    if df.empty:
        raise ExactStatsError(f"{path}: no rows")
    if "model" in df.columns:
        empty = df["model"].isna() | (df["model"].astype(str).str.strip() == "")
        if empty.any():
            raise ExactStatsError(f"{path}, row {int(np.flatnonzero(empty)[0]) + 2}: empty model name")
    return df


def _refuse_long_rows(path: Path) -> None:
    """pandas reads rows with more cells than the header by turning the first cells into an index, which
    shifts every value: name the first such line instead."""
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        header = next(reader, [])
        for row in reader:
            if len(row) > len(header):
                raise ExactStatsError(
                    f"{path}, line {reader.line_num}: {len(row)} cells, but the header has {len(header)}"
                )
    raise ExactStatsError(f"{path}: rows with more cells than the header")


def _from_long(path: Path, df: pd.DataFrame, lines: list[int] | None = None) -> list[ModelRows]:
    """Rows of a long table; ``lines`` gives each row's line in the file (JSON lines), else CSV numbering."""
    cols = set(df.columns)
    cluster_col = "cluster" if "cluster" in cols else ("subject" if "subject" in cols else None)
    df = df.reset_index(drop=True)
    repeated = "epoch" in cols  # several samples per question: the question is the cluster, a row is id#epoch
    notes: list[str] = []
    if repeated:
        if df["epoch"].isna().any():
            raise ExactStatsError(f"{path}, row {int(np.flatnonzero(df['epoch'].isna())[0]) + 2}: empty epoch")
        if cluster_col:
            notes.append(f"{path}: with an 'epoch' column the question is the cluster; '{cluster_col}' is not used")
        cluster_col = "question_id"

    def row(i: int) -> str:  # where a bad value sits: CSV line numbers (header is line 1), or JSONL lines
        return f"{path}, row {i + 2}" if lines is None else f"{path}, line {lines[i]}"

    correct = _binary_array(df["correct"].to_numpy(), lambda idx: f"{row(idx[0])} (model {df['model'].iloc[idx[0]]})")
    chosen = _options(df["chosen"], "chosen", lambda i: row(i)) if "chosen" in cols else None
    answer = _options(df["answer"], "answer", lambda i: row(i)) if "answer" in cols else None
    if chosen is not None and answer is not None:
        wrong = np.flatnonzero(correct != (chosen == answer))
        if len(wrong):
            i = int(wrong[0])
            raise ExactStatsError(
                f"{row(i)}: correct = {correct[i]} contradicts chosen = {df['chosen'].tolist()[i]!r} "
                f"and answer = {df['answer'].tolist()[i]!r}"
            )
    if df["question_id"].isna().any():
        raise ExactStatsError(f"{row(int(np.flatnonzero(df['question_id'].isna())[0]))}: empty question_id")
    prob_cols = [c for c in ("p_A", "p_B", "p_C", "p_D", "p_E") if c in cols]
    probs = None
    if len(prob_cols) >= 2 and prob_cols == ["p_A", "p_B", "p_C", "p_D", "p_E"][: len(prob_cols)]:
        probs = pd.DataFrame({c: pd.to_numeric(df[c], errors="coerce") for c in prob_cols}).to_numpy(dtype=float)
        bad = ~np.isfinite(probs).all(axis=1) | (probs < 0).any(axis=1)
        if bad.any():
            raise ExactStatsError(f"{row(int(np.flatnonzero(bad)[0]))}: option probabilities must be numbers >= 0")
    ids = df["question_id"].astype(str)
    if repeated:
        ids = ids + "#" + df["epoch"].astype(str)
    out: list[ModelRows] = []
    for model, idx in df.groupby("model", sort=False).indices.items():
        out.append(
            ModelRows(
                str(model),
                str(path),
                ids.to_numpy()[idx].tolist(),
                correct[idx],
                df[cluster_col].astype(str).to_numpy()[idx].tolist() if cluster_col else None,
                chosen[idx] if chosen is not None else None,
                answer[idx] if answer is not None else None,
                probs[idx] if probs is not None else None,
                notes=notes if not out else [],
                repeated=repeated,
            )
        )
    return out


def long_table_rows(df: pd.DataFrame, source: str | Path) -> list[ModelRows]:
    """Each model's rows of a long table already in memory (columns ``model``, ``question_id``, ``correct``,
    optionally ``chosen``, ``answer``, ``p_A``..., ``subject`` or ``cluster``, ``epoch``), checked as from a file."""
    return _from_long(Path(source), df)


def _from_table(path: Path) -> list[ModelRows]:
    df = _read_table(path)
    cols = set(df.columns)
    from .published import is_mmlu_pro_table, mmlu_pro_parts

    if is_mmlu_pro_table(cols):  # published MMLU-Pro outputs: graded against one key, null predictions wrong
        return mmlu_pro_parts(df, str(path))
    if {"model", "question_id", "correct"} <= cols:
        return _from_long(path, df)
    if {"model", "question_id"} <= cols:  # a long table without the column that says right or wrong
        binary = [c for c in df.columns if c not in ("model", "question_id") and _is_binary_column(df[c])]
        hint = (
            f" (0/1 columns here: {', '.join(map(str, binary[:5]))}: rename the one to use to 'correct')"
            if binary
            else ""
        )
        raise ExactStatsError(
            f"{path}: a long table (one row per model and question) needs a 'correct' column of 0/1{hint}; "
            "a prediction column alone is not graded here"
        )
    if "model" not in cols:
        raise ExactStatsError(
            f"{path}: a wide table needs a 'model' column; a long one 'model', 'question_id', 'correct'"
        )
    qcols = [c for c in df.columns if c != "model"]
    if not qcols:
        raise ExactStatsError(f"{path}: no question columns")
    where = list(df.columns).index("model")
    others = df.iloc[:, 1:] if where == 0 else df.drop(columns="model")  # a slice when model comes first
    block = others.to_numpy()  # one array, no per-column work
    if block.dtype.kind == "f":
        missing = np.isnan(block)
    elif block.dtype.kind == "O":
        missing = pd.isna(block)
    else:
        missing = np.zeros(block.shape, dtype=bool)  # integers cannot be missing
    if missing.any():
        i, j = (int(x) for x in np.argwhere(missing)[0])
        raise ExactStatsError(
            f"{path}, row {i + 2} (model {df['model'].iloc[i]}): ragged matrix, no value for question {qcols[j]!r}"
        )
    values = _binary_array(block, lambda idx: f"{path}, row {idx[0] + 2}, question {qcols[idx[1]]!r}")
    ids = [str(c) for c in qcols]
    return [ModelRows(str(m), str(path), ids, values[i]) for i, m in enumerate(df["model"].tolist())]


def _is_binary_column(values: pd.Series) -> bool:
    v = pd.to_numeric(values, errors="coerce")
    return bool(v.notna().all() and v.isin((0, 1)).all())


# --- this project's scoring runs -------------------------------------------------------------


def _is_scoring_log(path: Path) -> bool:
    """A ``results.jsonl`` of ``python -m scoring run``: its first object has question_id and correct."""
    with open(path, encoding="utf-8", errors="replace") as f:
        first = f.readline().strip()
    try:
        obj = json.loads(first) if first else None
    except (json.JSONDecodeError, RecursionError):
        return False
    return isinstance(obj, dict) and {"model", "question_id", "correct"} <= set(obj)


def _from_scoring_log(path: Path) -> list[ModelRows]:
    rows, numbers = [], []
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except UnicodeDecodeError:
        raise ExactStatsError(f"{path}: not UTF-8 text (a scoring results file is JSON lines)") from None
    notes = []
    if lines and lines[-1].strip():  # a run still writing, or killed while writing, leaves a line without newline
        notes.append(
            f"{path}, line {len(lines)} is incomplete (a run still writing it, or cut off): left out; "
            "resuming the run repairs the file"
        )
        lines = lines[:-1]
    for i, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            raise ExactStatsError(f"{path}, line {i}: not a JSON object") from None
        if not isinstance(obj, dict):
            raise ExactStatsError(f"{path}, line {i}: not a JSON object")
        numbers.append(i)
        missing = {"model", "question_id", "correct"} - set(obj)
        if missing:
            raise ExactStatsError(f"{path}, line {i}: missing {sorted(missing)}")
        keys = ("model", "question_id", "correct", "subject", "chosen", "answer", "p_A", "p_B", "p_C", "p_D")
        rows.append({k: obj[k] for k in keys if k in obj})
    if not rows:
        raise ExactStatsError(f"{path}: no rows")
    df = pd.DataFrame(rows)
    df["question_id"] = df["question_id"].astype(str)
    parts = _from_long(path, df, lines=numbers)
    parts[0].notes.extend(notes)
    return parts


def _named(parts: list[ModelRows], name: str | None, path: Path) -> list[ModelRows]:
    if name:
        if len(parts) != 1:
            raise ExactStatsError(f"{path}: NAME= applies to single-model files, this one holds {len(parts)} models")
        parts[0].model = name
    return parts


# --- lm-evaluation-harness ------------------------------------------------------------------


def _lm_eval_model_name(folder: Path) -> str:
    for results in sorted(folder.glob("results_*.json")):
        try:
            meta = json.loads(results.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
            continue
        if not isinstance(meta, dict):
            continue
        args = (meta.get("config") or {}).get("model_args")
        if isinstance(args, dict):
            args = args.get("pretrained")
        name = meta.get("model_name") or args
        if name:
            return _model_id(str(name).removeprefix("pretrained=").split(",")[0])
    return folder.resolve().name


def _model_id(name: str) -> str:
    """A hub id keeps its organisation (``orgA/llama-7b`` and ``orgB/llama-7b`` are two models); a local
    path (absolute, relative, or deeper than org/name) is named by its last part."""
    if name.startswith(("/", ".", "~")) or name.count("/") != 1:
        return Path(name).name
    return name


def lm_eval_sample_counts(folder: str | Path, metric: str = "acc") -> dict[str, tuple[int, int]]:
    """Per task of an lm-eval output folder's samples files: (right, samples) for ``metric``, exactly."""
    counts: dict[str, tuple[int, int]] = {}
    for path in sorted(Path(folder).rglob("samples_*.jsonl")):
        for rows in _from_lm_eval(path, None, metric):
            right, total = counts.get(_lm_eval_task(path), (0, 0))
            counts[_lm_eval_task(path)] = (right + int(rows.correct.sum()), total + len(rows.correct))
    return counts


def _lm_eval_task(path: Path) -> str:
    stem = path.stem.removeprefix("samples_")
    task, _, stamp = stem.rpartition("_")
    return task if task and stamp[:1].isdigit() else stem  # samples_{task}_{timestamp}.jsonl


def _from_lm_eval(path: Path, name: str | None, metric: str) -> list[ModelRows]:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ExactStatsError(f"{path}: not UTF-8 text (an lm-eval samples file is JSON lines)") from None
    if not text.strip():
        raise ExactStatsError(f"{path}: empty file")
    ids, correct, line_numbers, notes = [], [], [], []
    right: list[float] | None = []  # None once a sample has no option log-likelihoods
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        where = f"{path}, line {i + 1}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            if i == len(lines) - 1 and not text.endswith("\n"):  # a run still writing its last sample
                notes.append(f"{where} is incomplete (a run still writing it, or cut off): left out")
                break
            raise ExactStatsError(f"{where}: invalid JSON ({exc.msg})") from None
        except RecursionError:
            raise ExactStatsError(f"{where}: JSON nested too deep") from None
        if not isinstance(obj, dict) or "doc_id" not in obj:
            raise ExactStatsError(f"{where}: not an lm-eval sample (a JSON object with 'doc_id')")
        if metric not in obj:
            fields = ", ".join(k for k in obj if not k.startswith("doc"))
            raise ExactStatsError(f"{where}: no metric {metric!r} (fields: {fields})")
        ids.append(str(obj["doc_id"]))
        correct.append(obj[metric])
        line_numbers.append(i + 1)
        if right is not None:  # appended in place: a copy per line made reading a samples file quadratic
            share = _lm_eval_right_share(obj)
            if share is None:
                right = None
            else:
                right.append(share)
    values = _binary_array(np.array(correct, dtype=object), lambda idx: f"{path}, line {line_numbers[idx[0]]}")
    task = _lm_eval_task(path)
    model = name or _lm_eval_model_name(path.parent)
    probs = np.array(right, dtype=np.float64) if right else None
    return [
        ModelRows(model, str(path), [f"{task}/{d}" for d in ids], values, kind="lm-eval", notes=notes, right_prob=probs)
    ]


def _lm_eval_right_share(obj: dict[str, Any]) -> float | None:
    """The gold option's softmax share of the options' log-likelihoods (a multiple-choice sample), or None
    when the sample has no per-option log-likelihoods or no gold index (generation tasks)."""
    resps, target = obj.get("filtered_resps"), obj.get("target")
    if not isinstance(resps, list) or len(resps) < 2:
        return None
    try:
        logliks = np.array([float(r[0] if isinstance(r, list) else r) for r in resps])
        gold = int(str(target).strip())
    except (TypeError, ValueError, IndexError):
        return None
    if not np.isfinite(logliks).all() or not 0 <= gold < len(logliks):
        return None
    weights = np.exp(logliks - logliks.max())
    return float(weights[gold] / weights.sum())


def _merge_tasks(parts: list[ModelRows]) -> list[ModelRows]:
    """One entry per model: an lm-eval model's task files joined (ids already carry the task)."""
    merged: dict[str, ModelRows] = {}
    for p in parts:
        if p.model not in merged:
            merged[p.model] = p
            continue
        m = merged[p.model]
        clash = set(m.ids) & set(p.ids)
        if clash:
            raise ExactStatsError(
                f"model {p.model!r}: question {sorted(clash)[0]!r} appears in both {m.source} and "
                f"{p.source}; name one model with NAME=PATH"
            )
        merged[p.model] = ModelRows(
            p.model,
            f"{m.source}, {p.source}",
            m.ids + p.ids,
            np.concatenate([m.correct, p.correct]),
            kind="lm-eval",
            notes=m.notes + p.notes,
            right_prob=(
                np.concatenate([m.right_prob, p.right_prob])
                if m.right_prob is not None and p.right_prob is not None
                else None
            ),
        )
    return list(merged.values())


# --- Inspect ---------------------------------------------------------------------------------


def _inspect_value(score: Any, where: str) -> int:
    value = score.get("value") if isinstance(score, dict) else score
    if value in ("C", "I"):
        return int(value == "C")
    return int(_binary_array(np.array([value], dtype=object), lambda _: where)[0])


_ZIP_ZSTD = 93  # Inspect writes .eval members with Zstandard, which zipfile reads only from Python 3.14
MAX_MEMBER_BYTES = 256 << 20  # one .eval member, decompressed: a log's sample file is far smaller


def _zip_member(path: Path, z: zipfile.ZipFile, name: str) -> bytes:
    info = z.getinfo(name)
    if info.flag_bits & 0x1:
        raise ExactStatsError(f"{path}: {name} is encrypted")
    if info.file_size > MAX_MEMBER_BYTES:
        raise ExactStatsError(
            f"{path}: {name} decompresses to more than {MAX_MEMBER_BYTES >> 20} MiB (a damaged or hostile file?)"
        )
    if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, _ZIP_ZSTD):
        raise ExactStatsError(f"{path}: {name} uses an unknown compression (method {info.compress_type})")
    if info.compress_type != _ZIP_ZSTD:  # zipfile stops at the declared size (and a lie fails its CRC check)
        return z.read(name)
    import struct

    import zstandard

    with open(path, "rb") as f:
        f.seek(info.header_offset)
        local = f.read(30)
        name_len, extra_len = struct.unpack("<HH", local[26:30])
        f.seek(info.header_offset + 30 + name_len + extra_len)
        raw = f.read(info.compress_size)
    return zstandard.ZstdDecompressor().decompress(raw, max_output_size=info.file_size)


def _json(data: bytes | str, where: str) -> Any:
    try:
        return json.loads(data)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ExactStatsError(f"{where}: invalid JSON ({getattr(exc, 'msg', 'not UTF-8')})") from None
    except RecursionError:
        raise ExactStatsError(f"{where}: JSON nested too deep") from None


def _read_inspect(path: Path) -> tuple[dict[str, Any], Any]:
    if path.stat().st_size == 0:
        raise ExactStatsError(f"{path}: empty file")
    if path.suffix == ".eval":
        try:
            with zipfile.ZipFile(path) as z:
                names = z.namelist()
                if "header.json" not in names:
                    raise ExactStatsError(f"{path}: no header.json (not an Inspect .eval log?)")
                header = _json(_zip_member(path, z, "header.json"), f"{path}: header.json")
                samples: Any = [
                    _json(_zip_member(path, z, n), f"{path}: {n}")
                    for n in sorted(names)
                    if n.startswith("samples/") and n.endswith(".json")
                ]
        except (zipfile.BadZipFile, KeyError, ValueError, NotImplementedError, RuntimeError, EOFError) as exc:
            if isinstance(exc, ExactStatsError):
                raise
            raise ExactStatsError(f"{path}: not a readable .eval (zip) file ({exc})") from None
    else:
        try:
            header = _json(path.read_text(encoding="utf-8"), str(path))
        except UnicodeDecodeError:
            raise ExactStatsError(f"{path}: not UTF-8 text") from None
        samples = header.get("samples") if isinstance(header, dict) else None
    if not isinstance(header, dict) or not isinstance(header.get("eval"), dict):
        raise ExactStatsError(f"{path}: no 'eval' section (not an Inspect log?)")
    if not samples:
        raise ExactStatsError(f"{path}: the log holds no samples")
    if not isinstance(samples, list) or not all(isinstance(s, dict) for s in samples):
        raise ExactStatsError(f"{path}: samples must be JSON objects")
    return header, samples


def inspect_header(path: str | Path) -> dict[str, Any]:
    """An Inspect log's header (``.json`` or ``.eval``, Zstandard members included), checked as for a report."""
    header, _ = _read_inspect(Path(path))
    return header


def _from_inspect(path: Path, name: str | None) -> list[ModelRows]:
    header, samples = _read_inspect(path)
    epochs = {s.get("epoch", 1) for s in samples}
    ids, correct, clusters = [], [], []
    for i, s in enumerate(samples):
        where = f"{path}, sample {i + 1} (id {s.get('id')!r})"
        if s.get("id") is None:
            raise ExactStatsError(f"{where}: no 'id'")
        scores = s.get("scores") or {}
        if not isinstance(scores, dict) or not scores:
            raise ExactStatsError(f"{where}: no scores")
        ids.append(str(s["id"]) + (f"#{s.get('epoch', 1)}" if len(epochs) > 1 else ""))
        clusters.append(str(s["id"]))
        correct.append(_inspect_value(next(iter(scores.values())), where))
    task = header["eval"].get("task", "task")
    model = name or str(header["eval"].get("model") or path.stem)
    return [
        ModelRows(
            model,
            str(path),
            [f"{task}/{q}" for q in ids],
            np.array(correct, dtype=np.int64),
            [f"{task}/{c}" for c in clusters] if len(epochs) > 1 else None,
            kind="inspect",
            repeated=len(epochs) > 1,
        )
    ]


# --- entry points ----------------------------------------------------------------------------


def read_source(spec: str, metric: str = "acc") -> list[ModelRows]:
    """One input: ``[NAME=]PATH``, PATH a file or an lm-eval output folder."""
    name, _, raw = spec.rpartition("=") if "=" in spec and not Path(spec).exists() else (None, "", spec)
    if name == "":
        raise ExactStatsError(f"{spec!r}: NAME=PATH needs a name before '='")
    path = Path(raw)
    if not path.exists():
        raise ExactStatsError(f"{path}: no such file or folder")
    if path.is_dir() and (path / "results.jsonl").exists():
        return _named(_from_scoring_log(path / "results.jsonl"), name, path)
    if path.is_dir():
        files = sorted(path.rglob("samples_*.jsonl"))
        if not files:
            raise ExactStatsError(f"{path}: a folder must hold lm-eval samples_*.jsonl files (none found)")
        return _merge_tasks([r for f in files for r in _from_lm_eval(f, name, metric)])
    if path.suffix in (".csv", ".parquet"):
        rows = _from_table(path)
        if name:
            if len(rows) != 1:
                raise ExactStatsError(f"{path}: NAME= applies to single-model files, this one holds {len(rows)} models")
            rows[0].model = name
        return rows
    if path.suffix == ".jsonl" and _is_scoring_log(path):
        return _named(_from_scoring_log(path), name, path)
    if path.suffix == ".jsonl":
        return _from_lm_eval(path, name, metric)
    if path.suffix in (".json", ".eval"):
        return _from_inspect(path, name)
    raise ExactStatsError(
        f"{path}: unknown format {path.suffix!r} (csv, parquet, lm-eval .jsonl or folder, Inspect .json/.eval)"
    )


def read_models(specs: Sequence[str], metric: str = "acc") -> list[ModelRows]:
    """Every input's rows, one entry per model (an lm-eval model's task files joined), not yet aligned."""
    read = [r for spec in specs for r in read_source(spec, metric)]
    return [r for r in read if r.kind != "lm-eval"] + _merge_tasks([r for r in read if r.kind == "lm-eval"])


def load_results(specs: Sequence[str], intersect: bool = False, metric: str = "acc") -> ResultSet:
    """Read every input and align the models on their shared questions (see the module docstring)."""
    return assemble(read_models(specs, metric), intersect)


def _distinct_id_sets(parts: list[ModelRows]) -> list[set[str]]:
    """Each distinct question-id list once, as a set, after refusing empty, duplicate or twice-named inputs."""
    if not parts:
        raise ExactStatsError("inputs must name at least one file")
    seen: dict[str, str] = {}
    id_sets: dict[int, set[str]] = {}  # a wide table's models share one id list: check it once
    first_ids: list[str] = []
    for p in parts:
        if not p.ids:
            raise ExactStatsError(f"{p.source}: model {p.model!r} has zero questions")
        if p.model in seen:
            raise ExactStatsError(
                f"model {p.model!r} appears twice ({seen[p.model]} and {p.source}); name one with NAME=PATH"
            )
        seen[p.model] = p.source
        if id_sets and id(p.ids) not in id_sets and p.ids == first_ids:
            p.ids = first_ids  # the same id list in the same order (a long table's models): aligned as one
        if not id_sets:
            first_ids = p.ids
        if id(p.ids) not in id_sets:
            id_sets[id(p.ids)] = set(p.ids)
            if len(id_sets[id(p.ids)]) != len(p.ids):
                dup = next(q for q, n in Counter(p.ids).items() if n > 1)
                raise ExactStatsError(f"{p.source}: question id {dup!r} appears twice for model {p.model!r}")
    return list(id_sets.values())


def _right_probability(
    parts: list[ModelRows], take: list[np.ndarray], probabilities: np.ndarray | None, answers: np.ndarray | None
) -> np.ndarray | None:
    """Each model's probability on the right option: as read, else from the option probabilities and keys."""
    if all(p.right_prob is not None for p in parts):
        return np.stack([np.asarray(p.right_prob)[ix] for p, ix in zip(parts, take)])
    if (
        probabilities is not None
        and answers is not None
        and (answers[0].astype(np.int64) < probabilities.shape[2]).all()
        and (probabilities.sum(axis=2) > 0).all()
    ):
        return np.stack([right_option_probability_float(P, answers[0].astype(np.int64)) for P in probabilities])
    return None


def assemble(parts: list[ModelRows], intersect: bool = False) -> ResultSet:
    """One models x questions matrix from per-model rows, validated once: names, ids, shared questions, keys."""
    sets = _distinct_id_sets(parts)
    common = sets[0] if len(sets) == 1 else set(sets[0]).intersection(*sets[1:])
    union = sets[0] if len(sets) == 1 else set().union(*sets)
    if common != union and not intersect:
        worst = max(parts, key=lambda p: len(set(p.ids) ^ common))
        raise ExactStatsError(
            f"question sets differ: {len(union)} ids in all, {len(common)} shared by every model "
            f"(e.g. {worst.model!r} from {worst.source} has {len(set(worst.ids) - common)} not shared); "
            "pass --intersect to keep only the shared ones"
        )
    if not common:
        raise ExactStatsError("no question is shared by every model")
    order = list(parts[0].ids) if len(sets) == 1 else [q for q in parts[0].ids if q in common]
    positions: dict[int, np.ndarray] = {}
    for p in parts:  # vectorised alignment, once per distinct id list
        if id(p.ids) not in positions:
            same = len(sets) == 1  # one id list: every model's rows are already in the shared order
            positions[id(p.ids)] = np.arange(len(order)) if same else pd.Index(p.ids).get_indexer(order)
    take = [positions[id(p.ids)] for p in parts]
    same = len(sets) == 1  # rows already in the shared order: stacked as they are, one copy
    C = np.stack([p.correct if same else p.correct[ix] for p, ix in zip(parts, take)]).astype(np.int64, copy=False)
    C = checked_binary_matrix(C, "correct", owned=True)  # fresh from the stack: checked in place, not copied

    def column(attr: str) -> np.ndarray | None:
        if all(getattr(p, attr) is not None for p in parts):
            return np.stack([np.asarray(getattr(p, attr), dtype=object)[ix] for p, ix in zip(parts, take)])
        return None

    clusters = column("cluster")
    repeated = clusters is not None and all(p.repeated for p in parts)
    if clusters is not None and any(p.repeated for p in parts) and not repeated:
        raise ExactStatsError("some inputs repeat questions (epochs) and others do not: compare like with like")
    choices = column("chosen")
    answers = column("answer")
    if answers is not None and not (answers == answers[0]).all():
        j = int(np.flatnonzero((answers != answers[0]).any(axis=0))[0])
        raise ExactStatsError(f"question {order[j]!r}: the inputs disagree on its answer key")
    probabilities = None
    given = [p.probs for p in parts if p.probs is not None]
    if len(given) == len(parts) and len({g.shape[1] for g in given}) == 1:
        probabilities = np.stack([g[ix] for g, ix in zip(given, take)])
    right = _right_probability(parts, take, probabilities, answers)
    return ResultSet(
        [p.model for p in parts],
        order,
        C,
        clusters[0] if clusters is not None else None,
        repeated,
        choices.astype(np.int64) if choices is not None else None,
        answers[0].astype(np.int64) if answers is not None else None,
        probabilities=probabilities,
        right_probability=right,
        dropped=len(union) - len(common),
        sources=sorted({p.source for p in parts}),
        notes=[n for p in parts for n in p.notes],
    )
