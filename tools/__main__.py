"""``python -m tools``: rebuild the shipped dataset from its run folders, and re-check it against the models."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

EPILOG = """examples:
  python -m tools build-data data     # Parquet tables, summary.json, SUMMARY.md and the datasheet's tables
  python -m tools check data --n 20   # every row checked against its manifest; 20 rows re-scored, 20 re-executed
"""


def cmd_check(args: argparse.Namespace) -> int:
    from .check import check_dataset, check_files, check_passk

    ok_files, report_files = check_files(Path(args.data))
    print(report_files)
    if not ok_files:
        return 1
    ok, report = check_dataset(Path(args.data), n=args.n)
    print(report)
    ok_passk, report_passk = check_passk(Path(args.data), n=args.n)
    print(report_passk)
    return 0 if ok and ok_passk else 1


def cmd_build(args: argparse.Namespace) -> int:
    from .build import build
    from .passk_data import build_passk

    summary = build(Path(args.data))
    for cond, entries in summary.items():
        print(f"{cond}: " + ", ".join(f"{m} {e['rows']}/{e['questions']}" for m, e in entries.items()))
    for cond, entries in build_passk(Path(args.data)).items():
        print(
            f"{cond}: "
            + ", ".join(f"{m} {e['problems_complete']}/{e['problems_total']} problems" for m, e in entries.items())
        )
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m tools", description=__doc__, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="re-score a few committed rows and re-execute a few stored completions; compare")
    c.add_argument("data", help="the data folder")
    c.add_argument("--n", type=int, default=20)
    c.set_defaults(func=cmd_check)
    b = sub.add_parser("build-data", help="write the Parquet tables and summary from data/runs")
    b.add_argument("data", help="the data folder")
    b.set_defaults(func=cmd_build)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except (ValueError, OSError, RuntimeError) as exc:
        print(f"tools {args.command}: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
