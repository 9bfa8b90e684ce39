"""Sentences about data, chosen from the numbers they describe (book helpers, tested in tests/test_prose_guards.py).

Every function returns the sentence that its numbers make true and never one they contradict: a
change in data or code that flips a comparison changes the sentence, and a case no sentence covers
raises, which fails the book build.
"""

from __future__ import annotations

from typing import Any

NEAR = 0.02  # intervals that change by less than 2% on average are "barely changed"


def names(items: list[str]) -> str:
    """A list for a sentence: "a", "a and b", "a, b and c"."""
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else items[0]


def wilson_vs_clt(max_gap_points: float) -> str:
    """How far the Wilson and CLT intervals of our models are apart, in points."""
    if max_gap_points < 0.2:
        return f"at these sample sizes the two nearly coincide (they differ by at most {max_gap_points:.2f} points)."
    return f"here they differ by up to {max_gap_points:.1f} points, enough to matter near the ends."


def split_half(selected_points: float, held_out_points: float) -> str:
    """Whether choosing the winner on the same half inflates its lead, read from the two leads."""
    if selected_points > held_out_points + 0.05:
        return (
            "choosing the winner on the same data inflates its lead: part of the lead in the half that chose "
            "it is that half's luck."
        )
    if abs(selected_points - held_out_points) <= 0.05:
        return "selecting the winner on one half adds nothing measurable to its lead here."
    return (
        "the lead is even larger in the held-out half; with a leader this far ahead, selecting it on one half "
        "costs nothing, and the other half's luck happens to favour it."
    )


def pairing_effect(mean_narrowing: float) -> str:
    """What pairing did to the intervals, from the mean relative narrowing across pairs."""
    if mean_narrowing > NEAR:
        return f"Pairing narrows the interval by {mean_narrowing:.0%} on average across the adjacent pairs."
    if mean_narrowing < -NEAR:
        return (
            f"Here pairing does not help: it widens the interval by {-mean_narrowing:.0%} on average, because "
            "these models' errors are not positively correlated (see the panel chapter), so the covariance "
            "term that pairing removes is not there to remove."
        )
    return (
        f"Here pairing barely changes the interval ({mean_narrowing:+.1%} on average): these models' errors are "
        "nearly uncorrelated (see the panel chapter), so the covariance term that pairing removes is close to "
        "zero. With strongly correlated models (seed article 000's panel) the same test is much sharper."
    )


def difficulty(all_right: float, all_wrong: float, right_if_independent: float, wrong_if_independent: float) -> str:
    """Whether all-right / all-wrong shares show that questions differ in difficulty, against independence."""
    more = all_right > 1.2 * right_if_independent or all_wrong > 1.2 * wrong_if_independent
    shares = (
        f"all of our models were right on {all_right:.0%} of them and all wrong on {all_wrong:.0%}, where "
        f"independent models with the same accuracies would give {right_if_independent:.0%} and "
        f"{wrong_if_independent:.0%}"
    )
    if more:
        return f"questions differ in difficulty: {shares}, so the models fail together more often than chance."
    return (
        f"questions may differ in difficulty, but these shares do not show it: {shares}, about what chance "
        "alone produces."
    )


def letter_bias(phi_original: float, phi_shuffled: float) -> str:
    """What letter bias did to agreement, from mean phi in the original order and with per-model shuffles."""
    gap = phi_original - phi_shuffled
    if gap > 0.01:
        return (
            "Letter bias can fake agreement: models that like the same letter are wrong together for reasons "
            "unrelated to the question, and in the original order mean phi rises."
        )
    if gap < -0.01:
        return (
            "Letter bias can fake disagreement as well as agreement, and here it does: models with different "
            "favourite letters are each right where the key happens to sit at their favourite, which are "
            "different questions, so in the original order mean phi falls below its value with per-model "
            "shuffles."
        )
    return "Here letter bias leaves mean phi about where the per-model shuffles put it."


