"""The student edition strips every solution and nothing else."""

import pytest

from book._code.student import strip_solutions
from tests.conftest import ROOT


def test_strip_removes_solutions_and_their_cells():
    text = "\n".join(
        [
            "Intro",
            "```{exercise}",
            ":label: e1",
            "",
            "Do it.",
            "```",
            "",
            "```{solution-start} e1",
            ":class: dropdown",
            "```",
            "",
            "Secret words.",
            "",
            "```{code-cell} ipython3",
            "secret = 42",
            "```",
            "",
            "```{solution-end}",
            "```",
            "",
            "Outro",
            "",
        ]
    )
    out = strip_solutions(text)
    assert "Secret" not in out and "secret" not in out and "solution" not in out
    assert "Do it." in out and "Intro" in out and "Outro" in out


def test_every_chapter_strips_cleanly():
    for md in sorted((ROOT / "book").glob("*.md")):
        text = md.read_text()
        out = strip_solutions(text)
        assert "{solution" not in out, md.name
        assert out.count("{exercise}") == text.count("{exercise}"), md.name


def test_unclosed_solution_is_an_error():
    with pytest.raises(ValueError):
        strip_solutions("```{solution-start} e1\n```\ntext\n")


def test_remove_solutions_takes_every_solution_node_out_of_a_document():
    from docutils import nodes
    from sphinx_exercise.nodes import solution_node

    from book._code.student import remove_solutions

    doc = nodes.section()
    keep = nodes.paragraph(text="the exercise")
    doc += keep
    inner = nodes.section()
    inner += solution_node("", nodes.paragraph(text="the answer"))  # nested inside a section, too
    doc += solution_node("", nodes.paragraph(text="the answer"))
    doc += inner
    remove_solutions(None, doc)
    assert not list(doc.findall(solution_node)) and "the answer" not in doc.astext() and keep.parent is doc
