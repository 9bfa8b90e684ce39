"""The student edition: the book's sources with every solution removed before Sphinx parses them.

A solution is the span from a ``{solution-start}`` fence to the matching ``{solution-end}``
block (text and executed cells alike). Removing it from the source, rather than hiding it
in the page, keeps it out of the HTML, the search index and the executed notebooks; the
student build also copies no sources.
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


def on_source_read(app, docname: str, source: list[str]) -> None:
    source[0] = strip_solutions(source[0])
