"""The book's checkable exercises as generators: each draws its numbers from a student id and computes its
answer from them, exactly, when a student checks or a teacher grades.

A student id seeds the draw (SHA-256 of the exercise's label and the id), so a student always gets the same
numbers and two students almost always different ones; without an id the numbers are the book's. No table of
answers ships: an answer exists only as the function that computes it from the numbers. A choice exercise
draws the order of its options, so the right letter differs between students. Exercises whose answer is read
from the shipped dataset (``data=True``) need it where they are checked.

>>> statement("1.1", "ada")[:60] != statement("1.1", "bo")[:60]
True
>>> numbers("1.1")                      # the book's numbers
{'p': '0.6', 'k': 5}
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ._validate import ExactStatsError

__all__ = ["Exercise", "EXERCISES", "LABELS", "variant", "numbers", "statement", "expected", "exercise_ids"]

Numbers = dict[str, Any]


@dataclass(frozen=True)
class Exercise:
    """One checkable exercise: the kind of its answer, the book's numbers, a draw of other numbers, the
    statement and the exact answer as functions of the numbers. ``draw`` is None where every student gets
    the book's numbers (the answer comes from the shipped data or is an explanation's short check)."""

    kind: str  # exact, list, decimal, choice
    book: Numbers
    question: Callable[[Numbers], str]
    answer: Callable[[Numbers], Any]
    draw: Callable[[random.Random], Numbers] | None = None
    places: int = 0  # decimal answers: how many places
    data: bool = False  # the answer is read from the shipped dataset
    options: tuple[str, ...] = field(default=())  # choice: the statements, the right one first


def _choice(text: str, options: tuple[str, ...], right: int) -> Exercise:
    """A choice among statements, in the book's order with the right one at ``right``: each student gets the
    statements in their own order, so the right letter differs between students."""

    def question(v: Numbers) -> str:
        shown = "; ".join(f"({chr(97 + i)}) {options[j]}" for i, j in enumerate(v["order"]))
        return f"{text} {shown}. Give the letter."

    def draw(rng: random.Random) -> Numbers:
        order = list(range(len(options)))
        while order == list(range(len(options))):  # never the book's order
            rng.shuffle(order)
        return {"order": order}

    def answer(v: Numbers) -> str:
        return chr(97 + v["order"].index(right))

    # two statements have one other order only: the same for every student, so none is drawn (a guess is
    # right half the time anyway; the explanation is what counts)
    return Exercise("choice", {"order": list(range(len(options)))}, question, answer,
                    draw if len(options) > 2 else None, options=options)  # fmt: skip


def _pick(rng: random.Random, **choices: Any) -> Numbers:
    return {name: rng.choice(list(values)) for name, values in choices.items()}


DECIMALS = ("0.1", "0.2", "0.3", "0.4", "0.6", "0.7", "0.8", "0.9", "0.15", "0.35", "0.45", "0.55", "0.65", "0.85")
RATES = ("0.55", "0.6", "0.65", "0.7", "0.75", "0.8")


def _es() -> Any:
    import exactstats

    return exactstats


def _smallest_odd_majority(v: Numbers) -> int:
    es, target = _es(), Fraction(v["target"])
    return next(k for k in range(1, 400, 2) if es.majority_probability(v["p"], k) >= target)


def _judges(v: Numbers) -> tuple[list[str], list[str]]:
    pp, ff, pf, fp = v["both_pass"], v["both_fail"], v["pass_fail"], v["fail_pass"]
    return (["pass"] * pp + ["fail"] * ff + ["pass"] * pf + ["fail"] * fp,
            ["pass"] * pp + ["fail"] * ff + ["fail"] * pf + ["pass"] * fp)  # fmt: skip


def _ppi(v: Numbers) -> Fraction:
    m, h, f1, f2 = v["labelled"], v["people_pass"], v["judge_fails"], v["judge_passes"]
    human = [1] * h + [0] * (m - h)
    judge = [1] * (h - f1) + [0] * f1 + [1] * f2 + [0] * (m - h - f2)
    return Fraction(_es().ppi_mean(human, judge, [1] * v["judge_pass"] + [0] * (v["unlabelled"] - v["judge_pass"])))


def _panel() -> Any:
    return _es().load_panel("shuffled")


def _discordance(v: Numbers) -> list[int]:
    panel = _panel()
    C, models = panel.correct(), panel.models
    return list(_es().discordance(C[models.index(v["a"])], C[models.index(v["b"])]))


PANEL_3 = 0  # the direction the book's data show (checked against the data in tests/exercise_answers.py)
MODELS = ("qwen2.5-coder-1.5b-instruct", "gemma3-270m", "qwen2.5-coder-0.5b-instruct", "smollm2-135m-instruct")


def _exactly_right(v: Numbers) -> int:
    return int((_panel().correct().sum(axis=0) == v["j"]).sum())


def _separated_all_by(v: Numbers) -> int:
    es, C = _es(), _panel().correct()
    ps = [es.mcnemar_p_value(*es.discordance(C[i], C[j])) for i in range(len(C)) for j in range(i + 1, len(C))]
    return sum(p <= Fraction(1, 20) for p in es.bh_adjust(ps, dependence="any"))


def _ok_only(v: Numbers) -> list[Fraction]:
    panel = _panel()
    ok = (panel.questions["error_type"] == "ok").to_numpy()
    return [Fraction(int(row[ok].sum()), int(ok.sum())) for row in panel.correct()]


def _claims_one_decimal(v: Numbers) -> list[Fraction]:
    r = _es().paired_difference_interval(219, 182, 2000, ddof=0)
    return [
        Fraction(round(100 * r.lower, 1)).limit_denominator(10),
        Fraction(round(100 * r.upper, 1)).limit_denominator(10),
    ]


def _votes_over(v: Numbers) -> int:
    es = _es()
    return next(k for k in range(1, 100_000) if es.effective_votes(k, v["phi"]) > Fraction(v["votes"]))


def _draw_votes_over(rng: random.Random) -> Numbers:
    phi = rng.choice(["0.2", "0.25", "0.3", "0.35"])
    ceiling = 1 / Fraction(phi)
    votes = rng.choice(
        [
            x
            for x in ("2.2", "2.4", "2.5", "2.6", "2.7", "2.8", "2.9", "3.5", "4.5")
            if Fraction(x) < ceiling - Fraction(1, 10)
        ]
    )
    return {"phi": phi, "votes": votes}


def _effective_need(v: Numbers) -> list[Any]:
    es = _es()
    need = next(k for k in range(1, 100_000) if es.effective_votes(k, v["phi"]) >= v["target"])
    return [es.effective_votes(v["k"], v["phi"]), need]


def _pass_at_k_gap(v: Numbers) -> Fraction:
    es, p, k = _es(), Fraction(v["p"]), int(v["k"])
    return Fraction(es.expected_pass_at_k(v["n"], k, p, estimator="plugin")) - (1 - (1 - p) ** k)


def _pass_draw(rng: random.Random) -> Numbers:
    n = rng.randrange(8, 16)
    return {"n": n, "c": rng.randrange(1, n - 3), "k": rng.randrange(2, 5)}


def _passk_table(v: Numbers) -> Fraction:
    a = [(10, x) for x in v["a"]]
    b = [(20, x) for x in v["b"]]
    return Fraction(_es().paired_pass_at_k_difference(a, b, 1).variance)


def _elo(v: Numbers) -> float:
    """Irrational: a float, checked to four decimals."""
    return 1 / (1 + 10 ** (float(v["rb"] - v["ra"]) / 400))


def _exact_text(x: str) -> str:
    f = Fraction(x)
    return f"Fraction({f.numerator}, {f.denominator})"


EXERCISES: dict[str, Exercise] = {
    "ex-intro-1": Exercise(
        "exact",
        {"p": "0.6", "k": 5},
        lambda v: (
            f"Compute, as a fraction, the probability that a majority of {v['k']} independent voters who are "
            f"each right with probability {v['p']} is right."
        ),
        lambda v: _es().majority_probability(v["p"], v["k"]),
        lambda rng: _pick(rng, p=RATES, k=(3, 5, 7, 9, 11, 13)),
    ),
    "ex-intro-2": Exercise(
        "exact",
        {"x": "0.7"},
        lambda v: f"Give Fraction({v['x']}) - {_exact_text(v['x'])} as an exact fraction: why is it not 0?",
        lambda v: Fraction(float(v["x"])) - Fraction(v["x"]),
        lambda rng: _pick(rng, x=DECIMALS),
    ),
    "ex-intro-3": _choice(
        "Ask exactstats for a Condorcet probability with an even number of voters and no tie rule. The call",
        (
            "returns the probability with a tie counted as half a win",
            "raises an error that asks for a tie rule",
            "returns the value for three voters",
        ),  # fmt: skip
        1,
    ),
    "ex-intro-4": Exercise(
        "exact",
        {"p": "0.6", "target": "4/5"},
        lambda v: (
            f"Find the smallest odd number of independent voters, each right with probability {v['p']}, whose "
            f"majority is right with probability at least {v['target']}."
        ),
        _smallest_odd_majority,
        lambda rng: _pick(rng, p=("0.6", "0.65", "0.7", "0.75"), target=("4/5", "17/20", "9/10", "19/20")),
    ),
    "ex-intro-5": Exercise(
        "exact",
        {"x": "0.1", "m": 3},
        lambda v: (
            f"A colleague finds Fraction({v['x']}) * {v['m']} != {v['m']} * {_exact_text(v['x'])}. Give "
            f"Fraction({v['x']}) * {v['m']} - {v['m']} * {_exact_text(v['x'])} as an exact fraction."
        ),
        lambda v: Fraction(float(v["x"])) * v["m"] - v["m"] * Fraction(v["x"]),
        lambda rng: _pick(rng, x=DECIMALS, m=range(3, 10)),
    ),
    "ex-diff-1": Exercise(
        "exact",
        {"b": 120, "c": 120},
        lambda v: (
            f"Two models answered the same 1,000 questions; {v['b']} were answered right only by the first "
            f"and {v['c']} only by the second. Give the exact McNemar p-value as a fraction."
        ),
        lambda v: _es().mcnemar_p_value(v["b"], v["c"]),
        lambda rng: _pick(rng, b=range(100, 141), c=range(100, 141)),
    ),
    "ex-diff-2": Exercise(
        "list",
        {"q": "0.25", "d": "0.01"},
        lambda v: (
            f"How many questions detect a gap of {v['d']} between two models that disagree on a share "
            f"{v['q']} of the questions (5% level, 80% power), and a gap twice as large? Give both counts."
        ),
        lambda v: [_es().questions_needed(v["q"], d).n for d in (Fraction(v["d"]), 2 * Fraction(v["d"]))],
        lambda rng: _pick(rng, q=("0.15", "0.2", "0.25", "0.3", "0.35"), d=("0.01", "0.015", "0.02", "0.025")),
    ),
    "ex-diff-3": _choice(
        "Pairing narrows the interval when the two models' per-question scores are",
        ("positively correlated", "uncorrelated", "negatively correlated"),
        0,
    ),
    "ex-diff-4": Exercise(
        "exact",
        {"b": 30, "c": 20, "n": 500, "m": 100},
        lambda v: (
            f"Two models differ on b = {v['b']} and c = {v['c']} of {v['n']} questions. Find the exact chance "
            f"that the better one stays ahead when {v['m']} questions are redrawn (es.redraw_win_probability)."
        ),
        lambda v: _es().redraw_win_probability(v["b"], v["c"], v["n"], v["m"]),
        lambda rng: _pick(rng, b=range(25, 41), c=range(12, 24), n=(400, 500, 600), m=(50, 80, 100, 120)),
    ),
    "ex-diff-5": Exercise(
        "exact",
        {},
        lambda v: (
            "On the shipped panel, compare every pair of the four models with the exact McNemar test and "
            "adjust with es.bh_adjust(..., dependence='any'). How many pairs are separated at the 5% level?"
        ),
        _separated_all_by,
        data=True,
    ),
    "ex-diff-6": Exercise(
        "decimal",
        {"n": 20, "p": "1/10"},
        lambda v: (
            f"A benchmark has {v['n']} questions and a model's true accuracy is {v['p']}. With what exact "
            f"chance does the Wald 95% interval contain {v['p']}? Give four decimals."
        ),
        lambda v: _es().interval_coverage("wald", v["n"], v["p"]),
        lambda rng: _pick(rng, n=(12, 15, 18, 20, 25, 30, 40), p=("1/10", "1/20", "1/5", "3/20", "1/4")),
        places=4,
    ),
    "ex-diff-7": Exercise(
        "decimal",
        {"b": 7, "c": 5, "n": 400, "margin": "0.03"},
        lambda v: (
            f"Two models answered the same {v['n']} questions; {v['b']} were right only for the first and "
            f"{v['c']} only for the second. Give the equivalence p-value for a margin of {v['margin']}, to four decimals."
        ),
        lambda v: _es().paired_equivalence_p_value(v["b"], v["c"], v["n"], v["margin"]),
        lambda rng: _pick(rng, b=range(3, 11), c=range(3, 11), n=(300, 400, 500), margin=("0.02", "0.03", "0.04")),
        places=4,
    ),
    "ex-passk-1": Exercise(
        "list",
        {"n": 10, "c": 3, "k": 3},
        lambda v: (
            f"A task has {v['n']} samples, {v['c']} of which pass. Give pass@{v['k']} with the unbiased "
            "estimator and with the plug-in formula, as fractions, in that order."
        ),
        lambda v: [_es().pass_at_k(v["n"], v["c"], v["k"]), _es().pass_at_k_plugin(v["n"], v["c"], v["k"])],
        _pass_draw,
    ),
    "ex-passk-2": Exercise(
        "exact",
        {"n": 10, "c": 3},
        lambda v: (
            f"With n = {v['n']} samples and c = {v['c']} passes, give the smallest k for which the unbiased "
            "pass@k is exactly one."
        ),
        lambda v: next(k for k in range(1, v["n"] + 1) if _es().pass_at_k(v["n"], v["c"], k) == 1),
        lambda rng: (lambda n: {"n": n, "c": rng.randrange(1, n)})(rng.randrange(8, 21)),
    ),
    "ex-passk-3": _choice(
        "es.pass_at_k(5, 0, 6)",
        ("returns 1", "returns 0", "raises an error naming the allowed range of k"),
        2,
    ),
    "ex-passk-4": Exercise(
        "exact",
        {"n": 10, "k": 3, "p": "1/4"},
        lambda v: (
            f"Give the exact bias of the plug-in pass@{v['k']} with n = {v['n']} samples when the true rate "
            f"is p = {v['p']} (its expectation minus 1 - (1 - p)^{v['k']})."
        ),
        _pass_at_k_gap,
        lambda rng: _pick(rng, n=(8, 10, 12, 15), k=(2, 3, 4), p=("1/4", "1/5", "1/3", "2/5", "1/2")),
    ),
    "ex-passk-5": Exercise(
        "exact",
        {"n": 5, "k": 2, "p": "2/5"},
        lambda v: (
            f"With n = {v['n']} samples and a true pass rate of {v['p']}, give the exact variance of the "
            f"unbiased pass@{v['k']} estimate."
        ),
        lambda v: _es().pass_at_k_variance(v["n"], v["k"], v["p"]),
        lambda rng: _pick(rng, n=(4, 5, 6, 8), k=(2, 3), p=("1/5", "2/5", "1/2", "3/5", "1/3")),
    ),
    "ex-passk-6": Exercise(
        "exact",
        {"a": [7, 2, 0], "b": [10, 1, 0]},
        lambda v: (
            f"Model A drew 10 samples on each of three problems and passed {v['a']}; model B drew 20 and passed "
            f"{v['b']}. Give the variance of the mean pass@1 difference over problems (sample variance / 3)."
        ),
        _passk_table,
        lambda rng: {"a": [rng.randrange(0, 11) for _ in range(3)], "b": [rng.randrange(0, 21) for _ in range(3)]},
    ),
    "ex-panel-1": Exercise(
        "list",
        {"k": 9, "phi": "0.25", "target": 3},
        lambda v: (
            f"A panel of {v['k']} judges has mean error correlation {v['phi']}. How many independent votes is "
            f"it worth, and how many judges would reach {v['target']} effective votes? Give both, in that order."
        ),
        _effective_need,
        lambda rng: _pick(rng, k=range(6, 13), phi=("0.15", "0.2", "0.25"), target=(2, 3)),
    ),
    "ex-panel-2": Exercise(
        "exact",
        {"p": ["0.6", "0.55", "0.5"]},
        lambda v: (
            f"Give the exact plurality-vote accuracy of three independent voters with accuracies "
            f"{', '.join(v['p'])} on a four-option test."
        ),
        lambda v: _es().plurality_probability(v["p"]),
        lambda rng: {"p": [f"{rng.randrange(40, 76) / 100:.2f}" for _ in range(3)]},
    ),
    "ex-panel-3": _choice(
        "On the shipped panel, with only subject difficulty shared (subject_shuffle), the effective number of votes",
        ("rises", "falls", "stays the same"),
        PANEL_3,
    ),
    "ex-panel-4": Exercise(
        "exact",
        {"k": 10, "votes": 4},
        lambda v: f"At which mean error correlation are {v['k']} models worth exactly {v['votes']} independent votes?",
        lambda v: _es().phi_for_effective_votes(v["k"], v["votes"]),
        lambda rng: (lambda k: {"k": k, "votes": rng.randrange(2, k)})(rng.randrange(6, 16)),
    ),
    "ex-panel-5": Exercise(
        "exact",
        {"p": "0.7"},
        lambda v: f"How often is a majority of three independent voters, each right with probability {v['p']}, right?",
        lambda v: _es().majority_probability(v["p"], 3),
        lambda rng: _pick(rng, p=RATES),
    ),
    "ex-arena-1": Exercise(
        "decimal",
        {"ra": 1200, "rb": 1000},
        lambda v: (
            f"Model A is rated {v['ra']} and model B {v['rb']} on the Elo scale. Give the probability that A "
            "wins a battle, to four decimals."
        ),
        _elo,
        lambda rng: _pick(rng, ra=range(1100, 1310, 10), rb=range(900, 1110, 10)),
        places=4,
    ),
    "ex-arena-2": Exercise(
        "exact",
        {"r": 3},
        lambda v: (
            f"If theta_a - theta_b = ln {v['r']} and a wins, give the derivative of the battle's "
            "log-likelihood with respect to theta_a as an exact fraction."
        ),
        lambda v: 1 - Fraction(v["r"], v["r"] + 1),
        lambda rng: _pick(rng, r=range(2, 20)),
    ),
    "ex-arena-3": Exercise(
        "list",
        {"a": MODELS[0], "b": MODELS[1]},
        lambda v: (
            f"In the arena built from the shipped dataset, how many battles did {v['a']} win against "
            f"{v['b']}, and how many did it lose? Give both, in that order."
        ),
        _discordance,
        lambda rng: dict(zip(("a", "b"), rng.sample(MODELS, 2))),
        data=True,
    ),
    "ex-arena-4": _choice(
        "Elo's final ratings depend on",
        ("the order of the battles", "only the win counts, as the maximum-likelihood strengths do"),
        0,
    ),
    "ex-arena-5": Exercise(
        "choice",
        {},
        lambda v: (
            "Three models: a beat b twice and b beat c twice. Give the one extra battle that makes the "
            "Bradley-Terry estimate exist, as winner>loser."
        ),
        lambda v: "c>a",
    ),
    "ex-data-1": _choice(
        "Comparing letters instead of original options would",
        (
            "count two models as agreeing when they chose different options shown at the same letter",
            "change nothing, since every model sees the same order",
        ),  # fmt: skip
        0,
    ),
    "ex-data-2": Exercise(
        "exact",
        {"m": 4},
        lambda v: (
            f"If two models' option orders were independent and uniform over the orders of {v['m']} options, "
            "with what exact probability would they see the same order?"
        ),
        lambda v: Fraction(1, math.factorial(v["m"])),
        lambda rng: _pick(rng, m=(3, 5, 6, 7, 8)),
    ),
    "ex-data-3": Exercise(
        "list",
        {},
        lambda v: (
            "Give each model's accuracy on the questions the experts labelled 'ok', as exact fractions, in the "
            "order of panel.models."
        ),
        _ok_only,
        data=True,
    ),
    "ex-data-4": Exercise(
        "exact",
        {"j": 1},
        lambda v: (
            f"In the main condition of the shipped dataset, on how many questions were exactly {v['j']} of "
            "the four models right?"
        ),
        _exactly_right,
        lambda rng: _pick(rng, j=(0, 2, 3, 4)),
        data=True,
    ),
    "ex-data-5": Exercise(
        "choice",
        {},
        lambda v: "Which column of the long table should a comparison of two models' answers use?",
        lambda v: "chosen",
    ),
    "ex-claims-1": Exercise(
        "list",
        {},
        lambda v: (
            "Recompute seed article 000's paired interval (b = 219, c = 182, n = 2,000) with ddof=0; give "
            "both ends in points to one decimal, lower first, as exact fractions."
        ),
        _claims_one_decimal,
    ),
    "ex-claims-2": _choice(
        "The corner method can miss the range of a formula that",
        ("is monotone in each input", "has a maximum inside the box"),
        1,
    ),
    "ex-claims-3": Exercise(
        "exact",
        {"phi": "0.3", "votes": "2.9"},
        lambda v: (
            f"At an error correlation of {v['phi']}, find the smallest number of models whose effective votes "
            f"exceed {v['votes']}."
        ),
        _votes_over,
        _draw_votes_over,
    ),
    "ex-claims-4": Exercise(
        "list",
        {"printed": "71.2", "n": 1500},
        lambda v: (
            f"Which counts of right answers of {v['n']} questions print as {v['printed']}%? Give them, smallest first."
        ),
        lambda v: list(_es().counts_printing_as(v["printed"], v["n"], percent=True)),
        lambda rng: {"printed": f"{rng.randrange(600, 800) / 10:.1f}", "n": rng.choice((800, 1000, 1200, 1500, 2000))},
    ),
    "ex-claims-5": Exercise(
        "exact",
        {"k": 6, "phi": "0.2"},
        lambda v: f"How many independent votes are {v['k']} models worth at an error correlation of {v['phi']}?",
        lambda v: _es().effective_votes(v["k"], v["phi"]),
        lambda rng: _pick(rng, k=range(4, 13), phi=("0.1", "0.15", "0.2", "0.25", "0.3", "0.4")),
    ),
    "ex-seq-1": Exercise(
        "exact",
        {"b": 9, "c": 1},
        lambda v: (
            f"After {v['b'] + v['c']} discordant questions the first model has won {v['b']}. Give the mixture "
            "e-value (uniform prior)."
        ),
        lambda v: _es().mixture_e_value(v["b"], v["c"]),
        lambda rng: (lambda n: {"b": n - (c := rng.randrange(0, 4)), "c": c})(rng.randrange(8, 16)),
    ),
    "ex-seq-2": Exercise(
        "exact",
        {"n": 10},
        lambda v: (
            "Two equally good models disagree on every question. Give the exact chance that stopping at the "
            f"first McNemar p at or below 5% declares a winner within {v['n']} questions."
        ),
        lambda v: _es().false_alarm_probability(v["n"], "repeated-mcnemar"),
        lambda rng: _pick(rng, n=range(6, 41)),
    ),
    "ex-seq-3": _choice(
        'The false-alarm bound for "stop if either of two runs stops" is',
        ("still 5%", "up to 10%", "unbounded"),
        1,
    ),
    "ex-judges-1": Exercise(
        "exact",
        {"both_pass": 6, "both_fail": 2, "pass_fail": 2, "fail_pass": 0},
        lambda v: (
            f"Two judges grade answers pass or fail: both pass {v['both_pass']}, both fail {v['both_fail']}; "
            f"the first passes and the second fails {v['pass_fail']}, the reverse {v['fail_pass']}. Give Cohen's kappa."
        ),
        lambda v: _es().cohen_kappa(*_judges(v)),
        lambda rng: _pick(
            rng, both_pass=range(4, 10), both_fail=range(1, 5), pass_fail=range(1, 4), fail_pass=range(0, 3)
        ),
    ),
    "ex-judges-2": Exercise(
        "exact",
        {"unlabelled": 1000, "judge_pass": 600, "labelled": 50, "people_pass": 30, "judge_fails": 4, "judge_passes": 6},
        lambda v: (
            f"A judge passes {v['judge_pass']} of {v['unlabelled']} answers nobody else graded. People graded "
            f"{v['labelled']} more, which the judge also graded: people passed {v['people_pass']}; on {v['judge_fails']} "
            f"of those the judge said fail, and on {v['judge_passes']} answers people failed it said pass. Give the "
            "prediction-powered estimate of the pass rate people would give."
        ),
        _ppi,
        lambda rng: {
            "unlabelled": 1000,
            "judge_pass": rng.randrange(500, 701),
            "labelled": 50,
            "people_pass": rng.randrange(25, 36),
            "judge_fails": rng.randrange(2, 7),
            "judge_passes": rng.randrange(3, 9),
        },  # fmt: skip
    ),
}


def _book_ids() -> dict[str, str]:
    from ._exercise_ids import IDS

    return dict(IDS)


LABELS: dict[str, str] = _book_ids()  # exercise id ("1.1") -> the book's label (ex-intro-1)


def exercise_ids() -> list[str]:
    """Every exercise id, in the book's order."""
    return sorted(LABELS, key=lambda i: tuple(int(x) for x in i.split(".")))


