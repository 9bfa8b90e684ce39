"""The child side of the sandbox: runs ONE untrusted program, reports one JSON line on a pipe.

Started by :mod:`scoring.sandbox` as ``python -I -B _sandbox_child.py CONFIG FD``; uses the
standard library only. Before any untrusted code runs it (1) moves into a fresh network
namespace when the kernel allows it, (2) drops root to ``nobody`` when started as root,
(3) sets resource limits, and (4) installs an audit hook that refuses process creation,
sockets, ctypes, and writes or deletions outside the program's temporary directory.
The program is run in three parts (definition, tests, ``check(entry_point)``) so that
an exit before the tests is never mistaken for a pass.
"""

import json
import os
import resource
import sys

CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000
NOBODY = 65534

_BLOCKED_ALWAYS = (
    "os.system",
    "os.fork",
    "os.forkpty",
    "os.posix_spawn",
    "os.spawn",
    "os.exec",
    "subprocess.Popen",
    "os.kill",
    "os.killpg",
    "socket.__new__",
    "socket.connect",
    "socket.bind",
    "socket.getaddrinfo",
    "ctypes.dlopen",
    "ctypes.dlsym",
    "ctypes.call_function",
    "ctypes.cdata",
    "os.setuid",
    "os.chroot",
    "os.startfile",
    "pty.spawn",
    "webbrowser.open",
)
_PATH_EVENTS = {  # event -> positions of path arguments checked against the temporary directory
    "os.remove": (0,),
    "os.rmdir": (0,),
    "os.rename": (0, 1),
    "os.truncate": (0,),
    "os.chmod": (0,),
    "os.chown": (0,),
    "os.link": (0, 1),
    "os.symlink": (0, 1),
    "os.mkdir": (0,),
    "os.utime": (0,),
    "shutil.rmtree": (0,),
    "shutil.move": (0, 1),
    "shutil.copyfile": (1,),
}
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


def _write_result(fd, payload):
    data = (json.dumps(payload) + "\n").encode()
    try:
        os.write(fd, data)
    except OSError:
        pass


def _isolate_network():
    """A fresh, empty network namespace (no interfaces but a down loopback), when permitted."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        flags = CLONE_NEWNET if os.geteuid() == 0 else (CLONE_NEWUSER | CLONE_NEWNET)
        return libc.unshare(flags) == 0
    except Exception:  # noqa: BLE001 - isolation is best effort and reported
        return False


def _readable_by_others(path):
    """True when every folder down to ``path`` lets other users in (and ``path`` lets them read)."""
    import stat

    path = os.path.realpath(path)
    parts = path.split(os.sep)
    for i in range(2, len(parts) + 1):
        mode = os.stat(os.sep.join(parts[:i]) or os.sep).st_mode
        if not mode & stat.S_IXOTH or (i == len(parts) and not mode & stat.S_IROTH):
            return False
    return True


def _drop_root(workdir):
    """Run as nobody when started as root, if nobody can still read the interpreter's library."""
    libs = {os.path.dirname(os.__file__), os.path.dirname(json.__file__)}
    if os.geteuid() != 0 or not all(_readable_by_others(p) for p in libs):
        return False
    os.setgroups([])
    os.setgid(NOBODY)
    os.setuid(NOBODY)
    os.chdir(workdir)
    return True


def _set_limits(limits):
    cpu = int(limits["cpu_s"])
    for name, value in (
        ("RLIMIT_CPU", (cpu, cpu + 1)),
        ("RLIMIT_AS", (limits["memory_bytes"],) * 2),
        ("RLIMIT_FSIZE", (limits["file_bytes"],) * 2),
        ("RLIMIT_NPROC", (limits["processes"],) * 2),
        ("RLIMIT_CORE", (0, 0)),
        ("RLIMIT_NOFILE", (64, 64)),
    ):
        resource.setrlimit(getattr(resource, name), value)


def _install_guard(workdir):
    root = os.path.realpath(workdir) + os.sep

    def inside(path):
        if isinstance(path, int):  # an already-open descriptor
            return True
        try:
            path = os.fsdecode(path)
        except TypeError:
            return False
        return os.path.realpath(path).startswith(root)

    def refuse(event):
        raise PermissionError(f"sandbox: {event} is not allowed")

    def hook(event, args):
        if event in _BLOCKED_ALWAYS:
            refuse(event)
        if event == "open":
            path, mode, flags = (list(args) + [None, None, None])[:3]
            writing = (isinstance(mode, str) and any(ch in mode for ch in "wax+")) or (
                isinstance(flags, int) and flags & _WRITE_FLAGS
            )
            if writing and not inside(path):
                refuse(f"writing {path!r}")
        elif event in _PATH_EVENTS:
            for i in _PATH_EVENTS[event]:
                if i < len(args) and not inside(args[i]):
                    refuse(f"{event} on {args[i]!r}")

    sys.addaudithook(hook)


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        config = json.load(f)
    result_fd = int(sys.argv[2])
    workdir = config["workdir"]
    os.chdir(workdir)
    protections = {"network_namespace": _isolate_network()}
    protections["dropped_root"] = _drop_root(workdir)
    _set_limits(config["limits"])
    parts = config["parts"]
    sys.setrecursionlimit(10_000)
    _install_guard(workdir)
    namespace = {"__name__": "__main__"}
    stage = "definition"
    try:
        exec(compile(parts["definition"], "<completion>", "exec"), namespace)  # noqa: S102 - isolated child
        stage = "tests"
        exec(compile(parts["tests"], "<tests>", "exec"), namespace)  # noqa: S102
        stage = "check"
        exec(compile(parts["call"], "<check>", "exec"), namespace)  # noqa: S102
    except AssertionError as exc:
        status = "failed" if stage == "check" else "error"
        _write_result(
            result_fd,
            {
                "status": status,
                "error": "AssertionError",
                "stage": stage,
                "detail": str(exc)[:200],
                "protections": protections,
            },
        )
    except BaseException as exc:  # SystemExit and KeyboardInterrupt too: the tests did not finish
        _write_result(
            result_fd,
            {
                "status": "error",
                "error": type(exc).__name__,
                "stage": stage,
                "detail": str(exc)[:200],
                "protections": protections,
            },
        )
    else:
        _write_result(
            result_fd, {"status": "passed", "error": None, "stage": "done", "detail": "", "protections": protections}
        )
    sys.stdout.flush()
    os._exit(0)  # skip interpreter teardown, which runs code the program may have left behind


if __name__ == "__main__":
    main()
