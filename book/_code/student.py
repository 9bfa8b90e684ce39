"""The student edition: the book with every solution removed from what students get.

A solution is the span from a ``{solution-start}`` fence to the matching ``{solution-end}``
block (text and executed cells alike). The chapters are parsed and executed exactly as in the
full edition, so the student build finds every cell's outputs in the execution cache that
``make html`` filled (it executed every chapter again when the sources were cut first); then
:func:`remove_solutions` takes each solution out of the parsed document before anything is
written, so no page or search index holds it. Sources given for download are rewritten
with :func:`strip_solutions` (conf.py), and ``tests/check_student.py`` reads the whole output.
"""

from __future__ import annotations

import re

START = re.compile(r"^(`{3,}|:{3,})\{solution-start\}.*$")
END = re.compile(r"^(`{3,}|:{3,})\{solution-end\}\s*$")


def strip_solutions(text: str) -> str:
    """The text without its solutions; an unclosed solution is an error (nothing is left half-removed)."""
    out: list[str] = []
    skipping = False
    lines = text.splitlines(keepends=True)
    i = 0
    while i < len(lines):
        line = lines[i].rstrip("\n")
        if not skipping and START.match(line):
            skipping = True
        elif skipping and END.match(line):
            skipping = False
            i += 1  # the end block's closing fence
        elif not skipping:
            out.append(lines[i])
        i += 1
    if skipping:
        raise ValueError("a {solution-start} block has no {solution-end}")
    return "".join(out)


def remove_solutions(app, doctree) -> None:
    """Every solution node (sphinx-exercise's, holding the solution's text and cells) out of the document."""
    from sphinx_exercise.nodes import solution_end_node, solution_node, solution_start_node

    for kind in (solution_node, solution_start_node, solution_end_node):
        for node in list(doctree.findall(kind)):
            node.parent.remove(node)
