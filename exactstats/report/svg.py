"""The HTML reports' figures as inline SVG, drawn from the numbers without matplotlib.

A report page needs three kinds of chart: intervals per model, paired against unpaired gaps per
pair, and a k x k heatmap. Drawn as SVG they cost milliseconds where matplotlib's import and text
layout cost two seconds (more than the whole analysis at 50 models), stay sharp at any zoom, and
are searchable text. The heatmap's cells are one k x k PNG inside the SVG (scaled without
smoothing), so a thousand models make one image, not a million elements; the names and the
per-cell values are SVG text while they are readable (:data:`MAX_TICK_LABELS`, :data:`MAX_CELL_LABELS`).
"""

from __future__ import annotations

import base64
import html
import math
import struct
import zlib
from collections.abc import Sequence

import numpy as np

from .figures import MAX_CELL_LABELS, MAX_TICK_LABELS, PALETTE, _top_rows

__all__ = ["heatmap_svg", "interval_svg", "paired_unpaired_svg", "png_rgba"]

FONT = "font-family='system-ui,sans-serif' font-size='12'"
WIDTH = 720  # px: the page's text column
ROW = 20  # px per row of a row-per-model chart
MAX_HEATMAP_MODELS = 1000  # the heatmap shows the first this many (the JSON report holds the whole matrix)


def nice_ticks(lo: float, hi: float, count: int = 6) -> list[float]:
    """About ``count`` round tick values covering [lo, hi] (steps of 1, 2 or 5 times a power of ten).

    >>> nice_ticks(0.12, 0.87)
    [0.2, 0.4, 0.6, 0.8]
    """
    if not hi > lo:
        return [lo]
    raw = (hi - lo) / max(1, count - 1)
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.ceil(lo / step - 1e-9)
    return [round(k * step, 12) for k in range(first, math.floor(hi / step + 1e-9) + 1)]


def _text(x: float, y: float, text: str, anchor: str = "start", extra: str = "") -> str:
    return f"<text x='{x:.1f}' y='{y:.1f}' text-anchor='{anchor}' {extra}>{html.escape(text)}</text>"


def _rows_svg(
    labels: Sequence[str],
    segments: Sequence[tuple[str, str, float, Sequence[tuple[float, float]]]],
    points: Sequence[float],
    xlabel: str,
    title: str | None,
    zero_line: bool = False,
) -> str:
    """One row per label: a horizontal segment per ``(legend, colour, offset, intervals)``, a dot per point."""
    n = len(labels)
    left = min(320, 14 + 7 * max((len(s) for s in labels), default=1))
    top, bottom, right = (34 if title else 12) + (16 if len(segments) > 1 else 0), 44, 16
    height = top + ROW * n + bottom
    values = [v for _, _, _, ivs in segments for iv in ivs for v in iv] + list(points) + ([0.0] if zero_line else [])
    finite = [v for v in values if math.isfinite(v)] or [0.0, 1.0]
    lo, hi = min(finite), max(finite)
    pad = 0.05 * (hi - lo or 1.0)
    lo, hi = lo - pad, hi + pad

    def x(v: float) -> float:
        return left + (v - lo) / (hi - lo) * (WIDTH - left - right)

    def y(i: int) -> float:
        return top + ROW * (i + 0.5)

    out = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{WIDTH}' height='{height}' role='img' {FONT}>"]
    if title:
        out.append(_text(WIDTH / 2, 20, title, "middle", "font-size='13'"))
    for t in nice_ticks(lo, hi):  # grid and tick labels
        out.append(f"<line x1='{x(t):.1f}' x2='{x(t):.1f}' y1='{top}' y2='{top + ROW * n}' stroke='#ddd'/>")
        out.append(_text(x(t), top + ROW * n + 16, f"{t:g}", "middle"))
    out.append(_text((left + WIDTH - right) / 2, height - 8, xlabel, "middle"))
    if zero_line:
        out.append(f"<line x1='{x(0):.1f}' x2='{x(0):.1f}' y1='{top}' y2='{top + ROW * n}' stroke='black'/>")
    for i, label in enumerate(labels):
        out.append(_text(left - 6, y(i) + 4, label, "end"))
    for legend_at, (legend, colour, offset, intervals) in enumerate(segments):
        for i, (a, b) in enumerate(intervals):
            if math.isfinite(a) and math.isfinite(b):
                yy = y(i) + offset * ROW
                out.append(
                    f"<line x1='{x(a):.1f}' x2='{x(b):.1f}' y1='{yy:.1f}' y2='{yy:.1f}' stroke='{colour}' stroke-width='4'/>"
                )
        if len(segments) > 1:  # a legend line under the title
            lx = left + 150 * legend_at
            ly = top - 12
            out.append(f"<line x1='{lx}' x2='{lx + 18}' y1='{ly}' y2='{ly}' stroke='{colour}' stroke-width='4'/>")
            out.append(_text(lx + 24, ly + 4, legend))
    for i, p in enumerate(points):
        if math.isfinite(p):
            out.append(f"<circle cx='{x(p):.1f}' cy='{y(i):.1f}' r='3' fill='black'/>")
    out.append("</svg>")
    return "".join(out)


