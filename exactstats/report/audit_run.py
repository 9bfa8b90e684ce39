"""``exactstats audit INPUT``: check published evaluation numbers against every count they allow.

Inputs: an lm-eval ``results_*.json`` (or the folder holding it), an Inspect log (``.json`` or
``.eval``: its header's scores), or a table pasted from a paper or README, as CSV or Markdown, with a
column for the name (``model`` or ``name``) and the score (``score``, ``accuracy`` or ``acc``), and
optionally ``n``, ``stderr``, ``ci_low``, ``ci_high``, ``level``, and for pass@k rows ``k`` and
``samples`` (per problem). A table with a ``formula`` column holds derived claims instead: ``claim``
(or ``name``), ``printed`` (empty where the text gives the claim without its number), ``formula``
(arithmetic, ``sqrt`` and ``abs`` over named inputs; numbers written in it are exact), ``inputs``
(``a=0.718; b=0.700``: the printed numbers it uses) and optionally ``check`` (``whole`` for a claim
that the formula gives a whole number). A score above 1 or written with ``%`` is read as a percentage. Every check
is one call of :mod:`exactstats.audit`; numbers from JSON files are exact floats and are read to twelve
decimals.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._validate import ExactStatsError, as_int
from ..audit import SEVERITIES, AuditRow, Finding, audit_rows
from ..claims import AuditClaim, audit_claims
from .csv_rows import read_csv_rows
from .importers import inspect_header, lm_eval_sample_counts
from .render import Block, markdown_from_blocks

NAMES = {"name": ("model", "name", "system"), "score": ("score", "accuracy", "acc", "value")}
OPTIONAL = ("n", "stderr", "ci_low", "ci_high", "level", "k", "samples")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("input", help="lm-eval results JSON or folder, Inspect log (.json/.eval), or a CSV/Markdown table")
    p.add_argument("--n", help="questions behind every score, where the input does not say")
    p.add_argument("--alpha", default="0.05", help="level for the ranking check (Holm over adjacent pairs)")
    p.add_argument("--out", help="also write the audit as one self-contained HTML file")
    p.add_argument("--json", action="store_true", help="print one JSON object")


@dataclass
class AuditReport:
    source: str
    rows: int
    findings: list[Finding]

    def to_json(self) -> dict[str, Any]:
        counts = Counter(f.severity for f in self.findings)
        return {
            "source": self.source,
            "rows": self.rows,
            "counts": {s: counts.get(s, 0) for s in SEVERITIES},
            "findings": [dict(vars(f)) for f in self.findings],
        }


def read_rows(path: str, n: int | None = None) -> list[AuditRow] | list[AuditClaim]:
    """The published rows of one input, by its kind: scores, or derived claims (a table with a formula)."""
    file = Path(path)
    if not file.exists():
        raise ExactStatsError(f"{path}: no such file or folder")
    if file.is_dir():
        found = sorted(file.rglob("results*.json"))
        if not found:
            raise ExactStatsError(f"{path}: a folder must hold an lm-eval results*.json (none found)")
        exact = lm_eval_sample_counts(file)  # samples files, where present, give each task's count exactly
        rows = [r for f in found for r in _lm_eval(f, n)]
        for r in rows:
            task, _, metric = r.name.partition(" ")
            if metric == "acc" and task in exact:
                r.right, r.n = exact[task]
        return rows
    if file.suffix == ".eval":
        return _inspect(inspect_header(file), str(file), n)
    if file.suffix == ".json":
        data = _load_json(file)  # read once: an Inspect JSON log is its own header (and all its samples)
        if isinstance(data, dict) and "results" in data and isinstance(data["results"], dict):
            if "scores" in data["results"]:
                return _inspect(data, str(file), n)
            return _lm_eval_rows(data, str(file), n)
        raise ExactStatsError(f"{path}: neither an lm-eval results file nor an Inspect log")
    text = file.read_text(encoding="utf-8")
    header, body = _markdown_table(text, path) if "|" in text.splitlines()[0] else read_csv_rows(path)
    if _column(header, ("formula",)) is not None:
        return _claim_rows(header, body, path)
    return _table_rows(header, body, path, n)


def _load_json(file: Path) -> Any:
    try:
        return json.loads(file.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise ExactStatsError(f"{file}: not JSON ({' '.join(str(exc).split())[:80]})") from None


def _exact(value: Any) -> str | None:
    """A JSON number as text with its float's value to twelve decimals; None for anything else (N/A)."""
    return f"{value:.12f}" if isinstance(value, int | float) and not isinstance(value, bool) else None


