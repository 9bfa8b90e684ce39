"""``exactstats sequential``: may this comparison stop early? The mixture rule on two models' results.

The inputs are read by the report's readers (any format ``exactstats report`` reads); two models are
paired question by question in the order of the first model's file, which is taken as the order the
questions were asked. ``--watch`` rereads a file that a running evaluation is still writing (the first
model's; the second's must already hold every question the first reaches) and says after each new
question whether the rule may stop.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any

import numpy as np

from .._validate import ExactStatsError, as_beta_prior, as_fraction, as_int, as_probability
from ..cli import json_value
from ..sequential import MAX_EXACT_QUESTIONS, MixtureMonitor, SequentialResult, sequential_test
from .importers import ModelRows, assemble, read_models
from .render import Block, markdown_from_blocks

__all__ = ["Pair", "read_pair", "shuffled", "add_arguments", "main", "watch"]

EXAMPLES = """examples:
  exactstats sequential results.csv --models model-a model-b
  exactstats sequential a=run-a/samples_mmlu.jsonl b=run-b/samples_mmlu.jsonl --json
  exactstats sequential new=running/samples_mmlu.jsonl base=done/samples_mmlu.jsonl --watch

The rule (a Beta-mixture likelihood ratio on the discordant questions) may be checked after every
question: for two equally good models it ever declares a winner with chance at most ALPHA, however
long the run. Stopping at the first McNemar p <= ALPHA does not have that guarantee."""


@dataclass
class Pair:
    """Two models' 0/1 outcomes on the same questions, in the order asked."""

    first: str
    second: str
    ids: list[str]
    x: np.ndarray
    y: np.ndarray
    notes: list[str]


def _pick(parts: list[ModelRows], models: list[str] | None) -> tuple[ModelRows, ModelRows]:
    names = [p.model for p in parts]
    if models is None:
        if len(parts) != 2:
            raise ExactStatsError(
                f"the inputs hold {len(parts)} models ({', '.join(names[:8])}{', ...' if len(names) > 8 else ''}); "
                "name two with --models FIRST SECOND"
            )
        return parts[0], parts[1]
    if models[0] == models[1]:
        raise ExactStatsError(f"--models must name two different models, got {models[0]!r} twice")
    unknown = [m for m in models if m not in names]
    if unknown:
        raise ExactStatsError(f"--models: unknown model {unknown[0]!r} (the inputs hold: {', '.join(names)})")
    return parts[names.index(models[0])], parts[names.index(models[1])]


def _restricted(rows: ModelRows, ids: list[str]) -> ModelRows:
    """``rows`` on the questions ``ids`` only, in their order (for a run still being written)."""
    where = {q: i for i, q in enumerate(rows.ids)}
    unknown = [q for q in ids if q not in where]
    if unknown:
        raise ExactStatsError(
            f"question id {unknown[0]!r} of {rows.model!r}'s partner is not in {rows.source} "
            f"({len(unknown)} unknown ids); the second model's file must hold every question of the first"
        )
    take = np.array([where[q] for q in ids], dtype=np.int64)
    return ModelRows(rows.model, rows.source, list(ids), rows.correct[take], kind=rows.kind, notes=rows.notes)


def read_pair(specs: list[str], models: list[str] | None = None, metric: str = "acc", partial: bool = False) -> Pair:
    """Read the inputs and pair two models. ``partial``: the first model's file may hold fewer questions."""
    first, second = _pick(read_models(specs, metric), models)
    if first.repeated or second.repeated:  # a walk over rows would count a question once per sample
        raise ExactStatsError(
            f"{first.source if first.repeated else second.source}: questions are asked more than once (epochs); "
            "the sequential test needs one sample per question (keep one epoch)"
        )
    if partial:
        second = _restricted(second, first.ids)
    rs = assemble([first, second])  # validated once: ids, duplicates, shared questions
    return Pair(rs.models[0], rs.models[1], rs.question_ids, rs.correct[0], rs.correct[1], rs.notes)


def shuffled(pair: Pair, seed: int) -> Pair:
    """The same pair in a random question order (NumPy's default generator seeded with ``seed``)."""
    order = np.random.default_rng(seed).permutation(len(pair.ids))
    note = f"questions taken in a random order (seed {seed}), not the file's"
    return Pair(
        pair.first, pair.second, [pair.ids[i] for i in order], pair.x[order], pair.y[order], [*pair.notes, note]
    )