def variant(exercise_id: str) -> Exercise | None:
    """The generator of an exercise id ("3.1"); None for an exercise that asks for an explanation only."""
    if exercise_id not in LABELS:
        raise ExactStatsError(f"exercise must be one of {', '.join(exercise_ids())}, got {exercise_id!r}")
    return EXERCISES.get(LABELS[exercise_id])


def numbers(exercise_id: str, student: str | None = None) -> Numbers:
    """The numbers of one student's version (the book's without a student id).

    >>> numbers("4.5", "ada") == numbers("4.5", "ada")   # the same id, the same numbers, every time
    True
    """
    exercise = variant(exercise_id)
    if student is not None and not str(student).strip():  # refused for every exercise, drawn or not
        raise ExactStatsError("student must be a non-empty id")
    if exercise is None:
        return {}
    if student is None or exercise.draw is None:
        return dict(exercise.book)
    seed = hashlib.sha256(f"{LABELS[exercise_id]}|{str(student).strip()}".encode()).digest()
    return exercise.draw(random.Random(int.from_bytes(seed[:16], "big")))


def statement(exercise_id: str, student: str | None = None) -> str:
    """The exercise as one student gets it (an explanation exercise: where to find it in the book)."""
    exercise = variant(exercise_id)
    if exercise is None:
        return f"Exercise {exercise_id} asks for an explanation: read it in the book."
    return exercise.question(numbers(exercise_id, student))


def expected(exercise_id: str, student: str | None = None) -> Any:
    """The exact answer of one student's version, computed from its numbers now (None: an explanation)."""
    exercise = variant(exercise_id)
    return None if exercise is None else exercise.answer(numbers(exercise_id, student))
