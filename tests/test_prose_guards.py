"""The book's data sentences follow their numbers: change the numbers and the sentence changes with them."""

import numpy as np
import pytest

import exactstats as es
from book._code import prose


def test_split_half_never_says_inflates_when_the_held_out_lead_is_larger():
    assert "inflates" in prose.split_half(3.0, 1.0)
    assert "inflates" not in prose.split_half(20.1, 20.9)  # our panel's case: the leader is far ahead
    assert "nothing measurable" in prose.split_half(2.0, 2.01)


def test_pairing_sentence_follows_the_narrowing():
    assert "narrows" in prose.pairing_effect(0.3)
    assert "widens" in prose.pairing_effect(-0.05)
    assert "barely" in prose.pairing_effect(0.01)  # our panel: about one per cent is not a lesson in pairing
    assert "barely" in prose.pairing_effect(0.01 - 0.0099)


def test_difficulty_claim_needs_more_than_chance():
    assert prose.difficulty(0.10, 0.20, 0.05, 0.1).startswith("questions differ")
    assert "do not show it" in prose.difficulty(0.05, 0.21, 0.05, 0.2)


def test_letter_bias_direction_is_read_from_the_data():
    assert "fake agreement" in prose.letter_bias(0.2, 0.01)
    assert "disagreement" in prose.letter_bias(-0.149, 0.014)  # the shipped original-order control
    assert "about where" in prose.letter_bias(0.015, 0.014)


def test_wilson_clt_sentence():
    assert "nearly coincide" in prose.wilson_vs_clt(0.05)
    assert "differ by up to" in prose.wilson_vs_clt(1.5)


def test_guards_fire_on_a_synthetic_panel():
    """A panel built to be strongly correlated flips the difficulty and pairing sentences."""
    rng = np.random.default_rng(0)
    hard = rng.random(2000) < 0.4  # shared difficulty: everyone fails the hard questions more often
    C = np.array([(rng.random(2000) < np.where(hard, 0.1, a)).astype(int) for a in (0.9, 0.85, 0.8)])
    k, q = C.shape
    acc = C.mean(axis=1)
    all_right, all_wrong = np.mean(C.sum(axis=0) == k), np.mean(C.sum(axis=0) == 0)
    assert prose.difficulty(all_right, all_wrong, float(np.prod(acc)), float(np.prod(1 - acc))).startswith(
        "questions differ"
    )
    b, c = es.discordance(C[0], C[1])
    pi = es.paired_difference_interval(b, c, q)
    ui = es.unpaired_difference_interval(int(C[0].sum()), int(C[1].sum()), q)
    assert "narrows" in prose.pairing_effect(1 - pi.half_width / ui.half_width)
    shuffled = np.array([rng.permutation(row) for row in C])  # independence: the sentence says so
    s_right, s_wrong = np.mean(shuffled.sum(axis=0) == k), np.mean(shuffled.sum(axis=0) == 0)
    assert "do not show it" in prose.difficulty(s_right, s_wrong, float(np.prod(acc)), float(np.prod(1 - acc)))


def test_format_sentence_needs_both_kinds_of_model():
    both = prose.format_choice({"big": 14.8}, ["tiny", "small"])
    assert "big gains 14.8 points" in both and "tiny and small are at chance" in both and "they have" in both
    assert "small is at chance" in prose.format_choice({"big": 3.0}, ["small"])
    assert prose.format_choice({}, ["tiny"]) == ""  # no model gains from letters: nothing to contrast
    assert prose.format_choice({"big": 14.8}, []) == ""  # every model reads letters: nothing to contrast
    with pytest.raises(ValueError, match="letter_gains"):
        prose.format_choice({"big": -2.0}, ["tiny"])  # the answer text was better: the sentence would be false


def test_names_lists_read_as_a_sentence():
    assert [prose.names(x) for x in (["a"], ["a", "b"], ["a", "b", "c"])] == ["a", "a and b", "a, b and c"]


