"""make bench's machinery: alternated timing, process timing, stale rows, a failing group, the scale groups on tiny
inputs (the timings themselves are never asserted)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import common  # noqa: E402


def test_alternated_runs_the_cases_in_turn():
    calls = []
    t = common.alternated({"a": lambda: calls.append("a"), "b": lambda: calls.append("b")}, repeat=3, min_time=0.0)
    assert set(t) == {"a", "b"}
    assert calls == ["a", "b"] * 4  # one warm-up call each, then a b a b a b


def test_run_process_times_a_process_and_reports_its_failure(tmp_path):
    out = tmp_path / "out.txt"
    seconds, peak = common.run_process([sys.executable, "-c", "print('hello')"], out)
    assert out.read_text() == "hello\n" and seconds > 0 and peak > 1 << 20
    with pytest.raises(RuntimeError, match="exited 3: boom"):
        common.run_process(
            [
                sys.executable,
                "-c",
                "import sys; sys.exit('boom') if False else (print('boom', file=sys.stderr), sys.exit(3))",
            ]
        )


def test_peak_memory_is_the_process_own(tmp_path):
    """wait4's rusage: a small process after a big one reports its own peak, not the larger one."""
    _, big = common.run_process([sys.executable, "-c", "x = bytearray(300 << 20); x[::4096] = b'1' * len(x[::4096])"])
    _, small = common.run_process([sys.executable, "-c", "pass"])
    assert big > 300 << 20 > small


def test_a_failing_group_is_reported_and_the_rest_written_with_stale_rows_dated(tmp_path, monkeypatch):
    import benchmarks.__main__ as bench

    out = tmp_path / "BENCH.md"
    out.write_text(
        "Written by `make bench` on 2026-11-30: ...\n\n| group | case | ours | time | reference | time | ratio | note |\n"
        "|---|---|---|---|---|---|---|---|\n| power | n = 5 | exact | 1 ms | twin | 1 ms | 1 |  |\n"
        "| McNemar | gone | ours | 1 ms | ref | 1 ms | 1 |  |\n| McNemar | tiny | ours | 9 s | ref | 9 s | 1 |  |\n"
        "\n## Growth\n\n- `majority_probability`: time ~ size^1.0.\n\n"
        "arena --json, by battles.\n\n| battles | time |\n|---|---|\n| 10 | 1 s |\n\n## Reading the table\n"
    )

    def broken():
        raise ValueError("no such thing")

    monkeypatch.setattr(bench, "bench_passk", broken)
    monkeypatch.setattr(bench, "bench_mcnemar", lambda: common.row("McNemar", "tiny", "ours", 1.0, "ref", 2.0))
    monkeypatch.setattr(common, "ROWS", common.ROWS)
    common.ROWS.clear()
    bench.KEPT_ROWS.clear()
    bench.KEPT_GROWTH.clear()
    bench.RAN.clear()
    bench.FAILURES.clear()
    assert bench.main(["--only", "passk", "mcnemar", "--out", str(out)]) == 0
    text = out.read_text()
    assert "| McNemar | tiny | ours |" in text
    assert "passk: ValueError: no such thing" in text
    assert "| power | n = 5 |" in text and "(stale: measured 2026-11-30)" in text
    assert "| McNemar | gone |" in text  # a row of a group that ran but did not measure it again stays, stale
    assert text.count("| McNemar | tiny |") == 1 and "9 s" not in text  # a row measured again is replaced
    # growth entries of groups not run stay, marked, with their tables
    assert "- `majority_probability`: time ~ size^1.0. (stale: measured 2026-11-30)" in text
    assert "arena --json, by battles. (stale: measured 2026-11-30)\n\n| battles | time |" in text
    with pytest.raises(SystemExit) as stop:
        bench.main(["--only", "nonsense", "--out", str(out)])
    assert stop.value.code == 2


@pytest.mark.slow
def test_the_scale_groups_run_on_tiny_inputs(monkeypatch):
    from benchmarks import scale_bench as sb

    monkeypatch.setattr(sb, "REPORT_CASES", [(4, 200, "wide", 1), (2, 500, "long", 1)])
    monkeypatch.setattr(sb, "ARENA_CASES", [(3_000, 5, 1)])
    monkeypatch.setattr(sb, "BOOTSTRAP_CASE", (2_000, 4))
    monkeypatch.setattr(sb, "SCALE_CASES", [(30, 500)])
    monkeypatch.setattr(sb, "DASK_CASE", (40, 2_000))
    common.ROWS.clear()
    sb.GROWTH.clear()
    sb.bench_report()
    sb.bench_arena()
    sb.bench_scale()
    groups = [r["group"] for r in common.ROWS]
    assert groups.count("report") == 4 and groups.count("arena") >= 2 and groups.count("scale") == 1
    assert all(r["t_ours"] > 0 and r["t_ref"] > 0 for r in common.ROWS)
    assert any("30 x 500" in g for g in sb.GROWTH)
