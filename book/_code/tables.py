"""A glued DataFrame shown as a numbered *table* ("Table 2.1"), not as a figure.

MyST-NB's ``glue:figure`` wraps any glued output in a figure; Sphinx then numbers it
"Fig.". conf.py turns every such figure named ``tbl-...`` into a :class:`GluedTable`,
registered as an enumerable node of type ``table``, rendered in HTML exactly as the
figure would be.
"""

from __future__ import annotations

from docutils import nodes


class GluedTable(nodes.figure):
    """A figure node that Sphinx numbers as a table."""


def table_title(node: nodes.Element) -> str:
    caption = node.next_node(nodes.caption)
    return caption.astext() if caption is not None else ""


def visit_glued_table(self, node: nodes.Element) -> None:
    self.visit_figure(node)


def depart_glued_table(self, node: nodes.Element) -> None:
    self.depart_figure(node)
