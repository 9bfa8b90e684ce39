"""``exactstats judge-correct --human H --judge J``: the rate people would give, from a judge's labels and a few of theirs.

Both files are CSVs with columns ``item`` and ``label`` (one row per item): the judge labels every
item, people a random subset. Labels are two values; which one counts as positive is ``--positive``
(inferred for 1/0, true/false, pass/fail, yes/no, correct/incorrect). Every number is one call of
:mod:`exactstats.judge_bias` or :mod:`exactstats.judges`: the judge's raw rate, people's own rate and
its exact interval, the judge's agreement with people on the shared items (kappa with its exact
p-value, sensitivity, specificity), the Rogan-Gladen correction and prediction-powered inference, each
interval named by the guarantee it has.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any

from .._validate import ExactStatsError, as_probability
from ..errorbars import clopper_pearson_interval_float
from ..judge_bias import (
    ppi_mean,
    ppi_mean_interval_float,
    ppi_mean_interval_normal_float,
    rogan_gladen,
    rogan_gladen_interval_float,
)
from .agreement_run import kappa_test
from .csv_rows import read_csv_rows
from .render import Block, markdown_from_blocks, short_exact

POSITIVE_LABELS = {"1": "0", "true": "false", "pass": "fail", "yes": "no", "correct": "incorrect"}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--human", required=True, help="CSV with columns item, label: people's labels of some items")
    p.add_argument("--judge", required=True, help="CSV with columns item, label: the judge's labels of every item")
    p.add_argument("--positive", help="the label that counts as positive (default: 1, true, pass, yes or correct)")
    p.add_argument("--confidence", default="0.95", help="interval level (default 0.95)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def read_labels(path: str) -> dict[str, str]:
    """item -> label, every row checked (an item twice is an error naming both lines)."""
    header, rows = read_csv_rows(path)
    if not {"item", "label"} <= set(header):
        raise ExactStatsError(f"{path}: needs columns item, label (got {', '.join(header)})")
    at_item, at_label = header.index("item"), header.index("label")
    labels: dict[str, str] = {}
    first_line: dict[str, int] = {}
    for line, row in rows:
        item, label = row[at_item].strip(), row[at_label].strip()
        if not item or not label:
            raise ExactStatsError(f"{path}, line {line}: empty item or label")
        if item in labels:
            raise ExactStatsError(f"{path}, line {line}: item {item!r} again (first on line {first_line[item]})")
        labels[item], first_line[item] = label, line
    if not labels:
        raise ExactStatsError(f"{path}: no labels")
    return labels


def positive_label(values: set[str], given: str | None) -> str:
    """The positive label: ``given`` (which must be in use, or be one of two labels), else inferred."""
    if len(values) > 2:
        raise ExactStatsError(f"labels must be two values (pass / fail), got {len(values)}: {sorted(values)[:5]}")
    if given is not None:
        if given not in values and len(values) == 2:
            raise ExactStatsError(f"--positive {given!r} is not one of the labels {sorted(values)}")
        return given
    for yes, no in POSITIVE_LABELS.items():
        if {v.lower() for v in values} <= {yes, no}:
            return next((v for v in values if v.lower() == yes), yes)
    raise ExactStatsError(f"say which label is positive with --positive (labels: {sorted(values)})")


@dataclass
class Estimate:
    """One estimate of the rate with its interval and what the interval guarantees."""

    method: str
    estimate: float | None  # None where the method does not apply (said in note)
    estimate_exact: str | None
    interval: list[float] | None
    guarantee: str
    note: str = ""


@dataclass
class JudgeCorrection:
    items: int
    human_labelled: int
    judge_only: int
    positive: str
    confidence: str
    judge_rate: float
    agreement: float
    kappa: float | None
    kappa_p: float | None
    kappa_p_method: str
    sensitivity: float | None
    specificity: float | None
    estimates: list[Estimate]

    def to_json(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["estimates"] = [dict(vars(e)) for e in self.estimates]
        return out


def correct_judge(
    human: dict[str, str], judge: dict[str, str], positive: str | None, confidence: str
) -> JudgeCorrection:
    """Every estimate of the rate people would give, from the two files' labels."""
    level = as_probability(confidence, "confidence", open_low=True, open_high=True)
    missing = [item for item in human if item not in judge]
    if missing:
        raise ExactStatsError(f"{len(missing)} human-labelled items have no judge label (e.g. {missing[0]!r})")
    pos = positive_label(set(human.values()) | set(judge.values()), positive)
    shared = list(human)
    y = [int(human[i] == pos) for i in shared]
    f = [int(judge[i] == pos) for i in shared]
    u = [int(label == pos) for item, label in judge.items() if item not in human]
    if not u:
        raise ExactStatsError("people labelled every judged item: their own rate is the answer, nothing to correct")
    test = kappa_test(y, f)
    cells = Counter(zip(y, f))  # (people, judge)
    tp, fn, tn, fp = cells[1, 1], cells[1, 0], cells[0, 0], cells[0, 1]
    return JudgeCorrection(
        items=len(judge),
        human_labelled=len(shared),
        judge_only=len(u),
        positive=pos,
        confidence=str(confidence),
        judge_rate=sum(int(v == pos) for v in judge.values()) / len(judge),
        agreement=(tp + tn) / len(y),
        kappa=None if test.kappa is None else float(test.kappa),
        kappa_p=None if test.p is None else float(test.p),
        kappa_p_method=test.method,
        sensitivity=tp / (tp + fn) if tp + fn else None,
        specificity=tn / (tn + fp) if tn + fp else None,
        estimates=[
            _people_only(y, level),
            *_rogan_gladen(sum(u), len(u), (tp, fn, tn, fp), level),
            *_ppi(y, f, u, level),
        ],
    )


