"""``exactstats report``: the book's analyses on anyone's eval results.

For a set of models answering the same questions: a leaderboard with Wilson
intervals (clustered intervals when questions carry a cluster), exact McNemar
tests for adjacent and all pairs with Holm's correction, tiers of models that
cannot be separated, how often the leader stays first when questions are
redrawn, questions needed to separate each adjacent pair, the error-correlation
matrix, effective votes and majority-vote accuracy. Output as JSON, Markdown or
a self-contained HTML file.
"""

from __future__ import annotations

import argparse
import base64
import html
import io
import json
import sys
from fractions import Fraction

import numpy as np

from .correlation import effective_votes_eigen, mean_phi_float, phi_matrix_float
from .errorbars import clustered_variance, wilson_interval
from .importers import ResultSet, load_results
from .paired import discordance, holm_adjust, mcnemar_exact, paired_difference_interval, unpaired_difference_interval, z_value
from .power import questions_needed
from .resampling import top_stays_top
from .voting import majority_vote_accuracy

ALPHA = Fraction(1, 20)


def _short(p: Fraction) -> str:
    """Exact text of a probability when it is short enough to read, else its size."""
    s = str(p)
    return s if len(s) <= 40 else f"{float(p):.6g} (exact: {p.numerator.bit_length()}-bit / {p.denominator.bit_length()}-bit integers)"


def _binary_majority(C: np.ndarray) -> Fraction:
    """Majority of right/wrong indicators per question, ties credited one half (binary tasks)."""
    k = C.shape[0]
    right = C.sum(axis=0)
    return (Fraction(int(np.sum(2 * right > k))) + Fraction(int(np.sum(2 * right == k)), 2)) / C.shape[1]


def analyse(rs: ResultSet, draws: int = 1000, seed: int = 0, progress: bool = False) -> dict:
    C = rs.correct
    k, q = C.shape
    order = np.argsort(-C.sum(axis=1), kind="stable")
    C = C[order]
    models = [rs.models[i] for i in order]
    right = [int(r.sum()) for r in C]
    z = z_value("0.95")
    board = []
    for m, r, row in zip(models, right, C):
        lo, hi = wilson_interval(r, q).as_floats()
        entry = {"model": m, "right": r, "questions": q, "accuracy": r / q, "accuracy_exact": str(Fraction(r, q)),
                 "wilson95": [lo, hi]}
        if rs.clusters is not None:
            v = clustered_variance(row.tolist(), rs.clusters.tolist(), correction="G/(G-1)")
            half = z * float(v) ** 0.5
            entry["clustered95"] = [r / q - half, r / q + half]
            entry["clusters"] = int(len(set(rs.clusters.tolist())))
        board.append(entry)

    pairs = {}
    for i in range(k):
        for j in range(i + 1, k):
            b, c = discordance(C[i], C[j])
            pairs[(i, j)] = (b, c, mcnemar_exact(b, c))
    keys = list(pairs)
    holm_all = dict(zip(keys, holm_adjust([pairs[key][2] for key in keys]))) if keys else {}
    adjacent_keys = [(i, i + 1) for i in range(k - 1)]
    holm_adj = dict(zip(adjacent_keys, holm_adjust([pairs[key][2] for key in adjacent_keys]))) if adjacent_keys else {}
    adjacent = []
    for i, j in adjacent_keys:
        b, c, p = pairs[(i, j)]
        iv = paired_difference_interval(b, c, q)
        uv = unpaired_difference_interval(right[i], right[j], q)
        need = questions_needed(Fraction(b + c, q), Fraction(b - c, q)).n if b != c else None
        adjacent.append({"better": models[i], "worse": models[j], "b": b, "c": c, "gap": float(iv.difference),
                         "paired95": [iv.lower, iv.upper], "unpaired95": [uv.lower, uv.upper], "p": float(p), "p_exact": _short(p),
                         "p_holm": float(holm_adj[(i, j)]), "separated": bool(holm_adj[(i, j)] <= ALPHA),
                         "questions_for_80pct_power": need})
    all_pairs = [{"a": models[i], "b_model": models[j], "b": b, "c": c, "p": float(p), "p_holm": float(holm_all[(i, j)])}
                 for (i, j), (b, c, p) in pairs.items()]
    tiers, current = [], [0]
    for j in range(1, k):
        if holm_all[(current[0], j)] <= ALPHA:
            tiers.append(current)
            current = [j]
        else:
            current.append(j)
    tiers.append(current)

    out = {"models": k, "questions": q, "dropped_by_intersect": rs.dropped, "sources": rs.sources,
           "leaderboard": board, "adjacent_pairs": adjacent, "all_pairs": all_pairs,
           "tiers": [[models[i] for i in t] for t in tiers]}
    if k >= 2:
        share, done = 0, 0
        chunks = [min(100, draws - i) for i in range(0, draws, 100)]
        if progress:  # the redraws are the slow part on large inputs
            from tqdm import tqdm

            chunks = tqdm(chunks, desc="redrawing questions", unit="x100", file=sys.stderr)
        for i, size in enumerate(chunks):
            share += top_stays_top(C, q, draws=size, seed=(seed, i)) * size
            done += size
        out["leader_stays_first"] = {"n": q, "draws": draws, "share": share / done}
        E = 1 - C
        if np.all(E.std(axis=1) > 0):
            phi = phi_matrix_float(E)
            mp = mean_phi_float(E)
            out["phi"] = {"matrix": phi.round(6).tolist(), "mean": mp,
                          "effective_votes": k / (1 + (k - 1) * mp), "effective_votes_eigen": effective_votes_eigen(E),
                          "ceiling": (1 / mp) if mp > 0 else None}
        if rs.choices is not None and rs.answers is not None:
            vote = majority_vote_accuracy(rs.choices[order], rs.answers)
            out["majority_vote"] = {"kind": "plurality of chosen options", "accuracy": float(vote), "exact": str(vote)}
        else:
            vote = _binary_majority(C)
            out["majority_vote"] = {"kind": "majority of right/wrong (no chosen options in the input)",
                                    "accuracy": float(vote), "exact": str(vote)}
    return out


