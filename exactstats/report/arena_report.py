"""``exactstats arena``: a leaderboard from battles, with every check the arena chapter teaches."""

from __future__ import annotations

import sys
from dataclasses import dataclass, fields
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
from .render import Block, html_from_blocks, markdown_from_blocks, short_exact


@dataclass
class ArenaEntry:
    """One model's row: its rating with model-based, sandwich and (optionally) bootstrap 95% intervals."""

    model: str
    rating: float
    model95: list[float]
    sandwich95: list[float]
    bootstrap95: list[float] | None
    rank_interval: list[int]


@dataclass
class SignTestRow:
    """A pair that met: decisive wins each way, ties, the exact sign test and its Holm adjustment."""

    a: str
    b: str
    wins_a: int
    wins_b: int
    ties: int
    p: float
    p_exact: str
    p_holm: float


@dataclass
class FitCertificate:
    """How well the fitted strengths solve the score equations, checked exactly at a rational point."""

    max_score_residual: float
    max_score_residual_exact: str
    newton_step: float
    note: str = (
        "exact score-equation residuals at rational strengths; the Newton step is an estimate "
        "of the distance to the optimum, not a proven bound"
    )


@dataclass
class ArenaBootstrap:
    draws: int
    skipped: int
    intervals: dict[str, list[float]]


