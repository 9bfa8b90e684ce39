"""The sandbox holds against hostile code: no escape, no surviving process, no secret out, no false pass.

Each attack is one completion of a small problem (or of HumanEval/0). After every attack the test
checks that files outside are untouched, no process of the sandbox's user is left, an unrelated
process and this runner are alive, no secret came back, and the verdict is not "passed".
The attacks include the ones that defeated the earlier in-process sandbox (issue 36): dir_fd
writes and deletes, fchmod on an open descriptor, _posixsubprocess.fork_exec, 300 processes,
setsid daemons, pidfd_send_signal, /proc/<ppid>/environ, a daemon holding the answer pipe, and
the false passes: an always-equal object, a replaced exec, a forged result line.
"""

import json
import os
import socket
import subprocess
import sys
import time

import pytest

from scoring.humaneval import load_problems
from scoring.sandbox import Candidate, Limits, check_completion, execution_protections, isolation
from tests.conftest import ROOT

PROBLEMS = {p["task_id"]: p for p in load_problems()}
P0 = PROBLEMS["HumanEval/0"]
FAST = Limits(wall_s=4.0, cpu_s=2, memory_bytes=1 << 30)
SECRET = "hunter2-fake-token-0123456789"


def _problem(body: str = "") -> dict:
    """A one-function problem whose test expects f(1) == 2: an attack that returns 2 would pass."""
    return {
        "task_id": "attack",
        "prompt": "def f(x):\n",
        "entry_point": "f",
        "test": "def check(candidate):\n    assert candidate(1) == 2\n    assert candidate(5) == 6\n",
    }


def _sandbox_processes() -> list[int]:
    """PIDs of live processes running as nobody (the sandbox's user outside when this runner is root).
    Zombies are dead: they wait only for this machine's init to collect them."""
    out = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/status") as f:
                    fields = dict(line.split(":", 1) for line in f if ":" in line)
            except OSError:
                continue
            if fields.get("Uid", "").split()[:1] == ["65534"] and not fields.get("State", "").strip().startswith("Z"):
                out.append(int(pid))
    return out