def _people_only(y: list[int], level: Fraction) -> Estimate:
    rate = Fraction(sum(y), len(y))
    lo, hi = clopper_pearson_interval_float(sum(y), len(y), level)
    return Estimate(
        "people's labels alone", float(rate), short_exact(rate), [lo, hi], "Clopper-Pearson: at least the level"
    )


def _rogan_gladen(
    positives: int, judged: int, calibration: tuple[int, int, int, int], level: Fraction
) -> list[Estimate]:
    tp, fn, tn, fp = calibration
    try:
        rate = rogan_gladen(positives, judged, tp, fn, tn, fp)
    except ExactStatsError as exc:
        return [Estimate("Rogan-Gladen", None, None, None, "", note=f"not available: {exc}")]
    lo, hi = rogan_gladen_interval_float(positives, judged, tp, fn, tn, fp, confidence=level)
    guarantee = "union bound over Clopper-Pearson boxes: at least the level"
    return [Estimate("Rogan-Gladen", float(rate), short_exact(rate), [lo, hi], guarantee)]


def _ppi(y: list[int], f: list[int], u: list[int], level: Fraction) -> list[Estimate]:
    rate = ppi_mean(y, f, u)
    lo, hi = ppi_mean_interval_float(y, f, u, level)
    nlo, nhi = ppi_mean_interval_normal_float(y, f, u, level)
    return [
        Estimate("prediction-powered", float(rate), short_exact(rate), [lo, hi], "union bound: at least the level"),
        Estimate("prediction-powered", float(rate), short_exact(rate), [nlo, nhi], "normal approximation (as ppi_py)"),
    ]


def judge_blocks(r: JudgeCorrection) -> list[Block]:
    """The correction as blocks for the package's one renderer."""

    def fmt(x: float | None) -> str:
        return "-" if x is None else f"{x:.4f}"

    kappa = (
        "undefined (one label throughout)"
        if r.kappa is None
        else f"{r.kappa:.4f} (p = {r.kappa_p:.3g}, {r.kappa_p_method})"
    )
    rows = [
        [
            e.method,
            fmt(e.estimate),
            f"[{e.interval[0]:.4f}, {e.interval[1]:.4f}]" if e.interval else "-",
            e.guarantee or e.note,
        ]
        for e in r.estimates
    ]
    level = f"{float(Fraction(r.confidence)):.0%}"
    return [
        ("h1", f"Judge correction: {r.items} items, {r.human_labelled} labelled by people too"),
        (
            "p",
            f"Positive label: {r.positive!r}. The judge's raw rate: {r.judge_rate:.4f}. On the {r.human_labelled} "
            f"shared items it agrees with people on {r.agreement:.1%}; kappa {kappa}; sensitivity "
            f"{fmt(r.sensitivity)}, specificity {fmt(r.specificity)}.",
        ),
        (
            "table",
            (["estimate of the rate people would give", "value", f"{level} interval", "the interval holds"], rows),
        ),
        (
            "p",
            "Rogan-Gladen and prediction-powered inference use the judge's labels of the items people did not "
            f"label ({r.judge_only}) and the shared items to measure its errors; both assume people labelled a "
            "random sample of the items.",
        ),
    ]


def main(args: argparse.Namespace) -> None:
    result = correct_judge(read_labels(args.human), read_labels(args.judge), args.positive, args.confidence)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(markdown_from_blocks(judge_blocks(result)), end="")
