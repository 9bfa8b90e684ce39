"""The report as Markdown, as one self-contained HTML file, or as JSON.

The content is built once as a list of blocks (headings, paragraphs, tables, lists)
and written out in either format, so the two never say different things.
"""

from __future__ import annotations

import base64
import html
import io
import json
import re
import uuid
from typing import Any

from .analysis import Report

Block = tuple[str, Any]
SHORT_EXACT = 60  # an exact fraction longer than this many characters is given as a float only


def short_exact(x: Any) -> str | None:
    """An exact value as text for a report, or None when it is too long to read."""
    text = str(x)
    return text if len(text) <= SHORT_EXACT else None


STYLE = (
    "body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}"
    "table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left}"
    "img,svg{max-width:100%;height:auto;display:block;margin:1rem 0}figure{margin:0}"
)


def _header_blocks(r: Report) -> list[Block]:
    """Title, provenance and what was dropped."""
    out: list[Block] = []
    out += [("h1", f"Eval report: {r.models} models x {r.questions} questions")]
    prov = r.provenance
    if prov:
        out.append(
            ("p", f"exactstats {prov.get('version', '?')}, {prov.get('date', '?')}: `{prov.get('command', '')}`")
        )
        out.append(("ul", [f"{s}" for s in r.sources]))
    if r.dropped_by_intersect:
        out.append(("p", f"{r.dropped_by_intersect} questions not shared by every model were dropped (--intersect)."))
    return out


def _leaderboard_blocks(r: Report) -> list[Block]:
    """The leaderboard with its intervals."""
    out: list[Block] = []
    clustered = bool(r.leaderboard) and r.leaderboard[0].clustered95 is not None
    head = ["#", "model", "right", "accuracy", "Wilson 95%"] + (["clustered 95%"] if clustered else [])
    rows = []
    for i, e in enumerate(r.leaderboard, 1):
        row = [str(i), e.model, str(e.right), f"{e.accuracy:.4f}", f"[{e.wilson95[0]:.4f}, {e.wilson95[1]:.4f}]"]
        if clustered and e.clustered95 is not None:
            row.append(f"[{e.clustered95[0]:.4f}, {e.clustered95[1]:.4f}]")
        rows.append(row)
    out += [("h2", "Leaderboard (Wilson 95%)"), ("table", (head, rows))]
    return out


def _pair_blocks(r: Report) -> list[Block]:
    """Adjacent pairs: the exact paired test with Holm, the paired interval, the questions needed."""
    out: list[Block] = []
    out += [
        ("h2", f"Adjacent pairs ({r.paired_test}, Holm over adjacent pairs)"),
        (
            "table",
            (
                [
                    "pair",
                    "b",
                    "c",
                    "gap (points)",
                    "paired 95%",
                    "p",
                    "Holm p",
                    "separated",
                    "questions for 80% power",
                    "P(better)",
                ],
                [
                    [
                        f"{a.better} vs {a.worse}",
                        str(a.b),
                        str(a.c),
                        f"{100 * a.gap:.2f}",
                        f"[{100 * a.paired95[0]:.2f}, {100 * a.paired95[1]:.2f}]",
                        f"{a.p:.4g}",
                        f"{a.p_holm:.4g}",
                        "yes" if a.separated else "no",
                        str(a.questions_for_80pct_power or "-"),
                        "-" if a.p_better is None else f"{a.p_better:.4f}",
                    ]
                    for a in r.adjacent_pairs
                ],
            ),
        ),
    ]
    if r.questions_repeat:
        text = (
            f"b: rows (question, sample) only the better-ranked model got right; c: rows only the other got right. "
            f"The sign-flip test asks whether, question by question, the difference in right answers leans one way "
            f"by more than chance (each question's difference equally likely to be flipped); the paired interval "
            f"for the gap (b - c)/{r.rows} is clustered by question (Student t on {r.questions - 1} degrees of "
            "freedom). Questions needed for power are not given: they assume one sample per question."
        )
    else:
        text = (
            "b: questions only the better-ranked model got right; c: questions only the other got right. "
            "The exact McNemar test asks whether b and c differ by more than chance (b + c coin flips); "
            "the paired interval is for the accuracy gap (b - c)/n. P(better): the posterior chance that the "
            "better-ranked model is the better one (paired Dirichlet model, uniform prior: P(Bin(b + c + 1, 1/2) "
            "<= b), exactly es.paired_better_probability); it is not corrected for the many pairs."
        )
    out.append(("p", text))
    return out