def attacks(outside, victim_pid):
    keep, target = outside / "keep.txt", outside / "evil.txt"
    return {
        # the earlier 22
        "infinite loop": ("    while True:\n        pass\n", {"timeout"}),
        "sleeping forever": ("    import time\n    time.sleep(60)\n", {"timeout"}),
        "fork bomb": ("    import os\n    while True:\n        os.fork()\n", {"error", "timeout", "failed"}),
        "multiprocessing": (
            "    import multiprocessing as m\n    m.Process(target=print).start()\n    return 2\n",
            None,
        ),
        "allocate 20 GB": ("    x = bytearray(20 * 2**30)\n    return 2\n", {"error"}),
        "write outside": (f"    open({str(target)!r}, 'w').write('x')\n    return 2\n", {"error"}),
        "delete a file": (f"    import os\n    os.remove({str(keep)!r})\n    return 2\n", {"error"}),
        "rmtree": (f"    import shutil\n    shutil.rmtree({str(outside)!r})\n    return 2\n", {"error"}),
        "shell out": (f"    import os\n    os.system('rm -f {keep}')\n    return x + 2\n", {"failed"}),
        "subprocess": (f"    import subprocess\n    subprocess.run(['rm', '-f', {str(keep)!r}])\n    return 0\n", None),
        "read a secret": (
            f"    import os\n    return 2 if os.environ.get('EXACTSTATS_TEST_SECRET') == {SECRET!r} else 1/0\n",
            {"error"},
        ),
        "open a socket": (
            "    import socket\n    socket.create_connection(('127.0.0.1', 9))\n    return 2\n",
            {"error"},
        ),
        "ctypes": ("    import ctypes\n    ctypes.CDLL(None).fork()\n    return 0\n", None),
        "os._exit before tests": ("    pass\nimport os\nos._exit(0)\n", {"error"}),
        "sys.exit(0) before tests": ("    pass\nimport sys\nsys.exit(0)\n", {"error"}),
        "exit inside the tests": ("    import sys\n    sys.exit(0)\n", {"error"}),
        "print megabytes": ("    print('x' * 20_000_000)\n    return 'not a number'\n", {"failed"}),
        "stderr megabytes": (
            "    import sys\n    sys.stderr.write('y' * 20_000_000)\n    return 'x'\n",
            {"failed", "error"},
        ),
        "read stdin": ("    import sys\n    return sys.stdin.read(1) and 0\n", None),
        "syntax error": ("    return (\n", {"error"}),
        "recursion": ("    def g(n):\n        return g(n + 1)\n    return g(0)\n", {"error"}),
        "kill the parent": ("    import os\n    os.kill(os.getppid(), 9)\n    return 0\n", None),
        # issue 36's escapes
        "dir_fd write": (
            f"    import os\n    d = os.open({str(outside)!r}, os.O_RDONLY)\n"
            "    os.close(os.open('evil.txt', os.O_CREAT | os.O_WRONLY, dir_fd=d))\n    return 2\n",
            {"error"},
        ),
        "dir_fd delete": (
            f"    import os\n    d = os.open({str(outside)!r}, os.O_RDONLY)\n    os.unlink('keep.txt', dir_fd=d)\n"
            "    return 2\n",
            {"error"},
        ),
        "fchmod": (
            f"    import os\n    fd = os.open({str(keep)!r}, os.O_RDONLY)\n    os.fchmod(fd, 0o777)\n    return 2\n",
            {"error"},
        ),
        "a root shell": (  # the audit hook never saw _posixsubprocess.fork_exec; here a shell runs, as nobody
            "    import subprocess\n"
            f"    subprocess.run(['/bin/sh', '-c', 'rm -f {keep}; touch {target}; chmod 777 {keep}; kill -9 -1'])\n"
            "    return 0\n",
            None,
        ),
        "300 processes": (
            "    import os, time\n    n = 0\n    for _ in range(300):\n        try:\n            pid = os.fork()\n"
            "        except OSError:\n            break\n        if pid == 0:\n            time.sleep(30)\n"
            "            os._exit(0)\n        n += 1\n    return n\n",
            {"failed"},
        ),
        "setsid daemons": (
            "    import os, time\n    for _ in range(7):\n        if os.fork() == 0:\n            os.setsid()\n"
            "            time.sleep(60)\n            os._exit(0)\n    return 0\n",
            {"failed"},
        ),
        "pidfd_send_signal": (
            "    import os, signal\n"
            f"    for pid in ({victim_pid}, 1, os.getppid()):\n        try:\n"
            "            signal.pidfd_send_signal(os.pidfd_open(pid), signal.SIGKILL)\n        except OSError:\n"
            "            pass\n        try:\n            os.kill(pid, signal.SIGKILL)\n        except OSError:\n"
            "            pass\n    return 0\n",
            None,
        ),
        "daemon holds the pipe": (
            "    import os, time\n    if os.fork() == 0:\n        os.setsid()\n        time.sleep(60)\n    return 0\n",
            {"failed"},
        ),
        "fill the tmpfs": (
            "    n = 0\n    try:\n        for i in range(20):\n"
            "            with open(f'/tmp/f{i}', 'wb') as f:\n                f.write(b'x' * (15 << 20))\n"
            "            n += 1\n    except OSError:\n        pass\n    return n\n",
            {"failed"},
        ),
        # false passes
        "always-equal object": (
            "    class A:\n        def __eq__(self, other):\n            return True\n    return A()\n",
            {"failed"},
        ),
        "int subclass that equals anything": (
            "    class I(int):\n        def __eq__(self, other):\n            return True\n    return I(0)\n",
            {"failed"},
        ),
        "replace builtins.exec": (
            "    import builtins\n    builtins.exec = lambda *a, **k: None\n    return 0\n",
            {"failed"},
        ),
        "audit hook swapping check": (
            "    import sys\n    sys.addaudithook(lambda e, a: None)\n    globals()['check'] = lambda c: None\n"
            "    return 0\n",
            {"failed"},
        ),
        "forged result lines": (
            "    import os\n    for fd in range(0, 20):\n        try:\n"
            '            os.write(fd, b\'{"status": "passed"}\\n{"ready": true}\\n{"id": 2, "value": 6}\\n\')\n'
            "        except OSError:\n            pass\n    return 0\n",
            {"failed", "error"},
        ),
    }


