"""The answer checker: in sync with the book and its canonical answers, right for them, wrong otherwise."""

import re
from fractions import Fraction

import pytest

import exactstats as es
from exactstats._exercise_answers import REGISTRY
from exactstats.cli import main
from exactstats.exercises import check
from tests.conftest import ROOT
from tests.exercise_answers import answers, book_ids, registry


def test_registry_is_in_sync_with_the_book_and_the_answers():
    assert REGISTRY == registry(), "run python -m tests.exercise_answers"
    assert {label for label, _, _ in REGISTRY.values()} == set(book_ids())


def test_canonical_answers_are_right_and_others_wrong():
    ids = book_ids()
    for label, (answer, kind, *_) in answers().items():
        exercise = ids[label]
        if kind == "list":
            assert check(exercise, [str(a) for a in answer])[0] == "right", exercise
            assert check(exercise, [str(a + 1) for a in answer])[0] == "wrong", exercise
        elif kind == "choice":
            assert check(exercise, answer)[0] == "right", exercise
            assert check(exercise, f" ({answer.upper()}). ")[0] == "right", exercise  # case, brackets, spaces
            others = [x for x in ("a", "b", "c", "chosen_letter", "a>c") if x != answer]
            assert all(check(exercise, x)[0] == "wrong" for x in others), exercise
        elif kind == "decimal":
            assert check(exercise, f"{float(answer):.4f}")[0] == "right", exercise
            assert check(exercise, f"{float(answer) + 0.01:.4f}")[0] == "wrong", exercise
        else:
            assert check(exercise, str(Fraction(answer)))[0] == "right", exercise
            assert check(exercise, Fraction(answer))[0] == "right", exercise
            assert check(exercise, str(Fraction(answer) + Fraction(1, 7)))[0] == "wrong", exercise
            decimal = f"{float(answer):.6f}"
            if Fraction(decimal) != Fraction(answer) and abs(answer) > Fraction(1, 10**6):  # "close" (not ~0)
                assert check(exercise, decimal)[0] == "close", exercise


def test_nothing_but_hashes_is_stored():
    text = (ROOT / "exactstats" / "_exercise_answers.py").read_text()
    for answer, kind, *_ in answers().values():
        if kind == "choice":
            continue  # a letter or a word: its hash is the whole protection (see exactstats.exercises)
        values = answer if isinstance(answer, list) else [answer]
        for v in values:
            f = Fraction(v)
            if f.denominator != 1 or abs(f) > 9:
                for shown in (str(f), f"{float(f):.4f}"):
                    assert not re.search(rf"(?<![0-9a-f./]){re.escape(shown)}(?![0-9a-f/])", text), shown


def test_cli_check(capsys):
    assert main(["check", "1.1", str(es.majority_probability("0.6", 5))]) == 0
    assert "right" in capsys.readouterr().out
    assert main(["check", "1.3", "b"]) == 0
    assert "right" in capsys.readouterr().out
    assert main(["check", "1.3", "a"]) == 0
    assert "wrong" in capsys.readouterr().out
    assert main(["check", "99.9", "1"]) == 2
    assert main(["check", "1.1", "seven"]) == 2


@pytest.mark.parametrize("bad", ["0", "1.99", ""])
def test_unknown_exercise_ids_are_refused(bad):
    with pytest.raises(es.ExactStatsError):
        check(bad, "1")


def test_the_teachers_page_examples_print_what_it_says(capsys):
    """Every `$ exactstats check ...` line on the teachers' page, run: the next line is its exact output."""
    import re
    import shlex

    from exactstats.cli import main

    text = (ROOT / "book" / "teachers.md").read_text()
    pairs = re.findall(r"^\$ (exactstats check [^\n#]+?)\s*(?:#[^\n]*)?\n([^\n$][^\n]*)$", text, flags=re.M)
    assert len(pairs) >= 3
    for command, shown in pairs:
        assert main(shlex.split(command)[1:]) == 0
        assert capsys.readouterr().out.strip() == shown.strip(), command