def interval_svg(
    names: Sequence[str],
    centres: Sequence[float],
    intervals: dict[str, Sequence[tuple[float, float]]],
    xlabel: str = "accuracy",
    title: str | None = None,
) -> str:
    """Horizontal intervals per name, one colour per method, the first MAX_ROWS rows (the title says so).

    >>> interval_svg(["a", "b"], [0.5, 0.3], {"Wilson": [(0.4, 0.6), (0.2, 0.4)]}).count("<circle")
    2
    """
    keys = list(intervals)
    names, cols, title = _top_rows(names, centres, *(intervals[k] for k in keys), title=title)
    colours = [PALETTE["main"], PALETTE["accent"], PALETTE["grey"]]
    width = 0.25
    segments = [(k, colours[i % 3], (i - (len(keys) - 1) / 2) * width, cols[1 + i]) for i, k in enumerate(keys)]
    return _rows_svg(names, segments, cols[0], xlabel, title)


def paired_unpaired_svg(
    labels: Sequence[str],
    diffs: Sequence[float],
    paired: Sequence[tuple[float, float]],
    unpaired: Sequence[tuple[float, float]],
    title: str | None = None,
) -> str:
    """Accuracy gaps of adjacent pairs (points) with the unpaired (grey) and paired (navy) 95% intervals.

    >>> paired_unpaired_svg(["a vs b"], [0.02], [(0.0, 0.04)], [(-0.01, 0.05)]).count("stroke-width='4'")
    4
    """
    labels, (diffs, paired, unpaired), title = _top_rows(labels, diffs, paired, unpaired, title=title)
    points = [100 * d for d in diffs]
    segments = [
        ("unpaired 95%", PALETTE["grey"], -0.15, [(100 * a, 100 * b) for a, b in unpaired]),
        ("paired 95%", PALETTE["main"], 0.15, [(100 * a, 100 * b) for a, b in paired]),
    ]
    return _rows_svg(labels, segments, points, "accuracy gap (points)", title, zero_line=True)


def _colours(matrix: np.ndarray, top: float) -> np.ndarray:
    """RGBA bytes per cell: white to navy for values in [0, top], navy-white-red around zero when any is
    negative; NaN cells transparent."""
    if np.nanmin(matrix) < 0:
        anchors = np.array([[33, 102, 172], [247, 247, 247], [178, 24, 43]], dtype=float)  # blue, white, red
        t = (np.clip(matrix / top, -1, 1) + 1) / 2
    else:
        anchors = np.array([[247, 251, 255], [107, 174, 214], [8, 48, 107]], dtype=float)  # white to navy
        t = np.clip(matrix / top, 0, 1)
    t = np.nan_to_num(t)
    low = np.minimum((t * 2).astype(int), 1)  # which half of the scale
    frac = (t * 2 - low)[..., None]
    rgb = anchors[low] * (1 - frac) + anchors[low + 1] * frac
    alpha = np.where(np.isnan(matrix), 0, 255)[..., None]
    return np.concatenate([rgb, alpha], axis=-1).round().astype(np.uint8)


def png_rgba(pixels: np.ndarray) -> bytes:
    """A PNG file of an (h, w, 4) uint8 RGBA array (no filter, zlib): enough for a heatmap's cells.

    >>> png_rgba(np.zeros((1, 1, 4), np.uint8))[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """
    h, w, _ = pixels.shape
    raw = np.concatenate([np.zeros((h, 1), np.uint8), pixels.reshape(h, 4 * w)], axis=1).tobytes()

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b"")


