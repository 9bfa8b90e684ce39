"""The book's in-browser Python: Pyodide's core runtime and a wheel of the exact core, served beside the page.

Pyodide's runtime comes from the npm package ``pyodide`` (its core only: no NumPy, pandas or micropip),
fetched once by ``make pyodide`` with ``npm pack`` and checked against the registry's sha512 recorded
here. :func:`install` copies the runtime files and a freshly built wheel of ``exactstats`` (pure Python)
into a built site's ``try/`` folder, with ``manifest.json`` naming the wheel; the page script
(``book/_static/try.js``) loads the runtime from there, unpacks the wheel into site-packages with
Pyodide's ``unpackArchive`` and runs the reader's code. Nothing is fetched from a CDN at run time.

    python -m tools.browser fetch .pyodide      # once: the npm package, checked and unpacked
"""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYODIDE_VERSION = "314.0.8"
PYODIDE_INTEGRITY = "sha512-74Wq1kXOC+CCEzAfxuRAO701nAcCMLjf8NrwvWpu8S41dVMXwXmLQ05dYB+F4e46AdnGo0oq7YHSVUpHsoarLQ=="
RUNTIME = ("pyodide.js", "pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")


def fetch(folder: Path) -> Path:
    """The runtime's folder under ``folder``, fetched with ``npm pack`` and checked first where missing."""
    package = folder / "package"
    if all((package / name).exists() for name in RUNTIME):
        return package
    folder.mkdir(parents=True, exist_ok=True)
    if shutil.which("npm") is None:
        raise SystemExit("the in-browser page needs npm to fetch Pyodide (apt-get install npm)")
    subprocess.run(["npm", "pack", "--silent", f"pyodide@{PYODIDE_VERSION}"], cwd=folder, check=True,
                   stdout=subprocess.DEVNULL)  # fmt: skip
    archive = folder / f"pyodide-{PYODIDE_VERSION}.tgz"
    digest = "sha512-" + base64.b64encode(hashlib.sha512(archive.read_bytes()).digest()).decode()
    if digest != PYODIDE_INTEGRITY:
        archive.unlink()
        raise SystemExit(f"{archive.name}: sha512 {digest} is not the recorded {PYODIDE_INTEGRITY}")
    with tarfile.open(archive) as tar:
        tar.extractall(folder, members=[m for m in tar.getmembers() if m.name.startswith("package/")], filter="data")
    return package


def _version() -> str:
    text = (ROOT / "exactstats" / "__init__.py").read_text()
    return text.split('__version__ = "', 1)[1].split('"', 1)[0]


def build_wheel(out: Path) -> Path:
    """A wheel of the ``exactstats`` package (pure Python, every module), written without a build backend:
    the files, METADATA, WHEEL and RECORD, in a fixed order with fixed times, so the same sources give
    the same bytes."""
    version = _version()
    name = f"exactstats-{version}-py3-none-any.whl"
    info = f"exactstats-{version}.dist-info"
    files = sorted(p for p in (ROOT / "exactstats").rglob("*.py") if "__pycache__" not in p.parts)
    entries = [(p.relative_to(ROOT).as_posix(), p.read_bytes()) for p in files]
    entries.append((f"{info}/METADATA", f"Metadata-Version: 2.1\nName: exactstats\nVersion: {version}\n".encode()))
    wheel = "Wheel-Version: 1.0\nGenerator: tools.browser\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    entries.append((f"{info}/WHEEL", wheel.encode()))
    record = "".join(
        f"{path},sha256={base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()},{len(data)}\n"
        for path, data in entries
    )
    entries.append((f"{info}/RECORD", (record + f"{info}/RECORD,,\n").encode()))
    out.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out / name, "w", zipfile.ZIP_DEFLATED) as z:
        for path, data in entries:
            z.writestr(zipfile.ZipInfo(path, date_time=(2020, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
    return out / name


def install(site: Path, runtime: Path) -> Path:
    """Copy the runtime and a fresh wheel into ``site/try`` (with manifest.json naming the wheel)."""
    missing = [name for name in RUNTIME if not (runtime / name).exists()]
    if missing:
        raise FileNotFoundError(f"{runtime}: no Pyodide runtime ({', '.join(missing)}); run make pyodide")
    target = site / "try"
    target.mkdir(parents=True, exist_ok=True)
    for name in RUNTIME:
        shutil.copyfile(runtime / name, target / name)
    wheel = build_wheel(target)
    (target / "manifest.json").write_text(json.dumps({"wheel": wheel.name, "pyodide": PYODIDE_VERSION}))
    return target


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "fetch":
        raise SystemExit("usage: python -m tools.browser fetch FOLDER")
    print(fetch(Path(sys.argv[2])))