def format_choice(letter_gains: dict[str, float], letters_at_chance: list[str]) -> str:
    """Which format suits which model: models whose letters beat their answer text (gain in points,
    each beyond the exact paired test) next to models whose letters are at chance. Empty unless both
    kinds are present, since only then do the formats treat the models differently."""
    if any(g <= 0 for g in letter_gains.values()):
        raise ValueError(f"letter_gains must be positive (letters better than the answer text), got {letter_gains}")
    if not letter_gains or not letters_at_chance:
        return ""
    gains = ", ".join(f"{m} gains {g:.1f} points" for m, g in letter_gains.items())
    one = len(letters_at_chance) == 1
    return (
        f"The two formats do not treat the models alike. Shown the options and asked for a letter, {gains} "
        f"over scoring its answer text; {names(letters_at_chance)} {'is' if one else 'are'} at chance with letters, "
        f"and whatever signal {'it has' if one else 'they have'} shows only in the answer text. "
    )


def bh_against_holm(separated_bh: int, separated_holm: int) -> str:
    """What Benjamini-Hochberg adds to Holm on the same p-values (it never separates fewer)."""
    if separated_bh < separated_holm:
        raise ValueError(f"separated_bh must be >= separated_holm, got {separated_bh} < {separated_holm}")
    lead = (
        "Benjamini and Hochberg's procedure (`es.bh_adjust`, the BH column) controls a weaker thing, the expected "
        f"share of false separations among those claimed, and separates {separated_bh}"
    )
    if separated_bh == separated_holm:
        return lead + " here as well: the same " + ("pair" if separated_holm == 1 else "pairs") + " as Holm."
    return lead + f", {separated_bh - separated_holm} more than Holm."


def power_contrast(power_now, gap_points: float, seed_gap_points: float, seed_power: float) -> str:
    """What the exact power of our top pair means beside seed article 000's close pair (power is a
    property of the design: never offered as the explanation of a result)."""
    seed = f"seed article 000's top pair, at its own rates, would be detected with probability {seed_power:.2f}" + (
        ", so a study of its size, run again, would miss such a gap more often than find it."
        if seed_power < 0.5
        else "."
    )
    if power_now > 0.99:
        return (
            f"The test misses with probability {float(1 - power_now):.1e}, which only says that our leader is far ahead: "
            f"a gap of {gap_points:.1f} points, where seed article 000's top pair was {seed_gap_points:.2f} points "
            f"apart. On our small panel this lesson is degenerate; by contrast, {seed} (Power is a property of "
            "the design, computed before the data: it does not explain a result after the fact.)"
        )
    return f"For comparison, {seed}"


def equivalence_summary(
    first: str, second: str, gap_points: float, p_difference: float, eq_p: dict, power: dict, n: int
) -> str:
    """Two models the difference test does not separate, read through the equivalence test at several
    margins (``eq_p`` and ``power`` keyed by the margin as a decimal string, smallest first)."""
    from fractions import Fraction

    if p_difference <= 0.05:
        raise ValueError(f"p_difference must exceed 0.05 (the pair is 'not separated'), got {p_difference}")
    shown = [m for m in eq_p if eq_p[m] <= Fraction(1, 20)]
    failed = [m for m in eq_p if eq_p[m] > Fraction(1, 20)]
    if not failed or (shown and min(map(Fraction, failed)) > min(map(Fraction, shown))):
        raise ValueError(f"eq_p must fail at the smallest margin and succeed only above the failures, got {eq_p}")
    pts = {m: f"{100 * float(Fraction(m)):.0f}" for m in eq_p}
    widest = failed[-1]
    text = (
        f"{first} and {second} differ by {abs(gap_points):.1f} points and McNemar's exact test does not separate "
        f"them (p = {p_difference:.2f}). The equivalence test cannot show them within "
        + names([pts[m] for m in failed]).replace(" and ", " or ")
        + " points (p = "
        + ", ".join(f"{float(eq_p[m]):.2f}" for m in failed)
        + ")"
    )
    more = "only " if power[widest] < 0.8 else ""
    text += (
        f". Even two truly equal models that disagree as often as these would show equivalence within "
        f"{pts[widest]} points on {n:,} questions with probability {more}{power[widest]:.2f}"
    )
    if shown:
        text += (
            f"; within {pts[shown[0]]} points, where this pair succeeds (p = {float(eq_p[shown[0]]):.3f}), "
            f"with probability {power[shown[0]]:.2f}"
        )
    return text + (
        ". (Power from `es.paired_equivalence_power_float`; the exact `es.paired_equivalence_power` gives the "
        "same numbers, more slowly.)"
    )


