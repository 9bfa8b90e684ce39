"""The answer checker: each exercise a generator; the book's numbers give the book's answers, computed
independently in tests/exercise_answers.py; every student gets their own numbers; nothing shipped holds an answer."""

import re
from fractions import Fraction

import pytest

import exactstats as es
from exactstats import variants
from exactstats._exercise_ids import IDS
from exactstats.cli import main
from exactstats.exercises import check
from tests.conftest import ROOT
from tests.exercise_answers import answers, book_ids, subject_shuffle_direction

STUDENTS = ("ada", "bo", "s-0042", "Chen Wei")


def test_ids_are_in_sync_with_the_book():
    assert IDS == {v: k for k, v in book_ids().items()}, "run python -m tests.exercise_answers"
    checkable = {label for label, _ in answers().items()}
    assert set(variants.EXERCISES) == checkable  # every exercise with a check is a generator; the rest explain


def test_the_book_numbers_give_the_independent_answers():
    ids = book_ids()
    for label, (answer, kind, *_) in answers().items():
        got = variants.expected(ids[label])
        if kind == "decimal":
            assert f"{float(got):.4f}" == f"{float(answer):.4f}", label
        elif kind == "list":
            assert [Fraction(g) for g in got] == [Fraction(a) for a in answer], label
        else:
            assert got == answer, label


def test_data_exercises_name_the_shipped_models():
    assert set(variants.MODELS) == set(es.load_panel("shuffled").models)


def test_panel_choice_matches_the_data():
    assert (
        variants.EXERCISES["ex-panel-3"].options[variants.PANEL_3]
        == {"a": "rises", "b": "falls", "c": "stays the same"}[subject_shuffle_direction()]
    )


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


def _typed(value, kind, places=4):
    if kind == "list":
        return [str(Fraction(v)) for v in value]
    if kind == "decimal":
        return f"{float(value):.{places}f}"
    return str(value) if kind == "choice" else str(Fraction(value))


@pytest.mark.parametrize("exercise", [i for i, label in IDS.items() if label in variants.EXERCISES])
def test_every_student_gets_own_numbers_and_is_checked_against_them(exercise):
    ex = variants.EXERCISES[IDS[exercise]]
    if ex.draw is None:  # the same numbers for everyone: the dataset's, or a word
        assert variants.numbers(exercise, "ada") == variants.numbers(exercise) == ex.book
        return
    got = {s: variants.numbers(exercise, s) for s in STUDENTS}
    assert got["ada"] != got["bo"], exercise  # two ids, different numbers
    assert all(variants.numbers(exercise, s) == got[s] for s in STUDENTS)  # the same id, the same numbers
    assert variants.statement(exercise, "ada") != variants.statement(exercise, "bo")
    for s in STUDENTS:
        own = _typed(variants.expected(exercise, s), ex.kind, ex.places)
        assert check(exercise, own, student=s)[0] == "right", (exercise, s)
    ada, bo = (variants.expected(exercise, s) for s in ("ada", "bo"))
    if _typed(ada, ex.kind, ex.places) != _typed(bo, ex.kind, ex.places):  # bo's answer is wrong for ada
        assert check(exercise, _typed(bo, ex.kind, ex.places), student="ada")[0] != "right", exercise


def test_nothing_shipped_holds_or_hides_an_answer():
    """No file of the package holds an answer of a student's version as text, nor a table of hashes (the old
    registry's salted SHA-256 strings): a brute force over integers, small fractions and 6-decimal roundings
    needs something to test its candidates against, and without running the generator there is nothing."""
    texts = {p: p.read_text() for p in (ROOT / "exactstats").rglob("*.py")}
    for path, text in texts.items():
        assert not re.search(r"['\"][0-9a-f]{32}['\"]", text), f"{path}: a hash table"
    assert not (ROOT / "exactstats" / "_exercise_answers.py").exists()
    for exercise, label in IDS.items():
        ex = variants.EXERCISES.get(label)
        if ex is None or ex.draw is None or ex.kind == "choice":
            continue
        for student in ("ada", "bo"):
            value = variants.expected(exercise, student)
            for v in value if isinstance(value, list) else [value]:
                f = Fraction(v)
                if f.denominator <= 1000 and abs(f.numerator) < 10**5:
                    continue  # inside the brute force's own space: such a number appears in any file by chance
                shown = [f"{float(f):.6f}"] + ([f"{f.numerator}/{f.denominator}"] if f.denominator > 1 else [])
                for path, text in texts.items():
                    for s in shown:
                        assert s not in text, (exercise, student, path, s)


def test_cli_exercise_and_check(capsys):
    assert main(["exercise", "1.1", "--student", "ada"]) == 0
    text = capsys.readouterr().out
    assert variants.statement("1.1", "ada") in text
    own = str(variants.expected("1.1", "ada"))
    assert main(["check", "1.1", own, "--student", "ada"]) == 0
    assert "right" in capsys.readouterr().out
    assert main(["check", "1.1", own]) == 0  # the book's numbers: another answer
    assert "wrong" in capsys.readouterr().out
    assert main(["check", "1.1", str(es.majority_probability("0.6", 5))]) == 0
    assert "right" in capsys.readouterr().out
    assert main(["check", "1.3", "b"]) == 0
    assert "right" in capsys.readouterr().out
    assert main(["check", "99.9", "1"]) == 2
    assert main(["check", "1.1", "seven"]) == 2
    assert main(["exercise", "1.1", "--student", " "]) == 2
    assert main(["exercise", "9.3"]) == 0 and "explanation" in capsys.readouterr().out


@pytest.mark.parametrize("bad", ["0", "1.99", ""])
def test_unknown_exercise_ids_are_refused(bad):
    with pytest.raises(es.ExactStatsError):
        check(bad, "1")


def test_the_teachers_page_examples_print_what_it_says(capsys):
    """Every `$ exactstats check ...` line on the teachers' page, run: the next line is its exact output."""
    import shlex

    text = (ROOT / "book" / "teachers.md").read_text()
    pairs = re.findall(
        r"^\$ (exactstats (?:check|exercise) [^\n#]+?)\s*(?:#[^\n]*)?\n([^\n$][^\n]*)$", text, flags=re.M
    )
    assert len(pairs) >= 3
    for command, shown in pairs:
        assert main(shlex.split(command)[1:]) == 0
        assert capsys.readouterr().out.strip().splitlines()[0] == shown.strip(), command


def test_the_teachers_page_names_the_exercises_that_read_the_dataset():
    """The teachers' page lists them by hand; the generators say which they are (``data=True``)."""
    text = " ".join((ROOT / "book" / "teachers.md").read_text().split())
    listed = re.search(r"Exercises whose answer comes from the shipped dataset \(([^)]*)\)", text).group(1)
    reading = sorted((i for i, label in IDS.items() if getattr(variants.EXERCISES.get(label), "data", False)),
                     key=lambda i: tuple(map(int, i.split("."))))  # fmt: skip
    assert re.findall(r"`([\d.]+)`", listed) == reading


@pytest.mark.parametrize("exercise", ["1.1", "2.5", "9.3"])  # drawn, the same for everyone, an explanation
def test_a_blank_student_id_is_refused_for_every_exercise(exercise):
    with pytest.raises(es.ExactStatsError, match="student must be a non-empty id"):
        variants.numbers(exercise, "  ")


def test_a_list_answer_may_be_typed_with_spaces_or_commas():
    want = [str(v) for v in variants.expected("3.1")]
    for typed in (",".join(want), ", ".join(want), " ".join(want), want):
        assert check("3.1", typed)[0] == "right", typed
