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
from fractions import Fraction
from itertools import combinations
from typing import Any

from .._validate import ExactStatsError, as_fraction
from ..judges import (
    MAX_EXACT_ITEMS,
    cohen_kappa,
    fleiss_kappa,
    gwet_ac1,
    kappa_p_value,
    kappa_p_value_float,
    krippendorff_alpha,
    percent_agreement,
    weighted_kappa,
)
from .csv_rows import read_csv_rows

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


def _pair_row(first: str, second: str, a: list[str], b: list[str], ordinal: bool) -> dict[str, Any]:
    row: dict[str, Any] = {"raters": [first, second], "items": len(a), "agreement": str(percent_agreement(a, b))}
    try:
        row["kappa"] = str(cohen_kappa(a, b))
    except ExactStatsError:
        row["kappa"] = None  # both raters used one label throughout: kappa is undefined (said in the text)
    if row["kappa"] is not None:
        if len(a) <= MAX_EXACT_ITEMS:
            exact = kappa_p_value(a, b)
            row["kappa_p"], row["kappa_p_method"] = float(exact), "exact conditional"
            row["kappa_p_exact"] = str(exact) if len(str(exact)) <= 60 else None
        else:
            row["kappa_p"], row["kappa_p_method"] = kappa_p_value_float(a, b), "Monte Carlo, 100,000 rearrangements"
    row["ac1"] = str(gwet_ac1(a, b)) if len(set(a) | set(b)) > 1 else None
    if ordinal:
        try:
            row["weighted_kappa_linear"] = str(weighted_kappa(a, b, "linear"))
        except ExactStatsError:
            row["weighted_kappa_linear"] = None
    return row


def summarise(ratings: dict[str, dict[str, str]], drop_single: bool, ordinal: bool) -> dict[str, Any]:
    single = [item for item, by in ratings.items() if len(by) < 2]
    if single and not drop_single:
        raise ExactStatsError(
            f"item {single[0]!r} has one rating ({len(single)} such items): agreement needs two; "
            "pass --drop-single to leave them out"
        )
    items = [item for item in ratings if item not in set(single)]
    if not items:
        raise ExactStatsError("no item has two ratings")
    raters = sorted({r for item in items for r in ratings[item]})
    if ordinal:
        bad = next((lab for item in items for lab in ratings[item].values() if not _is_number(lab)), None)
        if bad is not None:
            raise ExactStatsError(f"--ordinal needs numeric labels, got {bad!r}")
    pairs = []
    for first, second in combinations(raters, 2):
        shared = [item for item in items if first in ratings[item] and second in ratings[item]]
        if len(shared) < 2:
            pairs.append({"raters": [first, second], "items": len(shared), "note": "fewer than 2 shared items"})
            continue
        a = [ratings[item][first] for item in shared]
        b = [ratings[item][second] for item in shared]
        pairs.append(_pair_row(first, second, a, b, ordinal))
    if all("note" in p for p in pairs):
        raise ExactStatsError("no two raters labelled two or more of the same items")
    matrix = [[ratings[item].get(r) for r in raters] for item in items]
    values = (
        [[as_fraction(x, "label") if x is not None else None for x in row] for row in matrix] if ordinal else matrix
    )
    out: dict[str, Any] = {"items": len(items), "raters": raters, "dropped_single": len(single), "pairs": pairs}
    try:
        out["krippendorff_alpha_nominal"] = str(krippendorff_alpha(matrix))
    except ExactStatsError:
        out["krippendorff_alpha_nominal"] = None
    if ordinal:
        out["krippendorff_alpha_interval"] = str(krippendorff_alpha(values, "interval"))
    counts = {len(by) for item, by in ratings.items() if item in set(items)}
    complete = [[lab for lab in ratings[item].values()] for item in items]
    out["fleiss_kappa"] = str(fleiss_kappa(complete)) if len(counts) == 1 and len(raters) > 1 else None
    return out


def _is_number(text: str) -> bool:
    try:
        as_fraction(text, "label")
    except ExactStatsError:
        return False
    return True


def _text(s: dict[str, Any]) -> str:
    def dec(x: str | None) -> str:
        return "-" if x is None else f"{float(Fraction(x)):.4f}"

    lines = [
        f"# Agreement: {len(s['raters'])} raters, {s['items']} items",
        "",
        "| raters | items | agreement | kappa | kappa p (agreement beyond chance) | AC1 |",
        "|---|---|---|---|---|---|",
    ]
    for p in s["pairs"]:
        if "note" in p:
            lines.append(f"| {' / '.join(p['raters'])} | {p['items']} | {p['note']} | | | |")
            continue
        pv = "-" if p.get("kappa_p") is None else f"{p['kappa_p']:.3g} ({p['kappa_p_method']})"
        lines.append(
            f"| {' / '.join(p['raters'])} | {p['items']} | {dec(p['agreement'])} | {dec(p['kappa'])} | {pv} | "
            f"{dec(p['ac1'])} |"
        )
    lines += ["", f"Krippendorff's alpha (nominal, missing ratings allowed): {dec(s['krippendorff_alpha_nominal'])}"]
    if "krippendorff_alpha_interval" in s:
        lines.append(f"Krippendorff's alpha (interval): {dec(s['krippendorff_alpha_interval'])}")
    fleiss = s["fleiss_kappa"]
    lines.append(
        f"Fleiss' kappa: {dec(fleiss)}"
        if fleiss is not None
        else "Fleiss' kappa: - (items have unequal numbers of ratings)"
    )
    if s["dropped_single"]:
        lines.append(f"{s['dropped_single']} items with one rating were left out (--drop-single).")
    lines += [
        "",
        "kappa: agreement beyond what the raters' own label frequencies give by chance; AC1 (Gwet) takes chance",
        "from the mean label shares and stays sensible when one label dominates, where kappa can be low at high",
        "agreement. Every coefficient is exact; '-' where it is undefined (a single label throughout).",
    ]
    return "\n".join(lines) + "\n"


def main(args: argparse.Namespace) -> None:
    allowed = [x.strip() for x in args.labels.split(",")] if args.labels else None
    summary = summarise(read_ratings(args.file, allowed), args.drop_single, args.ordinal)
    print(json.dumps(summary) if args.json else _text(summary), end="\n" if args.json else "")
