"""The figures shared by the book and the report: they draw what they are given."""

import matplotlib

matplotlib.use("Agg")

import numpy as np

from exactstats.report.figures import (
    bar_figure,
    grid_figure,
    heatmap_figure,
    interval_figure,
    lines_figure,
    paired_unpaired_figure,
    stability_figure,
)


def test_interval_figure_draws_each_interval():
    fig = interval_figure(["a", "b"], [0.5, 0.3], {"Wilson": [(0.4, 0.6), (0.2, 0.4)]}, title="t")
    ax = fig.axes[0]
    xs = sorted(round(v, 6) for line in ax.get_lines() for v in line.get_xdata())
    for end in (0.2, 0.4, 0.6):
        assert end in xs
    assert [t.get_text() for t in ax.get_yticklabels()] != []


def test_heatmap_shows_values_and_blank_diagonal():
    m = np.array([[np.nan, 0.1], [0.1, np.nan]])
    fig = heatmap_figure(m, ["a", "b"], title="phi")
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert texts.count("0.10") == 2 and len(texts) == 2


def test_other_figures_build():
    assert stability_figure([10, 100], {"A": [0.5, 0.9]}).axes
    assert paired_unpaired_figure(["a vs b"], [0.02], [(0.0, 0.04)], [(-0.01, 0.05)]).axes
    assert lines_figure([1, 2], {"s": [0.1, 0.2]}, "x", "y").axes
    assert len(bar_figure([0, 1, 2], [3, 0, 5], "c", "problems").axes[0].patches) == 3
    assert grid_figure(np.array([[0, 1], [1, 0]]), ["r1", "r2"]).axes
    from exactstats import reliability_float
    from exactstats.report.figures import reliability_figure

    bins = reliability_float([[0.9, 0.1], [0.6, 0.4], [0.2, 0.8]], [0, 1, 1], bins=5)
    line = reliability_figure({"m": bins}).axes[0].lines[1]
    assert len(line.get_xdata()) == sum(b["count"] > 0 for b in bins)  # empty bins are not drawn


def test_report_figures_stay_bounded_at_leaderboard_scale():
    """At 300 models the heatmap stops growing (it grew an inch per model: 44 GB of pixels at 1,000),
    drops the per-cell labels, and the row-per-model figures show the top rows and say so."""
    import matplotlib.pyplot as plt
    import numpy as np

    from exactstats.report.figures import (
        MAX_CELL_LABELS,
        MAX_HEATMAP_INCHES,
        MAX_ROWS,
        heatmap_figure,
        interval_figure,
    )

    k = 300
    m = np.random.default_rng(0).uniform(-0.2, 0.8, (k, k))
    fig = heatmap_figure(m, [f"m{i}" for i in range(k)], title="phi")
    w, h = fig.get_size_inches()
    assert w <= 1.1 * MAX_HEATMAP_INCHES + 2.5 and h <= MAX_HEATMAP_INCHES + 1.5
    assert len(fig.axes[0].texts) == 0 and "300 models" in fig.axes[0].get_title()
    plt.close(fig)
    small = heatmap_figure(m[:MAX_CELL_LABELS, :MAX_CELL_LABELS], [f"m{i}" for i in range(MAX_CELL_LABELS)])
    assert len(small.axes[0].texts) == MAX_CELL_LABELS**2
    plt.close(small)
    fig = interval_figure([f"m{i}" for i in range(k)], [0.5] * k, {"Wilson": [(0.4, 0.6)] * k}, title="acc")
    assert len(fig.axes[0].get_yticks()) <= MAX_ROWS and f"first {MAX_ROWS} of {k}" in fig.axes[0].get_title()
    plt.close(fig)


def test_lines_over_counts_get_whole_number_ticks():
    """A budget k or a panel size is a count: no tick between two counts (1.5 samples do not exist)."""
    from exactstats.report.figures import lines_figure

    fig = lines_figure([1, 2, 3, 4, 5], {"a": [0.1, 0.2, 0.3, 0.4, 0.5]}, xlabel="k", ylabel="pass@k")
    fig.canvas.draw()
    ticks = [t for t in fig.axes[0].get_xticks() if 1 <= t <= 5]
    assert ticks and all(float(t).is_integer() for t in ticks)
    fig = lines_figure([0.5, 1.5, 2.5], {"a": [1, 2, 3]}, xlabel="p", ylabel="y")  # not counts: left alone
    fig.canvas.draw()
    assert any(not float(t).is_integer() for t in fig.axes[0].get_xticks())