def key_moved(swapped: list, ties_moved: list) -> str:
    """Which pairs of models two answer keys order differently: swapped outright, or tied under one only."""
    if swapped:
        pairs = "; ".join(" and ".join(p) for p in swapped)
        return f"{len(swapped)} pair{'s' if len(swapped) > 1 else ''} of models swap their order ({pairs})"
    if ties_moved:
        pairs = "; ".join(f"{a} and {b}" for a, b in ties_moved)
        if len(ties_moved) == 1:
            return f"no two models swap their order, though {pairs} are tied under one key and not under the other"
        return f"no two models swap their order, though {pairs}: each pair is tied under one key and not the other"
    return "no two models change their order"


def sampling_budget(n: int, se_now: float, se_inf: float, se_double: float, between_dominates: bool) -> str:
    """Where the standard error of pass@1 comes from: more samples per problem or more problems (points)."""
    if between_dominates and se_double < se_inf:
        return (
            f"With {n} samples the between-problem part dominates: infinitely many samples per problem would only "
            f"take the standard error from {se_now:.2f} to {se_inf:.2f} points, while twice the problems would "
            f"bring it to {se_double:.2f}."
        )
    return (
        f"Here the sampling part still matters: more samples per problem would take the standard error from "
        f"{se_now:.2f} to {se_inf:.2f} points, and twice the problems to {se_double:.2f}."
    )


def greedy_pair(first: str, second: str, b: int, c: int, p: float, n: int) -> str:
    """Two models' greedy runs compared by McNemar's exact test (``b``: only ``first`` solved)."""
    counts = (
        f"The {first} model solves {b} problems the {second} does not and the {second} {c} that the {first} does not"
    )
    if p <= 0.05:
        return f"{counts}; the exact McNemar p-value is {p:.3f}: a real difference at the 5% level."
    return (
        f"{counts}; the exact McNemar p-value is {p:.3f}, so on {n} problems this gap is not separated at the 5% level."
    )


def greedy_against_sampled(greedy_rate: float, sampled_rate: float) -> str:
    """Greedy pass@1 against the mean pass@1 of samples at temperature 0.8, for one model."""
    if greedy_rate > sampled_rate:
        return "Greedy decoding solves more problems than one sample at temperature 0.8 does on average"
    return "One sample at temperature 0.8 solves at least as many problems on average as greedy decoding"


def width_ratio(ratio: float) -> str:
    """How much narrower the sampled comparison's interval is than the greedy one's."""
    if ratio > 1.05:
        return f"the sampled comparison's interval is {ratio:.1f} times narrower than the greedy one's"
    if ratio < 1 / 1.05:
        return f"the sampled comparison's interval is {1 / ratio:.1f} times wider than the greedy one's"
    return f"the sampled comparison's interval is about as wide as the greedy one's (ratio {ratio:.2f})"


def interval_verdict(lower: float, upper: float, first: str, second: str, what: str) -> str:
    """What an interval for ``first`` minus ``second`` says about zero."""
    if lower > 0:
        return f"it excludes zero: on these problems the {first} model's {what} is higher, beyond the noise of samples and problems"
    if upper < 0:
        return f"it excludes zero: on these problems the {second} model's {what} is higher, beyond the noise of samples and problems"
    return f"it includes zero: these problems do not separate the two models' {what}"


def sign_against_interval(sign_separates: bool, interval_excludes_zero: bool) -> str:
    """The sign test's verdict beside the interval's, at the 5% level."""
    if sign_separates and interval_excludes_zero:
        return "Here both say the same: the sign test also separates the models at the 5% level."
    if not sign_separates and not interval_excludes_zero:
        return "Here both say the same: neither separates the models at the 5% level."
    if interval_excludes_zero:
        return (
            "Here they disagree: the sign test does not separate the models at the 5% level while the interval does. "
            "The sign test counts a 5-point shift in a problem's pass rate the same as a 90-point one, and so gives "
            "up what the sizes of the differences say."
        )
    return "Here they disagree: the sign test separates the models at the 5% level while the interval does not."


