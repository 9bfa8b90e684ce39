"""The dataset tools (python -m tools): building the shipped tables and re-checking committed rows."""

import pandas as pd
import pytest

from scoring.run import read_done
from tests.conftest import ROOT, mmlu_dir
from tests.tiny import run_tiny


@pytest.mark.model
@pytest.mark.slow
@pytest.mark.skipif(mmlu_dir() is None, reason="shared MMLU-Redux folder not present")
def test_data_check_rescoring_matches_committed_rows():
    """`make data-check`: re-score committed rows of the two small models across conditions; they must match."""
    from scoring.models import PACKAGED_MODELS, ModelUnavailable
    from tools.check import check_dataset

    installed = []
    for name in ("smollm2-135m-instruct", "gemma3-270m"):  # SmolLM2 comes with `make venv`; Gemma with `make data`
        try:
            PACKAGED_MODELS[name].part_paths()
            installed.append(name)
        except ModelUnavailable:
            pass
    ok, report = check_dataset(ROOT / "data", n=12, models=installed)
    assert ok, report
    assert "original-2000" in report and "shuffled-2000" in report
    assert all(name in report for name in installed)
    if (ROOT / "data" / "runs" / "cloze-2000" / "smollm2-135m-instruct").exists():
        assert "cloze-2000/smollm2-135m-instruct" in report  # answer-text rows are re-scored in their own format


def test_build_data_writes_tables_and_fills_the_datasheet(tiny, questions_file, tmp_path):
    from tools.build import END, START, build

    data = tmp_path / "data"
    manifest, _ = run_tiny(tiny, questions_file, data / "runs" / "shuffled-2000" / "tiny")
    (data / "README.md").write_text(f"# sheet\n\n{START}\nstale\n{END}\n\nafter\n")
    summary = build(data)
    entry = summary["shuffled-2000"][manifest["settings"]["model"]]
    rows = read_done(data / "runs" / "shuffled-2000" / "tiny" / "results.jsonl").values()
    assert entry["correct"] == sum(r["correct"] for r in rows) and entry["rows"] == 30
    sheet = (data / "README.md").read_text()
    assert "stale" not in sheet and sheet.endswith(f"{END}\n\nafter\n")
    assert f"| {entry['correct'] / 30:.4f} |" in sheet and "### shuffled-2000" in sheet
    assert entry["per_category"]["not MMLU"]["correct"] == entry["correct"]  # the tiny subjects are not MMLU's
    from scoring.questions import CATEGORY_OF, MMLU_CATEGORIES

    assert len(CATEGORY_OF) == 57 and sorted(MMLU_CATEGORIES) == ["humanities", "other", "social_sciences", "stem"]
    build(data)
    assert (data / "README.md").read_text() == sheet  # rebuilding changes nothing
    assert pd.read_parquet(data / "shuffled-2000.matrix.parquet").shape == (1, 30)
    # a cloze condition: no letters, both accuracies with their intervals
    run_tiny(tiny, questions_file, data / "runs" / "cloze-2000" / "tiny", format="cloze")
    summary = build(data)
    cz = summary["cloze-2000"][manifest["settings"]["model"]]
    rows = read_done(data / "runs" / "cloze-2000" / "tiny" / "results.jsonl").values()
    assert cz["format"] == "cloze" and cz["chosen_letter_share"] is None
    assert cz["correct_norm"] == sum(r["correct_norm"] for r in rows)
    assert "accuracy (per character)" in (data / "README.md").read_text()


@pytest.mark.slow
def test_data_check_reexecutes_stored_completions():
    """`make data-check`, pass@k part: stored completions re-executed in the sandbox give the stored status."""
    from tools.check import check_passk

    ok, report = check_passk(ROOT / "data", n=12)
    assert ok, report


def test_data_check_names_runs_it_cannot_rescore(tiny, questions_file, tmp_path):
    """A run whose shots came from a dev split (not shipped) is listed as not re-scored, never re-scored wrongly."""
    from tools.check import check_dataset

    run_tiny(tiny, questions_file, tmp_path / "data" / "runs" / "dev-shots" / "tiny", shots=1, shots_from="dev")
    ok, report = check_dataset(tmp_path / "data", n=4)
    assert ok and "re-scored 0 committed rows" in report
    assert "not re-scored: dev-shots/" in report and "dev-split shots" in report
