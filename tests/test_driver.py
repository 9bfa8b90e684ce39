"""The resumable-run driver shared by `scoring run`, `generate` and `execute`, without a model."""

import json
from types import SimpleNamespace

import pytest

from scoring.driver import ResumableRun
from scoring.runfolder import RunFolder


def folder_at(path):
    return RunFolder(path, key=lambda r: r["id"])


def pass_over(folder, ids, fail_after=None, parallel=None):
    """One run over ``ids`` (one row each); raises KeyboardInterrupt after ``fail_after`` rows."""
    run = ResumableRun(folder, parallel)
    done = run.start({"settings": {"kind": "test"}})
    todo = run.share([i for i in ids if i not in done])

    def pieces():
        for count, i in enumerate(todo):
            if fail_after is not None and count == fail_after:
                raise KeyboardInterrupt
            yield [{"id": i, "value": i * 2}]

    run.work(pieces(), total=len(ids), initial=len(ids) - len(todo), desc="t", unit="row", progress=False)
    return run.finish()


def test_a_killed_run_keeps_its_rows_and_the_rerun_does_only_the_rest(tmp_path):
    ids = list(range(10))
    with pytest.raises(KeyboardInterrupt):
        pass_over(folder_at(tmp_path), ids, fail_after=4)
    assert sorted(folder_at(tmp_path).rows()) == [0, 1, 2, 3]  # every finished row was written
    left = json.loads((tmp_path / "manifest.json").read_text())
    assert left["complete"] is False and left["settings"] == {"kind": "test"}
    timing = pass_over(folder_at(tmp_path), ids)
    assert timing is not None and timing.new_rows == 6 and len(timing.rows) == 10
    assert [r["value"] for r in timing.rows.values()] == [2 * i for i in ids]


def test_shards_of_two_processes_merge_into_the_rows_of_one(tmp_path):
    ids = list(range(9))
    alone = pass_over(folder_at(tmp_path / "one"), ids)
    shared = folder_at(tmp_path / "two")
    runs = [
        ResumableRun(shared, SimpleNamespace(process_index=rank, num_processes=2, wait_for_everyone=lambda: None))
        for rank in (0, 1)
    ]
    todo = [run.share([i for i in ids if i not in run.start({"settings": {}})]) for run in runs]
    assert todo == [[0, 2, 4, 6, 8], [1, 3, 5, 7]]  # every other unit each, as accelerate splits work
    for run, mine in zip(runs, todo):
        run.work(([{"id": i, "value": i * 2}] for i in mine), total=9, initial=0, desc="t", unit="r", progress=False)
    assert (tmp_path / "two" / "shards").is_dir() and not shared.rows_path.exists()
    assert runs[1].finish() is None  # a worker: the main process merges and measures
    merged = runs[0].finish()
    assert merged is not None and merged.rows == alone.rows and merged.new_rows == 9
    assert not (tmp_path / "two" / "shards").exists()


def test_timing_counts_only_rows_this_folder_timed(tmp_path):
    folder = folder_at(tmp_path)
    folder.append([{"id": "copied"}])
    run = ResumableRun(folder, copied_rows=1)
    run.start({"settings": {}})
    run.work([[{"id": "a"}, {"id": "b"}]], total=3, initial=1, desc="t", unit="row", progress=False, weight=len)
    timing = run.finish()
    assert timing is not None and timing.new_rows == 2 and timing.timed_rows == 2
    assert timing.fields()["rows"] == 3
