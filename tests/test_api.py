"""The public surface: explicit names, one naming rule for float twins, a doctest on every function."""

import inspect
import subprocess
import sys

import exactstats as es
from tests.conftest import ROOT

FLOAT_TWIN_EXCEPTIONS = {"redraw_counts"}  # returns integer counts drawn at random, not a float


def public_functions():
    return {name: getattr(es, name) for name in es.__all__ if inspect.isfunction(getattr(es, name, None))}


def test_all_is_explicit_and_complete():
    assert len(es.__all__) == len(set(es.__all__))
    assert all(hasattr(es, name) for name in es.__all__)
    assert not any(inspect.ismodule(getattr(es, name)) for name in es.__all__)


def test_every_public_function_has_a_doctest():
    missing = sorted(name for name, f in public_functions().items() if ">>>" not in (f.__doc__ or ""))
    assert not missing, f"public functions without a doctest: {missing}"


def test_functions_returning_floats_end_in_float():
    offenders = []
    for name, f in public_functions().items():
        ret = inspect.signature(f).return_annotation
        text = ret if isinstance(ret, str) else getattr(ret, "__name__", str(ret))
        if text in ("float", "np.ndarray") and not name.endswith("_float") and name not in FLOAT_TWIN_EXCEPTIONS:
            if name not in ("majority_vote", "probability_average"):  # option indices, not statistics
                offenders.append(name)
    assert not offenders


def test_import_loads_no_heavy_library():
    code = "import sys, exactstats; print(sorted(m for m in ('pandas', 'sympy', 'matplotlib', 'pyarrow', 'scipy', 'torch') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]"


def test_core_modules_do_not_import_report_or_scoring():
    # the CLI and the package's lazy dataset attribute hand over to the report package on demand
    for path in (ROOT / "exactstats").glob("*.py"):
        if path.name in ("cli.py", "__init__.py"):
            continue
        code = path.read_text().split('"""', 2)[-1]  # after the module docstring
        for word in ("report", "import pandas", "import matplotlib", "pyarrow", "import scoring", "from scoring"):
            assert word not in code, (path.name, word)


def test_the_package_docstring_lists_every_public_function():
    """One table, by topic, names every public function and class (a newcomer's map of the package)."""
    import re

    listed = set(re.findall(r":(?:func|class):`(\w+)`", es.__doc__))
    public = {n for n in es.__all__ if callable(getattr(es, n))}
    assert public - listed == set(), sorted(public - listed)
    assert listed - set(es.__all__) <= {"fractions", "ValueError"}, sorted(listed - set(es.__all__))


def test_docstring_table_is_a_well_formed_table():
    """The table of functions is an RST simple table: a name longer than its column breaks the HTML build only,
    so it is parsed here (Sphinx's roles are unknown to plain docutils and ignored)."""
    import docutils.core
    import docutils.utils

    messages = []
    settings = {"report_level": 5, "halt_level": 5, "warning_stream": False}
    doctree = docutils.core.publish_doctree(es.__doc__, settings_overrides=settings)
    for node in doctree.findall(lambda n: n.tagname == "system_message"):
        messages.append(node.astext())
    assert not [m for m in messages if "table" in m.lower()], messages
    assert doctree.next_node(lambda n: n.tagname == "table") is not None
