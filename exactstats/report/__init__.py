"""``exactstats report``: the book's analyses on anyone's eval results (needs the ``report`` extra).

- :mod:`~exactstats.report.importers`: CSV/Parquet matrices, lm-eval sample logs, Inspect logs -> :class:`ResultSet`;
- :mod:`~exactstats.report.analysis`: typed results, each number one call into the exact core;
- :mod:`~exactstats.report.render`: Markdown, self-contained HTML, JSON (one block renderer for every report);
- :mod:`~exactstats.report.tasks_report`: a models x tasks table of scores, ranked over tasks;
- :mod:`~exactstats.report.figures`: the figures shared with the book;
- :mod:`~exactstats.report.dataset`: the shipped correctness dataset (``load_panel``).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .._validate import ExactStatsError

__all__ = ["Report", "ResultSet", "analyse", "load_results", "add_arguments", "main"]
_LAZY = {"Report": "analysis", "analyse": "analysis", "ResultSet": "importers", "load_results": "importers"}


def __getattr__(name: str) -> Any:
    # pandas and matplotlib load when the report runs, not when the CLI builds its --help
    if name in _LAZY:
        from importlib import import_module

        return getattr(import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "inputs",
        nargs="+",
        metavar="INPUT",
        help="[NAME=]PATH: a wide or long CSV/Parquet matrix, lm-eval samples_*.jsonl, or an Inspect .json/.eval log",
    )
    p.add_argument("--out", help="write an HTML report (one self-contained file) here")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.add_argument(
        "--intersect", action="store_true", help="keep only questions every model answered (says how many were dropped)"
    )
    p.add_argument("--metric", default="acc", help="lm-eval per-sample metric to read (default acc)")
    p.add_argument("--draws", type=int, default=1000, help="redraws for the leader-stability estimate (default 1000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--fdr",
        choices=("bh", "by"),
        help="also control the false-discovery rate over all pairs: Benjamini-Hochberg, or -Yekutieli for any "
        "dependence (the tiers stay Holm)",
    )
    p.add_argument(
        "--k",
        type=int,
        nargs="+",
        default=[1, 5, 10],
        help="pass@k tables (columns problem, sample, passed): the k values (default 1 5 10)",
    )
    p.add_argument(
        "--scores",
        action="store_true",
        help="the wide table holds one score per model and task (HELM, MTEB), not 0/1 per question: rank the "
        "models over tasks (a long table with columns model, task, score is recognised without this)",
    )
    p.add_argument(
        "--exact-all",
        action="store_true",
        help="compute every pair's McNemar p-value exactly (default: exactly where a decision depends on it)",
    )


def main(args: argparse.Namespace) -> None:
    if args.out:
        refuse_to_overwrite_an_input(args.out, args.inputs)
    if getattr(args, "scores", False) or (len(args.inputs) == 1 and _is_task_file(args.inputs[0])):
        _task_report(args)
        return
    if len(args.inputs) == 1 and _is_passk_file(args.inputs[0]):
        from .passk_report import passk_html, passk_markdown, passk_report, problem_counts, read_passk_table

        passk = passk_report(problem_counts(read_passk_table(args.inputs[0])), args.k)
        if args.out:
            write_atomically(args.out, passk_html(passk))
        print(json.dumps(passk.to_json()) if args.json else passk_markdown(passk), end="\n" if args.json else "")
        return

    _matrix_report(args)


def _matrix_report(args: argparse.Namespace) -> None:
    """The report on a correctness matrix (every input but pass@k and task tables)."""
    from .analysis import analyse
    from .importers import load_results
    from .render import to_html, to_json, to_markdown

    rs = load_results(args.inputs, intersect=args.intersect, metric=args.metric)
    if rs.dropped:
        print(f"exactstats report: dropped {rs.dropped} questions not shared by every model", file=sys.stderr)
    for note in rs.notes:
        print(f"exactstats report: {note}", file=sys.stderr)
    provenance = _provenance(args)
    report = analyse(
        rs,
        draws=args.draws,
        seed=args.seed,
        progress=sys.stderr.isatty(),
        provenance=provenance,
        exact_all=args.exact_all,
        fdr=args.fdr,
    )
    if args.out:  # rendered in full before the file is touched: a failure leaves no half-written report
        write_atomically(args.out, to_html(report))
    print(to_json(report) if args.json else to_markdown(report), end="\n" if args.json else "")


def _provenance(args: argparse.Namespace) -> dict[str, Any]:
    import datetime
    import shlex

    from .. import __version__

    return {
        "version": __version__,
        "date": datetime.date.today().isoformat(),
        "command": "exactstats "
        + " ".join(shlex.quote(a) for a in getattr(args, "argv", None) or ["report", *args.inputs]),
        "inputs": list(args.inputs),
    }


def _task_report(args: argparse.Namespace) -> None:
    """A models x tasks table of scores: the task leaderboard (exactstats.tasks), not the per-question report."""
    from .tasks_report import analyse_tasks, read_task_table, task_html, task_markdown

    if len(args.inputs) != 1:
        raise ExactStatsError(f"a table of task scores is read alone, got {len(args.inputs)} inputs")
    table = read_task_table(args.inputs[0], wide=bool(getattr(args, "scores", False)), intersect=args.intersect)
    report = analyse_tasks(table, fdr=args.fdr, provenance=_provenance(args))
    if args.out:
        write_atomically(args.out, task_html(report))
    print(json.dumps(report.to_json()) if args.json else task_markdown(report), end="\n" if args.json else "")


def _is_task_file(spec: str) -> bool:
    from pathlib import Path

    path = Path(spec)
    if not path.is_file() or path.suffix != ".csv":
        return False
    from .tasks_report import is_task_table

    with open(path, encoding="utf-8", errors="replace") as f:
        return is_task_table([c.strip() for c in f.readline().strip().split(",")])


def refuse_to_overwrite_an_input(out: str, inputs: list[str]) -> None:
    from pathlib import Path

    target = Path(out).resolve()
    for spec in inputs:
        path = Path(spec.split("=", 1)[1] if "=" in spec and not Path(spec).exists() else spec).resolve()
        if target == path or (path.is_dir() and path in target.parents):
            raise ExactStatsError(f"--out {out} would overwrite the input {spec}: write the report elsewhere")


def write_atomically(out: str, text: str) -> None:
    import os
    import tempfile
    from pathlib import Path

    folder = Path(out).resolve().parent
    fd, tmp = tempfile.mkstemp(prefix=".exactstats-report-", dir=folder)
    mask = os.umask(0)
    os.umask(mask)
    os.chmod(tmp, 0o666 & ~mask)  # as an ordinary new file would be (mkstemp makes it private)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _is_passk_file(spec: str) -> bool:
    """A single per-sample pass@k table (its columns say so), read cheaply from the header or schema."""
    from pathlib import Path

    path = Path(spec)
    if not path.is_file() or path.suffix not in (".csv", ".parquet"):
        return False
    from .passk_report import is_passk_table

    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        try:
            return is_passk_table(pq.read_schema(path).names)
        except Exception as exc:  # noqa: BLE001 - pyarrow raises its own error types for a corrupt file
            detail = " ".join(str(exc).split())[:160]
            raise ExactStatsError(f"{path}: not a readable Parquet file ({detail})") from None
    with open(path, encoding="utf-8", errors="replace") as f:
        return is_passk_table(f.readline().strip().split(","))
