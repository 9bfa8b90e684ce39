"""Teacher grading: every row graded as `exactstats check` would, bad rows named by line, never dropped."""

import csv
import json
from fractions import Fraction

from exactstats.cli import main
from exactstats.exercises import check


def write(tmp_path, rows):
    path = tmp_path / "subs.csv"
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["student", "exercise", "answer"])
        w.writerows(rows)
    return path


def test_a_class_is_graded_as_the_checker_grades_each_answer(tmp_path, capsys):
    exact = str(Fraction(6, 11))
    rows = [
        ("ann", "9.1", exact),  # right
        ("bob", "9.1", "0.5455"),  # close: a rounded decimal of the right fraction
        ("cat", "9.1", "1/2"),  # wrong
        ("ann", "9.2", "14/25"),
        ("ann", "9.3", "a paragraph"),  # an explanation: listed for reading
        ("bob", "9.2", "14/25"),
        ("bob", "9.2", "1/2"),  # a second submission: not graded, named
        ("cat", "10.1", "1"),  # no such exercise
        ("dan", "9.2", "fourteen"),  # not a number
    ]
    path = write(tmp_path, rows)
    assert (
        main(["grade", str(path), "--book-numbers", "--json", "--out", str(tmp_path / "g.csv"),
              "--html", str(tmp_path / "g.html")]) == 0
    )  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    verdicts = [r["verdict"] for r in out["rows"]]
    assert verdicts == ["right", "close", "wrong", "right", "unchecked", "right", "invalid", "invalid", "invalid"]
    for r in out["rows"][:4]:
        assert r["verdict"] == check(r["exercise"], r["answer"])[0]
    assert out["students"] == {"ann": 2.0, "bob": 1.5, "cat": 0.0, "dan": 0.0}
    assert [p.split(":")[0] for p in out["problems"]] == ["line 8", "line 9", "line 10"]
    assert "already on line 7" in out["problems"][0]
    table = list(csv.DictReader(open(tmp_path / "g.csv")))
    assert len(table) == len(rows) and table[2]["verdict"] == "wrong" and table[0]["marks"] == "1.0"
    page = (tmp_path / "g.html").read_text()
    assert "<h2>Rows not graded</h2>" in page and "1/2 (1)" in page  # cat's wrong answer, counted
    assert main(["grade", str(path), "--out", str(path)]) == 2  # never over its input
    assert path.read_text().startswith("student,exercise,answer")


def test_each_student_is_graded_on_their_own_numbers(tmp_path, capsys):
    """A class file with planted errors: own answers right, a classmate's answer wrong, the book's answer wrong,
    a rounded own answer close; the grades are the checker's with each student's id."""
    from exactstats import variants

    own = {s: str(variants.expected("9.1", s)) for s in ("ann", "bob", "cat", "dan", "eve")}
    assert len(set(own.values())) == len(own)  # five students, five different answers
    book = str(variants.expected("9.1"))
    rows = [
        ("ann", "9.1", own["ann"]),  # right
        ("bob", "9.1", own["ann"]),  # copied from ann: wrong for bob
        ("cat", "9.1", f"{float(Fraction(own['cat'])):.5f}"),  # close, unless exact as a decimal
        ("dan", "9.1", book if book != own["dan"] else "0"),  # the book's answer: wrong for dan
        ("eve", "9.1", own["eve"]),  # right
        ("ann", "4.5", str(variants.expected("4.5", "ann"))),  # right
    ]
    path = write(tmp_path, rows)
    assert main(["grade", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    verdicts = [r["verdict"] for r in out["rows"]]
    cat = "right" if Fraction(f"{float(Fraction(own['cat'])):.5f}") == Fraction(own["cat"]) else "close"
    assert verdicts == ["right", "wrong", cat, "wrong", "right", "right"]
    for r in out["rows"]:
        assert r["verdict"] == check(r["exercise"], r["answer"], student=r["student"])[0]
    assert main(["grade", str(path), "--json", "--book-numbers"]) == 0  # the same file against the book
    against_book = [r["verdict"] for r in json.loads(capsys.readouterr().out)["rows"]]
    assert against_book[3] == ("right" if book != own["dan"] else "wrong") and against_book[0] == "wrong"


def test_files_that_cannot_be_graded_are_refused(tmp_path, capsys):
    bad = tmp_path / "bad.csv"
    bad.write_text("name,ex,ans\na,1.1,1\n")
    assert main(["grade", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "needs columns student, exercise, answer" in err[0]
    empty = tmp_path / "empty.csv"
    empty.write_text("student,exercise,answer\n")
    assert main(["grade", str(empty)]) == 2 and "no submissions" in capsys.readouterr().err
