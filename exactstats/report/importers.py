"""Reading eval results from files: correctness matrices, lm-eval sample logs, Inspect logs.

Everything becomes a :class:`ResultSet`: model names, question ids, and a models x
questions 0/1 matrix, with per-question clusters, chosen options and keys when the
input has them. Question sets must match across models: a mismatch or a duplicated
id is an error naming the file (``intersect=True`` keeps the common questions on
purpose and says how many were dropped). Formats:

- wide table (``.csv`` / ``.parquet``): first column ``model``, one column per question id, 0/1;
- long table: columns ``model``, ``question_id``, ``correct`` and optionally ``subject`` or
  ``cluster``, ``chosen``, ``answer``;
- lm-evaluation-harness ``--log_samples`` output (``samples_*.jsonl``): one JSON object per
  line with ``doc_id`` and a 0/1 metric (``acc`` by default), as written by lm-eval's
  ``EvaluationTracker``; the model name comes from ``NAME=path`` on the command line, else
  from the ``results_*.json`` beside it, else from the folder name;
- Inspect AI eval logs (``.json`` written with ``--log-format=json``, or the zipped ``.eval``
  format): ``eval.model`` names the model, each sample's first score is C (correct) / I
  (incorrect) or a number 0/1; samples of several epochs become ``id#epoch``.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._validate import ExactStatsError

__all__ = ["ResultSet", "load_results", "read_source"]


@dataclass
class ResultSet:
    models: list[str]
    question_ids: list[str]
    correct: np.ndarray  # models x questions, int64 0/1
    clusters: np.ndarray | None = None
    choices: np.ndarray | None = None
    answers: np.ndarray | None = None
    dropped: int = 0  # questions dropped by intersect
    sources: list[str] = field(default_factory=list)


@dataclass
class _ModelRows:
    model: str
    source: str
    ids: list[str]
    correct: list[int]
    cluster: list[Any] | None = None
    chosen: list[int] | None = None
    answer: list[int] | None = None


def _binary(value: Any, where: str) -> int:
    if isinstance(value, bool):
        return int(value)
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ExactStatsError(f"{where}: correctness must be 0 or 1, got {value!r}") from None
    if v not in (0.0, 1.0):
        raise ExactStatsError(f"{where}: correctness must be 0 or 1, got {value!r}")
    return int(v)


def _read_table(path: Path) -> pd.DataFrame:
    if path.stat().st_size == 0:
        raise ExactStatsError(f"{path}: empty file")
    try:
        df = pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path, dtype={"question_id": str})
    except (ValueError, pd.errors.ParserError) as exc:
        raise ExactStatsError(f"{path}: cannot read table ({exc})") from None
    if df.empty:
        raise ExactStatsError(f"{path}: no rows")
    return df


def _from_table(path: Path) -> list[_ModelRows]:
    df = _read_table(path)
    if df.index.name == "model":
        df = df.reset_index()
    cols = set(df.columns)
    if {"model", "question_id", "correct"} <= cols:  # long
        cluster_col = "cluster" if "cluster" in cols else ("subject" if "subject" in cols else None)
        out = []
        for model, rows in df.groupby("model", sort=False):
            ids = rows["question_id"].astype(str).tolist()
            correct = [_binary(v, f"{path}, row {i + 2} (model {model})") for i, v in zip(rows.index, rows["correct"])]
            out.append(
                _ModelRows(
                    str(model),
                    str(path),
                    ids,
                    correct,
                    rows[cluster_col].tolist() if cluster_col else None,
                    rows["chosen"].astype(int).tolist() if "chosen" in cols else None,
                    rows["answer"].astype(int).tolist() if "answer" in cols else None,
                )
            )
        return out
    if "model" not in cols:
        raise ExactStatsError(
            f"{path}: a wide table needs a 'model' column; a long one 'model', 'question_id', 'correct'"
        )
    qcols = [c for c in df.columns if c != "model"]
    if not qcols:
        raise ExactStatsError(f"{path}: no question columns")
    out = []
    for i, row in df.iterrows():
        missing = [c for c in qcols if pd.isna(row[c])]
        if missing:
            raise ExactStatsError(
                f"{path}, row {i + 2} (model {row['model']}): ragged matrix, no value for question {missing[0]!r}"
            )
        out.append(
            _ModelRows(
                str(row["model"]),
                str(path),
                [str(c) for c in qcols],
                [_binary(row[c], f"{path}, row {i + 2}, question {c!r}") for c in qcols],
            )
        )
    return out


def _lm_eval_model_name(path: Path) -> str:
    for results in sorted(path.parent.glob("results_*.json")):
        try:
            meta = json.loads(results.read_text())
        except json.JSONDecodeError:
            continue
        args = (meta.get("config") or {}).get("model_args")
        if isinstance(args, dict):
            args = args.get("pretrained")
        name = meta.get("model_name") or args
        if name:  # a local path names the model by its last part
            return Path(str(name).removeprefix("pretrained=").split(",")[0]).name
    return path.parent.name


def _from_lm_eval(path: Path, name: str | None, metric: str) -> list[_ModelRows]:
    text = path.read_text(encoding="utf-8")
    if not text.strip():
        raise ExactStatsError(f"{path}: empty file")
    ids, correct = [], []
    for i, line in enumerate(text.splitlines()):
        if not line.strip():
            continue
        where = f"{path}, line {i + 1}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ExactStatsError(f"{where}: invalid JSON ({exc.msg})") from None
        if "doc_id" not in obj:
            raise ExactStatsError(f"{where}: no 'doc_id' (not an lm-eval samples file?)")
        if metric not in obj:
            raise ExactStatsError(
                f"{where}: no metric {metric!r} (fields: {', '.join(k for k in obj if not k.startswith('doc'))})"
            )
        ids.append(str(obj["doc_id"]))
        correct.append(_binary(obj[metric], where))
    task = path.stem.removeprefix("samples_").rsplit("_", 1)[0]
    return [_ModelRows(name or _lm_eval_model_name(path), str(path), [f"{task}/{d}" for d in ids], correct)]


def _inspect_value(score: Any, where: str) -> int:
    value = score.get("value") if isinstance(score, dict) else score
    if value in ("C", "I"):
        return int(value == "C")
    return _binary(value, where)


_ZIP_ZSTD = 93  # Inspect writes .eval members with Zstandard, which zipfile reads only from Python 3.14


def _zip_member(path: Path, z: zipfile.ZipFile, name: str) -> bytes:
    info = z.getinfo(name)
    if info.compress_type != _ZIP_ZSTD:
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


def _from_inspect(path: Path, name: str | None) -> list[_ModelRows]:
    if path.suffix == ".eval":
        with zipfile.ZipFile(path) as z:
            names = z.namelist()
            if "header.json" not in names:
                raise ExactStatsError(f"{path}: no header.json (not an Inspect .eval log?)")
            header = json.loads(_zip_member(path, z, "header.json"))
            samples = [
                json.loads(_zip_member(path, z, n))
                for n in sorted(names)
                if n.startswith("samples/") and n.endswith(".json")
            ]
    else:
        if path.stat().st_size == 0:
            raise ExactStatsError(f"{path}: empty file")
        try:
            header = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise ExactStatsError(f"{path}: invalid JSON ({exc.msg})") from None
        samples = header.get("samples") or []
    if "eval" not in header:
        raise ExactStatsError(f"{path}: no 'eval' section (not an Inspect log?)")
    if not samples:
        raise ExactStatsError(f"{path}: the log holds no samples")
    epochs = {s.get("epoch", 1) for s in samples}
    ids, correct = [], []
    for i, s in enumerate(samples):
        where = f"{path}, sample {i + 1} (id {s.get('id')!r})"
        scores = s.get("scores") or {}
        if not scores:
            raise ExactStatsError(f"{where}: no scores")
        ids.append(str(s["id"]) + (f"#{s.get('epoch', 1)}" if len(epochs) > 1 else ""))
        correct.append(_inspect_value(next(iter(scores.values())), where))
    task = header["eval"].get("task", "task")
    return [
        _ModelRows(name or header["eval"].get("model", path.stem), str(path), [f"{task}/{q}" for q in ids], correct)
    ]


def read_source(spec: str, metric: str = "acc") -> list[_ModelRows]:
    """One input: ``[NAME=]PATH``."""
    name, _, raw = spec.rpartition("=") if "=" in spec and not Path(spec).exists() else (None, "", spec)
    path = Path(raw)
    if not path.exists():
        raise ExactStatsError(f"{path}: no such file")
    if path.is_dir():
        raise ExactStatsError(f"{path}: is a folder; name the files (e.g. {path}/samples_*.jsonl)")
    if path.suffix in (".csv", ".parquet"):
        rows = _from_table(path)
        if name:
            if len(rows) != 1:
                raise ExactStatsError(f"{path}: NAME= applies to single-model files, this one holds {len(rows)} models")
            rows[0].model = name
        return rows
    if path.suffix == ".jsonl":
        return _from_lm_eval(path, name or None, metric)
    if path.suffix in (".json", ".eval"):
        return _from_inspect(path, name or None)
    raise ExactStatsError(f"{path}: unknown format {path.suffix!r} (csv, parquet, lm-eval .jsonl, Inspect .json/.eval)")


def load_results(specs: Sequence[str], intersect: bool = False, metric: str = "acc") -> ResultSet:
    parts = [r for spec in specs for r in read_source(spec, metric)]
    if not parts:
        raise ExactStatsError("inputs must name at least one file")
    seen: dict[str, str] = {}
    for p in parts:
        if not p.ids:
            raise ExactStatsError(f"{p.source}: model {p.model!r} has zero questions")
        if p.model in seen:
            raise ExactStatsError(
                f"model {p.model!r} appears twice ({seen[p.model]} and {p.source}); name one with NAME=PATH"
            )
        seen[p.model] = p.source
        dup = pd.Index(p.ids)[pd.Index(p.ids).duplicated()]
        if len(dup):
            raise ExactStatsError(f"{p.source}: question id {dup[0]!r} appears twice for model {p.model!r}")
    common = set(parts[0].ids).intersection(*(p.ids for p in parts[1:]))
    union = set().union(*(p.ids for p in parts))
    if common != union and not intersect:
        worst = max(parts, key=lambda p: len(set(p.ids) ^ common))
        raise ExactStatsError(
            f"question sets differ: {len(union)} ids in all, {len(common)} shared by every model "
            f"(e.g. {worst.model!r} from {worst.source} has {len(set(worst.ids) - common)} not shared); "
            "pass --intersect to keep only the shared ones"
        )
    if not common:
        raise ExactStatsError("no question is shared by every model")
    order = [q for q in parts[0].ids if q in common]
    pos = [{q: i for i, q in enumerate(p.ids)} for p in parts]
    C = np.array([[p.correct[ix[q]] for q in order] for p, ix in zip(parts, pos)], dtype=np.int64)

    def column(attr: str):
        if all(getattr(p, attr) is not None for p in parts):
            return np.array([[getattr(p, attr)[ix[q]] for q in order] for p, ix in zip(parts, pos)])
        return None

    clusters = column("cluster")
    choices = column("chosen")
    answers = column("answer")
    return ResultSet(
        [p.model for p in parts],
        order,
        C,
        clusters[0] if clusters is not None else None,
        choices.astype(np.int64) if choices is not None else None,
        answers[0].astype(np.int64) if answers is not None else None,
        dropped=len(union) - len(common),
        sources=sorted({p.source for p in parts}),
    )