def even_footing(samples: dict[str, int]) -> str:
    """Whether two models drew as many samples per problem, and which is cut to the other's count
    (``samples``: the samples per problem of each model, keyed by how the text names it)."""
    (a, na), (b, nb) = samples.items()
    if na == nb:
        return f"which holds here: both drew {na} samples per problem, so every sample of both models counts."
    more, fewer = (a, b) if na > nb else (b, a)
    return (
        f"which fails for {na} and {nb} samples per problem (the count out of fewer samples is the coarser one; on a "
        f"hard problem it is more often zero). So the {more} model gets only its first {min(na, nb)} samples here:"
    )


def panel_reading(mean_phi: float, k: int, pickers: list[str], readers: list[str]) -> str:
    """What a panel's mean error correlation says, with the letter pickers (more than half their answers on
    one displayed letter) named when the correlation is weak."""
    if mean_phi >= 0.1:
        return "The models share a good part of their mistakes, so the panel is worth far fewer independent votes than it has members."
    habit = "put most of their answers on one favourite letter, and the per-model shuffle turns that habit into a random choice of option"
    if not readers:
        who = f"all {k} models {habit}"
    elif not pickers:
        return (
            "Correlations this weak mean the models' mistakes rarely coincide: a panel close to independent, which helps "
            "only voters who are right more often than not."
        )
    elif len(readers) == 1:
        who = f"{len(pickers)} of the {k} models {habit}; the one model that reads the questions, {readers[0]}, has nobody to share its mistakes with"
    else:
        who = f"{len(pickers)} of the {k} models {habit}, and the models that read the questions have few partners in their mistakes"
    return (
        f"Correlations this weak are what near-random answering looks like: the data chapter shows that {who}. A panel "
        "of guessers is close to independent, and close to useless: independence only helps voters who are right more "
        "often than not."
    )


def vote_against_best(vote: float, best: float) -> str:
    """A panel's plurality vote against its best member's accuracy."""
    if vote < best:
        return "The vote loses to its best member: on questions that only the best model gets right, the weaker models outvote it."
    return "Here the vote at least matches its best member."


def plurality_against_best(plurality: float, best: float) -> str:
    """The same comparison worded for the strong panel's letter vote."""
    if plurality < best:
        return (
            "the plurality vote on letters falls short of the best model: the others outvote it where only it is right"
        )
    return "the plurality vote on letters is at least as accurate as every single member"


def subject_share(mean_phi: float, phi_subject: float) -> str:
    """How much of the error correlation a within-subject shuffle leaves (subject difficulty's share)."""
    if mean_phi >= 0.05:
        return (
            f"Mean phi then falls from {mean_phi:.3f} to {phi_subject:.3f}: subject difficulty accounts for about "
            f"{phi_subject / mean_phi:.0%} of the correlation; the rest lives at the level of single questions."
        )
    return (
        f"Mean phi then moves from {mean_phi:.3f} to {phi_subject:.3f}; with so little correlation to begin with, there "
        "is nothing for subject difficulty to explain in this panel."
    )


def cloze_sentences(formats: list[dict], n_q: int) -> tuple[list[str], dict[str, float], list[str]]:
    """Per-model sentences comparing the cloze formats with letters on the same ``n_q`` questions.

    Returns the sentences, the models whose letters beat their answer text beyond the exact paired test
    (with the gain in points), and the models at chance with letters (a Wilson interval holding 1/4).
    "The letter format hides it" is decided by the paired exact test, never by one interval containing
    chance while the other does not.
    """
    from exactstats import wilson_interval_float

    def at_chance(share: float) -> bool:
        lo, hi = wilson_interval_float(int(round(share * n_q)), n_q)
        return lo <= 0.25 <= hi

    parts, letter_gains, letters_chance = [], {}, []
    for f in formats:
        diff = f["answer text"] - f["letter"]
        if f["text vs letter, exact McNemar p"] < 0.05:
            if diff < 0:
                letter_gains[f["model"]] = -100 * diff
            verdict = f"scores {abs(diff) * 100:.1f} points {'higher' if diff > 0 else 'lower'} on the answer text than with letters"
        else:
            verdict = "scores about the same in both formats (no difference the exact test can separate)"
        letter_chance, text_at_chance = at_chance(f["letter"]), at_chance(f["answer text"])
        if letter_chance:
            letters_chance.append(f["model"])
        lo_n = wilson_interval_float(int(round(f["per character"] * n_q)), n_q)[0]
        if lo_n > 0.25:
            size = "a small real signal" if f["per character"] < 0.35 else "a real signal"
            p_char = f["per char vs letter, p"]
            hides = letter_chance and p_char < 0.05 and f["per character"] > f["letter"]
            norm = f"; normalised per character it reaches {f['per character']:.1%}, above chance (its Wilson interval starts at {lo_n:.1%})"
            if hides:
                norm += f": {size} that the letter format hides (paired exact p = {p_char:.2g})"
            elif letter_chance:
                norm += f", though the paired exact test does not separate it from its letters (p = {p_char:.2f})"
        else:
            norm = "; normalised per character it is at chance too" if text_at_chance else ""
        text_chance = ""
        if text_at_chance:
            text_chance = (
                "; its answer-text accuracy is still at chance"
                if letter_chance
                else "; its answer-text accuracy is at chance, although its letters are not"
            )
        parts.append(f"{f['model']} {verdict}{text_chance}{norm}")
    return parts, letter_gains, letters_chance


