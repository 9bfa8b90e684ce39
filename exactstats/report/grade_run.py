"""``exactstats grade SUBMISSIONS.csv``: a teacher grades every student's answers to the book's exercises.

The file is a CSV with columns ``student``, ``exercise`` (``3.1``) and ``answer`` (as a student would type it
for ``exactstats check``; a list as ``3,9`` in quotes or ``3 9``). Each row is checked by
:func:`exactstats.exercises.check`: *right* earns a mark, *close* half, *wrong* none; explanation
exercises are listed for reading. A row that cannot be graded (unknown exercise, an answer that is no
number, a second submission of the same exercise by the same student) is reported with its line number
and left out of the marks, never dropped silently.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from .._validate import ExactStatsError
from ..exercises import check, exercise_order
from ..variants import LABELS
from .csv_rows import read_csv_rows
from .render import Block, html_from_blocks, markdown_from_blocks

COLUMNS = ("student", "exercise", "answer")
MARKS = {"right": 1.0, "close": 0.5, "wrong": 0.0}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("submissions", help="CSV with columns student, exercise, answer (one row per answer)")
    p.add_argument("--out", help="write the grade table (one row per student and exercise) as CSV here")
    p.add_argument("--html", help="write a summary page (per exercise, per student, common wrong answers) here")
    p.add_argument(
        "--book-numbers",
        action="store_true",
        help="grade every answer against the book's numbers (a class that did the book's versions), not each "
        "student's own (exactstats exercise N.M --student ID)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")


@dataclass
class Graded:
    line: int
    student: str
    exercise: str
    answer: str
    verdict: str  # right, close, wrong, unchecked (an explanation), or invalid (see problem)
    message: str
    marks: float | None


@dataclass
class Grades:
    source: str
    rows: list[Graded]
    problems: list[str] = field(default_factory=list)

    def students(self) -> dict[str, float]:
        totals: dict[str, float] = defaultdict(float)
        for r in self.rows:
            totals[r.student] += r.marks or 0.0
        return dict(sorted(totals.items()))

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "rows": [dict(vars(r)) for r in self.rows],
            "students": self.students(),
            "problems": self.problems,
        }


def grade(path: str, book_numbers: bool = False) -> Grades:
    """Every row of a submissions file, graded against that student's version of the exercise (the book's
    numbers for everyone with ``book_numbers``); rows that cannot be graded are named in ``problems``."""
    header, body = read_csv_rows(path)
    if not set(COLUMNS) <= set(header):
        raise ExactStatsError(f"{path}: needs columns student, exercise, answer (got {', '.join(header)})")
    at = {c: header.index(c) for c in COLUMNS}
    out = Grades(path, [])
    first: dict[tuple[str, str], int] = {}
    for line, row in body:
        student, exercise, answer = (row[at[c]].strip() for c in COLUMNS)
        out.rows.append(_grade_row(out, first, line, (student, exercise, answer), book_numbers))
    if not out.rows:
        raise ExactStatsError(f"{path}: no submissions")
    return out


def _grade_row(
    out: Grades, first: dict[tuple[str, str], int], line: int, row: tuple[str, str, str], book_numbers: bool
) -> Graded:
    student, exercise, answer = row

    def invalid(problem: str) -> Graded:
        out.problems.append(f"line {line}: {problem}")
        return Graded(line, student, exercise, answer, "invalid", problem, None)

    if not student or not exercise:
        return invalid("empty student or exercise")
    if exercise not in LABELS:
        return invalid(f"no exercise {exercise!r} in the book")
    if (student, exercise) in first:
        return invalid(f"{student} answered {exercise} already on line {first[(student, exercise)]}; not graded")
    first[(student, exercise)] = line
    try:
        verdict, message = check(exercise, answer, student=None if book_numbers else student)
    except (ValueError, ArithmeticError) as exc:  # ExactStatsError is a ValueError: a bad answer, or no dataset
        return invalid(f"the answer {answer!r} to {exercise} cannot be graded: {' '.join(str(exc).split())}")
    return Graded(line, student, exercise, answer, verdict, message, MARKS.get(verdict))


def grade_blocks(g: Grades) -> list[Block]:
    """The summary: per exercise (with its most common wrong answers), per student, and the rows not graded."""
    by_exercise: dict[str, Counter[str]] = defaultdict(Counter)
    wrong: dict[str, Counter[str]] = defaultdict(Counter)
    for r in g.rows:
        if r.verdict != "invalid":
            by_exercise[r.exercise][r.verdict] += 1
        if r.verdict == "wrong":
            wrong[r.exercise][r.answer] += 1
    exercises = [
        [e, str(c["right"]), str(c["close"]), str(c["wrong"]), str(c["unchecked"]), ", ".join(
            f"{a} ({n})" for a, n in wrong[e].most_common(3))]
        for e, c in sorted(by_exercise.items(), key=lambda kv: exercise_order(kv[0]))
    ]  # fmt: skip
    students = [[s, f"{m:g}"] for s, m in g.students().items()]
    out: list[Block] = [
        ("h1", f"Grades: {len(students)} students, {len(g.rows)} answers"),
        ("h2", "Per exercise"),
        ("table", (["exercise", "right", "close", "wrong", "to read", "common wrong answers"], exercises)),
        ("h2", "Per student (right 1, close 1/2)"),
        ("table", (["student", "marks"], students)),
    ]
    if g.problems:
        out += [("h2", "Rows not graded"), ("ul", g.problems)]
    return out


def grade_table(g: Grades) -> str:
    """The grade table as CSV: one row per submission, with its verdict and marks."""
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["line", "student", "exercise", "answer", "verdict", "marks", "message"])
    for r in g.rows:
        w.writerow([r.line, r.student, r.exercise, r.answer, r.verdict, "" if r.marks is None else r.marks, r.message])
    return buf.getvalue()


def main(args: argparse.Namespace) -> None:
    from . import refuse_to_overwrite_an_input, write_atomically

    g = grade(args.submissions, book_numbers=args.book_numbers)
    if args.out:
        refuse_to_overwrite_an_input(args.out, [args.submissions])
        write_atomically(args.out, grade_table(g))
    if args.html:
        refuse_to_overwrite_an_input(args.html, [args.submissions])
        write_atomically(args.html, html_from_blocks(grade_blocks(g), [], title="Grades"))
    print(
        json.dumps(g.to_json()) if args.json else markdown_from_blocks(grade_blocks(g)), end="\n" if args.json else ""
    )
