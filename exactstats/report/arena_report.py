"""``exactstats arena``: a leaderboard from battles, with every check the arena chapter teaches."""

from __future__ import annotations

import sys
from fractions import Fraction
from typing import Any

import numpy as np

from .._normal import z_value_float
from ..arena import (
    ELO_SCALE,
    BattleCounts,
    battle_counts,
    battle_counts_from_pairs,
    bradley_terry_float,
    bt_bootstrap_float,
    bt_certificate,
    bt_covariance_float,
    bt_mle_exists,
    pair_totals,
    rank_intervals_float,
    sign_test,
)
from ..multiplicity import holm_adjust


def arena_summary(
    battles: list[tuple[str, str, str]] | BattleCounts,
    anchor: str | None = None,
    scale: str = "elo",
    bootstrap: int = 0,
    seed: int = 0,
    ties: str = "fair",
) -> dict[str, Any]:
    """Everything ``exactstats arena`` prints, from battles or from their counts (pair-count files)."""
    if isinstance(battles, BattleCounts):  # counts read from a file: the tie rule is applied here
        counts = battle_counts_from_pairs(pair_totals(battles), ties)
    else:
        counts = battle_counts(battles, ties)
    if anchor is not None:
        counts.index(anchor)  # an unknown anchor is refused before any work
    bt_mle_exists(counts, explain=True)
    fit = bradley_terry_float(counts)
    cert = bt_certificate(counts, fit)
    ratings = fit.ratings(scale, anchor)
    unit = ELO_SCALE if scale == "elo" else 1.0
    z = z_value_float("0.95")
    cov = {kind: bt_covariance_float(counts, fit, ties, kind) for kind in ("model", "sandwich")}
    ref = fit.models.index(anchor) if anchor is not None else None

    def half_width(c: np.ndarray, i: int) -> float:
        # with an anchor the interval is for the difference to the anchor; centred otherwise
        var = c[i, i] if ref is None else c[i, i] + c[ref, ref] - 2 * c[i, ref]
        return z * unit * float(np.sqrt(max(var, 0.0)))

    ranks = rank_intervals_float(fit, cov["sandwich"])
    boot = _bootstrap(counts, fit, bootstrap, seed, ties, ref, scale, unit) if bootstrap else None
    board = sorted(fit.models, key=lambda m: -ratings[m])
    met = pair_totals(counts)  # every pair that met, with its wins and ties
    ps = [sign_test(counts, a, b) for a, b, *_ in met]
    holm = holm_adjust(ps) if ps else []
    return {
        "battles": sum(wa + wb + t for _, _, wa, wb, t in met),
        "models": len(fit.models),
        "scale": scale,
        "anchor": anchor,
        "ties": ties,
        "mle_exists": True,
        "certificate": _certificate(cert),
        "leaderboard": [
            {
                "model": m,
                "rating": ratings[m],
                **{
                    f"{kind}95": [
                        ratings[m] - half_width(c, fit.models.index(m)),
                        ratings[m] + half_width(c, fit.models.index(m)),
                    ]
                    for kind, c in cov.items()
                },
                "bootstrap95": boot["intervals"].get(m) if boot else None,
                "rank_interval": list(ranks[m]),
            }
            for m in board
        ],
        "bootstrap": boot,
        "sign_tests": _sign_tests(met, ps, holm),
    }


def _certificate(cert: Any) -> dict[str, Any]:
    return {
        "max_score_residual": float(cert.max_residual),
        "max_score_residual_exact": _short(cert.max_residual),
        "newton_step": cert.newton_step,
        "note": "exact score-equation residuals at rational strengths; the Newton step is an estimate "
        "of the distance to the optimum, not a proven bound",
    }


def _bootstrap(
    counts: BattleCounts, fit: Any, draws: int, seed: int, ties: str, ref: int | None, scale: str, unit: float
) -> dict[str, Any]:
    """Percentile intervals of the ratings over ``draws`` multinomial redraws of the pair counts."""
    _, thetas, skipped = bt_bootstrap_float(counts, draws, seed, ties, progress=sys.stderr.isatty())
    if ref is not None:
        thetas = thetas - thetas[:, [ref]]
    base = 1000 if scale == "elo" else 0.0
    bounds = np.percentile(base + unit * thetas, [2.5, 97.5], axis=0) if len(thetas) else np.empty((2, 0))
    lo, hi = bounds[0], bounds[1]
    intervals = {m: [float(lo[i]), float(hi[i])] for i, m in enumerate(fit.models)} if len(thetas) else {}
    return {"draws": draws, "skipped": skipped, "intervals": intervals}


def _sign_tests(met: list[Any], ps: list[Fraction], holm: list[Fraction]) -> list[dict[str, Any]]:
    """Every pair that met: decisive wins each way, ties, the exact sign test and its Holm adjustment."""
    return [
        {
            "a": a,
            "b": b,
            "wins_a": wins_a,
            "wins_b": wins_b,
            "ties": tied,
            "p": float(p),
            "p_exact": _short(p),
            "p_holm": float(h),
        }
        for (a, b, wins_a, wins_b, tied), p, h in zip(met, ps, holm)
    ]


def _short(x: Fraction) -> str:
    text = str(x)
    return text if len(text) <= 60 else f"{float(x):.6g}"


def to_text(s: dict[str, Any]) -> str:
    unit = "Elo points" if s["scale"] == "elo" else "log-strength"
    where = f"{s['anchor']} fixed at {'1000' if s['scale'] == 'elo' else '0'}" if s["anchor"] else "centred"
    lines = [
        f"Arena: {s['models']} models, {s['battles']} battles (ties: {s['ties']}); Bradley-Terry, {unit}, {where}",
        f"MLE exists (the win graph is strongly connected); score equations hold to "
        f"{s['certificate']['max_score_residual']:.2g} battles exactly at the rational point; Newton step "
        f"{s['certificate']['newton_step']:.2g} (estimate)",
        "",
        "| # | model | rating | 95% (model) | 95% (sandwich) | 95% (bootstrap) | rank (Holm) |",
        "|---|---|---|---|---|---|---|",
    ]
    for i, e in enumerate(s["leaderboard"], 1):
        boot = f"[{e['bootstrap95'][0]:.1f}, {e['bootstrap95'][1]:.1f}]" if e["bootstrap95"] else "-"
        lo, hi = e["rank_interval"]
        lines.append(
            f"| {i} | {e['model'].replace('|', chr(92) + '|')} | {e['rating']:.1f} | "
            f"[{e['model95'][0]:.1f}, {e['model95'][1]:.1f}] | [{e['sandwich95'][0]:.1f}, {e['sandwich95'][1]:.1f}] "
            f"| {boot} | {lo}-{hi} |"
        )
    lines += [
        "",
        "Pairwise sign tests (exact, ties excluded; Holm over all pairs):",
        "",
        "| pair | wins | losses | ties | p | Holm p |",
        "|---|---|---|---|---|---|",
    ]
    for t in s["sign_tests"]:
        lines.append(
            f"| {t['a']} vs {t['b']} | {t['wins_a']} | {t['wins_b']} | {t['ties']} | {t['p']:.4g} | {t['p_holm']:.4g} |"
        )
    if s["bootstrap"] and s["bootstrap"]["skipped"]:
        lines.append(
            f"\n{s['bootstrap']['skipped']} of {s['bootstrap']['draws']} bootstrap resamples had no finite "
            "estimate and were skipped."
        )
    return "\n".join(lines) + "\n"