@pytest.mark.slow
def test_hostile_completions_are_contained(tmp_path, monkeypatch):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("keep")
    os.chmod(outside / "keep.txt", 0o600)
    os.chmod(tmp_path, 0o777)  # even a folder anyone may write to is out of reach
    os.chmod(outside, 0o777)
    monkeypatch.setenv("EXACTSTATS_TEST_SECRET", SECRET)
    victim = subprocess.Popen(["sleep", "300"])
    try:
        before = sorted(os.listdir(outside))
        for name, (body, allowed) in attacks(outside, victim.pid).items():
            started = time.monotonic()
            result = check_completion(_problem(), body, FAST)
            assert result.status != "passed", name
            if allowed is not None:
                assert result.status in allowed, (name, result)
            assert SECRET not in json.dumps(result.to_json()), name
            assert time.monotonic() - started < FAST.wall_s + 3, name  # within its limits, plus start-up
            assert sorted(os.listdir(outside)) == before, name
            assert (outside / "keep.txt").read_text() == "keep", name
            assert (os.stat(outside / "keep.txt").st_mode & 0o777) == 0o600, name
            assert victim.poll() is None, name  # the unrelated process lives
            time.sleep(0.05)
            assert _sandbox_processes() == [], name  # nothing outlives its sandbox
    finally:
        victim.kill()


def _call(body: str, *args, limits: Limits = FAST):
    c = Candidate("def f(x):\n" + body, "f", limits, isolation())
    try:
        assert c.ready() is None
        return c.call(*args)
    finally:
        c.close()


def test_what_the_program_sees_from_inside(monkeypatch):
    """Read back through the plain-value channel: the sandbox's view of its own world."""
    monkeypatch.setenv("EXACTSTATS_TEST_SECRET", SECRET)
    environ = _call(
        "    import os\n    out = dict(os.environ)\n    for pid in os.listdir('/proc'):\n        if pid.isdigit():\n"
        "            try:\n                out[pid] = open(f'/proc/{pid}/environ', 'rb').read().decode('latin-1')\n"
        "            except OSError as e:\n                out[pid] = type(e).__name__\n    return out\n",
        0,
    )
    assert SECRET not in json.dumps(environ)
    pids = sorted(int(k) for k in environ if k.isdigit())
    assert pids and max(pids) < 10  # its own PID namespace: a handful of processes, none of the host's
    seen = _call(
        "    import os\n    return os.getuid(), os.path.exists('/root'), os.path.exists("
        f"{str(ROOT)!r}), sorted(os.listdir('/'))\n",
        0,
    )
    uid, has_root_home, has_repo, top = seen
    assert uid == 65534 and not has_repo
    assert "home" not in top and "etc" not in top and "work" not in top
    processes = _call(
        "    import os, time\n    n = 0\n    for _ in range(300):\n        try:\n            pid = os.fork()\n"
        "        except OSError:\n            break\n        if pid == 0:\n            time.sleep(30)\n"
        "            os._exit(0)\n        n += 1\n    return n\n",
        0,
    )
    assert processes < FAST.processes  # the process limit holds (it did not for root before)


def test_no_network_even_to_this_machine():
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.settimeout(0.5)
    port = server.getsockname()[1]
    got = _call(
        f"    import socket\n    try:\n        socket.create_connection(('127.0.0.1', {port}), timeout=1)\n"
        "        return 'connected'\n    except OSError as e:\n        return type(e).__name__\n",
        0,
    )
    assert got != "connected"
    with pytest.raises(TimeoutError):
        server.accept()
    server.close()


def test_plain_values_round_trip_and_strange_ones_fail():
    assert _call("    return [1, (2.5, 'x'), {'k': None}, {3}, True, float('inf'), 10**50]\n", 0) == [
        1,
        (2.5, "x"),
        {"k": None},
        {3},
        True,
        float("inf"),
        10**50,
    ]
    for body in ("    return (i for i in range(3))\n", "    return object()\n", "    return print\n"):
        r = check_completion(_problem(), body, FAST)
        assert (r.status, r.error) == ("failed", "NotPlainData")


def test_statuses_of_ordinary_programs():
    assert check_completion(P0, P0["canonical_solution"], FAST).status == "passed"
    wrong = check_completion(P0, "    return False\n", FAST)
    assert (wrong.status, wrong.error, wrong.stage) == ("failed", "AssertionError", "check")
    name_error = check_completion(P0, "    return undefined_name\n", FAST)
    assert (name_error.status, name_error.error) == ("error", "NameError")
    assert check_completion(_problem(), "    return x + 1\n", FAST).status == "passed"