def cloze_summary(parts: list[str], complete: bool) -> str:
    """The cloze paragraph: every finished model's sentence, and what is still missing."""
    if not parts:
        return "No model has a finished cloze run in the shipped data yet."
    missing = (
        ""
        if complete
        else " The other models have no finished cloze run in the shipped data yet; they appear here once theirs is committed."
    )
    return "On these questions " + "; ".join(parts) + "." + missing


def debias_summary(
    top_letter_after: float, at_chance: list[str], moved: list[str], still: list[str], worst_gain: float
) -> str:
    """What removing each model's letter prior did: habits, chance, accuracy moves beyond noise."""
    text = f"Removing the prior breaks the habits: no model keeps more than {top_letter_after:.0%} of its answers on one letter. "
    if at_chance:
        verb = "it stays" if len(at_chance) == 1 else "they stay"
        text += f"It does not reveal hidden knowledge in {names(at_chance)}: with the prior removed {verb} at chance (a Wilson interval that contains one in four). "
    if moved:
        text += f"The accuracy moves beyond noise for {names(moved)}" + (
            f"; it does not for {names(still)}. " if still else ". "
        )
    else:
        text += f"No model's accuracy moves beyond noise: {names(still)}. "
    if worst_gain < 0.05:
        text += (
            f"No accuracy changes by more than {worst_gain * 100:.1f} points: on our data the letter habit hides "
            "little, and a model at chance with its habit is at chance without it."
        )
    else:
        text += f"Accuracies change by up to {worst_gain * 100:.1f} points: the letter habit hides real differences."
    return text


def calibration_contrast(best: str, worst: str, ece_best: float, ece_worst: float, gap_worst: float) -> str:
    """The best and worst calibrated models, and what the worst one's gap between confidence and accuracy is."""
    if ece_best >= ece_worst:
        raise ValueError(f"ece_best must be below ece_worst, got {ece_best} >= {ece_worst}")
    text = f"{best} is the best calibrated (ECE {ece_best:.3f}) and {worst} the worst (ECE {ece_worst:.3f}); "
    if gap_worst > 0.1:
        return text + (
            f"{worst} is overconfident: its mean confidence exceeds its accuracy by {100 * gap_worst:.0f} points, "
            "the mark of a letter picker that puts most of its mass on a favourite letter whatever the question."
        )
    return text + f"its confidence and accuracy differ by {gap_worst:+.0%} on average."


def arena_order(same_order: bool) -> str:
    """Whether the arena's Elo order on our panel matches the accuracy order."""
    if same_order:
        return (
            "orders the models exactly as their accuracies do, as it should: with every pair meeting on the same "
            "questions, winning more battles and answering more questions right are nearly the same thing"
        )
    return (
        "orders the models differently from their accuracies: with every pair meeting on the same questions, "
        "winning more battles and answering more questions right are nearly, but not exactly, the same thing (a "
        "battle counts only the questions where the two models differ)"
    )


def arena_leader(name: str, rank_interval: tuple[int, int]) -> str:
    """Whether the Holm-corrected rank interval of the top-rated model names it the single leader."""
    if tuple(rank_interval) == (1, 1):
        return f"{name} has the rank interval 1-1: the Holm-corrected comparisons place it first"
    return "no model's rank interval is 1-1: the comparisons cannot name a single leader"


