"""The book's answers at the book's numbers, computed independently of exactstats.variants (the tests hold the
generators to them).

``python -m tests.exercise_answers`` rewrites the registry; a test checks it is in sync with these
answers and with the book's exercise numbering.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import exactstats as es

ROOT = Path(__file__).resolve().parents[1]


def chapters() -> list[str]:
    """Chapter files in the order of the book's numbered toctree."""
    text = (ROOT / "book" / "index.md").read_text()
    block = text.split(":numbered:", 1)[1].split("```", 1)[0]
    return [line.strip() for line in block.splitlines() if line.strip() and not line.strip().startswith(":")]


def book_ids() -> dict[str, str]:
    """Exercise label -> its number in the book ("5.1")."""
    ids = {}
    for n, name in enumerate(chapters(), 1):
        labels = re.findall(r"```\{exercise\}\n:label: (\S+)", (ROOT / "book" / f"{name}.md").read_text())
        for i, label in enumerate(labels, 1):
            ids[label] = f"{n}.{i}"
    return ids


def answers() -> dict[str, tuple]:
    """label -> (answer, kind[, places]); prose exercises have None."""
    panel = es.load_panel("shuffled")
    C, models = panel.correct(), panel.models
    i, j = models.index("qwen2.5-coder-1.5b-instruct"), models.index("gemma3-270m")
    bias = es.expected_pass_at_k(10, 3, "1/4", estimator="plugin") - (
        1 - (1 - Fraction(1, 4)) ** 3
    )  # as the solution prints
    need = next(k for k in range(1, 10_000) if es.effective_votes(k, "0.25") >= 3)
    over = next(k for k in range(2, 10_000) if es.effective_votes(k, "0.3") > Fraction(29, 10))
    return {
        "ex-intro-1": (es.majority_probability("0.6", 5), "exact"),
        "ex-diff-1": (es.mcnemar_p_value(120, 120), "exact"),
        "ex-diff-2": ([es.questions_needed("0.25", "0.01").n, es.questions_needed("0.25", "0.02").n], "list"),
        "ex-diff-4": (es.redraw_win_probability(30, 20, 500, 100), "exact"),
        "ex-passk-1": ([es.pass_at_k(10, 3, 3), es.pass_at_k_plugin(10, 3, 3)], "list"),
        "ex-passk-4": (bias, "exact"),
        "ex-panel-1": ([es.effective_votes(9, "0.25"), need], "list"),
        "ex-panel-2": (es.plurality_probability(["0.6", "0.55", "0.5"]), "exact"),
        "ex-arena-1": (Fraction(1 / (1 + 10 ** ((1000 - 1200) / 400))), "decimal", 4),
        "ex-arena-3": (list(es.discordance(C[i], C[j])), "list"),
        "ex-claims-3": (over, "exact"),
        "ex-intro-4": (
            next(k for k in range(1, 200, 2) if es.majority_probability("0.6", k) >= Fraction(4, 5)),
            "exact",
        ),
        "ex-diff-5": (separated_all_by(), "exact"),
        "ex-diff-6": (es.interval_coverage("wald", 20, "1/10"), "decimal", 4),
        "ex-diff-7": (es.paired_equivalence_p_value(7, 5, 400, "0.03"), "decimal", 4),
        "ex-passk-5": (es.pass_at_k_variance(5, 2, "2/5"), "exact"),
        "ex-passk-6": (
            es.paired_pass_at_k_difference([(10, 7), (10, 2), (10, 0)], [(20, 10), (20, 1), (20, 0)], 1).variance,
            "exact",
        ),
        "ex-panel-4": (es.phi_for_effective_votes(10, 4), "exact"),
        "ex-data-4": (int((C.sum(axis=0) == 1).sum()), "exact"),
        "ex-claims-4": (prints_as("71.2", 1500), "list"),
        "ex-claims-5": (es.effective_votes(6, "0.2"), "exact"),
        "ex-seq-1": (es.mixture_e_value(9, 1), "exact"),
        "ex-seq-2": (es.false_alarm_probability(10, "repeated-mcnemar"), "exact"),
        "ex-seq-3": ("b", "choice"),
        # the short checks that close the explanation exercises
        "ex-intro-2": (Fraction(0.7) - Fraction(7, 10), "exact"),
        "ex-intro-3": ("b", "choice"),
        "ex-intro-5": (Fraction(0.1) * 3 - Fraction(3, 10), "exact"),
        "ex-diff-3": ("a", "choice"),
        "ex-passk-2": (next(k for k in range(1, 11) if es.pass_at_k(10, 3, k) == 1), "exact"),
        "ex-passk-3": ("c", "choice"),
        "ex-panel-3": (subject_shuffle_direction(), "choice"),
        "ex-panel-5": (es.majority_probability("0.7", 3), "exact"),
        "ex-arena-2": (1 - Fraction(3, 4), "exact"),  # S_a - E_a with E_a = 3/(3 + 1)
        "ex-arena-4": ("a", "choice"),
        "ex-arena-5": ("c>a", "choice"),
        "ex-data-1": ("a", "choice"),
        "ex-data-2": (Fraction(1, 24), "exact"),
        "ex-data-3": (ok_only_accuracies(), "list"),
        "ex-data-5": ("chosen", "choice"),
        "ex-claims-1": (claims_one_decimal(), "list"),
        "ex-claims-2": ("b", "choice"),
        "ex-judges-1": (
            es.cohen_kappa(["pass"] * 6 + ["fail"] * 2 + ["pass"] * 2, ["pass"] * 6 + ["fail"] * 2 + ["fail"] * 2),
            "exact",
        ),
        "ex-judges-2": (
            es.ppi_mean([1] * 30 + [0] * 20, [1] * 26 + [0] * 4 + [1] * 6 + [0] * 14, [1] * 600 + [0] * 400),
            "exact",
        ),
    }