def _lm_eval(file: Path, n: int | None) -> list[AuditRow]:
    return _lm_eval_rows(_load_json(file), str(file), n)


def _lm_eval_rows(data: dict[str, Any], source: str, n: int | None) -> list[AuditRow]:
    rows = []
    sizes = data.get("n-samples") or {}
    for task, metrics in data["results"].items():
        size = (sizes.get(task) or {}).get("effective", n)
        for key, value in metrics.items():
            metric, _, filt = key.partition(",")
            score = _exact(value)
            if score is None or metric.endswith("_stderr") or metric in ("sample_len",) or not filt:
                continue
            stderr = _exact(metrics.get(f"{metric}_stderr,{filt}"))
            rows.append(AuditRow(f"{task} {metric}", score, n=size, stderr=stderr))
    if not rows:
        raise ExactStatsError(f"{source}: no scores in its results")
    return rows


def _inspect(data: dict[str, Any], source: str, n: int | None) -> list[AuditRow]:
    results = data["results"]
    size = results.get("completed_samples") or n
    epochs = int((data.get("eval", {}).get("config") or {}).get("epochs") or 1)
    model = str(data.get("eval", {}).get("model", "model"))
    rows = []
    for score in results.get("scores", []):
        metrics = score.get("metrics", {})
        for name, metric in metrics.items():
            value = _exact(metric.get("value"))
            if name == "stderr" or value is None:
                continue
            stderr = _exact((metrics.get("stderr") or {}).get("value")) if name == "accuracy" else None
            label = f"{model} {score.get('name', 'score')} {name}"
            # epochs: Inspect reduces each sample's epochs to one score first, so n is the samples, not rows
            rows.append(AuditRow(label, value, n=size // epochs if size else None, stderr=stderr))
    if not rows:
        raise ExactStatsError(f"{source}: no scores in its header")
    return rows


SEPARATOR = re.compile(r"^\s*\|?\s*:?-{3,}")


def _markdown_table(text: str, path: str) -> tuple[list[str], list[tuple[int, list[str]]]]:
    lines = [(i, line) for i, line in enumerate(text.splitlines(), 1) if line.strip()]

    def cells(line: str) -> list[str]:
        return [c.strip() for c in line.strip().strip("|").split("|")]

    header = cells(lines[0][1])
    body = []
    for i, line in lines[1:]:
        if SEPARATOR.match(line):
            continue
        row = cells(line)
        if len(row) != len(header):
            raise ExactStatsError(f"{path}, line {i}: {len(row)} cells, but the header has {len(header)}")
        body.append((i, row))
    return header, body


def _column(header: list[str], names: tuple[str, ...]) -> int | None:
    lowered = [h.strip().lower() for h in header]
    return next((lowered.index(n) for n in names if n in lowered), None)


def _table_rows(header: list[str], body: list[tuple[int, list[str]]], path: str, n: int | None) -> list[AuditRow]:
    at_name, at_score = _column(header, NAMES["name"]), _column(header, NAMES["score"])
    if at_name is None or at_score is None:
        raise ExactStatsError(f"{path}: needs a name column (model or name) and a score column (score or accuracy)")
    at = {c: i for c in OPTIONAL if (i := _column(header, (c,))) is not None}
    scores = [_number(row[at_score], f"{path}, line {line}") for line, row in body]  # every score, read once
    percent = any("%" in row[at_score] for _, row in body) or any(s > 1 for s in scores)
    rows = []
    seen: dict[tuple[str, str | None], int] = {}
    for line, row in body:
        cell = {c: row[i].strip().rstrip("%") or None for c, i in at.items()}  # absent or empty: None
        key = (row[at_name].strip(), cell.get("k"))
        if key in seen:
            raise ExactStatsError(f"{path}, line {line}: {key[0]!r} again (first on line {seen[key]}); one row each")
        seen[key] = line
        where = f"{path}, line {line}"
        rows.append(
            AuditRow(
                row[at_name].strip(),
                row[at_score].strip().rstrip("%"),
                n=_count(cell, "n", where) or n,
                stderr=cell.get("stderr"),
                ci_low=cell.get("ci_low"),
                ci_high=cell.get("ci_high"),
                ci_level=cell.get("level") or "0.95",
                percent=percent,
                k=_count(cell, "k", where),
                samples=_count(cell, "samples", where),
            )
        )
    if not rows:
        raise ExactStatsError(f"{path}: no rows")
    return rows


def _claim_rows(header: list[str], body: list[tuple[int, list[str]]], path: str) -> list[AuditClaim]:
    at = {c: _column(header, names) for c, names in CLAIM_COLUMNS.items()}
    missing = [c for c in ("name", "printed", "formula") if at[c] is None]
    if missing:
        raise ExactStatsError(f"{path}: a table with a formula needs the columns {', '.join(missing)} too")
    claims = []
    for line, row in body:
        cell = {c: row[i].strip() if i is not None else "" for c, i in at.items()}
        check = cell["check"].lower() or "value"
        if check not in ("value", "whole"):
            raise ExactStatsError(f"{path}, line {line}: check must be value or whole, got {cell['check']!r}")
        inputs = _inputs(cell["inputs"], f"{path}, line {line}")
        claims.append(AuditClaim(cell["name"], cell["printed"], cell["formula"], inputs, whole=check == "whole"))
    if not claims:
        raise ExactStatsError(f"{path}: no rows")
    return claims


CLAIM_COLUMNS = {"name": ("claim", "name"), "printed": ("printed",), "formula": ("formula",),
                 "inputs": ("inputs",), "check": ("check",)}  # fmt: skip


def _inputs(text: str, where: str) -> dict[str, str]:
    """``a=0.718; b=0.700`` (or commas) as names and printed numbers, each a number."""
    inputs: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in re.split(r"[;,]", text))):
        name, equals, value = (x.strip() for x in part.partition("="))
        if not equals or not name.isidentifier() or name in inputs:
            raise ExactStatsError(f"{where}: inputs must read like a=0.718; b=0.700, got {part!r}")
        _number(value, where, what=f"input {name}")
        inputs[name] = value
    return inputs