def heatmap_svg(
    matrix: np.ndarray, names: Sequence[str], title: str = "", fmt: str = "{:.2f}", limit: float | None = None
) -> str:
    """A k x k heatmap (NaN cells blank): a white-to-navy scale, or navy-white-red around zero when any value
    is negative, fixed by ``limit`` or the largest absolute value. Names up to MAX_TICK_LABELS models, values
    in the cells up to MAX_CELL_LABELS; past MAX_HEATMAP_MODELS the first ones, and the title says so.

    >>> svg = heatmap_svg(np.array([[np.nan, 0.5], [0.5, np.nan]]), ["a", "b"], title="phi")
    >>> svg.count("0.50"), "data:image/png;base64," in svg
    (2, True)
    """
    k = len(names)
    if k > MAX_HEATMAP_MODELS:
        matrix, names = matrix[:MAX_HEATMAP_MODELS, :MAX_HEATMAP_MODELS], list(names[:MAX_HEATMAP_MODELS])
        title = f"{title} (first {MAX_HEATMAP_MODELS} of {k} models; the JSON report holds all)"
        k = MAX_HEATMAP_MODELS
    elif k > MAX_TICK_LABELS:
        title = f"{title} ({k} models in leaderboard order; the JSON report holds the matrix)"
    top_value = limit if limit is not None else max(1e-9, float(np.nanmax(np.abs(matrix))))
    labelled = k <= MAX_TICK_LABELS
    margin = min(220, 14 + 7 * max((len(s) for s in names), default=1)) if labelled else 16
    side = min(WIDTH - margin - 90, 44 * k)  # the width there is, or 44 px a cell for a few models
    cell = side / k
    name_size = max(5.0, min(12.0, 0.8 * cell))  # text shrinks with the cells (the SVG zooms without blur)
    value_size = max(4.0, min(10.0, cell / 3.6))
    top = 34 + (margin if labelled else 0)
    height = top + side + 16
    png = base64.b64encode(png_rgba(_colours(matrix, top_value))).decode()
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{WIDTH}' height='{height:.0f}' role='img' {FONT}>"]
    out.append(_text(WIDTH / 2, 20, title, "middle", "font-size='13'"))
    out.append(
        f"<image x='{margin}' y='{top}' width='{side:.1f}' height='{side:.1f}' preserveAspectRatio='none' "
        f"style='image-rendering:pixelated' href='data:image/png;base64,{png}'/>"
    )
    if labelled:
        for i, name in enumerate(names):
            centre = (i + 0.5) * cell
            size = f"font-size='{name_size:.1f}'"
            out.append(_text(margin - 4, top + centre + name_size / 3, name, "end", size))
            turn = f"transform='rotate(-60 {margin + centre:.1f} {top - 4})'"
            out.append(_text(margin + centre, top - 4, name, "start", f"{turn} {size}"))
    if k <= MAX_CELL_LABELS:
        for i in range(k):
            for j in range(k):
                v = float(matrix[i, j])
                if not math.isnan(v):
                    colour = "white" if abs(v) > 0.6 * top_value else "black"
                    x, y = margin + (j + 0.5) * cell, top + (i + 0.5) * cell + value_size / 3
                    out.append(_text(x, y, fmt.format(v), "middle", f"fill='{colour}' font-size='{value_size:.1f}'"))
    # the colour scale: a bar of the same colours, its ends labelled
    bar_x, scale = margin + side + 24, np.linspace(top_value, -top_value if np.nanmin(matrix) < 0 else 0, 64)
    bar = base64.b64encode(png_rgba(_colours(scale[:, None], top_value))).decode()
    out.append(
        f"<image x='{bar_x}' y='{top}' width='14' height='{side:.1f}' preserveAspectRatio='none' "
        f"href='data:image/png;base64,{bar}'/>"
    )
    out.append(_text(bar_x + 18, top + 10, f"{scale[0]:.2g}"))
    out.append(_text(bar_x + 18, top + side, f"{scale[-1]:.2g}"))
    out.append("</svg>")
    return "".join(out)
