"""The sandboxed side: defines ONE untrusted program, then answers calls of its function with plain data.

Standard library only: :mod:`scoring.sandbox` copies this file into the sandbox and runs it as
``python -I -S -B child.py``. The first line on stdin is the configuration (the program, the
function's name, the limits); every later line is one call, ``{"id": N, "args": ..., "kwargs": ...}``.
Every answer is one line on the protocol descriptor: ``{"id": N, "value": ...}``, or
``{"id": N, "raised": "ValueError"}``, or ``{"id": N, "unplain": "generator"}``. The program's own
output goes to /dev/null.

Nothing here decides a verdict: the trusted parent runs the problem's tests and compares the
values this process returns. A hostile program can take over this process; what it sends back is
still only decoded by the parent into plain values (:func:`decode`), so the most it can forge is
an answer, which is what it could have computed anyway.

The same file holds the plain-data codec the parent uses (``encode``, ``decode``): JSON with
tagged containers, so tuples stay tuples and floats stay floats.

>>> decode(json.loads(json.dumps(encode([1, (2.0, "x"), {"k": None}, {3}, True]))))
[1, (2.0, 'x'), {'k': None}, {3}, True]
"""

import json
import os
import resource
import sys
from typing import Any

MAX_DEPTH = 100


class Unplain(TypeError):
    """A value that is not plain data (numbers, strings, None, bools, lists, tuples, dicts, sets)."""


def encode(value: Any, depth: int = 0) -> Any:
    """Plain data as JSON-ready values; exact built-in types only (a subclass is not plain)."""
    if depth > MAX_DEPTH:
        raise Unplain("nested too deep")
    kind = type(value)
    if value is None or kind is bool or kind is str:
        return value
    if kind is int:
        return value
    if kind is float:
        return ["f", repr(value)]
    if kind is complex:
        return ["c", repr(value.real), repr(value.imag)]
    if kind is bytes:
        return ["by", value.hex()]
    if kind in (list, tuple, set, frozenset):
        tag = {list: "l", tuple: "t", set: "s", frozenset: "fs"}[kind]  # type: ignore[index]
        return [tag, [encode(v, depth + 1) for v in value]]
    if kind is dict:
        return ["d", [[encode(k, depth + 1), encode(v, depth + 1)] for k, v in value.items()]]
    raise Unplain(kind.__name__)


def decode(obj: Any, depth: int = 0) -> Any:
    """The inverse of :func:`encode`, strict: anything it did not make raises ``ValueError``."""
    if depth > MAX_DEPTH:
        raise ValueError("nested too deep")
    if obj is None or type(obj) in (bool, str, int):
        return obj
    if type(obj) is not list or not obj or type(obj[0]) is not str:
        raise ValueError("not an encoded value")
    tag, rest = obj[0], obj[1:]
    if tag == "f" and len(rest) == 1 and type(rest[0]) is str:
        return float(rest[0])
    if tag == "c" and len(rest) == 2 and all(type(r) is str for r in rest):
        return complex(float(rest[0]), float(rest[1]))
    if tag == "by" and len(rest) == 1 and type(rest[0]) is str:
        return bytes.fromhex(rest[0])
    if len(rest) != 1 or type(rest[0]) is not list:
        raise ValueError(f"bad encoded value with tag {tag!r}")
    items = rest[0]
    if tag == "d":
        out = {}
        for pair in items:
            if type(pair) is not list or len(pair) != 2:
                raise ValueError("bad dict entry")
            out[decode(pair[0], depth + 1)] = decode(pair[1], depth + 1)  # unhashable keys raise TypeError
        return out
    builders = {"l": list, "t": tuple, "s": set, "fs": frozenset}
    if tag not in builders:
        raise ValueError(f"unknown tag {tag!r}")
    return builders[tag](decode(v, depth + 1) for v in items)


def _set_limits(limits: dict[str, Any]) -> None:
    cpu = max(1, int(limits["cpu_s"]))
    for name, value in (
        ("RLIMIT_CPU", (cpu, cpu + 1)),
        ("RLIMIT_AS", (limits["memory_bytes"],) * 2),
        ("RLIMIT_FSIZE", (limits["file_bytes"],) * 2),
        ("RLIMIT_NPROC", (limits["processes"],) * 2),
        ("RLIMIT_CORE", (0, 0)),
        ("RLIMIT_NOFILE", (64, 64)),
    ):
        try:
            resource.setrlimit(getattr(resource, name), value)
        except (ValueError, OSError):  # a limit above the inherited hard limit stays at that limit
            pass


def _send(out: Any, payload: Any) -> None:
    try:
        line = json.dumps(payload, allow_nan=False)
    except (ValueError, TypeError, OverflowError):
        line = json.dumps({"id": payload.get("id"), "unplain": "unserialisable"})
    os.write(out, (line + "\n").encode())


def _serve(out: Any, config: dict[str, Any]) -> None:
    namespace: dict[str, Any] = {"__name__": "__main__"}
    try:
        exec(compile(config["program"], "<completion>", "exec"), namespace)  # noqa: S102 - the sandboxed program
        function = namespace[config["entry_point"]]
    except BaseException as exc:  # SystemExit too: the program never defined its function
        _send(out, {"ready": False, "raised": type(exc).__name__})  # the parent vets the name
        return
    _send(out, {"ready": True})
    for line in sys.stdin:
        request = json.loads(line)
        reply = {"id": request["id"]}
        try:
            args = decode(request["args"])
            kwargs = decode(request["kwargs"])
            result = function(*args, **kwargs)
        except BaseException as exc:  # the candidate raised (or exited): the parent decides what that means
            reply["raised"] = type(exc).__name__
        else:
            try:
                reply["value"] = encode(result)
            except Unplain as exc:
                reply["unplain"] = str(exc)[:80]
            except RecursionError:
                reply["unplain"] = "nested too deep"
        _send(out, reply)


def main() -> None:
    config = json.loads(sys.stdin.readline())
    out = os.dup(1)  # the protocol descriptor; the program's prints go to /dev/null
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115 - stays open for the program
    _set_limits(config["limits"])
    sys.setrecursionlimit(10_000)
    _serve(out, config)
    os._exit(0)  # skip interpreter teardown, which runs code the program may have left behind


if __name__ == "__main__":
    main()
