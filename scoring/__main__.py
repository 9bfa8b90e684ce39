"""``python -m scoring``: run models on multiple-choice questions, build the correctness matrix, check data."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

EPILOG = """examples:
  python -m scoring run --model smollm2-135m-instruct --questions redux --n 2000 --out runs/smollm2
  python -m scoring matrix runs/* --out matrix.parquet
  python -m scoring models
"""


def cmd_models(args) -> int:
    from .models import PACKAGED_MODELS, ModelUnavailable

    for name, m in PACKAGED_MODELS.items():
        try:
            m.part_paths()
            state = "installed"
        except ModelUnavailable:
            state = "not installed"
        print(f"{name:30s} {m.upstream:38s} {m.licence:20s} {state}")
    return 0


def select_questions(source: str, n: int | None, seed: int, stratify: bool, shuffle_safe_only: bool):
    from .questions import filter_shuffle_safe, load_questions, sample_questions

    pool = load_questions(source)
    kept, dropped = filter_shuffle_safe(pool) if shuffle_safe_only else (pool, [])
    return pool, kept, dropped, sample_questions(kept, n, seed=seed, stratify=stratify)


def cmd_run(args) -> int:
    from .run import RunConfig, score_questions
    from .scorer import load_model

    cfg = RunConfig(model=args.model, questions_source=args.questions, n=args.n, seed=args.seed, shots=args.shots,
                    shuffle=args.shuffle, chat_template=args.chat_template, batch_size=args.batch_size,
                    dtype=args.dtype, device=args.device, stratify=not args.no_stratify,
                    shuffle_safe_only=not args.keep_cross_references, threads=args.threads,
                    reuse_prefix=not args.no_prefix_reuse)
    pool, kept, dropped, questions = select_questions(args.questions, args.n, args.seed, cfg.stratify, cfg.shuffle_safe_only)
    if dropped:
        print(f"dropped {len(dropped)} of {len(pool)} questions whose options refer to other options "
              f"(e.g. 'all of the above'); --keep-cross-references keeps them", file=sys.stderr)
    lm = load_model(args.model, device=args.device, dtype=args.dtype, threads=args.threads)
    manifest = score_questions(lm, questions, pool, cfg, Path(args.out), progress=not args.no_progress,
                               reuse_from=[Path(d) for d in args.reuse_rows_from])
    manifest["dropped_cross_reference"] = len(dropped)
    if args.json:
        print(json.dumps(manifest))
    else:
        speed = (f"{manifest['this_run_scored']} this run, {manifest['this_run_questions_per_s']} q/s"
                 if manifest["this_run_scored"] else "nothing left to score")
        print(f"{manifest['rows']} of {manifest['questions']} questions scored in {args.out} ({speed})")
    return 0


def cmd_matrix(args) -> int:
    from .matrix import long_table, wide_matrix

    long = long_table(args.runs)
    wide = wide_matrix(long, require_complete=not args.allow_missing)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    wide.to_parquet(out)
    if args.long:
        long.to_parquet(args.long, index=False)
    print(f"{wide.shape[0]} models x {wide.shape[1]} questions -> {out}")
    return 0


def cmd_check(args) -> int:
    from .check import check_dataset

    ok, report = check_dataset(Path(args.data), n=args.n)
    print(report)
    return 0 if ok else 1


def cmd_build(args) -> int:
    from .build import build

    summary = build(Path(args.data))
    for cond, entries in summary.items():
        print(f"{cond}: " + ", ".join(f"{m} {e['rows']}/{e['questions']}" for m, e in entries.items()))
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m scoring", description=__doc__, epilog=EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)

    r = sub.add_parser("run", help="score one model on multiple-choice questions (resumable)")
    r.add_argument("--model", required=True, help="packaged model name (see `models`), a .gguf file, a local folder, or a Hub id")
    r.add_argument("--questions", default="redux", help="'redux' ($EXACTSTATS_MMLU_DIR), a folder of MMLU CSVs, a .jsonl file, or hub:cais/mmlu")
    r.add_argument("--n", type=int, default=None, help="sample this many questions (default: all)")
    r.add_argument("--seed", type=int, default=0, help="seed for sampling, option order and few-shot choice")
    r.add_argument("--shots", type=int, default=0, help="few-shot examples from the same subject (default 0)")
    r.add_argument("--shuffle", default="per-model", choices=["per-model", "shared", "original"],
                   help="option order: per-model permutation (default), one shared permutation, or the original order")
    r.add_argument("--chat-template", action="store_true", help="wrap the prompt in the model's chat template")
    r.add_argument("--batch-size", type=int, default=1)
    r.add_argument("--no-prefix-reuse", action="store_true",
                   help="recompute the few-shot prefix for every question instead of reusing its key/value cache")
    r.add_argument("--dtype", default="auto", choices=["auto", "float32", "bfloat16", "float16"])
    r.add_argument("--device", default="auto")
    r.add_argument("--threads", type=int, default=None, help="torch CPU threads")
    r.add_argument("--no-stratify", action="store_true", help="sample without stratifying by subject")
    r.add_argument("--keep-cross-references", action="store_true", help="keep questions whose options refer to other options")
    r.add_argument("--out", required=True, help="run folder (created; rerunning resumes)")
    r.add_argument("--reuse-rows-from", action="append", default=[], metavar="RUN",
                   help="copy rows from a finished run with the same settings over a subset of these questions "
                        "(e.g. the 2,000-question sample when scoring all questions); repeatable")
    r.add_argument("--no-progress", action="store_true")
    r.add_argument("--json", action="store_true", help="print the manifest as JSON")
    r.set_defaults(func=cmd_run)

    m = sub.add_parser("matrix", help="build the models x questions 0/1 matrix from run folders")
    m.add_argument("runs", nargs="+")
    m.add_argument("--out", required=True, help="Parquet file for the wide matrix")
    m.add_argument("--long", help="also write the long table here")
    m.add_argument("--allow-missing", action="store_true", help="allow models with missing questions (NaN)")
    m.set_defaults(func=cmd_matrix)

    c = sub.add_parser("check", help="re-score a few committed rows with the smallest model and compare")
    c.add_argument("data", help="the data folder")
    c.add_argument("--n", type=int, default=20)
    c.set_defaults(func=cmd_check)

    b = sub.add_parser("build-data", help="write the Parquet tables and summary from data/runs")
    b.add_argument("data", help="the data folder")
    b.set_defaults(func=cmd_build)

    s = sub.add_parser("models", help="list the packaged models and whether they are installed")
    s.set_defaults(func=cmd_models)
    return p


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (ValueError, FileNotFoundError, RuntimeError) as exc:
        print(f"scoring {args.command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
