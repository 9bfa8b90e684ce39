import os
from pathlib import Path

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci")

ROOT = Path(__file__).resolve().parents[1]


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
