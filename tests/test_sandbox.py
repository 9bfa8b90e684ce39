"""The sandbox: hostile completions end as timeout/failed/error, change nothing outside, never pass."""

import json
import os
import subprocess
import sys
import time

import pytest
from conftest import ROOT

from scoring.humaneval import load_problems
from scoring.sandbox import Limits, check_completion, run_parts

PROBLEMS = {p["task_id"]: p for p in load_problems()}
P0 = PROBLEMS["HumanEval/0"]
FAST = Limits(wall_s=4.0, cpu_s=2, memory_bytes=1 << 30)


def hostile_cases(outside):
    target, keep = outside / "evil.txt", outside / "keep.txt"
    return {
        "infinite loop": ("    while True:\n        pass\n", {"timeout"}),
        "sleeping forever": ("    import time\n    time.sleep(60)\n", {"timeout"}),
        "fork bomb": ("    import os\n    while True:\n        os.fork()\n", {"error"}),
        "multiprocessing": (
            "    import multiprocessing as m\n    m.Process(target=print).start()\n    return True\n",
            {"error"},
        ),
        "allocate 20 GB": ("    x = bytearray(20 * 2**30)\n    return True\n", {"error"}),
        "write outside": (f"    open({str(target)!r}, 'w').write('x')\n    return True\n", {"error"}),
        "delete a file": (f"    import os\n    os.remove({str(keep)!r})\n    return True\n", {"error"}),
        "rmtree": (f"    import shutil\n    shutil.rmtree({str(outside)!r})\n    return True\n", {"error"}),
        "shell out": (f"    import os\n    os.system('rm -f {keep}')\n    return True\n", {"error"}),
        "subprocess": (
            f"    import subprocess\n    subprocess.run(['rm', '-f', {str(keep)!r}])\n    return True\n",
            {"error"},
        ),
        "read a secret": (
            "    import os\n    return os.environ.get('EXACTSTATS_TEST_SECRET') == 'hunter2' or 1/0\n",
            {"error"},
        ),
        "open a socket": (
            "    import socket\n    socket.create_connection(('127.0.0.1', 9))\n    return True\n",
            {"error"},
        ),
        "ctypes": ("    import ctypes\n    ctypes.CDLL(None).fork()\n    return True\n", {"error"}),
        "os._exit before tests": ("    pass\nimport os\nos._exit(0)\n", {"error"}),
        "sys.exit(0) before tests": ("    pass\nimport sys\nsys.exit(0)\n", {"error"}),
        "exit inside the tests": ("    import sys\n    sys.exit(0)\n", {"error"}),
        "print megabytes": ("    print('x' * 20_000_000)\n    return 'not a bool'\n", {"failed"}),
        "stderr megabytes": (
            "    import sys\n    sys.stderr.write('y' * 20_000_000)\n    return 'x'\n",
            {"failed", "error"},
        ),
        "read stdin": ("    import sys\n    return sys.stdin.read() == '' and None\n", {"failed"}),
        "syntax error": ("    return (\n", {"error"}),
        "recursion": ("    def f(n):\n        return f(n + 1)\n    return f(0)\n", {"error"}),
        "kill the parent": ("    import os\n    os.kill(os.getppid(), 9)\n", {"error"}),
    }


@pytest.mark.slow
def test_hostile_completions_are_contained(tmp_path, monkeypatch):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("keep")
    monkeypatch.setenv("EXACTSTATS_TEST_SECRET", "hunter2")
    before = sorted(os.listdir(outside))
    for name, (completion, allowed) in hostile_cases(outside).items():
        started = time.monotonic()
        result = check_completion(P0, completion, FAST)
        assert result.status in allowed, (name, result)
        assert result.status != "passed", name
        assert time.monotonic() - started < FAST.wall_s + 3, name  # within its limits (plus start-up and cleanup)
        assert sorted(os.listdir(outside)) == before and (outside / "keep.txt").read_text() == "keep", name
    assert outside.is_dir()  # the folder the programs attacked is still there


def test_statuses_of_ordinary_programs():
    assert check_completion(P0, P0["canonical_solution"], FAST).status == "passed"
    wrong = check_completion(P0, "    return False\n", FAST)
    assert (wrong.status, wrong.error, wrong.stage) == ("failed", "AssertionError", "check")
    name_error = check_completion(P0, "    return undefined_name\n", FAST)
    assert (name_error.status, name_error.error) == ("error", "NameError")


def test_an_exit_before_the_tests_is_never_a_pass():
    # a program that exits with status 0 before check() ran would look like a pass to a runner
    # that only reads the exit status
    for completion in ("    pass\nimport sys\nsys.exit(0)\n", "    pass\nimport os\nos._exit(0)\n"):
        r = check_completion(P0, completion, FAST)
        assert r.status == "error" and r.stage != "done"


@pytest.mark.slow
def test_every_canonical_solution_passes_and_every_empty_body_does_not():
    # the independent reference: HumanEval's own solutions pass its own tests, stub bodies fail
    for p in PROBLEMS.values():
        assert check_completion(p, p["canonical_solution"], FAST).status == "passed", p["task_id"]
    stubs = [check_completion(p, "    pass\n", FAST).status for p in list(PROBLEMS.values())[:40]]
    assert "passed" not in stubs


def test_run_parts_reports_protections():
    r = run_parts({"definition": "", "tests": "", "call": ""}, FAST)
    assert r.status == "passed" and set(r.protections) == {"network_namespace", "dropped_root"}


def test_execute_one_cli(tmp_path):
    completion = tmp_path / "c.py"
    completion.write_text(P0["canonical_solution"])
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "scoring",
            "execute-one",
            "--problem",
            "HumanEval/0",
            "--completion",
            str(completion),
            "--json",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    result = json.loads(out.stdout)
    assert result["status"] == "passed" and result["seconds"] > 0
    bad = subprocess.run(
        [sys.executable, "-m", "scoring", "execute-one", "--problem", "HumanEval/999", "--completion", str(completion)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
