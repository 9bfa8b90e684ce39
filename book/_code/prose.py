"""Sentences about data, chosen from the numbers they describe (book helpers, tested in tests/test_prose_guards.py).

Every function returns the sentence that its numbers make true and never one they contradict: a
change in data or code that flips a comparison changes the sentence, and a case no sentence covers
raises, which fails the book build.
"""

from __future__ import annotations

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