def subject_shuffle_direction() -> str:
    """(a) rises, (b) falls, (c) same: the effective votes of the panel with only subject difficulty shared."""
    from book._code.panel import subject_shuffle

    panel = es.load_panel("shuffled")
    C, subjects = panel.correct(), panel.questions["subject"].to_numpy()
    whole, shuffled = (
        es.effective_votes_float(1 - C),
        es.effective_votes_float(1 - subject_shuffle(C, subjects, seed=1)),
    )
    return "a" if shuffled > whole else "b" if shuffled < whole else "c"


def ok_only_accuracies() -> list[Fraction]:
    panel = es.load_panel("shuffled")
    C = panel.correct()
    ok = (panel.questions["error_type"] == "ok").to_numpy()
    return [Fraction(int(row[ok].sum()), int(ok.sum())) for row in C]


def claims_one_decimal() -> list[Fraction]:
    r = es.paired_difference_interval(219, 182, 2000, ddof=0)
    return [
        Fraction(round(100 * r.lower, 1)).limit_denominator(10),
        Fraction(round(100 * r.upper, 1)).limit_denominator(10),
    ]


def separated_all_by() -> int:
    C = es.load_panel("shuffled").correct()
    ps = [es.mcnemar_p_value(*es.discordance(C[i], C[j])) for i in range(len(C)) for j in range(i + 1, len(C))]
    return sum(p <= Fraction(1, 20) for p in es.bh_adjust(ps, dependence="any"))


def prints_as(percent: str, n: int) -> list[int]:
    """Every count k of n whose percentage prints as ``percent`` (the checking chapter's rounding interval)."""
    lo, hi = es.rounding_interval(percent)
    return [k for k in range(n + 1) if lo <= Fraction(100 * k, n) <= hi]


def render() -> str:
    """The book's exercise numbering, as the package reads it (exactstats/_exercise_ids.py)."""
    ids = sorted(((n, label) for label, n in book_ids().items()), key=lambda t: tuple(int(x) for x in t[0].split(".")))
    lines = ['"""Generated by `python -m tests.exercise_answers`: the book\'s exercise numbers; do not edit."""', ""]
    lines.append("IDS = {")
    lines += [f"    {n!r}: {label!r}," for n, label in ids]
    lines.append("}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    (ROOT / "exactstats" / "_exercise_ids.py").write_text(render())
    print(f"wrote {len(book_ids())} exercise ids")
