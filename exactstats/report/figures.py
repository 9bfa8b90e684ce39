"""Figures shared by the book and ``exactstats report``: one implementation for both.

Every function takes plain arrays and returns a matplotlib Figure; nothing here
computes a statistic that the exact modules do not already provide.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from matplotlib.figure import Figure

PALETTE = {"main": "#1f4e79", "accent": "#e07b00", "grey": "#8c8c8c", "wrong": "#e07b00", "right": "#d9e6f2"}


def _subplots(**kwargs: Any) -> tuple[Figure, Any]:
    """``pyplot.subplots``, typed: one figure and its axes."""
    fig, ax = _plt().subplots(**kwargs)
    return fig, ax


def _plt() -> Any:
    # no backend is forced: notebooks keep their inline backend (the book shows the figures),
    # and headless command-line use falls back to Agg by itself
    import matplotlib.pyplot as plt

    return plt


MAX_HEATMAP_INCHES = 14  # the heatmap's side stops growing here (about 30 models at an inch each, then shrinks)
MAX_CELL_LABELS = 30  # beyond this many models a number in every cell is unreadable
MAX_TICK_LABELS = 60
MAX_ROWS = 60  # row-per-model figures show the first MAX_ROWS rows (the leaderboard's top) and say so


def _top_rows(
    names: Sequence[str], *columns: Sequence[Any], title: str | None
) -> tuple[list[Any], list[Any], str | None]:
    """The first MAX_ROWS rows of a row-per-item figure, and a title that says how many were left out."""
    if len(names) <= MAX_ROWS:
        return list(names), [list(c) for c in columns], title
    note = f"first {MAX_ROWS} of {len(names)}; the tables and the JSON report hold all"
    return list(names[:MAX_ROWS]), [list(c)[:MAX_ROWS] for c in columns], f"{title} ({note})" if title else note


def interval_figure(
    names: Sequence[str],
    centres: Sequence[float],
    intervals: dict[str, Sequence[tuple[float, float]]],
    xlabel: str = "accuracy",
    title: str | None = None,
) -> Figure:
    """Horizontal intervals per name, one row each, one colour per method (e.g. Wilson vs CLT); at most
    MAX_ROWS rows (the first ones)."""
    keys = list(intervals)
    names, cols, title = _top_rows(names, centres, *(intervals[k] for k in keys), title=title)
    centres, intervals = cols[0], dict(zip(keys, cols[1:]))
    fig, ax = _subplots(figsize=(7, 0.45 * len(names) + 1.2))
    y = np.arange(len(names))[::-1]
    colours = [PALETTE["main"], PALETTE["accent"], PALETTE["grey"]]
    width = 0.25
    for i, (label, ivs) in enumerate(intervals.items()):
        offs = (i - (len(intervals) - 1) / 2) * width
        for yy, (lo, hi) in zip(y, ivs):
            ax.plot(
                [lo, hi],
                [yy + offs] * 2,
                color=colours[i % 3],
                lw=3,
                solid_capstyle="butt",
                label=label if yy == y[0] else None,
            )
    ax.plot(centres, y, "o", color="black", ms=4, zorder=3)
    ax.set_yticks(y, names)
    ax.set_xlabel(xlabel)
    if title:
        ax.set_title(title)
    ax.legend(loc="lower right", frameon=False)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return fig


def stability_figure(
    ns: Sequence[int], curves: dict[str, Sequence[float]], markers: dict[str, int] | None = None
) -> Figure:
    """Share of redraws that keep an ordering, against the number of questions drawn (log x)."""
    fig, ax = _subplots(figsize=(7, 4))
    colours = [PALETTE["accent"], PALETTE["main"], PALETTE["grey"]]
    for i, (label, ys) in enumerate(curves.items()):
        ax.plot(ns, ys, "o-", color=colours[i % 3], label=label)
    ax.set_xscale("log")
    if markers:
        for x in markers.values():
            ax.axvline(x, ls="--", color=PALETTE["grey"], lw=1)
        # names on a top axis of their own, clear of the curves and of the frame
        top = ax.secondary_xaxis("top")
        top.set_xticks(list(markers.values()), list(markers), fontsize=8, color=PALETTE["grey"])
        top.xaxis.set_minor_locator(_plt().NullLocator())
        top.tick_params(length=0)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("questions drawn (with replacement)")
    ax.set_ylabel("share of redraws")
    ax.legend(frameon=False, loc="lower right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def paired_unpaired_figure(
    labels: Sequence[str],
    diffs: Sequence[float],
    paired: Sequence[tuple[float, float]],
    unpaired: Sequence[tuple[float, float]],
    title: str | None = None,
) -> Figure:
    """Accuracy gap of adjacent pairs with the unpaired (grey) and paired (navy) 95% intervals, in points;
    at most MAX_ROWS pairs (the first ones)."""
    labels, (diffs, paired, unpaired), title = _top_rows(labels, diffs, paired, unpaired, title=title)
    fig, ax = _subplots(figsize=(7, 0.55 * len(labels) + 1.2))
    y = np.arange(len(labels))[::-1]
    for yy, (lo, hi) in zip(y, unpaired):
        ax.plot([100 * lo, 100 * hi], [yy + 0.12] * 2, color=PALETTE["grey"], lw=4, solid_capstyle="butt")
    for yy, (lo, hi) in zip(y, paired):
        ax.plot([100 * lo, 100 * hi], [yy - 0.12] * 2, color=PALETTE["main"], lw=4, solid_capstyle="butt")
    ax.plot(100 * np.asarray(diffs), y, "o", color="black", ms=4)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(y, labels)
    ax.set_xlabel("accuracy gap (points): grey unpaired, navy paired 95% interval")
    if title:
        ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return fig


def heatmap_figure(
    matrix: np.ndarray,
    names: Sequence[str],
    title: str = "",
    fmt: str = "{:.2f}",
    cmap: str = "Blues",
    limit: float | None = None,
) -> Figure:
    """Annotated k x k heatmap; NaN cells (e.g. the diagonal) stay blank. Negative values switch to a
    diverging map centred on zero, so a negative correlation does not look like a zero one. ``limit`` fixes
    the colour scale (so that small values look small); by default it is the largest absolute value."""
    k = len(names)
    side = min(k, MAX_HEATMAP_INCHES)  # an inch per model, up to a cap: the pixels stay bounded at any k
    fig, ax = _subplots(figsize=(1.1 * side + 2.5, 1.0 * side + 1.5))
    top = limit if limit is not None else max(1e-9, float(np.nanmax(np.abs(matrix))))
    if np.nanmin(matrix) < 0:
        im = ax.imshow(matrix, cmap="RdBu_r", vmin=-top, vmax=top)
    else:
        im = ax.imshow(matrix, cmap=cmap, vmin=0, vmax=top)
    for i in range(k if k <= MAX_CELL_LABELS else 0):  # a label per cell only while it is readable
        for j in range(k):
            v = matrix[i, j]
            if np.isnan(v):
                continue
            ax.text(
                j,
                i,
                fmt.format(v),
                ha="center",
                va="center",
                fontsize=8,
                color="white" if abs(v) > 0.6 * top else "black",
            )
    if k <= MAX_TICK_LABELS:
        ax.set_xticks(range(k), names, rotation=35, ha="right")
        ax.set_yticks(range(k), names)
    else:  # names would overlap: the axes count models in the order given
        title = f"{title} ({k} models in leaderboard order; the JSON report holds the matrix)"
    ax.set_title(title)
    fig.colorbar(im, ax=ax, shrink=0.8)
    fig.tight_layout()
    return fig


def lines_figure(
    x: Sequence[Any],
    series: dict[str, Sequence[float]],
    xlabel: str,
    ylabel: str,
    dashed: dict[str, float] | None = None,
    logx: bool = False,
    ylim: tuple[float, float] | None = None,
) -> Figure:
    """Several labelled lines over a shared x, with optional horizontal dashed reference levels."""
    fig, ax = _subplots(figsize=(7, 4))
    colours = [PALETTE["main"], PALETTE["accent"], PALETTE["grey"], "#6a3d9a", "#33a02c"]
    for i, (label, ys) in enumerate(series.items()):
        ax.plot(x, ys, "o-", ms=3, color=colours[i % len(colours)], label=label)
    for i, (label, level) in enumerate((dashed or {}).items()):
        ax.axhline(level, ls="--", lw=1, color=colours[i % len(colours)], alpha=0.7)
        ax.text(x[-1], level, f" {label}", va="bottom", ha="right", fontsize=8, color=colours[i % len(colours)])
    if logx:
        ax.set_xscale("log")
    elif all(isinstance(v, int | np.integer) for v in x):  # counts (a budget k, a panel size): whole-number ticks
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if ylim:
        ax.set_ylim(*ylim)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend(frameon=False)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def grid_figure(rows: np.ndarray, row_labels: Sequence[str], title: str = "") -> Figure:
    """0/1 grid (rows x columns), 1 drawn in the 'wrong' colour: error patterns of a panel."""
    from matplotlib.colors import ListedColormap

    fig, ax = _subplots(figsize=(8, 0.35 * len(row_labels) + 0.9))
    ax.imshow(rows, cmap=ListedColormap([PALETTE["right"], PALETTE["wrong"]]), aspect="auto", vmin=0, vmax=1)
    ax.set_yticks(range(len(row_labels)), row_labels)
    ax.set_xticks([])
    ax.set_title(title)
    fig.tight_layout()
    return fig


def bar_figure(
    x: Sequence[Any], heights: Sequence[float], xlabel: str, ylabel: str, title: str | None = None
) -> Figure:
    """Bars of ``heights`` over the categories ``x`` (e.g. problems per count of passing samples)."""
    fig, ax = _subplots(figsize=(7, 3.2))
    ax.bar([str(v) for v in x], heights, color=PALETTE["main"])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    return fig


def reliability_figure(curves: dict[str, list[dict[str, Any]]]) -> Figure:
    """Reliability diagram: per model, accuracy against mean confidence in each non-empty bin
    (the points of :func:`exactstats.reliability_float`), with the diagonal of perfect calibration."""
    fig, ax = _subplots(figsize=(5.5, 4.5))
    colours = [PALETTE["main"], PALETTE["accent"], PALETTE["grey"], "#6a3d9a", "#33a02c"]
    ax.plot([0, 1], [0, 1], ls="--", lw=1, color="black", alpha=0.5, label="perfectly calibrated")
    for i, (label, bins) in enumerate(curves.items()):
        points = [(b["confidence"], b["accuracy"]) for b in bins if b["count"]]
        ax.plot(*zip(*points), "o-", ms=3, color=colours[i % len(colours)], label=label)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("mean confidence in the bin")
    ax.set_ylabel("accuracy in the bin")
    ax.legend(frameon=False, fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig
