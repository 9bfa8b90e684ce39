import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci")

ROOT = Path(__file__).resolve().parents[1]
# the shipped dataset, as the Makefile sets it (the package does not look for a checkout beside itself)
os.environ.setdefault("EXACTSTATS_DATA_DIR", str(ROOT / "data"))


def mmlu_dir() -> Path | None:
    d = Path(os.environ.get("EXACTSTATS_MMLU_DIR", ROOT.parent / "shared" / "data" / "mmlu-redux"))
    return d if d.is_dir() else None


def launch_two_processes(args, pythonpath=None, timeout=600):
    """`accelerate launch` with two CPU processes (gloo) running ``python -m scoring ARGS`` from the repository."""
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": pythonpath or str(ROOT), "ACCELERATE_USE_CPU": "1"}
    command = [
        sys.executable,
        "-m",
        "accelerate.commands.launch",
        "--multi_gpu",
        "--num_processes",
        "2",
        "--num_machines",
        "1",
        "--mixed_precision",
        "no",
        "--dynamo_backend",
        "no",
        "-m",
        "scoring",
        *args,
    ]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """A tiny random-weight model folder, built offline (tests.tiny)."""
    from tests.tiny import build_tiny_model

    return build_tiny_model(tmp_path_factory.mktemp("tiny"))


@pytest.fixture(scope="module")
def questions_file(tmp_path_factory):
    """Thirty made-up questions over three subjects, as a JSONL file."""
    from tests.tiny import write_questions

    return write_questions(tmp_path_factory.mktemp("q") / "q.jsonl", 30)
