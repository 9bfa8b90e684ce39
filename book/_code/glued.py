"""Gluing many values at once, as the text shows them (book helper).

``glue_all(top_acc=F(7, 10), q="2,000")`` stores each keyword under its own name with
``display=False``. An exact ``Fraction`` or a NumPy scalar is stored as the Python float or int
that ``{glue:text}`name:.1%``` formats (myst-nb cannot format a glued Fraction); a string or a
rendered object (``Markdown``, a figure, a DataFrame) is stored as given.

>>> _shown(__import__("fractions").Fraction(1, 4)), _shown(__import__("numpy").int64(3))
(0.25, 3)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
from IPython.display import Markdown  # noqa: F401  (re-exported: a chapter's hidden cells import from here)


def _shown(value: Any) -> Any:
    if isinstance(value, Fraction | np.floating):
        return float(value)
    if isinstance(value, np.integer):
        return int(value)
    return value


def glue(name: str, value: Any, display: bool = True) -> None:
    """``myst_nb.glue``, looked up at call time (a test that runs several chapters in one process replaces it)."""
    import myst_nb

    myst_nb.glue(name, value, display=display)


def glue_all(**values: Any) -> None:
    """Glue every keyword for the text (looked up at call time, so a test can replace ``myst_nb.glue``)."""
    import myst_nb

    for name, value in values.items():
        myst_nb.glue(name, _shown(value), display=False)