def _count(cell: dict[str, str | None], column: str, where: str) -> int | None:
    """A positive whole number from an optional cell (n, k, samples), None where the cell is absent or empty."""
    text = cell.get(column)
    return as_int(text, f"{where}: {column}", minimum=1) if text else None


def _number(text: str, where: str, what: str = "score") -> float:
    try:
        return float(text.strip().rstrip("%"))
    except ValueError:
        raise ExactStatsError(f"{where}: {what} {text!r} is not a number") from None


def audit_blocks(r: AuditReport) -> list[Block]:
    counts = Counter(f.severity for f in r.findings)
    rows = [[f.severity, f.row, f.check, f.message, f.computation] for f in r.findings]
    summary = ", ".join(f"{counts.get(s, 0)} {s}{'s' if counts.get(s, 0) != 1 else ''}" for s in SEVERITIES)
    out: list[Block] = [("h1", f"Audit of {r.source}: {r.rows} rows"), ("p", f"Findings: {summary}.")]
    if rows:
        out.append(("table", (["severity", "row", "check", "finding", "computation"], rows)))
    out.append(
        (
            "p",
            "error: no count, convention, method or admissible input reproduces the printed number; warning: only "
            "an unusual one does (or only inputs away from their printed values), or no data consistent with the "
            "numbers supports the claim; note: what was identified.",
        )
    )
    return out


def main(args: argparse.Namespace) -> None:
    n = as_int(args.n, "--n", minimum=1) if args.n else None
    rows = read_rows(args.input, n)
    claims = [r for r in rows if isinstance(r, AuditClaim)]
    scores = [r for r in rows if isinstance(r, AuditRow)]
    report = AuditReport(args.input, len(rows), audit_claims(claims) + audit_rows(scores, args.alpha))
    if args.out:  # rendered in full before the file is touched, never over the input
        from . import refuse_to_overwrite_an_input, write_atomically
        from .render import html_from_blocks

        refuse_to_overwrite_an_input(args.out, [args.input])
        write_atomically(args.out, html_from_blocks(audit_blocks(report), [], title="Audit"))
    print(
        json.dumps(report.to_json()) if args.json else markdown_from_blocks(audit_blocks(report)),
        end="\n" if args.json else "",
    )