def test_samples_plan_sentence_follows_the_planner():
    table = [(20, 4), (20, 19), (20, 0), (20, 11), (20, 7)]
    never = es.samples_per_problem_float(table, 5, "0.05", "pass^k")
    assert never.n is None and "No number of samples" in prose.samples_plan(never, 20)
    se = es.standard_error_at_float([(10, 5)] * 3 + [(10, 6)] * 3, 1, 10)
    reachable = es.samples_per_problem_float([(10, 5)] * 3 + [(10, 6)] * 3, 1, se / 2)
    text = prose.samples_plan(reachable, 10)
    assert reachable.n is not None and f"{reachable.n:,} samples per problem" in text and "more than the 10" in text


def test_soft_caveat_names_near_uniform_probabilities_only_when_they_are():
    assert "nearly uniform" in prose.soft_caveat("m", 0.26, 0.25)
    assert "nearly uniform" not in prose.soft_caveat("m", 0.6, 0.25)


def test_judges_sentences_follow_their_numbers():
    assert "no clear preference" in prose.position_preference("the crowd", 52, 48, 0.76)
    assert "favours the first" in prose.position_preference("a judge", 70, 30, 0.0001)
    assert "favours the second" in prose.position_preference("a judge", 30, 70, 0.0001)
    assert prose.covers(0.2, 0.4, 0.3) == "contains" and prose.covers(0.2, 0.4, 0.41) == "misses"
    assert prose.how_often(0.7, 0.6) == "more often" and prose.how_often(0.6, 0.7) == "less often"
    assert prose.how_often(0.6, 0.602) == "about as often"
    assert "the same leader" in prose.same_or_other("x", "x") and "instead of x" in prose.same_or_other("x", "y")
    assert "rarely call one" in prose.tie_gap(0.4, {"a": 0.05, "b": 0.1})
    assert prose.tie_gap(0.4, {"a": 0.05, "b": 0.3}).startswith("Part of the gap is ties: a rarely")
    assert "do not explain" in prose.tie_gap(0.4, {"a": 0.35, "b": 0.3})
    assert "not two" in prose.panel_worth(1.37) and "more than two" in prose.panel_worth(2.4)
    assert "nearly independent" in prose.panel_worth(2.0)
    assert "costs labels" in prose.ppi_worth(3841, 905) and "stand in" in prose.ppi_worth(300, 905)
    assert prose.narrower((0.2, 0.3), (0.1, 0.4)) == "narrower" and prose.narrower((0.1, 0.4), (0.2, 0.3)) == "wider"
    assert prose.above_chance({"a": (0.2, 1 / 20_001), "b": (0.1, 1 / 20_001)}, 20_000).startswith("Both are above")
    mixed = prose.above_chance({"a": (0.2, 1 / 20_001), "b": (-0.1, 0.9)}, 20_000)
    assert "a is above chance" in mixed and "b is no better than chance" in mixed
    assert prose.order_kept({"a": 0.5, "b": 0.6}).startswith("the judges keep")
    assert prose.order_kept({"a": 0.5, "b": -0.6}) == "b does not keep the crowd's order, while a keeps its outline"
    assert "same story" in prose.kappa_paradox(0.22, 0.18) and "paradox shows" in prose.kappa_paradox(-0.1, 0.7)
    assert "only 7 on a's and 5 on b's" in prose.inside_rank_intervals({"a": 7, "b": 5}, 59)
    assert "beyond that uncertainty" in prose.inside_rank_intervals({"a": 40, "b": 5}, 59)
    from exactstats.audit import Finding

    odd = [Finding("warning", "x", "interval", "no interval")]
    assert "narrower than the Wald" in prose.audit_interval(odd, 2.0, [2.3, 2.29, 2.33])
    assert "wider than the Wald" in prose.audit_interval(odd, 2.6, [2.3, 2.29, 2.33])
    assert "another shape" in prose.audit_interval(odd, 2.3, [2.29, 2.33])
    assert "ordinary binomial" in prose.audit_interval([Finding("note", "x", "interval", "wilson")], 2.0, [2.3])