# --- output ---------------------------------------------------------------------------------------


@dataclass
class SequentialReport:
    """Everything ``exactstats sequential`` says at the end of a run, typed; :meth:`to_json` is its JSON and
    :func:`sequential_blocks` its text."""

    first: str
    second: str
    questions_read: int
    questions_available: int
    stopped: bool
    stopped_after_question: int | None
    question_id: str | None
    winner: str | None
    first_only_right: int
    second_only_right: int
    e_value: float
    threshold: float
    anytime_p_value: Any
    alpha: str
    prior: str
    guarantee: str
    notes: list[str]
    false_alarm_within_read: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        if self.false_alarm_within_read is None:
            out.pop("false_alarm_within_read")
        return out


def _summary(pair: Pair, r: SequentialResult, horizon_alarm: tuple[str, float] | None) -> SequentialReport:
    return SequentialReport(
        first=pair.first,
        second=pair.second,
        questions_read=r.questions,
        questions_available=len(pair.ids),
        stopped=r.stopped_at is not None,
        stopped_after_question=r.stopped_at,
        question_id=pair.ids[r.stopped_at - 1] if r.stopped_at else None,
        winner={"first": pair.first, "second": pair.second}.get(r.winner or ""),
        first_only_right=r.b,
        second_only_right=r.c,
        e_value=float(r.e_value),
        threshold=float(1 / r.alpha),
        anytime_p_value=json_value(r.p_value, full=False),
        alpha=str(r.alpha),
        prior=f"Beta({r.prior}, {r.prior})",
        guarantee=f"for two equally good models the rule ever declares a winner with chance at most {r.alpha}",
        notes=list(pair.notes),
        false_alarm_within_read=None
        if horizon_alarm is None
        else {"method": horizon_alarm[0], "value": horizon_alarm[1]},
    )


def _false_alarm(n: int, alpha: Fraction, prior: int) -> tuple[str, float]:
    """The rule's worst-case false-alarm chance within n questions: exact up to the exact limit, else the twin."""
    from ..sequential import false_alarm_curve, false_alarm_curve_float

    if n <= MAX_EXACT_QUESTIONS:
        return "exact", float(false_alarm_curve(n, "mixture", alpha, prior)[-1])
    return "float twin", float(false_alarm_curve_float(n, "mixture", alpha, prior)[-1])


def sequential_blocks(s: SequentialReport) -> list[Block]:
    """The end of a sequential run as blocks, for the package's one Markdown and HTML renderer."""
    p = s.anytime_p_value["decimal"]
    lines = [
        f"read {s.questions_read:,} of {s.questions_available:,} questions; discordant: {s.first_only_right} only "
        f"the first right, {s.second_only_right} only the second"
    ]
    if s.stopped:
        lines.append(
            f"STOP after question {s.stopped_after_question:,} (id {s.question_id}): {s.winner} is better "
            f"(e-value {s.e_value:.4g} >= {s.threshold:g}; anytime p = {p:.4g})"
        )
    else:
        lines.append(f"no decision: e-value {s.e_value:.4g} < {s.threshold:g} (anytime p = {p:.4g}); the run may go on")
    lines.append(f"guarantee: {s.guarantee}, however long it is watched")
    if s.false_alarm_within_read is not None:
        fa = s.false_alarm_within_read
        lines.append(
            f"within {s.questions_read:,} questions that chance is {fa['value']:.4g} ({fa['method']}; worst case, "
            "every question discordant)"
        )
    lines += [f"note: {n}" for n in s.notes]
    return [
        ("h1", f"Sequential paired test: {s.first} (first) against {s.second} (second)"),
        ("p", f"Mixture {s.prior}, alpha {s.alpha}."),
        ("ul", lines),
    ]


def _text(s: SequentialReport) -> str:
    return markdown_from_blocks(sequential_blocks(s)).rstrip("\n")


