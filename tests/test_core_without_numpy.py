"""The exact core imports and runs with NumPy, SciPy, pandas and gmpy2 absent (as in Pyodide's core runtime):
NumPy is imported on first use by the float twins only, and gmpy2 has a pure-Python fallback."""

import subprocess
import sys

from tests.conftest import ROOT

BLOCKED = ("numpy", "scipy", "pandas", "gmpy2", "sympy", "mpmath", "matplotlib", "pyarrow")

SCRIPT = f"""
import sys
for name in {BLOCKED!r}:
    sys.modules[name] = None            # any import of it fails
import exactstats as es
from exactstats.exercises import check
from exactstats.cli import main
from fractions import Fraction
assert es.pass_at_k(5, 2, 2) == Fraction(7, 10) and es.majority_probability("0.6", 5) == Fraction(2133, 3125)
assert es.mcnemar_p_value(3, 0) == Fraction(1, 4)
assert check("1.1", "2133/3125")[0] == "right" and check("1.1", "0.6826")[0] == "close"
assert main(["check", "1.1", "2133/3125"]) == 0 and main(["passk", "5", "2", "2"]) == 0
assert main(["exercise", "3.1", "--student", "ada"]) == 0
assert main(["report", "x.csv"]) == 2   # needs NumPy: one line, exit 2
try:
    es.mcnemar_p_values_float([3, 4], [1, 2])  # an array twin: the missing package is named
except (es.ExactStatsError, ImportError) as exc:
    assert "numpy" in str(exc) or "scipy" in str(exc), exc
else:
    raise AssertionError("a float twin ran without NumPy")
loaded = sorted(m for m in sys.modules if m.split(".")[0] in {BLOCKED!r} and sys.modules[m] is not None)
assert not loaded, loaded
print("ok")
"""


def test_the_exact_core_runs_without_numpy_and_friends():
    run = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0 and run.stdout.strip().endswith("ok"), run.stdout[-2000:] + run.stderr[-2000:]
    assert "needs numpy" in run.stderr and len([line for line in run.stderr.splitlines() if "error" in line]) == 1
