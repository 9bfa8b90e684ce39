"""The built wheel, installed into a fresh environment away from the checkout, works on its own.

Dependencies come from this environment through a ``.pth`` line (no network); the checkout's
own packages do not (the editable install's hook is not processed there), so ``exactstats``
can only be the wheel's copy. The dataset is found only where it is named.
"""

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(python, exactstats script, wheel path) of a fresh venv holding only the wheel."""
    base = tmp_path_factory.mktemp("wheel")
    src = base / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, src / name)
    for package in ("exactstats", "scoring"):
        shutil.copytree(ROOT / package, src / package, ignore=shutil.ignore_patterns("__pycache__"))
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet"]
    subprocess.run(
        [*pip, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(base / "dist"), str(src)],
        check=True,
    )
    (wheel,) = (base / "dist").glob("exactstats-*.whl")
    env = base / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    python = env / "bin" / "python"
    subprocess.run([*pip, "--python", str(python), "install", "--no-deps", "--no-index", str(wheel)], check=True)
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    with open(os.path.join(purelib, "_dependencies_from_the_test_env.pth"), "w") as f:
        f.write(sysconfig.get_paths()["purelib"] + "\n")
    return python, env / "bin" / "exactstats", wheel


def away(tmp_path, *command, data=None):
    """Run ``command`` outside the checkout, with no PYTHONPATH and the dataset only if ``data`` is given."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "EXACTSTATS_DATA_DIR")}
    if data is not None:
        env["EXACTSTATS_DATA_DIR"] = str(data)
    return subprocess.run([str(c) for c in command], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)


def test_the_wheel_holds_the_package_and_not_the_project_tools(installed):
    names = zipfile.ZipFile(installed[2]).namelist()
    assert "exactstats/__init__.py" in names and "exactstats/report/render.py" in names
    assert "scoring/driver.py" in names and "scoring/sandbox.py" in names
    assert not [n for n in names if n.startswith(("tools/", "tests/", "data/", "book/"))]


def test_installed_package_is_the_wheel_not_the_checkout(installed, tmp_path):
    python, _, _ = installed
    done = away(tmp_path, python, "-c", "import exactstats, scoring; print(exactstats.__file__, scoring.__file__)")
    assert done.returncode == 0, done.stderr
    assert str(ROOT) not in done.stdout and str(python.parents[1]) in done.stdout


def test_report_from_the_installed_script_on_a_shipped_file(installed, tmp_path):
    _, script, _ = installed
    done = away(tmp_path, script, "report", ROOT / "data" / "shuffled-2000.matrix.parquet", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["questions"] == 2000 and report["models"] == 4
    page = away(
        tmp_path, script, "report", ROOT / "tests" / "fixtures" / "tasks" / "long.csv", "--out", tmp_path / "r.html"
    )
    assert page.returncode == 0, page.stderr
    assert "<html" in (tmp_path / "r.html").read_text().lower()


def test_the_dataset_is_found_only_where_it_is_named(installed, tmp_path):
    python, _, _ = installed
    load = "import exactstats as es; print(es.load_panel('shuffled').matrix.shape)"
    missing = away(tmp_path, python, "-c", load)
    assert missing.returncode != 0 and "EXACTSTATS_DATA_DIR" in missing.stderr.splitlines()[-1]
    named = away(tmp_path, python, "-c", load, data=ROOT / "data")
    assert named.returncode == 0 and named.stdout.strip() == "(4, 2000)"