def to_markdown(r: dict) -> str:
    lines = [f"# Eval report: {r['models']} models x {r['questions']} questions", ""]
    if r["dropped_by_intersect"]:
        lines += [f"{r['dropped_by_intersect']} questions not shared by every model were dropped (--intersect).", ""]
    lines += ["## Leaderboard (Wilson 95%)", "", "| # | model | right | accuracy | Wilson 95% |" + (" clustered 95% |" if r["leaderboard"] and "clustered95" in r["leaderboard"][0] else ""),
              "|---|---|---|---|---|" + ("---|" if r["leaderboard"] and "clustered95" in r["leaderboard"][0] else "")]
    for i, e in enumerate(r["leaderboard"], 1):
        row = f"| {i} | {e['model']} | {e['right']} | {e['accuracy']:.4f} | [{e['wilson95'][0]:.4f}, {e['wilson95'][1]:.4f}] |"
        if "clustered95" in e:
            row += f" [{e['clustered95'][0]:.4f}, {e['clustered95'][1]:.4f}] |"
        lines.append(row)
    lines += ["", "## Adjacent pairs (exact McNemar, Holm over adjacent pairs)", "",
              "| pair | b | c | gap (points) | paired 95% | p | Holm p | separated | questions for 80% power |", "|---|---|---|---|---|---|---|---|---|"]
    for a in r["adjacent_pairs"]:
        lines.append(f"| {a['better']} vs {a['worse']} | {a['b']} | {a['c']} | {100 * a['gap']:.2f} | "
                     f"[{100 * a['paired95'][0]:.2f}, {100 * a['paired95'][1]:.2f}] | {a['p']:.4g} | {a['p_holm']:.4g} | "
                     f"{'yes' if a['separated'] else 'no'} | {a['questions_for_80pct_power'] or '-'} |")
    lines += ["", "## Tiers (no pair within a tier is separated; Holm over all pairs, 5% level)", ""]
    lines += [f"{i}. " + ", ".join(t) for i, t in enumerate(r["tiers"], 1)]
    if "leader_stays_first" in r:
        s = r["leader_stays_first"]
        lines += ["", f"The leader stays first in {s['share']:.1%} of {s['draws']} redraws of all {s['n']} questions."]
    if "phi" in r:
        p = r["phi"]
        lines += [f"Mean error correlation phi = {p['mean']:.3f}: the panel is worth {p['effective_votes']:.2f} independent votes "
                  f"(eigenvalue estimate {p['effective_votes_eigen']:.2f})."]
    if "majority_vote" in r:
        mv = r["majority_vote"]
        lines += [f"Majority vote ({mv['kind']}): accuracy {mv['accuracy']:.4f}."]
    return "\n".join(lines) + "\n"


