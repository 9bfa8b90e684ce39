"""NumPy, imported on first use: the exact core imports and runs without it (in a browser's Pyodide, say).

The float twins and the matrix functions use ``np`` as if NumPy were imported; the first attribute
looked up imports it, and each attribute is then kept on the proxy, so later lookups cost a plain
attribute read. Where NumPy is not installed, the first use raises one clear error.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__all__ = ["np", "numpy_loaded"]


class _LazyNumpy:
    def __getattr__(self, name: str) -> Any:
        try:
            numpy = importlib.import_module("numpy")
        except ImportError:
            from ._validate import ExactStatsError  # here: _validate itself uses this proxy

            raise ExactStatsError(
                f"numpy is needed here (np.{name}: a float twin or a matrix function); the exact functions run "
                "without it: pip install numpy"
            ) from None
        value = getattr(numpy, name)
        setattr(self, name, value)  # found on the instance from now on: no second __getattr__
        return value


def numpy_loaded() -> Any:
    """The numpy module if something has imported it already, else None (a value cannot be a numpy
    scalar before numpy is imported, so type checks need not import it)."""
    import sys

    return sys.modules.get("numpy")


if TYPE_CHECKING:
    import numpy as np
else:
    np = _LazyNumpy()