def samples_coverage(done: int, total: int) -> str:
    """How many problems have all their samples yet (generation resumes in the background)."""
    if done < total:
        return (
            f"So far {done} of the {total} problems have all their samples (generation runs in the background and "
            "resumes; the numbers below grow with it)."
        )
    return f"All {total} problems have all their samples."


def rate_comparison(valid_rate: float, naive_rate: float) -> str:
    """How often the mixture stopped on tied pairs, beside the repeated McNemar rule (which stops more)."""
    if not valid_rate < naive_rate:
        raise ValueError(f"no words for a mixture rate {valid_rate} not below the naive {naive_rate}")
    if valid_rate == 0:
        return "the mixture never stopped where peeking did"
    return f"peeking stopped {naive_rate / valid_rate:.1f} times as often"


def samples_plan(plan: Any, n_now: int) -> str:
    """What halving pass^k's standard error takes: a number of samples per problem, or more problems."""
    floor = 100 * plan.floor
    if plan.n is None:
        return (
            f"No number of samples per problem halves it: the problems' own spread sets a floor of {floor:.2f} "
            "points, and only more problems go below it."
        )
    more = "more" if plan.n > n_now else "no more"
    return (
        f"Halving it takes {plan.n:,} samples per problem ({more} than the {n_now} drawn; the floor that the "
        f"problems' own spread sets is {floor:.2f} points)."
    )


def soft_caveat(model: str, soft: float, chance: float) -> str:
    """Why the model with the most narrowed soft error bars got them: near-uniform probabilities say little."""
    if abs(soft - chance) < 0.03:
        return (
            f"The narrowest bars belong to {model}, whose soft accuracy ({soft:.3f}) sits near chance "
            f"({chance:.2f}): its probabilities are nearly uniform, so they barely vary, and say little."
        )
    return f"The narrowest bars belong to {model} (soft accuracy {soft:.3f})."


def position_preference(rater: str, first: int, second: int, p: float, alpha: float = 0.05) -> str:
    """Which answer a rater prefers, read from its first-versus-second counts and their exact sign test."""
    share = first / (first + second)
    if p > alpha:
        return f"{rater} shows no clear preference ({share:.0%} for the first answer, sign test p = {p:.2g})"
    side = "first" if first > second else "second"
    return f"{rater} favours the {side} answer ({share:.0%} for the first, sign test p = {p:.2g})"


def covers(lower: float, upper: float, value: float) -> str:
    """Whether an interval contains a value: the verb for the sentence."""
    return "contains" if lower <= value <= upper else "misses"


def how_often(a: float, b: float, near: float = 0.005) -> str:
    """ "more often", "less often" or "about as often": a compared with b."""
    if abs(a - b) <= near:
        return "about as often"
    return "more often" if a > b else "less often"


def same_or_other(first: str, second: str) -> str:
    """Whether two leaderboards agree on their leader."""
    return f"the same leader, {first}" if first == second else f"another leader: {second} instead of {first}"


def ppi_worth(with_judge: int, people_only: int) -> str:
    """Whether a judge saves human labels under PPI, from the two planned label counts."""
    if with_judge < people_only:
        return (
            f"With this judge PPI needs {with_judge:,} labels for that width, people alone {people_only:,}: "
            "the judge's verdicts stand in for the rest."
        )
    return (
        f"With this judge PPI needs {with_judge:,} labels for that width, people alone only {people_only:,}. "
        "PPI's variance is that of people minus judge, and a judge that disagrees with people this often makes "
        "that difference vary more than people's own labels do: here the judge costs labels instead of saving "
        "them. (The power-tuned PPI++ of ppi_py weights the judge by how much it helps, down to not at all.)"
    )


def narrower(first: tuple[float, float], second: tuple[float, float]) -> str:
    """ "narrower" or "wider": the first interval against the second."""
    return "narrower" if first[1] - first[0] < second[1] - second[0] else "wider"


def tie_gap(crowd: float, judges: dict[str, float]) -> str:
    """What the tie shares say about the judges' disagreement with people."""
    rare = [name for name, share in judges.items() if share < crowd / 2]
    if len(rare) == len(judges):
        return (
            "Much of the gap is ties: the judges rarely call one. A judge that is forced, or inclined, to pick a "
            "winner cannot agree with people who see no difference."
        )
    if rare:
        return f"Part of the gap is ties: {names(rare)} rarely calls one, where people often see no difference."
    return "Ties do not explain the gap: the judges call ties about as often as people do."


