import os
from pathlib import Path

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci")

ROOT = Path(__file__).resolve().parents[1]


def mmlu_dir() -> Path | None:
    d = Path(os.environ.get("EXACTSTATS_MMLU_DIR", ROOT.parent / "shared" / "data" / "mmlu-redux"))
    return d if d.is_dir() else None
