"""Sampled generation: seeded per sample, resumable, settings refused before the model loads."""

import json
import os
import subprocess
import sys

import pytest

from scoring.generate import GenerationConfig, sample_seed, truncate_at_stop
from scoring.runfolder import read_rows
from tests.conftest import ROOT, launch_two_processes
from tests.tiny import build_tiny_model

PROBLEMS = [
    {
        "task_id": f"Tiny/{i}",
        "prompt": f'def f{i}(x):\n    """Return x plus {i}."""\n',
        "canonical_solution": f"    return x + {i}\n",
        "test": f"def check(f):\n    assert f(1) == {1 + i}\n",
        "entry_point": f"f{i}",
    }
    for i in range(3)
]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return build_tiny_model(tmp_path_factory.mktemp("tiny"))


@pytest.fixture(scope="module")
def problems_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("p") / "problems.jsonl"
    path.write_text("".join(json.dumps(p) + "\n" for p in PROBLEMS))
    return path


def generate_args(tiny, problems_file, out, *extra):
    """`scoring generate` on the tiny model and problems: a short, one-thread, silent run."""
    return [
        "generate",
        "--model",
        str(tiny),
        "--problems",
        str(problems_file),
        "--max-new-tokens",
        "12",
        "--no-progress",
        "--threads",
        "1",
        "--out",
        str(out),
        *extra,
    ]


def generate(tiny, problems_file, out, *extra):
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'tests'}"}
    return subprocess.run(
        [sys.executable, "-m", "scoring", *generate_args(tiny, problems_file, out, *extra)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )


def rows(folder):
    """Rows without their timing, which is all that may differ between two runs."""
    found = read_rows(folder / "samples.jsonl", lambda r: f"{r['task_id']}#{r['sample']}")
    return {k: {f: v for f, v in r.items() if f != "problem_seconds"} for k, r in found.items()}


def test_truncate_at_the_earliest_stop():
    assert truncate_at_stop("    x = 1\nprint(x)\ndef g():") == ("    x = 1", True)
    assert truncate_at_stop("    return 1\n    # note\n") == ("    return 1\n    # note\n", False)
    assert truncate_at_stop("    if x:\n        return 1\nif y:") == ("    if x:\n        return 1", True)


def test_sample_seed_depends_on_seed_problem_and_sample_only():
    seeds = {sample_seed(s, t, i) for s in (0, 1) for t in ("A/0", "A/1") for i in range(5)}
    assert len(seeds) == 20 and all(0 <= x < 2**63 for x in seeds)
    assert sample_seed(0, "A/0", 3) == sample_seed(0, "A/0", 3)


@pytest.mark.parametrize(
    "bad",
    [
        dict(samples=0),
        dict(temperature=-1),
        dict(temperature=0, samples=2),
        dict(top_p=0),
        dict(top_p=1.5),
        dict(max_new_tokens=0),
    ],
)
def test_bad_settings_refused(bad):
    with pytest.raises(ValueError):
        GenerationConfig(model="m", **bad).validate()


@pytest.mark.slow
def test_rerun_reproduces_resume_completes_and_samples_do_not_depend_on_batch(tiny, problems_file, tmp_path):
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    for out in (a, b):
        assert generate(tiny, problems_file, out, "--samples", "4").returncode == 0
    assert rows(a) == rows(b) and len(rows(a)) == 12
    assert {r["finish_reason"] for r in rows(a).values()} <= {"stop", "eos", "length"}
    # the first two samples of a 2-sample run are the first two of the 4-sample run
    assert generate(tiny, problems_file, c, "--samples", "2").returncode == 0
    for key, row in rows(c).items():
        assert row["completion"] == rows(a)[key]["completion"]
    # interrupted run: keep the first problem and a torn line; resuming rebuilds the rest identically
    lines = (a / "samples.jsonl").read_text().splitlines(keepends=True)
    (b / "samples.jsonl").write_text("".join(lines[:4]) + lines[4][:30])
    resumed = generate(tiny, problems_file, b, "--samples", "4")
    assert resumed.returncode == 0 and "torn last line" in resumed.stderr
    assert rows(b) == rows(a)
    manifest = json.loads((b / "manifest.json").read_text())
    assert manifest["timed_rows"] <= 12 and manifest["this_run_samples"] == 8
    assert manifest["samples_per_s"] == round(manifest["timed_rows"] / manifest["wall_s_total"], 4)


def test_other_settings_refused_before_the_model_loads(tiny, problems_file, tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    (out / "manifest.json").write_text(json.dumps({"settings": {"temperature": 0.2}}))
    r = generate(tiny, problems_file, out, "--samples", "2")
    assert r.returncode == 2 and "temperature" in r.stderr and "Loading" not in r.stderr


def test_corrupt_row_named_with_file_and_line(tmp_path):
    from scoring.runfolder import CorruptRunFile

    path = tmp_path / "samples.jsonl"
    path.write_text('{"task_id": "A", "sample": 0}\nnot json\n')
    with pytest.raises(CorruptRunFile, match=r"samples.jsonl:2"):
        rows(tmp_path)


@pytest.mark.slow
def test_two_processes_generate_the_same_samples(tiny, problems_file, tmp_path):
    one = tmp_path / "one"
    assert generate(tiny, problems_file, one, "--samples", "3").returncode == 0
    p = launch_two_processes(
        generate_args(tiny, problems_file, tmp_path / "two", "--samples", "3"),
        pythonpath=f"{ROOT}{os.pathsep}{ROOT / 'tests'}",
    )
    assert p.returncode == 0, p.stderr[-2000:]
    assert rows(tmp_path / "two") == rows(one)
    assert json.loads((tmp_path / "two" / "manifest.json").read_text())["processes"] == 2