def panel_worth(votes: float) -> str:
    """What a panel of two judges is worth, from its effective votes."""
    if votes < 1.995:
        return f"so the pair is worth {votes:.2f} independent votes, not two"
    if votes <= 2.005:
        return f"so the pair is worth {votes:.2f} votes: their errors are nearly independent"
    return f"so the pair is worth {votes:.2f} votes, more than two: their errors fall on different pairs"


def above_chance(judges: dict[str, tuple[float, float]], draws: int) -> str:
    """Whether each judge's agreement with people is beyond chance, from its kappa and Monte Carlo p-value."""
    floor = 1 / (draws + 1)
    if all(kappa > 0 and p <= floor for kappa, p in judges.values()):
        return (
            f"Both are above chance: not one of {draws:,} random rearrangements of a judge's verdicts matched "
            f"the crowd as well, so each p-value is at most {floor:.1e} (a Monte Carlo p-value counts the "
            "observed table as one of the draws, and is never zero)."
        )
    parts = [
        f"{name} {'is above chance' if kappa > 0 and p <= 0.05 else 'is no better than chance'} (p = {p:.2g})"
        for name, (kappa, p) in judges.items()
    ]
    return f"Against {draws:,} random rearrangements of each judge's verdicts, {names(parts)}."


def order_kept(taus: dict[str, float], broad: float = 0.3) -> str:
    """Whether each judge's leaderboard keeps the crowd's order, from Kendall's tau against the crowd's."""
    kept = [name for name, tau in taus.items() if tau >= broad]
    if len(kept) == len(taus):
        return "the judges keep the broad order and move many models within it"
    lost = [name for name in taus if name not in kept]
    verb = "does" if len(lost) == 1 else "do"
    return f"{names(lost)} {verb} not keep the crowd's order" + (
        f", while {names(kept)} keeps its outline" if kept else ""
    )


def kappa_paradox(kappa: float, ac1: float) -> str:
    """Whether kappa's paradox (high agreement, low kappa; AC1 high) shows for a judge."""
    if ac1 > kappa + 0.1:
        return (
            f"kappa's paradox shows: AC1 ({ac1:.3f}) is well above kappa ({kappa:.3f}), because one verdict "
            "dominates and kappa's chance term grows with it."
        )
    return (
        f"AC1 ({ac1:.3f}) tells the same story as kappa ({kappa:.3f}): no verdict dominates enough for kappa's "
        "paradox (high agreement, low kappa) to show."
    )


def inside_rank_intervals(outside: dict[str, int], total: int) -> str:
    """How many models a judge's leaderboard puts outside the crowd's rank intervals."""
    parts = [f"{n} on {name}'s" for name, n in outside.items()]
    if all(n < total / 2 for n in outside.values()):
        return (
            f"Most of the judges' reordering stays inside that uncertainty: of the {total} models, only "
            f"{names(parts)} leaderboard land outside the crowd's rank interval."
        )
    return f"The judges move many models beyond that uncertainty: of the {total} models, {names(parts)} leaderboard land outside the crowd's rank interval."


def audit_interval(findings: list[Any], printed_half: float, binomial_halves: list[float]) -> str:
    """What the audit says about a printed interval, and which way it differs from the binomial ones."""
    odd = [f for f in findings if f.check == "interval" and f.severity == "warning"]
    if not odd:
        return "The audit identifies it as an ordinary binomial interval of that many questions."
    if printed_half < min(binomial_halves):
        side = f"narrower than the Wald, Wilson and Clopper-Pearson intervals (half-width {printed_half:.1f} points against at least {min(binomial_halves):.1f})"
    elif printed_half > max(binomial_halves):
        side = f"wider than the Wald, Wilson and Clopper-Pearson intervals (half-width {printed_half:.1f} points against at most {max(binomial_halves):.1f})"
    else:
        side = "of another shape than the Wald, Wilson and Clopper-Pearson intervals"
    return (
        "The audit finds it is no binomial interval of that many questions (Wald, Wilson, Clopper-Pearson, "
        f"Agresti-Coull or t): it is {side}. The vote is a mean over panels, and an interval over panels or "
        "questions of that mean (a bootstrap, say) can be; the article should say which it is."
    )