def _panel_blocks(r: Report) -> list[Block]:
    """Tiers, redraw stability, error correlation and the majority vote."""
    out: list[Block] = []
    out += [
        ("h2", "Tiers (no pair within a tier is separated; Holm over all pairs, 5% level)"),
        (
            "p",
            f"Models are taken best first; a model opens a new tier when the {r.test_name}, "
            "Holm-corrected over all pairs, separates it from the first model of the current tier.",
        ),
        ("ol", [", ".join(t) for t in r.tiers]),
    ]
    if r.leader_stays_first:
        s = r.leader_stays_first
        out.append(
            (
                "p",
                f"The leader stays first in {s['share']:.1%} of {s['draws']} redraws of all {s['n']} questions"
                + (" (whole questions, with all their samples)." if r.questions_repeat else "."),
            )
        )
    if r.phi:
        p = r.phi
        if p["effective_votes"] is not None:
            text = (
                f"Mean error correlation phi = {p['mean']:.3f}: the panel is worth {p['effective_votes']:.2f} "
                f"independent votes (eigenvalue estimate {p['effective_votes_eigen']:.2f})."
            )
        else:
            text = f"Mean error correlation phi = {p['mean']:.3f} (negative: see the notes)."
        out.append(("p", text))
    if r.majority_vote:
        mv = r.majority_vote
        out.append(("p", f"Majority vote ({mv['kind']}): accuracy {mv['accuracy']:.4f}."))
    return out


def _calibration_blocks(r: Report) -> list[Block]:
    """Brier and ECE with their intervals, where option probabilities were given."""
    out: list[Block] = []
    if r.calibration:
        out += [
            ("h2", "Calibration (from the option probabilities; 95% intervals over questions)"),
            (
                "table",
                (
                    ["model", "Brier", "Brier 95%", "ECE (10 bins)", "ECE 95%"],
                    [
                        [
                            c["model"],
                            f"{c['brier'][0]:.4f}",
                            f"[{c['brier'][1]:.4f}, {c['brier'][2]:.4f}]",
                            f"{c['ece10'][0]:.4f}",
                            f"[{c['ece10'][1]:.4f}, {c['ece10'][2]:.4f}]",
                        ]
                        for c in r.calibration
                    ],
                ),
            ),
        ]
    return out


def _soft_blocks(r: Report) -> list[Block]:
    """Soft accuracy beside accuracy, where the input gives the right option's probability."""
    if not r.soft:
        return []
    out: list[Block] = [
        ("h2", "Soft accuracy (mean probability of the right option: a different quantity)"),
        (
            "table",
            (
                ["model", "soft accuracy", "95%", "SE", "accuracy SE", "SE ratio"],
                [
                    [
                        e.model,
                        f"{e.soft:.4f}",
                        f"[{e.soft95[0]:.4f}, {e.soft95[1]:.4f}]",
                        f"{e.soft_se:.4f}",
                        f"{e.accuracy_se:.4f}",
                        f"{e.se_ratio:.2f}",
                    ]
                    for e in r.soft
                ],
            ),
        ),
    ]
    if r.soft_pairs:
        out.append(
            (
                "table",
                (
                    ["pair", "paired z (0/1)", "paired z (soft)", "soft gap"],
                    [
                        [f"{p.better} vs {p.worse}", f"{p.accuracy_z:.2f}", f"{p.soft_z:.2f}", f"{p.soft_gap:+.4f}"]
                        for p in r.soft_pairs
                    ],
                ),
            )
        )
    out.append(
        (
            "p",
            "Soft accuracy measures how much probability a model puts on the right answer, not how often it "
            "chooses it: its error bars are narrower because probabilities vary less than 0/1 outcomes, but a "
            "model can gain soft accuracy without answering one more question right. Read it beside accuracy, "
            "never in its place.",
        )
    )
    return out


def blocks(r: Report) -> list[Block]:
    """The report's content, format-neutral."""
    out = [
        b
        for part in (
            _header_blocks,
            _leaderboard_blocks,
            _pair_blocks,
            _panel_blocks,
            _calibration_blocks,
            _soft_blocks,
        )
        for b in part(r)
    ]
    if r.notes:
        out += [("h2", "Notes"), ("ul", r.notes)]
    return out


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|")


def to_markdown(r: Report) -> str:
    return markdown_from_blocks(blocks(r))