# --- the command ----------------------------------------------------------------------------------


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.epilog = EXAMPLES
    p.add_argument("inputs", nargs="+", metavar="INPUT", help="[NAME=]PATH, any input `exactstats report` reads")
    p.add_argument("--models", nargs=2, metavar=("FIRST", "SECOND"), help="the two models (needed if more)")
    p.add_argument("--alpha", default="0.05", help="false-alarm bound (default 0.05)")
    p.add_argument("--prior", default="1", help="a in the Beta(a, a) mixture; larger expects smaller gaps (default 1)")
    p.add_argument("--max-n", help="look at the first MAX_N questions only")
    p.add_argument(
        "--shuffle",
        metavar="SEED",
        help="take the questions in a random order drawn with SEED (a file sorted by "
        "subject is not the order a sampled run would ask them in)",
    )
    p.add_argument("--metric", default="acc", help="lm-eval metric holding 0/1 correctness (default acc)")
    p.add_argument("--json", action="store_true", help="print JSON (with --watch: one JSON line per question)")
    p.add_argument("--watch", action="store_true", help="reread a growing first file until the rule stops")
    p.add_argument("--interval", default="2", help="--watch: seconds between rereads (default 2)")
    p.add_argument("--idle", default="600", help="--watch: give up after this many seconds with no new question")


def _options(args: argparse.Namespace) -> tuple[Fraction, int, int | None]:
    alpha = as_probability(args.alpha, "--alpha", open_low=True, open_high=True)
    prior = as_beta_prior(args.prior, "--prior")
    max_n = None if args.max_n is None else as_int(args.max_n, "--max-n", minimum=1)
    return alpha, prior, max_n


def main(args: argparse.Namespace) -> None:
    if args.watch:
        watch(args)
        return
    alpha, prior, max_n = _options(args)
    pair = read_pair(args.inputs, args.models, args.metric)
    if args.shuffle is not None:
        pair = shuffled(pair, as_int(args.shuffle, "--shuffle", minimum=0))
    r = sequential_test(pair.x, pair.y, alpha, prior, max_n)
    s = _summary(pair, r, _false_alarm(r.questions, alpha, prior))
    print(json.dumps(s.to_json()) if args.json else _text(s))


def _line(pair: Pair, i: int, mon: MixtureMonitor, as_json: bool) -> str:
    e = mon.e_value_float()
    if as_json:
        return json.dumps({"question": i + 1, "id": pair.ids[i], "b": mon.b, "c": mon.c, "e_value": e,
                           "stop": mon.stopped_at is not None})  # fmt: skip
    verdict = "STOP" if mon.stopped_at is not None else "continue"
    return f"question {i + 1:>6}  {pair.ids[i]}  discordant {mon.b}:{mon.c}  e-value {e:.4g}  {verdict}"


def watch(args: argparse.Namespace, clock: Callable[[], float] = time.monotonic) -> None:
    """Reread the inputs every ``--interval`` seconds; print one line per new question until the rule stops,
    ``--max-n`` questions are read, or no question arrives for ``--idle`` seconds."""
    alpha, prior, max_n = _options(args)
    interval, idle = _seconds(args.interval, "--interval"), _seconds(args.idle, "--idle")
    if interval == 0:
        raise ExactStatsError("--interval must be more than 0 seconds, got 0")
    monitor, done, last_news = MixtureMonitor(alpha, prior), 0, clock()
    pair = None
    while True:
        pair = _reread(args, pair, interval)
        for i in range(done, len(pair.ids) if max_n is None else min(max_n, len(pair.ids))):
            monitor.update(int(pair.x[i]), int(pair.y[i]))
            print(_line(pair, i, monitor, args.json), flush=True)
            done, last_news = i + 1, clock()
            if monitor.stopped_at is not None:
                break
        if monitor.stopped_at is not None or (max_n is not None and done >= max_n) or clock() - last_news >= idle:
            break
        time.sleep(interval)
    s = _summary(pair, monitor.result(), _false_alarm(monitor.questions, alpha, prior) if done else None)
    print(json.dumps(s.to_json()) if args.json else _text(s), flush=True)


def _seconds(value: str, name: str) -> float:
    seconds = as_fraction(value, name)
    if not 0 <= seconds <= 86_400:
        raise ExactStatsError(f"{name} must lie in [0, 86400] seconds, got {value}")
    return float(seconds)


def _reread(args: argparse.Namespace, previous: Pair | None, interval: float) -> Pair:
    """The pair as the files stand now; a file caught mid-write is read again once before giving up."""
    try:
        pair = read_pair(args.inputs, args.models, args.metric, partial=True)
    except ExactStatsError:
        time.sleep(min(interval, 5.0))
        pair = read_pair(args.inputs, args.models, args.metric, partial=True)
    if previous is not None and pair.ids[: len(previous.ids)] != previous.ids:
        raise ExactStatsError(
            f"{args.inputs[0]}: the questions already read changed order or were removed; --watch needs a file "
            "that only grows"
        )
    return pair
