"""``exactstats agreement FILE``: how far raters (people, LLM judges) agree, from labels in long form.

The file is a CSV with columns ``item``, ``rater``, ``label`` (one row per rating). Every number is
one call of :mod:`exactstats.judges`: for every pair of raters, on the items both rated, percent
agreement, Cohen's kappa with its exact conditional p-value (a Monte Carlo permutation test past
1,000 shared items, named), Gwet's AC1 and, for numeric labels, weighted kappa; over all raters,
Krippendorff's alpha (missing ratings allowed) and Fleiss' kappa where every item has the same
number of ratings.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, fields
from fractions import Fraction
from itertools import combinations
from typing import Any

from .._validate import ExactStatsError, as_fraction, as_int
from ..judges import (
    MAX_EXACT_ITEMS,
    cohen_kappa,
    fleiss_kappa,
    fleiss_kappa_bootstrap_float,
    gwet_ac1,
    kappa_p_value,
    kappa_p_value_float,
    krippendorff_alpha,
    krippendorff_alpha_bootstrap_float,
    percent_agreement,
    weighted_kappa,
)
from .csv_rows import read_csv_rows
from .render import Block, markdown_from_blocks, short_exact

COLUMNS = ("item", "rater", "label")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="CSV with columns item, rater, label (one row per rating)")
    p.add_argument("--labels", help="the allowed labels, comma-separated (others are an error naming the row)")
    p.add_argument(
        "--drop-single",
        action="store_true",
        help="leave out items only one rater labelled (said in the output) instead of refusing them",
    )
    p.add_argument("--ordinal", action="store_true", help="labels are numbers on a scale: add weighted kappa")
    p.add_argument(
        "--bootstrap", default="1000", help="redraws of the items for the alpha and Fleiss intervals (0: none)"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")


def read_ratings(path: str, allowed: list[str] | None = None) -> dict[str, dict[str, str]]:
    """item -> rater -> label, every row checked (a second label of one rater for one item is an error)."""
    header, rows = read_csv_rows(path)
    if not set(COLUMNS) <= set(header):
        raise ExactStatsError(f"{path}: needs columns item, rater, label (got {', '.join(header)})")
    at = {c: header.index(c) for c in COLUMNS}
    ratings: dict[str, dict[str, str]] = defaultdict(dict)
    for line, row in rows:
        item, rater, label = (row[at[c]].strip() for c in COLUMNS)
        if not item or not rater or not label:
            raise ExactStatsError(f"{path}, line {line}: empty item, rater or label")
        if allowed is not None and label not in allowed:
            raise ExactStatsError(f"{path}, line {line}: label {label!r} is not one of {', '.join(allowed)}")
        if rater in ratings[item]:
            raise ExactStatsError(f"{path}, line {line}: rater {rater!r} labels item {item!r} twice")
        ratings[item][rater] = label
    if not ratings:
        raise ExactStatsError(f"{path}: no ratings")
    return ratings


@dataclass
class AgreementPair:
    """Two raters on the items both labelled (exact fractions as text; None where undefined)."""

    raters: list[str]
    items: int
    agreement: str | None = None
    kappa: str | None = None
    kappa_p: float | None = None
    kappa_p_method: str | None = None
    kappa_p_exact: str | None = None
    ac1: str | None = None
    weighted_kappa_linear: str | None = None
    note: str | None = None  # why the pair has no coefficients (fewer than 2 shared items)


@dataclass
class AgreementReport:
    """Everything ``exactstats agreement`` says, typed; :meth:`to_json` is its JSON, :func:`agreement_blocks`
    its text."""

    items: int
    raters: list[str]
    dropped_single: int
    pairs: list[AgreementPair]
    krippendorff_alpha_nominal: str | None
    krippendorff_alpha_nominal_bootstrap95: list[float] | None
    fleiss_kappa: str | None
    fleiss_kappa_bootstrap95: list[float] | None
    bootstrap_draws: int
    krippendorff_alpha_interval: str | None = None

    def to_json(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["pairs"] = [{k: v for k, v in vars(p).items() if v is not None or k in _ALWAYS} for p in self.pairs]
        if self.krippendorff_alpha_interval is None:
            out.pop("krippendorff_alpha_interval")
        return out


_ALWAYS = ("raters", "items", "agreement", "kappa", "ac1")  # JSON keys a pair always has


@dataclass(frozen=True)
class KappaTest:
    """Cohen's kappa of two raters with its p-value: exact (conditional on both margins) up to
    ``MAX_EXACT_ITEMS`` shared items, Monte Carlo beyond; ``kappa`` None where it is undefined."""

    kappa: Fraction | None
    p: Fraction | float | None
    method: str


def kappa_test(a: Sequence[Any], b: Sequence[Any]) -> KappaTest:
    """Kappa and its p-value by the best method the size allows (the choice every report makes)."""
    try:
        kappa = cohen_kappa(a, b)
    except ExactStatsError:
        return KappaTest(None, None, "undefined: one label throughout")
    if len(a) <= MAX_EXACT_ITEMS:
        return KappaTest(kappa, kappa_p_value(a, b), "exact conditional")
    return KappaTest(kappa, kappa_p_value_float(a, b), "Monte Carlo, 100,000 rearrangements")


def _pair_row(first: str, second: str, a: list[str], b: list[str], ordinal: bool) -> AgreementPair:
    row = AgreementPair([first, second], len(a), agreement=str(percent_agreement(a, b)))
    test = kappa_test(a, b)  # kappa None: both raters used one label throughout (said in the text)
    if test.kappa is not None and test.p is not None:
        row.kappa, row.kappa_p, row.kappa_p_method = str(test.kappa), float(test.p), test.method
        row.kappa_p_exact = short_exact(test.p) if isinstance(test.p, Fraction) else None
    row.ac1 = str(gwet_ac1(a, b)) if len(set(a) | set(b)) > 1 else None
    if ordinal:
        try:
            row.weighted_kappa_linear = str(weighted_kappa(a, b, "linear"))
        except ExactStatsError:
            row.weighted_kappa_linear = None
    return row


def summarise(
    ratings: dict[str, dict[str, str]], drop_single: bool, ordinal: bool, bootstrap: int = 1000
) -> AgreementReport:
    single = [item for item, by in ratings.items() if len(by) < 2]
    if single and not drop_single:
        raise ExactStatsError(
            f"item {single[0]!r} has one rating ({len(single)} such items): agreement needs two; "
            "pass --drop-single to leave them out"
        )
    left_out = set(single)
    items = [item for item in ratings if item not in left_out]
    if not items:
        raise ExactStatsError("no item has two ratings")
    raters = sorted({r for item in items for r in ratings[item]})
    if ordinal:
        bad = next((lab for item in items for lab in ratings[item].values() if not _is_number(lab)), None)
        if bad is not None:
            raise ExactStatsError(f"--ordinal needs numeric labels, got {bad!r}")
    pairs = [_pair(ratings, items, first, second, ordinal) for first, second in combinations(raters, 2)]
    if all(p.note for p in pairs):
        raise ExactStatsError("no two raters labelled two or more of the same items")
    matrix = [[ratings[item].get(r) for r in raters] for item in items]
    alpha, alpha_iv = _with_interval(krippendorff_alpha, krippendorff_alpha_bootstrap_float, matrix, bootstrap)
    counts = {len(ratings[item]) for item in items}
    complete = [list(ratings[item].values()) for item in items]
    fleiss, fleiss_iv = (
        _with_interval(fleiss_kappa, fleiss_kappa_bootstrap_float, complete, bootstrap)
        if len(counts) == 1 and len(raters) > 1
        else (None, None)
    )
    report = AgreementReport(len(items), raters, len(single), pairs, alpha, alpha_iv, fleiss, fleiss_iv, bootstrap)
    if ordinal:
        values = [[as_fraction(x, "label") if x is not None else None for x in row] for row in matrix]
        report.krippendorff_alpha_interval = str(krippendorff_alpha(values, "interval"))
    return report


def _pair(
    ratings: dict[str, dict[str, str]], items: list[str], first: str, second: str, ordinal: bool
) -> AgreementPair:
    shared = [item for item in items if first in ratings[item] and second in ratings[item]]
    if len(shared) < 2:
        return AgreementPair([first, second], len(shared), note="fewer than 2 shared items")
    a = [ratings[item][first] for item in shared]
    b = [ratings[item][second] for item in shared]
    return _pair_row(first, second, a, b, ordinal)


def _with_interval(
    exact: Any, bootstrap_float: Any, rows: list[list[Any]], draws: int
) -> tuple[str | None, list[float] | None]:
    """The exact coefficient as text and its bootstrap interval over items (None where undefined or not asked)."""
    try:
        value = str(exact(rows))
    except ExactStatsError:
        return None, None
    if not draws:
        return value, None
    try:
        return value, list(bootstrap_float(rows, draws=draws))
    except ExactStatsError:
        return value, None  # every redraw undefined: too few items


def _is_number(text: str) -> bool:
    try:
        as_fraction(text, "label")
    except ExactStatsError:
        return False
    return True


def agreement_blocks(s: AgreementReport) -> list[Block]:
    """The agreement report as blocks, written out by the package's one Markdown and HTML renderer."""

    def dec(x: str | None) -> str:
        return "-" if x is None else f"{float(Fraction(x)):.4f}"

    def with_iv(x: str | None, iv: list[float] | None) -> str:
        return dec(x) + (f" (bootstrap 95% [{iv[0]:.4f}, {iv[1]:.4f}] over items)" if iv else "")

    rows = [
        [" / ".join(p.raters), str(p.items), p.note, "", "", ""]
        if p.note
        else [
            " / ".join(p.raters),
            str(p.items),
            dec(p.agreement),
            dec(p.kappa),
            "-" if p.kappa_p is None else f"{p.kappa_p:.3g} ({p.kappa_p_method})",
            dec(p.ac1),
        ]
        for p in s.pairs
    ]
    head = ["raters", "items", "agreement", "kappa", "kappa p (agreement beyond chance)", "AC1"]
    lines = [
        f"Krippendorff's alpha (nominal, missing ratings allowed): {with_iv(s.krippendorff_alpha_nominal, s.krippendorff_alpha_nominal_bootstrap95)}"
    ]
    if s.krippendorff_alpha_interval is not None:
        lines.append(f"Krippendorff's alpha (interval): {dec(s.krippendorff_alpha_interval)}")
    lines.append(
        f"Fleiss' kappa: {with_iv(s.fleiss_kappa, s.fleiss_kappa_bootstrap95)}"
        if s.fleiss_kappa is not None
        else "Fleiss' kappa: - (items have unequal numbers of ratings)"
    )
    if s.dropped_single:
        lines.append(f"{s.dropped_single} items with one rating were left out (--drop-single).")
    return [
        ("h1", f"Agreement: {len(s.raters)} raters, {s.items} items"),
        ("table", (head, rows)),
        ("ul", lines),
        (
            "p",
            "kappa: agreement beyond what the raters' own label frequencies give by chance; AC1 (Gwet) takes "
            "chance from the mean label shares and stays sensible when one label dominates, where kappa can be "
            "low at high agreement. Every coefficient is exact; '-' where it is undefined (a single label "
            f"throughout). The bootstrap intervals are floats: {s.bootstrap_draws} redraws of the items.",
        ),
    ]


def main(args: argparse.Namespace) -> None:
    allowed = [x.strip() for x in args.labels.split(",")] if args.labels else None
    bootstrap = as_int(args.bootstrap, "bootstrap", minimum=0, maximum=100_000)
    summary = summarise(read_ratings(args.file, allowed), args.drop_single, args.ordinal, bootstrap)
    print(
        json.dumps(summary.to_json()) if args.json else markdown_from_blocks(agreement_blocks(summary)),
        end="\n" if args.json else "",
    )
