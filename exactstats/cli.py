"""Command line: ``exactstats passk|condorcet|mcnemar|power|neff|wilson|prove|report ...``.

Each command prints the exact result and a decimal; ``--json`` prints one JSON
object with ``"exact"`` (a string such as ``"7/10"``, or null when the result is
irrational) and ``"decimal"``. Bad input exits with status 2 and one line on
stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from fractions import Fraction
from typing import Any, NoReturn

from . import __version__
from ._validate import TIE_RULES, ExactStatsError
from .condorcet import MAJORITY_TIE_RULES
from .paired import ALTERNATIVES
from .power import VARIANCE_FORMS

EPILOG = "Numbers may be integers, fractions (7/10) or decimals (0.7); decimals are taken exactly."


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2, as for bad values
        self.exit(2, f"{self.prog}: error: {message}\n")


def _emit(args: argparse.Namespace, exact: Any, decimal: float, text: str, **extra: Any) -> None:
    if args.json:
        payload = {"exact": str(exact) if isinstance(exact, (Fraction, int)) else None, "decimal": float(decimal)}
        payload.update(extra)
        print(json.dumps(payload))
    else:
        print(text)


def _fmt(x: Fraction) -> str:
    return f"{x}  (= {float(x):.10g})"


def cmd_passk(args: argparse.Namespace) -> None:
    from .passk import pass_at_k, pass_at_k_plugin

    unbiased = pass_at_k(args.n, args.c, args.k)
    plugin = pass_at_k_plugin(args.n, args.c, args.k)
    text = f"pass@{args.k} (unbiased)  {_fmt(unbiased)}\npass@{args.k} (plug-in)   {_fmt(plugin)}"
    _emit(args, unbiased, float(unbiased), text, plugin={"exact": str(plugin), "decimal": float(plugin)})


def cmd_condorcet(args: argparse.Namespace) -> None:
    from .condorcet import majority_probability

    p = majority_probability(args.p, args.k, ties=args.ties)
    _emit(args, p, float(p), f"P(majority of {args.k} right)  {_fmt(p)}")


def cmd_mcnemar(args: argparse.Namespace) -> None:
    from .paired import mcnemar_p_value

    p = mcnemar_p_value(args.b, args.c, alternative=args.alternative, mid_p=args.mid_p)
    exact = (
        f"{p}"
        if len(str(p)) <= 200
        else f"{p.numerator.bit_length()}-bit numerator / 2^{p.denominator.bit_length() - 1}"
    )
    _emit(
        args,
        p,
        float(p),
        f"exact McNemar p ({args.alternative}{', mid-p' if args.mid_p else ''})  {exact}  (= {float(p):.6g})",
        b=args.b,
        c=args.c,
    )


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
    text = f"questions needed  {r.n}  (formula value {float(r.value):.6g}; z_alpha = {float(r.z_alpha):.6g}, z_power = {float(r.z_power):.6g})"
    _emit(args, exact, float(r.value), text, n=r.n)


def cmd_neff(args: argparse.Namespace) -> None:
    from .correlation import design_effect, effective_votes

    n = effective_votes(args.k, args.phi)
    text = f"effective votes  {_fmt(n)}\ndesign effect    {_fmt(design_effect(args.k, args.phi))}"
    _emit(args, n, float(n), text)


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


def cmd_report(args: argparse.Namespace) -> None:
    from .report import main as report_main

    report_main(args)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="exactstats", description="Exact statistics for language-model evaluation.", epilog=EPILOG)
    parser.add_argument("--version", action="version", version=f"exactstats {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def add(name: str, func: Callable, help_: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_, description=help_, epilog=EPILOG)
        p.add_argument("--json", action="store_true", help="print one JSON object")
        p.set_defaults(func=func)
        return p

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
    p.add_argument("--z", help="z value (exact rational, e.g. 1.96); default: normal quantile of --confidence")
    p.add_argument("--confidence", default="0.95")

    p = add("prove", cmd_prove, "check the machine-checked proofs (SymPy)")
    p.add_argument("names", nargs="*", help="proof names (see --list)")
    p.add_argument("--list", action="store_true", help="list the proofs")
    p.add_argument("--all", action="store_true", help="check every proof")

    p = sub.add_parser(
        "report",
        help="leaderboard, paired tests, stability and panel analysis of eval results",
        description="Analyse a models x questions correctness matrix (CSV/Parquet, or lm-eval / Inspect logs).",
    )
    p.set_defaults(func=cmd_report)
    from .report import add_arguments

    add_arguments(p)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        args.func(args)
    except ExactStatsError as exc:
        print(f"exactstats {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except (FileNotFoundError, IsADirectoryError, PermissionError) as exc:
        print(f"exactstats {args.command}: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
