"""Command line: ``exactstats passk|condorcet|mcnemar|equivalence|coverage|size|power|neff|wilson|prove|check|exercise|arena|report|sequential|agreement|judge-correct|audit|grade``.

Each command prints the exact result and a decimal; ``--json`` prints one JSON
object with ``"exact"`` (a string such as ``"7/10"``, or null when the result is
irrational) and ``"decimal"``. Bad input exits with status 2 and one line on
stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Callable
from fractions import Fraction
from typing import Any, NoReturn

from . import __version__
from ._validate import TIE_RULES, ExactStatsError, as_int, as_probability, safe_float
from .arena import ARENA_TIE_RULES
from .condorcet import MAJORITY_TIE_RULES
from .paired import ALTERNATIVES
from .power import VARIANCE_FORMS

EPILOG = "Numbers may be integers, fractions (7/10) or decimals (0.7); decimals are taken exactly."


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # negative numbers, fractions and decimals (-1/6, -.5, -1e-3) are values, not options
        self._negative_number_matcher = re.compile(r"^-(\d+(/\d+)?|\d*\.\d+|\d+(\.\d*)?[eE][+-]?\d+)$")

    def error(self, message: str) -> NoReturn:  # one line, exit 2, as for bad values
        self.exit(2, f"{self.prog}: error: {message}\n")


SHORT_DIGITS = 500  # exact values with longer numerator or denominator are summarised unless --exact is given


def _digits(n: int) -> int:
    return max(1, int(abs(n).bit_length() * 0.30103) + 1)


def _exact_text(x: Fraction | int, full: bool) -> str | None:
    """The exact value as text when it is short (or ``full``), else None."""
    x = Fraction(x)
    if full:
        sys.set_int_max_str_digits(0)
        return str(x)
    if _digits(x.numerator) <= SHORT_DIGITS and _digits(x.denominator) <= SHORT_DIGITS:
        return str(x)
    return None


def _decimal(x: Fraction) -> str:
    """Ten significant digits, also beyond the float range (a tiny p-value is not printed as 0)."""
    f = safe_float(x)
    if x == 0 or (f != 0 and abs(f) != float("inf")):
        return f"{f:.10g}"
    from decimal import Context

    return str(Context(prec=10).divide(x.numerator, x.denominator))


def _show(x: Fraction | int, full: bool) -> str:
    """Exact value and decimal, or the decimal and the sizes when the exact value is long."""
    x = Fraction(x)
    text = _exact_text(x, full)
    if text is not None:
        return f"{text}  (= {_decimal(x)})"
    return (
        f"{_decimal(x)}  (exact: a {_digits(x.numerator)}-digit / {_digits(x.denominator)}-digit "
        "fraction; --exact prints it)"
    )


def json_value(x: Fraction | int | None, full: bool) -> dict[str, Any]:
    """An exact value for JSON output: ``exact`` (null past 500 digits, then ``exact_digits``) and ``decimal``."""
    if x is None:
        return {"exact": None}
    x = Fraction(x)
    out: dict[str, Any] = {"exact": _exact_text(x, full), "decimal": safe_float(x)}
    if x != 0 and out["decimal"] in (0.0, float("inf"), float("-inf")):  # beyond the float range: say so
        out["decimal_text"] = _decimal(x)
    if out["exact"] is None:
        out["exact_digits"] = [_digits(x.numerator), _digits(x.denominator)]
    return out


def _emit(args: argparse.Namespace, exact: Any, decimal: float, text: str, **extra: Any) -> None:
    if args.json:
        payload = {
            **json_value(exact if isinstance(exact, (Fraction, int)) else None, args.exact),
            "decimal": safe_float(decimal),
            **extra,
        }
        print(json.dumps(payload))
    else:
        print(text)


def cmd_passk(args: argparse.Namespace) -> None:
    from .passk import pass_at_k, pass_at_k_plugin

    unbiased = pass_at_k(args.n, args.c, args.k)
    plugin = pass_at_k_plugin(args.n, args.c, args.k)
    text = f"pass@{args.k} (unbiased)  {_show(unbiased, args.exact)}\npass@{args.k} (plug-in)   {_show(plugin, args.exact)}"
    _emit(args, unbiased, safe_float(unbiased), text, plugin=json_value(plugin, args.exact))


def cmd_condorcet(args: argparse.Namespace) -> None:
    from .condorcet import majority_probability

    # one number per process: the exact sum's milliseconds are nothing beside the process start
    p = majority_probability(args.p, args.k, ties=args.ties, allow_slow=True)
    _emit(args, p, safe_float(p), f"P(majority of {args.k} right)  {_show(p, args.exact)}")


def cmd_mcnemar(args: argparse.Namespace) -> None:
    from .paired import mcnemar_p_value

    p = mcnemar_p_value(args.b, args.c, alternative=args.alternative, mid_p=args.mid_p)
    label = f"exact McNemar p ({args.alternative}{', mid-p' if args.mid_p else ''})"
    _emit(args, p, safe_float(p), f"{label}  {_show(p, args.exact)}", b=as_int(args.b, "b"), c=as_int(args.c, "c"))


def cmd_equivalence(args: argparse.Namespace) -> None:
    from .equivalence import paired_equivalence_p_value

    alternative = "non-inferiority" if args.non_inferiority else "equivalence"
    alpha = as_probability(args.alpha, "alpha", open_low=True, open_high=True)
    p = paired_equivalence_p_value(  # one number per process: allow_slow, as in cmd_condorcet
        args.b,
        args.c,
        args.n,
        args.margin,
        alternative=alternative,
        nuisance_level=args.nuisance_level,
        allow_slow=True,
    )
    claim = "equivalent" if alternative == "equivalence" else "not worse"
    decision = f"{claim} within {args.margin} at level {args.alpha}" if p <= alpha else f"{claim}: not shown"
    text = (
        f"exact paired {alternative} p  {_show(p, args.exact)}\n{decision}\n"
        f"(valid for any discordance rate; includes the nuisance level {args.nuisance_level}, so p >= it)"
    )
    _emit(
        args,
        p,
        safe_float(p),
        text,
        alternative=alternative,
        margin=args.margin,
        nuisance_level=args.nuisance_level,
        rejected=p <= alpha,
    )


def _grid_output(
    args: argparse.Namespace, table: Any, name: str, axis: str, value: str, level: Any, lines: list[str]
) -> None:
    """The shared end of ``coverage`` and ``size``: an optional figure, then JSON or the text lines and rows."""
    points = table.points
    if args.figure:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(7, 3.5))
        ax.plot([float(x) for x, _ in points], [float(y) for _, y in points], marker=".", lw=1)
        ax.axhline(float(level), color="grey", ls="--", lw=1)
        ax.set(xlabel=axis, ylabel=value, title=f"{name}, n = {table.n}: exact {value}")
        fig.tight_layout()
        fig.savefig(args.figure, dpi=120)
        plt.close(fig)
    if args.json:
        print(json.dumps(table.to_json()))
        return
    if args.rows:
        symbol = axis.split()[-1]
        lines = lines + [f"  {symbol} = {str(x):>9}  {value} {float(y):.6g}" for x, y in points]
    print("\n".join(lines))


def cmd_coverage(args: argparse.Namespace) -> None:
    from .levels import coverage_table

    t = coverage_table(args.method, args.n, grid=args.grid, confidence=args.confidence)
    lines = [
        f"{args.method} interval, n = {t.n}, confidence {t.confidence}: exact coverage at p = "
        f"{t.points[0][0]} .. {t.points[-1][0]}",
        f"  lowest on the grid  {_show(t.minimum, args.exact)}  at p = {t.at}",
        f"  grid points under {t.confidence}  {t.below_nominal} of {len(t.points)}",
        f"  note: {t.note}",
    ]
    _grid_output(args, t, args.method, "true accuracy p", "coverage", t.confidence, lines)


def cmd_size(args: argparse.Namespace) -> None:
    from .levels import size_table

    t = size_table(args.test, args.n, grid=args.grid, alpha=args.alpha, margin=args.margin)
    lines = [
        f"{args.test} test, n = {t.n}, alpha {t.alpha}"
        + (f", margin {t.margin}" if t.margin is not None else "")
        + f": exact size at the null, q = {t.points[0][0]} .. {t.points[-1][0]}",
        f"  largest on the grid  {_show(t.largest, args.exact)}  at q = {t.at}",
        "  bound for every q    " + ("none known" if t.bound is None else _show(t.bound, args.exact)),
        f"  ({t.bound_reason})",
        f"  holds its level: {'yes' if t.holds else 'NO'}",
    ]
    _grid_output(args, t, args.test, "discordance rate q", "size", t.alpha, lines)


def cmd_power(args: argparse.Namespace) -> None:
    from .power import questions_needed

    r = questions_needed(
        args.q,
        args.d,
        alpha=args.alpha,
        power=args.power,
        variance=args.variance,
        z_alpha=args.z_alpha,
        z_power=args.z_power,
    )
    exact = r.value if isinstance(r.value, Fraction) else None
    text = (
        f"questions needed  {r.n}  (formula value {safe_float(r.value):.6g}; "
        f"z_alpha = {safe_float(r.z_alpha):.6g}, z_power = {safe_float(r.z_power):.6g})"
    )
    _emit(args, exact, safe_float(r.value), text, n=r.n)


def cmd_neff(args: argparse.Namespace) -> None:
    from .correlation import design_effect, effective_votes

    n = effective_votes(args.k, args.phi)
    text = f"effective votes  {_show(n, args.exact)}\ndesign effect    {_show(design_effect(args.k, args.phi), args.exact)}"
    _emit(args, n, safe_float(n), text)


def cmd_wilson(args: argparse.Namespace) -> None:
    from .errorbars import wilson_interval

    lo, hi = wilson_interval(args.k, args.n, z=args.z, confidence=args.confidence)
    text = f"Wilson interval  [{float(lo):.6f}, {float(hi):.6f}]\n  lower = {lo}\n  upper = {hi}"
    if args.json:
        print(json.dumps({"exact": None, "decimal": [float(lo), float(hi)], "lower": str(lo), "upper": str(hi)}))
    else:
        print(text)


def cmd_prove(args: argparse.Namespace) -> None:
    from .proofs import PROOFS

    if args.list or not (args.all or args.names):
        for name, proof in PROOFS.items():
            print(f"{name:24s} {proof.title}")
        return
    names = list(PROOFS) if args.all else args.names
    unknown = [n for n in names if n not in PROOFS]
    if unknown:
        raise ExactStatsError(f"proof must be one of {', '.join(PROOFS)}, got {unknown[0]!r}")
    results = []
    for name in names:
        proof = PROOFS[name]
        proof.check()
        results.append({"name": name, "title": proof.title, "steps": len(proof.steps), "checked": True})
        if not args.json:
            print(f"{name}: {proof.title}\n  {proof.statement_text}\n  checked ({len(proof.steps)} steps)")
    if args.json:
        print(json.dumps({"proofs": results}))


def cmd_arena(args: argparse.Namespace) -> None:
    from .report import refuse_to_overwrite_an_input, write_atomically
    from .report.arena_report import arena_html, arena_markdown, arena_summary
    from .report.battles import read_arena_counts

    if args.out:
        refuse_to_overwrite_an_input(args.out, [args.battles])
    summary = arena_summary(
        read_arena_counts(args.battles),  # tallied as columns: the statistics need only the counts
        anchor=args.anchor,
        scale=args.scale,
        bootstrap=as_int(args.bootstrap, "bootstrap", minimum=0, maximum=100_000),
        seed=args.seed,
        ties=args.ties,
    )
    if args.out:  # rendered in full before the file is touched
        write_atomically(args.out, arena_html(summary))
    print(json.dumps(summary.to_json()) if args.json else arena_markdown(summary), end="\n" if args.json else "")


def cmd_check(args: argparse.Namespace) -> None:
    from .exercises import check

    verdict, message = check(
        args.exercise,
        args.answer if len(args.answer) > 1 or "," in args.answer[0] else args.answer[0],
        student=args.student,
    )
    if args.json:
        print(json.dumps({"exercise": args.exercise, "verdict": verdict, "message": message}))
    else:
        print(f"Exercise {args.exercise}: {message}")


def cmd_exercise(args: argparse.Namespace) -> None:
    from .variants import numbers, statement

    text, values = statement(args.exercise, args.student), numbers(args.exercise, args.student)
    if args.json:
        print(json.dumps({"exercise": args.exercise, "student": args.student, "statement": text, "numbers": values}))
    else:
        print(f"Exercise {args.exercise}{f' for {args.student}' if args.student else ''}: {text}")


def _adder(sub: Any) -> Callable[[str, Callable[..., Any], str], argparse.ArgumentParser]:
    """A subcommand with the options every calculator shares (--json, --exact)."""

    def add(name: str, func: Callable[..., Any], help_: str) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = sub.add_parser(name, help=help_, description=help_, epilog=EPILOG)
        p.add_argument("--json", action="store_true", help="print one JSON object")
        p.add_argument("--exact", action="store_true", help="print exact values in full, however long")
        p.set_defaults(func=func)
        return p

    return add


def _add_test_commands(add: Callable[..., argparse.ArgumentParser]) -> None:
    """passk, condorcet, mcnemar, equivalence: one exact number from a few counts."""
    p = add("passk", cmd_passk, "pass@k from n samples with c correct: unbiased and plug-in")
    p.add_argument("n", help="samples drawn for the task")
    p.add_argument("c", help="samples that passed")
    p.add_argument("k", help="the k in pass@k (at most n)")

    p = add(
        "condorcet", cmd_condorcet, "probability that a majority of K independent voters, each right with P, is right"
    )
    p.add_argument("p", help="each voter's accuracy, in [0, 1]")
    p.add_argument("k", help="number of voters")
    p.add_argument(
        "--ties",
        choices=MAJORITY_TIE_RULES,
        help="tie rule for even K (required then): " + "; ".join(f"{r}: {TIE_RULES[r]}" for r in MAJORITY_TIE_RULES),
    )

    p = add("mcnemar", cmd_mcnemar, "exact McNemar p-value from the discordant counts B and C")
    p.add_argument("b", help="questions only the first model got right")
    p.add_argument("c", help="questions only the second model got right")
    p.add_argument("--alternative", default="two-sided", choices=ALTERNATIVES)
    p.add_argument("--mid-p", action="store_true", help="mid-p variant (not guaranteed to hold its size)")

    p = add(
        "equivalence",
        cmd_equivalence,
        "exact paired equivalence (TOST) or non-inferiority test: is the accuracy gap within MARGIN?",
    )
    p.epilog = "example: exactstats equivalence 30 28 2000 --margin 0.01   (one accuracy point)\n" + EPILOG
    p.add_argument("b", help="questions only the first model got right")
    p.add_argument("c", help="questions only the second model got right")
    p.add_argument("n", help="questions both models answered")
    p.add_argument(
        "--margin", required=True, help="largest gap that counts as equivalent, as a share (0.01 = one point)"
    )
    p.add_argument("--alpha", default="0.05", help="level for the printed decision (default 0.05)")
    p.add_argument(
        "--non-inferiority", action="store_true", help="one-sided: is the first model worse by less than MARGIN?"
    )

    p.add_argument(
        "--nuisance-level",
        default="0.001",
        help="chance allowed for the discordance rate to escape its bound; added to the p-value (default 0.001)",
    )


def _add_level_commands(add: Callable[..., argparse.ArgumentParser]) -> None:
    """coverage and size: an interval's exact coverage and a test's exact size on a grid."""
    from .levels import INTERVAL_METHODS, PAIRED_TESTS

    p = add("coverage", cmd_coverage, "exact coverage of a binomial interval method on a grid of true accuracies")
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.epilog = (
        "methods: " + "; ".join(f"{k}: {v}" for k, v in INTERVAL_METHODS.items()) + "\n"
        "examples:\n  exactstats coverage wald --n 30\n  exactstats coverage clopper-pearson --n 30 --rows\n"
        "  exactstats coverage wilson --n 100 --grid 1000 --json\n" + EPILOG
    )
    p.add_argument("method", choices=tuple(INTERVAL_METHODS))
    p.add_argument("--n", required=True, help="questions")
    p.add_argument("--grid", default="100", help="p = 1/GRID, 2/GRID, ..., 1 - 1/GRID (default 100)")
    p.add_argument("--confidence", default="0.95", help="confidence level (default 0.95)")
    p.add_argument("--rows", action="store_true", help="print the coverage at every grid point")
    p.add_argument("--figure", help="also draw coverage against p into this PNG file")

    p = add("size", cmd_size, "exact size of a paired test at its null, on a grid of discordance rates")
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.epilog = (
        "tests: " + "; ".join(f"{k}: {v}" for k, v in PAIRED_TESTS.items()) + "\n"
        "examples:\n  exactstats size mcnemar-mid-p --n 60 --grid 50\n"
        "  exactstats size equivalence --n 2000 --margin 0.01 --grid 1000 --json\n" + EPILOG
    )
    p.add_argument("test", choices=tuple(PAIRED_TESTS))
    p.add_argument("--n", required=True, help="questions")
    p.add_argument("--grid", default="100", help="q = 1/GRID, ..., 1 - 1/GRID (from the margin up; default 100)")
    p.add_argument("--alpha", default="0.05", help="level (default 0.05)")
    p.add_argument("--margin", help="the margin of the equivalence and non-inferiority tests")
    p.add_argument("--rows", action="store_true", help="print the size at every grid point")
    p.add_argument("--figure", help="also draw size against q into this PNG file")


def _add_design_commands(add: Callable[..., argparse.ArgumentParser]) -> None:
    """power, neff, wilson, prove: sizing a study, panels, one interval, the proofs."""
    p = add("power", cmd_power, "questions needed to detect an accuracy gap D when models disagree on a share Q")
    p.add_argument("--q", required=True, help="share of questions on which the models disagree")
    p.add_argument("--d", required=True, help="accuracy gap to detect")
    p.add_argument("--alpha", default="0.05", help="two-sided significance level (default 0.05)")
    p.add_argument("--power", default="0.8", help="power (default 0.8)")
    p.add_argument("--variance", default="q", choices=VARIANCE_FORMS, help="variance form: q (Miller) or q - d^2")
    p.add_argument("--z-alpha", dest="z_alpha", help="use this z for alpha instead of the normal quantile (e.g. 1.96)")
    p.add_argument("--z-power", dest="z_power", help="use this z for power instead of the normal quantile (e.g. 0.84)")

    p = add("neff", cmd_neff, "effective number of independent votes of K voters with error correlation PHI")
    p.add_argument("k", help="number of voters")
    p.add_argument("phi", help="pairwise error correlation")

    p = add("wilson", cmd_wilson, "Wilson score interval for K right out of N")
    p.add_argument("k", help="questions right")
    p.add_argument("n", help="questions asked")
    z_or_level = p.add_mutually_exclusive_group()
    z_or_level.add_argument("--z", help="z value (exact rational in (0, 40], e.g. 1.96)")
    z_or_level.add_argument("--confidence", help="confidence level whose normal quantile is z (default 0.95)")

    p = add("prove", cmd_prove, "check the machine-checked proofs (SymPy)")
    p.add_argument("names", nargs="*", help="proof names (see --list)")
    p.add_argument("--list", action="store_true", help="list the proofs")
    p.add_argument("--all", action="store_true", help="check every proof")


def _add_data_commands(sub: Any) -> None:
    """check and arena: commands that read an answer or a file of battles rather than a few numbers."""
    p = sub.add_parser(
        "check",
        help="check your answer to a book exercise (right / wrong / close) without revealing it",
        description="Check an answer to Exercise N.M of the book. Answers: a fraction (7/10), an integer, a "
        "decimal with the precision the exercise asks for, or a list (two values: 3 9 or 3,9).",
        epilog="examples:\n  exactstats check 1.1 7/10\n  exactstats check 5.1 0.5000\n  exactstats check 2.2 3000 800",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("exercise", help="the exercise number, e.g. 3.1")
    p.add_argument("answer", nargs="+", help="your answer")
    p.add_argument("--student", help="your student id: check against your own version (exactstats exercise)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser(
        "exercise",
        help="print a book exercise with your own numbers (one version per student id)",
        description="Print Exercise N.M as a student gets it: the numbers are drawn from the student id, the "
        "same every time for the same id; without an id, the book's numbers. Check the answer with "
        "exactstats check N.M ANSWER --student ID.",
        epilog="examples:\n  exactstats exercise 1.1 --student s-0042\n  exactstats exercise 3.1",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("exercise", help="the exercise number, e.g. 3.1")
    p.add_argument("--student", help="your student id (as your teacher gave it)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_exercise)

    p = sub.add_parser(
        "arena",
        help="Bradley-Terry leaderboard from pairwise battles, with intervals, rank intervals and sign tests",
        description="Rank models from battles in FastChat's form (columns model_a, model_b, winner = model_a | model_b "
        "| tie | tie (bothbad)), read from CSV, JSONL, JSON or Parquet.",
        epilog="examples:\n  exactstats arena battles.csv\n  exactstats arena battles.jsonl --anchor gpt-4 --bootstrap 500 --json\n"
        "  exactstats arena battles.parquet --out arena.html",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("battles", help="the battles file")
    p.add_argument("--out", help="also write the report as one self-contained HTML file (with a figure)")
    p.add_argument("--anchor", help="model fixed at 1000 (Elo) or 0 (logit); default: centred at the mean")
    p.add_argument("--scale", default="elo", choices=("elo", "logit"))
    p.add_argument("--bootstrap", default="0", help="bootstrap resamples of the battles (default 0: none)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--ties",
        default="fair",
        choices=ARENA_TIE_RULES,
        help="fair: a tie is half a win each (default); exclude: ties left out of the fit",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_arena)


FILE_COMMANDS = {  # name: (module under report/ holding add_arguments and main, help, description, examples)
    "report": (
        "",
        "leaderboard, paired tests, stability and panel analysis of eval results",
        "Analyse a models x questions correctness matrix (CSV/Parquet, or lm-eval / Inspect logs).",
        "",
    ),
    "sequential": (
        "sequential_run",
        "may a running comparison of two models stop? an anytime-valid paired test, question by question",
        "Apply a stopping rule that may be checked after every question (a Beta-mixture likelihood ratio on the "
        "questions only one model got right) to two models' results, in the order asked.",
        "",
    ),
    "agreement": (
        "agreement_run",
        "how far raters or LLM judges agree: kappa with an exact p-value, AC1, Krippendorff's alpha, Fleiss",
        "Agreement between raters from a CSV of ratings in long form (columns item, rater, label).",
        "exactstats agreement ratings.csv\n  exactstats agreement grades.csv --ordinal --json\n"
        "  exactstats agreement judged.csv --labels A,B,tie --drop-single",
    ),
    "judge-correct": (
        "judge_correct_run",
        "the rate people would give, from an LLM judge's labels and a few human ones (Rogan-Gladen, PPI)",
        "Correct a judge's pass rate with people's labels of a random subset of the items: CSVs with columns "
        "item, label.",
        "exactstats judge-correct --human people.csv --judge gpt4.csv\n"
        "  exactstats judge-correct --human people.csv --judge judge.csv --positive safe --json",
    ),
    "audit": (
        "audit_run",
        "check published scores, stderrs, intervals and rankings against every count they allow",
        "Audit published evaluation numbers: an lm-eval results file, an Inspect log, or a pasted table (CSV or "
        "Markdown: model, score, optionally n, stderr, ci_low, ci_high, level, k, samples).",
        "exactstats audit results_2026-01-01.json\n  exactstats audit leaderboard.md --n 1319\n"
        "  exactstats audit table.csv --json",
    ),
    "grade": (
        "grade_run",
        "grade every student's answers to the book's exercises from one CSV (right, close, wrong; marks)",
        "Grade a class: a CSV with columns student, exercise, answer, each checked as `exactstats check` does; "
        "rows that cannot be graded are listed with their line numbers.",
        "exactstats grade submissions.csv\n  exactstats grade submissions.csv --out grades.csv --html summary.html",
    ),
}


def _add_file_commands(sub: Any, wanted: str | None) -> None:
    """The commands that read files; each one's options and runner live in its module under report/, which
    is imported only for the command run (``wanted``; every one when None): the report modules need NumPy
    and pandas, the other commands run on the exact core alone."""
    import importlib

    for name, (module, help_text, description, examples) in FILE_COMMANDS.items():
        extra = {"epilog": f"examples:\n  {examples}", "formatter_class": argparse.RawDescriptionHelpFormatter}
        p = sub.add_parser(name, help=help_text, description=description, **(extra if examples else {}))
        if wanted is None or wanted == name:
            runner = importlib.import_module(f".report{'.' + module if module else ''}", __package__)
            p.set_defaults(func=runner.main)
            runner.add_arguments(p)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with ``command``, the file commands other than it are named but not loaded."""
    parser = _Parser(prog="exactstats", description="Exact statistics for language-model evaluation.", epilog=EPILOG)
    parser.add_argument("--version", action="version", version=f"exactstats {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    add = _adder(sub)
    _add_test_commands(add)
    _add_level_commands(add)
    _add_design_commands(add)
    _add_data_commands(sub)
    _add_file_commands(sub, command)
    return parser


# Expected input failures: bad values, unreadable or missing files. Anything else is a bug: one line too, marked
# unexpected (EXACTSTATS_DEBUG=1 re-raises it for a traceback).
EXPECTED_FAILURES = (ExactStatsError, OSError, UnicodeDecodeError)


def _missing(exc: ImportError) -> str:
    name = exc.name or "a package that is not installed"
    return f"this command needs {name} (pip install {name}); the exact commands run without it"


def main(argv: list[str] | None = None) -> int:
    """Run one command: exit 0, or 2 with one line on stderr for bad input."""
    given = list(sys.argv[1:] if argv is None else argv)
    command = next((a for a in given if not a.startswith("-")), "")
    try:
        parser = build_parser(command)
    except ImportError as exc:  # a file command without the report extras (in a browser, say)
        print(f"exactstats {command}: error: {_missing(exc)}", file=sys.stderr)
        return 2
    try:
        args = parser.parse_args(argv)
    except SystemExit as done:  # --help, --version (0) or a usage error (2, one line already printed)
        return int(done.code or 0)
    args.argv = list(sys.argv[1:] if argv is None else argv)  # for the report's provenance line
    try:
        args.func(args)
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. `exactstats report ... | head`: the reader left; not an error of ours
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except ImportError as exc:
        print(f"exactstats {args.command}: error: {_missing(exc)}", file=sys.stderr)
        return 2
    except EXPECTED_FAILURES as exc:
        message = " ".join(str(exc).split()) or type(exc).__name__
        print(f"exactstats {args.command}: error: {message}", file=sys.stderr)
        return 2
    except Exception as exc:  # a failure no check anticipated: still one line (EXACTSTATS_DEBUG=1 shows the traceback)
        if os.environ.get("EXACTSTATS_DEBUG"):
            raise
        message = " ".join(str(exc).split())[:300]
        print(
            f"exactstats {args.command}: error: unexpected {type(exc).__name__}: {message} "
            "(please report this with the input that caused it)",
            file=sys.stderr,
        )
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