def markdown_from_blocks(content_blocks: list[Block]) -> str:
    """Blocks as Markdown (every report of the package is written by this one function)."""
    lines: list[str] = []
    for kind, content in content_blocks:
        if kind == "h1":
            lines += [f"# {content}", ""]
        elif kind == "h2":
            lines += ["", f"## {content}", ""]
        elif kind == "p":
            lines += [content, ""]
        elif kind == "ol":
            lines += [f"{i}. {item}" for i, item in enumerate(content, 1)] + [""]
        elif kind == "ul":
            lines += [f"- {item}" for item in content] + [""]
        elif kind == "table":
            head, rows = content
            lines.append("| " + " | ".join(head) + " |")
            lines.append("|" + "---|" * len(head))
            lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows] + [""]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip("\n") + "\n"


def _html_block(kind: str, content: Any) -> str:
    esc = html.escape
    if kind in ("h1", "h2", "p"):
        return f"<{kind}>{esc(content)}</{kind}>"
    if kind in ("ol", "ul"):
        return f"<{kind}>" + "".join(f"<li>{esc(item)}</li>" for item in content) + f"</{kind}>"
    head, rows = content
    return (
        "<table><thead><tr>"
        + "".join(f"<th>{esc(h)}</th>" for h in head)
        + "</tr></thead><tbody>"
        + "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in rows)
        + "</tbody></table>"
    )


def _figure_png(fig: Any) -> str:
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode()


def figures(r: Report) -> list[str]:
    """The report's charts as inline SVG (:mod:`exactstats.report.svg`: no matplotlib, milliseconds)."""
    import numpy as np

    from .svg import heatmap_svg, interval_svg, paired_unpaired_svg

    names = [e.model for e in r.leaderboard]
    figs = [
        interval_svg(
            names,
            [e.accuracy for e in r.leaderboard],
            {"Wilson 95%": [(e.wilson95[0], e.wilson95[1]) for e in r.leaderboard]},
            title="accuracy with Wilson 95% intervals",
        )
    ]
    if r.adjacent_pairs and r.adjacent_pairs[0].unpaired95 is not None:  # none when questions repeat
        a = r.adjacent_pairs
        figs.append(
            paired_unpaired_svg(
                [f"{x.better} vs {x.worse}" for x in a],
                [x.gap for x in a],
                [(x.paired95[0], x.paired95[1]) for x in a],
                [(x.unpaired95[0], x.unpaired95[1]) for x in a if x.unpaired95 is not None],
                title="adjacent pairs: accuracy gap, paired vs unpaired 95% intervals",
            )
        )
    if r.phi:
        m = np.array(r.phi["matrix"], dtype=float)
        np.fill_diagonal(m, np.nan)
        figs.append(heatmap_svg(m, names, title="error correlation phi"))
    return figs


def to_html(r: Report) -> str:
    """One self-contained HTML file: the same blocks as the Markdown, and the figures inlined as SVG."""
    return html_from_blocks(blocks(r), figures(r))


def html_from_blocks(content_blocks: list[Block], figs: list[Any], title: str = "Eval report") -> str:
    """Blocks and figures as one self-contained HTML page: a figure given as SVG text is inlined as it is, a
    matplotlib figure as a PNG."""
    body = "\n".join(_html_block(kind, content) for kind, content in content_blocks)
    images = "".join(
        f"<figure>{f}</figure>"
        if isinstance(f, str)
        else f'<img alt="figure" src="data:image/png;base64,{_figure_png(f)}">'
        for f in figs
    )
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
        f"<style>{STYLE}</style></head><body>{body}{images}</body></html>"
    )


def to_json(r: Report) -> str:
    """The report as one JSON text, parsing equal to ``json.dumps(r.to_json())``; the all-pairs rows are
    written from their columns (:meth:`PairRows.json_text`), not as a dict per pair, and they and a large
    phi matrix by orjson (spacing and float spelling differ from ``json.dumps``; the values do not)."""
    import numpy as np

    from .analysis import PairRows, orjson_text

    if not isinstance(r.all_pairs, PairRows):
        return json.dumps(r.to_json())
    token = f"all_pairs:{uuid.uuid4().hex}"  # fresh placeholders: no input can contain them
    payload = r.to_json(pairs_placeholder=token)
    splices = {token: r.all_pairs.json_text()}
    phi = payload.get("phi")
    if phi is not None and len(phi["matrix"]) > 100:  # a k x k matrix of floats: a million at 1,000 models
        matrix_text = orjson_text(phi["matrix"]) if np.isfinite(np.asarray(phi["matrix"], dtype=float)).all() else None
        if matrix_text is not None:
            payload["phi"] = phi = {**phi, "matrix": f"phi:{uuid.uuid4().hex}"}  # a copy: the report's stays
            splices[phi["matrix"]] = matrix_text
    text = json.dumps(payload)
    for placeholder, value in splices.items():
        text = text.replace(json.dumps(placeholder), value, 1)
    return text