@dataclass
class ArenaReport:
    """Everything ``exactstats arena`` says, typed; :meth:`to_json` is its JSON, :func:`arena_blocks` its text."""

    battles: int
    models: int
    scale: str
    anchor: str | None
    ties: str
    mle_exists: bool
    certificate: FitCertificate
    leaderboard: list[ArenaEntry]
    bootstrap: ArenaBootstrap | None
    sign_tests: list[SignTestRow]

    def to_json(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["certificate"] = dict(vars(self.certificate))
        out["bootstrap"] = dict(vars(self.bootstrap)) if self.bootstrap is not None else None
        for key in ("leaderboard", "sign_tests"):
            out[key] = [dict(vars(row)) for row in out[key]]
        return out


def arena_summary(
    battles: list[tuple[str, str, str]] | BattleCounts,
    anchor: str | None = None,
    scale: str = "elo",
    bootstrap: int = 0,
    seed: int = 0,
    ties: str = "fair",
) -> ArenaReport:
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
    unit = ELO_SCALE if scale == "elo" else 1.0
    ref = fit.models.index(anchor) if anchor is not None else None
    boot = _bootstrap(counts, fit, bootstrap, seed, ties, ref, scale, unit) if bootstrap else None
    met = pair_totals(counts)  # every pair that met, with its wins and ties
    ps = [sign_test(counts, a, b) for a, b, *_ in met]
    holm = holm_adjust(ps) if ps else []
    return ArenaReport(
        battles=sum(wa + wb + t for _, _, wa, wb, t in met),
        models=len(fit.models),
        scale=scale,
        anchor=anchor,
        ties=ties,
        mle_exists=True,
        certificate=FitCertificate(float(cert.max_residual), _short(cert.max_residual), cert.newton_step),
        leaderboard=_entries(counts, fit, ties, scale, anchor, boot),
        bootstrap=boot,
        sign_tests=_sign_tests(met, ps, holm),
    )


def _entries(
    counts: BattleCounts, fit: Any, ties: str, scale: str, anchor: str | None, boot: ArenaBootstrap | None
) -> list[ArenaEntry]:
    """The leaderboard, best first: ratings with their 95% intervals and Holm rank intervals."""
    ratings = fit.ratings(scale, anchor)
    unit = ELO_SCALE if scale == "elo" else 1.0
    z = z_value_float("0.95")
    cov = {kind: bt_covariance_float(counts, fit, ties, kind) for kind in ("model", "sandwich")}
    ref = fit.models.index(anchor) if anchor is not None else None

    def interval(c: np.ndarray, m: str) -> list[float]:
        i = fit.models.index(m)
        # with an anchor the interval is for the difference to the anchor; centred otherwise
        var = c[i, i] if ref is None else c[i, i] + c[ref, ref] - 2 * c[i, ref]
        half = z * unit * float(np.sqrt(max(var, 0.0)))
        return [ratings[m] - half, ratings[m] + half]

    ranks = rank_intervals_float(fit, cov["sandwich"])
    board = sorted(fit.models, key=lambda m: -ratings[m])
    return [
        ArenaEntry(
            m,
            ratings[m],
            interval(cov["model"], m),
            interval(cov["sandwich"], m),
            boot.intervals.get(m) if boot else None,
            list(ranks[m]),
        )
        for m in board
    ]


def _bootstrap(
    counts: BattleCounts, fit: Any, draws: int, seed: int, ties: str, ref: int | None, scale: str, unit: float
) -> ArenaBootstrap:
    """Percentile intervals of the ratings over ``draws`` multinomial redraws of the pair counts."""
    _, thetas, skipped = bt_bootstrap_float(counts, draws, seed, ties, progress=sys.stderr.isatty())
    if ref is not None:
        thetas = thetas - thetas[:, [ref]]
    base = 1000 if scale == "elo" else 0.0
    bounds = np.percentile(base + unit * thetas, [2.5, 97.5], axis=0) if len(thetas) else np.empty((2, 0))
    lo, hi = bounds[0], bounds[1]
    intervals = {m: [float(lo[i]), float(hi[i])] for i, m in enumerate(fit.models)} if len(thetas) else {}
    return ArenaBootstrap(draws, skipped, intervals)


def _sign_tests(met: list[Any], ps: list[Fraction], holm: list[Fraction]) -> list[SignTestRow]:
    """Every pair that met: decisive wins each way, ties, the exact sign test and its Holm adjustment."""
    return [
        SignTestRow(a, b, wins_a, wins_b, tied, float(p), _short(p), float(h))
        for (a, b, wins_a, wins_b, tied), p, h in zip(met, ps, holm)
    ]


def _short(x: Fraction) -> str:
    return short_exact(x) or f"{float(x):.6g}"


def arena_blocks(r: ArenaReport) -> list[Block]:
    """The arena report as blocks, written out by the package's one Markdown and HTML renderer."""
    unit = "Elo points" if r.scale == "elo" else "log-strength"
    where = f"{r.anchor} fixed at {'1000' if r.scale == 'elo' else '0'}" if r.anchor else "centred"
    out: list[Block] = [
        ("h1", f"Arena: {r.models} models, {r.battles} battles (ties: {r.ties})"),
        (
            "p",
            f"Bradley-Terry, {unit}, {where}. The MLE exists (the win graph is strongly connected); the score "
            f"equations hold to {r.certificate.max_score_residual:.2g} battles exactly at the rational point; "
            f"Newton step {r.certificate.newton_step:.2g} (estimate).",
        ),
    ]
    rows = [
        [
            str(i),
            e.model,
            f"{e.rating:.1f}",
            _pair(e.model95, ".1f"),
            _pair(e.sandwich95, ".1f"),
            _pair(e.bootstrap95, ".1f") if e.bootstrap95 else "-",
            f"{e.rank_interval[0]}-{e.rank_interval[1]}",
        ]
        for i, e in enumerate(r.leaderboard, 1)
    ]
    head = ["#", "model", "rating", "95% (model)", "95% (sandwich)", "95% (bootstrap)", "rank (Holm)"]
    out += [("table", (head, rows)), ("h2", "Pairwise sign tests (exact, ties excluded; Holm over all pairs)")]
    tests = [
        [f"{t.a} vs {t.b}", str(t.wins_a), str(t.wins_b), str(t.ties), f"{t.p:.4g}", f"{t.p_holm:.4g}"]
        for t in r.sign_tests
    ]
    out.append(("table", (["pair", "wins", "losses", "ties", "p", "Holm p"], tests)))
    if r.bootstrap and r.bootstrap.skipped:
        out.append(
            (
                "p",
                f"{r.bootstrap.skipped} of {r.bootstrap.draws} bootstrap resamples had no finite estimate "
                "and were skipped.",
            )
        )
    return out


def _pair(values: list[float], spec: str) -> str:
    return f"[{values[0]:{spec}}, {values[1]:{spec}}]"


def arena_figures(r: ArenaReport) -> list[Any]:
    """The ratings with their sandwich 95% intervals, best first."""
    from .figures import interval_figure

    entries = r.leaderboard
    return [
        interval_figure(
            [e.model for e in entries],
            [e.rating for e in entries],
            {"sandwich 95%": [(e.sandwich95[0], e.sandwich95[1]) for e in entries]},
            xlabel="rating (Elo)" if r.scale == "elo" else "log-strength",
            title=f"Bradley-Terry ratings ({'Elo' if r.scale == 'elo' else 'logit'}) with sandwich 95% intervals",
        )
    ]


def arena_markdown(r: ArenaReport) -> str:
    return markdown_from_blocks(arena_blocks(r))


def arena_html(r: ArenaReport) -> str:
    return html_from_blocks(arena_blocks(r), arena_figures(r), title="Arena report")
