"""The report's analysis: the book's methods applied to a :class:`ResultSet`, as typed results.

Each number comes from one library call of the exact core (Wilson intervals, clustered
intervals, exact McNemar with Holm, separation tiers, redraw stability, questions needed,
error correlation, majority vote); this module only composes them. Rendering lives in
:mod:`exactstats.report.render`.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from fractions import Fraction
from itertools import chain
from typing import Any, overload

import numpy as np

from .._validate import ExactStatsError, as_int, checked_selection
from ..bayes import paired_better_probability_float
from ..blocks import PairCounts
from ..clustered import cluster_sums, sign_flip_p_value, sign_flip_p_value_float
from ..correlation import error_correlation_from_phi
from ..errorbars import clustered_interval_float, wilson_interval_float
from ..multiplicity import bh_adjust_float, holm_adjust_float, holm_reject_screened, tiers_from_separation
from ..paired import (
    discordance_matrices,
    mcnemar_p_value,
    mcnemar_p_values_float,
    paired_difference_interval,
    unpaired_difference_interval,
)
from ..power import questions_needed
from ..resampling import top_stays_top_clustered_float, top_stays_top_float
from ..soft import paired_soft_difference_float, soft_summary_float
from ..voting import binary_majority_accuracy, majority_vote_accuracy
from .importers import ResultSet

ALPHA = Fraction(1, 20)
FEW_CLUSTERS = 20  # below this many clusters the clustered standard error is itself unreliable


def short_exact(p: Fraction) -> str:
    """Exact text of a probability when it is short enough to read, else its decimal and sizes.

    >>> short_exact(Fraction(1, 3))
    '1/3'
    >>> short_exact(Fraction(1, 3**100))[:10]
    '1.94033e-4'
    """
    s = f"{p.numerator}/{p.denominator}" if p.denominator.bit_length() < 130 else ""
    if s and len(s) <= 40:
        return str(p)
    return f"{float(p):.6g} (exact: {p.numerator.bit_length()}-bit / {p.denominator.bit_length()}-bit integers)"


@dataclass
class LeaderboardEntry:
    model: str
    right: int
    questions: int
    accuracy: float
    accuracy_exact: str
    wilson95: list[float]
    clustered95: list[float] | None = None
    clusters: int | None = None
    clustered_clipped: bool = False  # the normal interval left [0, 1] and was cut back to it (said in the report)


@dataclass
class AdjacentPair:
    better: str
    worse: str
    b: int
    c: int
    gap: float
    paired95: list[float]
    unpaired95: list[float] | None  # None when questions repeat (the rows of one model are not independent)
    p: float
    p_exact: str
    p_holm: float
    separated: bool
    questions_for_80pct_power: int | None
    # posterior chance the better-ranked model is better (paired Dirichlet model, uniform prior; not Holm-adjusted)
    p_better: float | None = None


@dataclass
class SoftEntry:
    """Soft accuracy (the mean probability of the right option) beside accuracy, with standard errors."""

    model: str
    soft: float
    soft95: list[float]
    soft_se: float
    accuracy_se: float
    se_ratio: float  # accuracy's standard error over the soft accuracy's


@dataclass
class SoftPair:
    better: str
    worse: str
    accuracy_z: float  # paired gap over its standard error, 0/1 scores
    soft_z: float  # the same for the right option's probability
    soft_gap: float


@dataclass
class PairTest:
    a: str
    b_model: str
    b: int
    c: int
    p: float
    p_holm: float
    q_bh: float | None = None  # Benjamini-Hochberg (or -Yekutieli) adjusted, with --fdr


def orjson_text(value: Any) -> str | None:
    """``value`` (finite numbers, ASCII text) as JSON text by orjson, ten times faster than ``json.dumps`` on
    big lists; None where orjson is not installed (the report extra installs it; callers fall back)."""
    try:
        import orjson
    except ImportError:  # pragma: no cover - the report extra installs it
        return None
    return str(orjson.dumps(value).decode())


class PairRows(Sequence[PairTest]):
    """Every pair's row, held as columns: a :class:`PairTest` is made only when one is asked for.

    At 1,000 models there are 499,500 rows; making an object per row, copying it into a dict and handing
    that to ``json.dumps`` took longer than reading the input. :meth:`json_text` writes the same JSON
    straight from the columns (tested to parse equal to ``json.dumps`` of the rows).
    """

    def __init__(
        self, models: list[str], first: list[int], second: list[int], b: np.ndarray, p: list[float], p_holm: list[float]
    ) -> None:
        self.models = models
        self.first, self.second = first, second
        self.b = b[first, second].tolist()
        self.c = b[second, first].tolist()
        self.p = p
        self.p_holm = p_holm
        self.q_bh: list[float] | None = None  # with --fdr

    def __len__(self) -> int:
        return len(self.first)

    @overload
    def __getitem__(self, n: int) -> PairTest: ...

    @overload
    def __getitem__(self, n: slice) -> list[PairTest]: ...

    def __getitem__(self, n: int | slice) -> PairTest | list[PairTest]:
        if isinstance(n, slice):
            return [self[i] for i in range(*n.indices(len(self)))]
        i, j = self.first[n], self.second[n]
        q = self.q_bh[n] if self.q_bh is not None else None
        return PairTest(self.models[i], self.models[j], self.b[n], self.c[n], self.p[n], self.p_holm[n], q)

    def __iter__(self) -> Iterator[PairTest]:
        return (self[n] for n in range(len(self)))

    def json_text(self) -> str:
        """``json.dumps([vars(row) for row in self])`` up to spacing and float spelling, from the columns:
        orjson (installed with the report) where every number is finite and every name ASCII, else json's
        own text (NaN and infinity keep json's spelling, names its escapes)."""
        q = self.q_bh if self.q_bh is not None else [None] * len(self)
        finite = all(math.isfinite(x) for x in chain(self.p, self.p_holm, (v for v in q if v is not None)))
        if not finite:
            return json.dumps([dict(vars(row)) for row in self])
        names = self.models
        columns = (self.first, self.second, self.b, self.c, self.p, self.p_holm, q)
        if all(m.isascii() for m in names):
            text = orjson_text(
                [
                    {"a": names[i], "b_model": names[j], "b": b, "c": c, "p": p, "p_holm": h, "q_bh": qv}
                    for i, j, b, c, p, h, qv in zip(*columns)
                ]
            )
            if text is not None:
                return text
        quoted = [json.dumps(m) for m in names]
        rows = [
            f'{{"a": {quoted[i]}, "b_model": {quoted[j]}, "b": {b}, "c": {c}, "p": {p!r}, "p_holm": {h!r}, '
            f'"q_bh": {"null" if qv is None else repr(qv)}}}'
            for i, j, b, c, p, h, qv in zip(*columns)
        ]
        return "[" + ", ".join(rows) + "]"


class PairMap(Mapping[tuple[int, int], Any]):
    """A value for every pair i < j of ``k`` models, in the upper triangle's row order, looked up by
    ``(i, j)`` by arithmetic: half a million pairs without a dict of tuples."""

    def __init__(self, k: int, values: list[Any]) -> None:
        self.k, self._values = k, values

    def __getitem__(self, key: tuple[int, int]) -> Any:
        i, j = key
        if not 0 <= i < j < self.k:
            raise KeyError(key)
        return self._values[i * (2 * self.k - i - 1) // 2 + j - i - 1]

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return ((i, j) for i in range(self.k) for j in range(i + 1, self.k))

    def __len__(self) -> int:
        return len(self._values)

    def values(self) -> list[Any]:  # type: ignore[override]
        return self._values


MCNEMAR = "exact McNemar over questions"


@dataclass
class Report:
    models: int
    questions: int  # the units of every test and interval: distinct questions, however often each was asked
    dropped_by_intersect: int
    sources: list[str]
    leaderboard: list[LeaderboardEntry]
    adjacent_pairs: list[AdjacentPair]
    all_pairs: PairRows | list[PairTest]
    tiers: list[list[str]]
    leader_stays_first: dict[str, Any] | None = None
    phi: dict[str, Any] | None = None
    majority_vote: dict[str, Any] | None = None
    calibration: list[dict[str, Any]] | None = (
        None  # per model: Brier and ECE (10 bins) with 95% intervals over questions
    )
    provenance: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    soft: list[SoftEntry] | None = None  # from option probabilities or lm-eval log-likelihoods
    soft_pairs: list[SoftPair] | None = None
    rows: int | None = None  # (question, sample) rows; more than questions when questions repeat (epochs)
    paired_test: str = MCNEMAR
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def questions_repeat(self) -> bool:
        """Questions asked more than once: the pair tests are sign-flip tests over questions."""
        return self.paired_test != MCNEMAR

    @property
    def test_name(self) -> str:
        """The pair test, as prose says it."""
        return "exact sign-flip test over questions" if self.questions_repeat else "exact McNemar test"

    def to_json(self, pairs_placeholder: str | None = None) -> dict[str, Any]:
        """The report as JSON-ready values; ``pairs_placeholder`` stands in for the all-pairs rows (the text
        writer splices in :meth:`PairRows.json_text` there instead of making a dict per pair)."""
        # a shallow walk, not dataclasses.asdict: that deep-copies every pair object (9.5 s at 1,000 models)
        out = {
            f.name: pairs_placeholder
            if f.name == "all_pairs" and pairs_placeholder is not None
            else _plain(getattr(self, f.name))
            for f in fields(self)
            if f.name != "extra"
        }
        return {k: v for k, v in out.items() if v is not None}


def _plain(value: Any) -> Any:
    """JSON-ready without a deep copy: a row dataclass (fields of numbers, strings and lists of them) becomes a
    shallow copy of its field dict, a list of them a list of dicts."""
    if is_dataclass(value) and not isinstance(value, type):
        return dict(vars(value))
    if isinstance(value, PairRows) or (isinstance(value, list) and value and is_dataclass(value[0])):
        return [dict(vars(v)) for v in value]
    return value


def leaderboard(C: np.ndarray, models: list[str], clusters: np.ndarray | None) -> list[LeaderboardEntry]:
    q = C.shape[1]
    board = []
    for m, row in zip(models, C):
        r = int(row.sum())
        entry = LeaderboardEntry(m, r, q, r / q, str(Fraction(r, q)), list(wilson_interval_float(r, q)))
        if clusters is not None:
            lo, hi = clustered_interval_float(row.tolist(), clusters.tolist())
            entry.clustered95 = [max(0.0, lo), min(1.0, hi)]
            entry.clustered_clipped = lo < 0 or hi > 1
            entry.clusters = len(set(clusters.tolist()))
        board.append(entry)
    return board


@dataclass
class PairTable:
    """Every pair i < j of the ranked models: discordant counts, float p-values, and the Holm decisions
    (over all pairs), each decision near a threshold confirmed with the exact p-value."""

    b: np.ndarray  # k x k: questions only row-model i got right, against j
    p_float: Mapping[tuple[int, int], float]
    holm_float: Mapping[tuple[int, int], float]  # Holm-adjusted, for display
    separated: Mapping[tuple[int, int], bool]
    exact: dict[tuple[int, int], Fraction]  # the pairs whose exact p-value was computed
    sums: np.ndarray | None = None  # right answers per model and question when questions repeat
    first: list[int] = field(default_factory=list)  # the pairs (first[n], second[n]), in the maps' order
    second: list[int] = field(default_factory=list)


def pair_table(
    C: np.ndarray, exact_all: bool = False, sums: np.ndarray | None = None, counts: PairCounts | None = None
) -> PairTable:
    """Every pair's p-value and Holm decision; with ``sums`` (models x questions, right answers per
    question over its repeated samples) the test is the sign-flip test over questions, else McNemar.
    ``counts``, the matrix's pair counts when the caller has them, saves a second co-occurrence product."""
    b, c = counts.discordant() if counts is not None else discordance_matrices(C)
    k = C.shape[0]
    iu = np.triu_indices(k, 1)
    first, second = iu[0].tolist(), iu[1].tolist()
    if sums is None:
        pf = mcnemar_p_values_float(b[iu], c[iu])
    else:
        pf = np.array([sign_flip_p_value_float(sums[i] - sums[j]) for i, j in zip(first, second)])
    exact: dict[tuple[int, int], Fraction] = {}

    def exact_p(n: int) -> Fraction:
        key = (first[n], second[n])
        if key not in exact:
            exact[key] = _exact_pair_p(*key, b, sums)
        return exact[key]

    if exact_all:
        pf = np.array([float(exact_p(n)) for n in range(len(first))])
    reject, _ = holm_reject_screened(pf, exact_p, ALPHA) if first else ([], [])
    return PairTable(
        b,
        PairMap(k, pf.tolist()),
        PairMap(k, holm_adjust_float(pf).tolist()),
        PairMap(k, list(reject)),
        exact,
        sums,
        first,
        second,
    )


def _all_pairs(models: list[str], table: PairTable) -> PairRows:
    """Every pair's row, as columns (see :class:`PairRows`)."""
    return PairRows(
        models, table.first, table.second, table.b, list(table.p_float.values()), list(table.holm_float.values())
    )


def _exact_pair_p(i: int, j: int, b: np.ndarray, sums: np.ndarray | None) -> Fraction:
    if sums is None:
        return mcnemar_p_value(int(b[i, j]), int(b[j, i]))
    return sign_flip_p_value((sums[i] - sums[j]).tolist())


def adjacent_pairs(
    C: np.ndarray, models: list[str], table: PairTable, exact_all: bool = False, clusters: np.ndarray | None = None
) -> list[AdjacentPair]:
    """Adjacent pairs with Holm over the k - 1 of them: p-values in floats, each separation decided exactly.

    A p-value within a safety margin of its Holm threshold is recomputed exactly
    (``holm_reject_screened``), so the decisions equal the all-exact ones; ``p_exact`` holds
    the exact value where one was computed (every pair with ``exact_all``). When questions repeat
    (``table.sums``), the interval is clustered by question (Student t) and the unpaired interval and
    the questions needed (both for independent rows) are left out.
    """
    k, q = C.shape
    keys = [(i, i + 1) for i in range(k - 1)]
    if not keys:
        return []

    def exact_p(n: int) -> Fraction:
        i, j = keys[n]
        if (i, j) not in table.exact:
            table.exact[(i, j)] = _exact_pair_p(i, j, table.b, table.sums)
        return table.exact[(i, j)]

    if exact_all:
        for n in range(len(keys)):
            exact_p(n)
    pf = np.array([float(table.exact[key]) if key in table.exact else table.p_float[key] for key in keys])
    reject, _ = holm_reject_screened(pf, exact_p, ALPHA)
    holm = holm_adjust_float(pf)
    right = C.sum(axis=1)
    out = []
    for n, (i, j) in enumerate(keys):
        b, c = int(table.b[i, j]), int(table.b[j, i])
        if table.sums is None:
            p_better: float | None = paired_better_probability_float(b, c)
            iv = paired_difference_interval(b, c, q)
            paired, gap = [iv.lower, iv.upper], float(iv.difference)
            uv = unpaired_difference_interval(int(right[i]), int(right[j]), q)
            unpaired: list[float] | None = [uv.lower, uv.upper]
            need = questions_needed(Fraction(b + c, q), Fraction(b - c, q)).n if b != c else None
        else:
            cv = clustered_interval_float((C[i] - C[j]).tolist(), np.asarray(clusters).tolist())
            paired, gap, unpaired, need, p_better = [cv.lower, cv.upper], (b - c) / q, None, None, None
        out.append(
            AdjacentPair(
                models[i],
                models[j],
                b,
                c,
                gap,
                paired,
                unpaired,
                float(pf[n]),
                short_exact(table.exact[(i, j)]) if (i, j) in table.exact else "",
                float(holm[n]),
                bool(reject[n]),
                need,
                p_better,
            )
        )
    return out


def stability(C: np.ndarray, draws: int, seed: int, progress: bool, sums: np.ndarray | None = None) -> dict[str, Any]:
    """How often the leader stays first when all questions are redrawn (one call; a progress bar if asked).
    When questions repeat, whole questions (with all their samples) are redrawn."""
    if sums is not None:
        return {"n": sums.shape[1], "draws": draws, "share": top_stays_top_clustered_float(sums, draws, seed)}
    q = C.shape[1]
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=draws, desc="redrawing questions", unit="draw", file=sys.stderr)
    share = top_stays_top_float(C, q, draws=draws, seed=seed, on_block=bar.update if bar else None)
    if bar:
        bar.close()
    return {"n": q, "draws": draws, "share": share}


def error_correlation(counts: PairCounts) -> dict[str, Any] | None:
    """The panel's error correlation from its pair counts: the phi of two models' errors is the phi of
    their right answers (swapping 0 and 1 in both rows swaps the table's diagonals and its margins)."""
    if not np.all((counts.right > 0) & (counts.right < counts.questions)):
        return None  # phi is undefined for a model that is always right or always wrong
    ec = error_correlation_from_phi(counts.phi_float())
    votes = ec.mean_phi >= 0  # a negative mean phi (models right on different questions) has no "votes" reading
    return {
        "matrix": ec.matrix.round(6).tolist(),
        "mean": ec.mean_phi,
        "effective_votes": ec.effective_votes if votes else None,
        "effective_votes_eigen": ec.effective_votes_eigen if votes else None,
        "ceiling": ec.ceiling,
    }


def _false_discovery(pairs: PairRows | list[PairTest], fdr: str) -> dict[str, Any]:
    """Benjamini-Hochberg ("bh") or Benjamini-Yekutieli ("by") q-values on every pair, set in place."""
    if fdr not in ("bh", "by"):
        raise ExactStatsError(f"fdr must be 'bh' or 'by', got {fdr!r}")
    qs = bh_adjust_float(np.array([t.p for t in pairs]), "any" if fdr == "by" else "independent")
    if isinstance(pairs, PairRows):
        pairs.q_bh = qs.tolist()
    else:
        for t, qv in zip(pairs, qs):
            t.q_bh = float(qv)
    return {"method": fdr, "discoveries": int(np.sum(qs <= float(ALPHA))), "pairs": len(qs)}


def _majority_vote(C: np.ndarray, choices: np.ndarray | None, answers: np.ndarray | None) -> dict[str, Any]:
    """The panel's majority vote: a plurality of chosen options where the input has them, else of right/wrong."""
    if choices is not None and answers is not None:
        vote = majority_vote_accuracy(choices, answers)
        kind = "plurality of chosen options"
    else:
        vote = binary_majority_accuracy(C)
        kind = "majority of right/wrong (no chosen options in the input)"
    return {"kind": kind, "accuracy": float(vote), "exact": str(vote)}


def analyse(
    rs: ResultSet,
    draws: int = 1000,
    seed: int = 0,
    progress: bool = False,
    provenance: dict[str, Any] | None = None,
    exact_all: bool = False,
    fdr: str | None = None,
) -> Report:
    """Every analysis of the report on one result set; models are ranked by accuracy, best first.

    Pair p-values are floats, except those a decision depends on (near a Holm threshold), which are
    recomputed exactly; ``exact_all=True`` computes every one exactly (slow at 200 models).
    """
    draws = as_int(draws, "draws", minimum=1)
    if rs.correct.shape[1] < 2:
        raise ExactStatsError(f"the report needs at least 2 shared questions, got {rs.correct.shape[1]}")
    order = np.argsort(-rs.correct.sum(axis=1), kind="stable")
    C = checked_selection(rs.correct, order)  # reordered, not scanned again
    models = [rs.models[i] for i in order]
    k = C.shape[0]
    sums = cluster_sums(C, rs.clusters.tolist())[0] if rs.repeated and rs.clusters is not None else None
    # one co-occurrence product serves the pair tests and the error correlation (1,000 models: 0.3 s each)
    counts = PairCounts.of_matrix(C)
    table = pair_table(C, exact_all, sums, counts)
    report = Report(
        models=k,
        questions=C.shape[1] if sums is None else sums.shape[1],
        dropped_by_intersect=rs.dropped,
        sources=rs.sources,
        leaderboard=leaderboard(C, models, rs.clusters),
        adjacent_pairs=adjacent_pairs(C, models, table, exact_all, rs.clusters),
        all_pairs=_all_pairs(models, table),
        tiers=[[models[i] for i in t] for t in tiers_from_separation(lambda i, j: table.separated[(i, j)], k)],
        rows=C.shape[1],
        paired_test=MCNEMAR if sums is None else f"exact sign-flip test over {sums.shape[1]} questions",
    )
    if fdr is not None and report.all_pairs:
        report.extra["fdr"] = _false_discovery(report.all_pairs, fdr)
    if k >= 2:
        report.leader_stays_first = stability(C, draws, seed, progress, sums)
        report.phi = error_correlation(counts)
        report.majority_vote = _majority_vote(C, rs.choices[order] if rs.choices is not None else None, rs.answers)
    if rs.probabilities is not None and rs.answers is not None:
        report.calibration = calibration_table(rs.probabilities[order], rs.answers, models)
    if rs.right_probability is not None and sums is None and C.shape[1] >= 2:
        report.soft, report.soft_pairs = soft_tables(rs.right_probability[order], C, models)
    report.provenance = dict(provenance or {})
    report.notes = list(rs.notes) + reading_notes(report)
    return report


def soft_tables(right: np.ndarray, C: np.ndarray, models: list[str]) -> tuple[list[SoftEntry], list[SoftPair]]:
    """Soft accuracy per model and, for adjacent pairs, the paired z of soft scores beside that of 0/1 scores."""
    entries = []
    for m, p, c in zip(models, right, C):
        s = soft_summary_float(p, c)
        entries.append(SoftEntry(m, s.soft, [s.interval.lower, s.interval.upper], s.soft_se, s.accuracy_se, s.se_ratio))
    pairs = []
    for i in range(len(models) - 1):
        soft_gap, soft_se = paired_soft_difference_float(right[i], right[i + 1])
        acc_gap, acc_se = paired_soft_difference_float(C[i], C[i + 1])
        pairs.append(
            SoftPair(
                models[i],
                models[i + 1],
                acc_gap / acc_se if acc_se > 0 else float("nan"),
                soft_gap / soft_se if soft_se > 0 else float("nan"),
                soft_gap,
            )
        )
    return entries, pairs


def calibration_table(probs: np.ndarray, answers: np.ndarray, models: list[str]) -> list[dict[str, Any]]:
    """Brier score and expected calibration error (ten equal-width bins) per model, intervals over questions."""
    from ..calibration import brier_score_float, expected_calibration_error_float

    out = []
    for m, p in zip(models, probs):
        b = brier_score_float(p, answers)
        e = expected_calibration_error_float(p, answers)
        out.append({"model": m, "brier": [b.value, b.lower, b.upper], "ece10": [e.value, e.lower, e.upper]})
    return out


def reading_notes(r: Report) -> list[str]:
    """What a reader must know to read the numbers right, chosen from the results."""
    out = []
    if r.questions_repeat:
        out.append(
            f"Each question was asked more than once ({r.rows} rows, {r.questions} questions): the pair tests are "
            "exact sign-flip tests over questions, the paired intervals are clustered by question (Student t), "
            "redraws draw whole questions, and the Wilson intervals, which treat every row as independent, "
            "are too narrow; read the clustered ones."
        )
    if any(e.clustered_clipped for e in r.leaderboard):
        out.append("Some clustered intervals left [0, 1] (normal approximation) and are shown cut back to it.")
    few = [e.clusters for e in r.leaderboard if e.clusters is not None and e.clusters < FEW_CLUSTERS]
    if few:
        out.append(
            f"Only {few[0]} clusters: the clustered intervals use Student t on {few[0] - 1} degrees of freedom, "
            f"but a clustered standard error from fewer than {FEW_CLUSTERS} clusters is itself unreliable; "
            "read them as rough."
        )
    if r.phi and r.phi["effective_votes"] is None:
        out.append(
            f"The mean error correlation is negative ({r.phi['mean']:.3f}): the models tend to be wrong on "
            "different questions, and 'effective votes' (defined for phi >= 0) does not apply."
        )
    if r.extra.get("fdr"):
        f = r.extra["fdr"]
        name = "Benjamini-Hochberg" if f["method"] == "bh" else "Benjamini-Yekutieli (any dependence)"
        out.append(
            f"False-discovery control ({name}, 5%): {f['discoveries']} of {f['pairs']} pairs differ; "
            "the tiers use Holm's stricter family-wise control."
        )
    return out
