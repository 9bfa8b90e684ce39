"""`python -m scoring` as a user runs it: errors, progress bars, inherited settings, parallel runs, real models."""

import json

import pytest

from scoring.run import read_done
from tests.conftest import launch_two_processes, mmlu_dir
from tests.tiny import cli, quiet_run_stderr, write_questions


def test_cli_errors_are_one_line(tmp_path):
    p = cli(
        "run",
        "--model",
        "smollm2-135m-instruct",
        "--questions",
        str(tmp_path / "none.jsonl"),
        "--out",
        str(tmp_path / "o"),
    )
    assert p.wait(timeout=120) == 2
    err = p.stderr.read().strip().splitlines()
    assert len(err) == 1 and "No such file" in err[0] and "Traceback" not in err[0]


def test_unknown_model_lists_the_packaged_ones(tmp_path):
    p = cli("run", "--model", "no-such-model", "--questions", "redux", "--out", str(tmp_path / "o"))
    assert p.wait(timeout=120) == 2
    err = p.stderr.read().strip().splitlines()
    assert len(err) == 1 and "smollm2-135m-instruct" in err[0]


def test_no_progress_silences_every_bar(tiny, questions_file, tmp_path):
    err = quiet_run_stderr(str(tiny), questions_file, 3, tmp_path / "o")
    assert "it/s" not in err and "%|" not in err, err


def test_resumed_and_extended_runs_keep_their_recorded_settings(tmp_path):
    from scoring.__main__ import inherited

    old = tmp_path / "old"
    old.mkdir()
    (old / "manifest.json").write_text(json.dumps({"settings": {"model": "m"}}))  # written before the settings existed
    assert inherited("letter_spelling", None, [tmp_path / "new", old], "space") == "both"  # legacy default
    assert inherited("cross_reference_filter", None, [old], "v2") == "v1"
    assert inherited("letter_spelling", None, [tmp_path / "new"], "space") == "space"
    assert inherited("letter_spelling", "bare", [old], "space") == "bare"


@pytest.mark.slow
def test_two_processes_through_accelerate_equal_one(tiny, tmp_path):
    """`accelerate launch` with two CPU processes (gloo): the merged run holds the single-process rows."""
    qfile = write_questions(tmp_path / "q.jsonl", 24)
    args = ["run", "--model", str(tiny), "--questions", str(qfile), "--threads", "1", "--no-progress"]
    single = cli(*args, "--out", str(tmp_path / "one"))
    assert single.wait(timeout=600) == 0, single.stderr.read()
    one = read_done(tmp_path / "one" / "results.jsonl")
    # an interrupted earlier parallel run left a shard with a few rows: they are kept, not redone
    shard = tmp_path / "two" / "shards" / "results.rank1.jsonl"
    shard.parent.mkdir(parents=True)
    shard.write_text("".join(json.dumps(one[q]) + "\n" for q in sorted(one)[:3]))
    p = launch_two_processes([*args, "--out", str(tmp_path / "two")])
    assert p.returncode == 0, p.stderr[-2000:]
    two = read_done(tmp_path / "two" / "results.jsonl")
    assert two == one
    manifest = json.loads((tmp_path / "two" / "manifest.json").read_text())
    assert manifest["processes"] == 2 and manifest["complete"] and not (tmp_path / "two" / "shards").exists()


@pytest.mark.slow
@pytest.mark.skipif(mmlu_dir() is None, reason="shared MMLU-Redux folder not present")
def test_two_processes_on_real_questions(tiny, tmp_path):
    """The same through accelerate on a few real MMLU-Redux questions (the tiny model reads them)."""
    args = ["run", "--model", str(tiny), "--questions", "redux", "--n", "8", "--threads", "1", "--no-progress"]
    single = cli(*args, "--out", str(tmp_path / "one"))
    assert single.wait(timeout=600) == 0, single.stderr.read()
    p = launch_two_processes([*args, "--out", str(tmp_path / "two")])
    assert p.returncode == 0, p.stderr[-2000:]
    assert read_done(tmp_path / "two" / "results.jsonl") == read_done(tmp_path / "one" / "results.jsonl")


@pytest.mark.model
def test_no_progress_silences_the_gguf_conversion_bar_too(questions_file, tmp_path):
    """transformers draws the GGUF conversion bar with plain tqdm: --no-progress must silence it as well."""
    err = quiet_run_stderr("smollm2-135m-instruct", questions_file, 1, tmp_path / "o")
    assert "de-quantizing" not in err and "%|" not in err, err[-500:]


@pytest.mark.model
@pytest.mark.slow
@pytest.mark.skipif(mmlu_dir() is None, reason="shared MMLU-Redux folder not present")
def test_real_smollm2_on_20_real_questions(tmp_path):
    from scoring.models import PACKAGED_MODELS

    m = PACKAGED_MODELS["smollm2-135m-instruct"]
    m.path(verify=True)  # installed by `make` from requirements-nodeps.txt; sha256 checked
    p = cli(
        "run",
        "--model",
        m.name,
        "--questions",
        str(mmlu_dir()),
        "--n",
        "20",
        "--threads",
        "2",
        "--no-progress",
        "--json",
        "--out",
        str(tmp_path / "real"),
    )
    out, err = p.communicate(timeout=900)
    assert p.returncode == 0, err
    manifest = json.loads(out)
    assert manifest["rows"] == 20 and manifest["settings"]["model_sha256"] == m.sha256
    rows = read_done(tmp_path / "real" / "results.jsonl").values()
    assert all(r["letter_mass"] > 0 for r in rows)
    assert len({r["subject"] for r in rows}) >= 10