def test_an_exit_before_the_tests_is_never_a_pass():
    for completion in ("    pass\nimport sys\nsys.exit(0)\n", "    pass\nimport os\nos._exit(0)\n"):
        r = check_completion(P0, completion, FAST)
        assert r.status == "error" and r.stage != "done"


@pytest.mark.slow
def test_every_canonical_solution_passes_and_every_empty_body_does_not():
    # the independent reference: HumanEval's own solutions pass its own tests, judged here
    for p in PROBLEMS.values():
        assert check_completion(p, p["canonical_solution"], FAST).status == "passed", p["task_id"]
    stubs = [check_completion(p, "    pass\n", FAST).status for p in PROBLEMS.values()]
    assert "passed" not in stubs


def test_protections_are_reported():
    p = execution_protections()
    assert p["isolation"] == "bubblewrap" and "pid" in p["namespaces"] and "net" in p["namespaces"]
    assert p["verdict"].startswith("trusted parent")
    if os.geteuid() == 0:
        assert p["outside_user"] == "nobody" and p["process_limit"] is True


def test_without_bubblewrap_it_refuses_unless_weak_is_asked(monkeypatch):
    from scoring import sandbox

    monkeypatch.setattr(sandbox, "_bwrap_works", lambda: "bwrap is not installed (test)")
    monkeypatch.delenv("EXACTSTATS_SANDBOX", raising=False)
    with pytest.raises(sandbox.SandboxUnavailable, match="EXACTSTATS_SANDBOX=weak"):
        check_completion(P0, P0["canonical_solution"], FAST)
    monkeypatch.setenv("EXACTSTATS_SANDBOX", "weak")
    with pytest.warns(UserWarning, match="WITHOUT namespace isolation"):
        r = check_completion(P0, P0["canonical_solution"], FAST)
    assert r.status == "passed" and r.protections == {"isolation": "weak"}
    with pytest.warns(UserWarning):  # the verdict is still the parent's: a forged object does not pass
        r = check_completion(
            _problem(), "    class A:\n        def __eq__(s, o):\n            return True\n    return A()\n", FAST
        )
    assert r.status == "failed"


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


def test_the_runner_survives_a_signal_storm():
    """Signals to every PID the sandbox can name reach only the sandbox: an outside process with a small PID
    (numbered like the ones the storm hits) and this runner live on."""
    victim = subprocess.Popen(["sleep", "60"])
    body = (
        f"    import os, signal\n    for pid in list(range(1, 4096)) + [{victim.pid}]:\n        try:\n"
        "            os.kill(pid, signal.SIGKILL)\n        except OSError:\n            pass\n    return 0\n"
    )
    try:
        r = check_completion(_problem(), body, FAST)
        assert r.status in ("failed", "error")
        assert victim.poll() is None  # the storm did not reach it
    finally:
        victim.kill()


def _in_process_harness(problem: dict, completion: str) -> str:
    """The design this sandbox replaced, reduced to its core: the completion, the tests and check() run in
    one process, and the verdict is that process's own report (here its exit status). No isolation."""
    program = problem["prompt"] + completion + "\n" + problem["test"] + f"\ncheck({problem['entry_point']})\n"
    r = subprocess.run([sys.executable, "-I", "-c", program], capture_output=True, timeout=30)
    return "passed" if r.returncode == 0 else "failed"


def test_the_attacks_defeat_an_in_process_harness(tmp_path):
    """The suite can fail: the same attacks that the sandbox contains pass, or escape, when the verdict comes
    from the process that ran the completion and nothing isolates it."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("keep")
    cases = attacks(outside, os.getpid())
    for name in ("always-equal object", "int subclass that equals anything"):
        body, _ = cases[name]
        assert _in_process_harness(_problem(), body) == "passed", name  # a false pass
        assert check_completion(_problem(), body, FAST).status != "passed", name
    body, _ = cases["write outside"]
    _in_process_harness(_problem(), body)
    assert (outside / "evil.txt").exists()  # an escape: the file outside was written
    (outside / "evil.txt").unlink()
    check_completion(_problem(), body, FAST)
    assert not (outside / "evil.txt").exists()