def _figure_png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    import matplotlib.pyplot as plt

    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode()


def to_html(r: dict) -> str:
    from .figures import heatmap_figure, interval_figure, paired_unpaired_figure

    md = to_markdown(r)
    figs = []
    names = [e["model"] for e in r["leaderboard"]]
    figs.append(interval_figure(names, [e["accuracy"] for e in r["leaderboard"]], {"Wilson 95%": [tuple(e["wilson95"]) for e in r["leaderboard"]]}))
    if r["adjacent_pairs"]:
        a = r["adjacent_pairs"]
        figs.append(paired_unpaired_figure([f"{x['better']} vs {x['worse']}" for x in a], [x["gap"] for x in a],
                                           [tuple(x["paired95"]) for x in a], [tuple(x["unpaired95"]) for x in a]))
    if "phi" in r:
        m = np.array(r["phi"]["matrix"], dtype=float)
        np.fill_diagonal(m, np.nan)
        figs.append(heatmap_figure(m, names, title="error correlation phi"))
    body = _markdown_to_html(md)
    images = "".join(f'<img alt="figure" src="data:image/png;base64,{_figure_png(f)}">' for f in figs)
    style = ("body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}"
             "table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left}"
             "img{max-width:100%;display:block;margin:1rem 0}")
    return f"<!doctype html><html><head><meta charset='utf-8'><title>Eval report</title><style>{style}</style></head><body>{body}{images}</body></html>"


def _markdown_to_html(md: str) -> str:
    """Enough Markdown for the report: headings, tables, numbered lists, paragraphs."""
    out, table = [], []

    def flush():
        if table:
            rows = [r for r in table if not set(r.replace("|", "").strip()) <= {"-"}]
            cells = [[html.escape(c.strip()) for c in r.strip().strip("|").split("|")] for r in rows]
            head = "".join(f"<th>{c}</th>" for c in cells[0])
            body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in cells[1:])
            out.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
            table.clear()

    for line in md.splitlines():
        if line.startswith("|"):
            table.append(line)
            continue
        flush()
        if line.startswith("## "):
            out.append(f"<h2>{html.escape(line[3:])}</h2>")
        elif line.startswith("# "):
            out.append(f"<h1>{html.escape(line[2:])}</h1>")
        elif line.strip():
            out.append(f"<p>{html.escape(line)}</p>")
    flush()
    return "\n".join(out)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("inputs", nargs="+", metavar="INPUT",
                   help="[NAME=]PATH: a wide or long CSV/Parquet matrix, lm-eval samples_*.jsonl, or an Inspect .json/.eval log")
    p.add_argument("--out", help="write an HTML report (one self-contained file) here")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.add_argument("--intersect", action="store_true", help="keep only questions every model answered (says how many were dropped)")
    p.add_argument("--metric", default="acc", help="lm-eval per-sample metric to read (default acc)")
    p.add_argument("--draws", type=int, default=1000, help="redraws for the leader-stability estimate (default 1000)")
    p.add_argument("--seed", type=int, default=0)


def main(args: argparse.Namespace) -> None:
    rs = load_results(args.inputs, intersect=args.intersect, metric=args.metric)
    if rs.dropped:
        print(f"exactstats report: dropped {rs.dropped} questions not shared by every model", file=sys.stderr)
    r = analyse(rs, draws=args.draws, seed=args.seed, progress=sys.stderr.isatty())
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(to_html(r))
    if args.json:
        print(json.dumps(r))
    else:
        print(to_markdown(r), end="")
