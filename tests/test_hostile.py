"""Hostile input: every case ends with exit 2 and one stderr line, or a correct answer; never a traceback."""

import json
import zipfile
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import exactstats as es
from exactstats.cli import main

BAD_COMMANDS = [
    ["power", "--q", ".2", "--d", "1e-300"],
    ["wilson", "7", "10", "--z", "1e309"],
    ["wilson", "7", "10", "--z", "-1"],
    ["power", "--q", ".2", "--d", ".05", "--z-alpha", "-1"],
    ["power", "--q", ".2", "--d", ".05", "--z-alpha", "1", "--z-power", "-3"],
    ["wilson", "7", "10", "--z", "2", "--confidence", "0.9"],
    ["passk", "--", "--5", "1", "1"],
    ["passk", "²", "1", "1"],
    ["passk", "5.5", "1", "1"],
    ["passk", "1" * 5000, "1", "1"],
    ["mcnemar", "100000000000", "0"],
    ["condorcet", "0.7", "1000001"],
    ["passk", str(10**18), str(10**17), str(10**9)],
    ["condorcet", "nan", "3"],
    ["condorcet", "1e99999", "3"],
    ["condorcet", "0.7", "4"],  # even k needs a tie rule
    ["neff", "7", "-1/6"],  # phi must exceed -1/(k-1)
    ["wilson", "11", "10"],
    ["mcnemar", "-1", "3"],
    ["prove", "no-such-proof"],
    ["report", "/nonexistent/file.csv"],
    ["report", "x=/nonexistent.csv", "--draws", "0"],
    # issue 36: each of these printed a traceback
    ["wilson", "7", "10", "--confidence", "0." + "9" * 29],
    ["check", "1.1", "1e999999"],
    ["check", "5.1", "1e999999"],
    ["check", "2.2", "1e999999", "3"],
    ["sequential", "/nonexistent/file.csv"],
    ["sequential", "data/shuffled-2000.matrix.parquet", "--models", "a"],
    ["sequential", "data/shuffled-2000.matrix.parquet", "--alpha", "nan"],
    ["sequential", "data/shuffled-2000.matrix.parquet", "--shuffle", "-1"],
    # issue 34: task tables
    ["report", "tests/fixtures/tasks/long.csv", "tests/fixtures/tasks/wide.csv", "--scores"],
    ["report", "tests/fixtures/tasks/wide.csv"],  # a wide table of scores without --scores is not 0/1
    ["report", "data/humaneval-sampled.parquet", "--scores"],
    # issue 33: ratings
    ["agreement", "/nonexistent.csv"],
    ["agreement", "data/humaneval-sampled.parquet"],
    ["agreement", "tests/fixtures/tasks/long.csv"],
    ["judge-correct", "--human", "/nonexistent.csv", "--judge", "tests/fixtures/tasks/long.csv"],
    # issue 31: audits
    ["audit", "/nonexistent.json"],
    ["audit", "data/humaneval-sampled.parquet"],
    ["audit", "tests/fixtures/tasks/long.csv"],
    ["audit", "tests/fixtures/README.md"],
    ["audit", "tests/fixtures/lm-eval/tiny-a", "--n", "0"],
    # issue 35: grading
    ["grade", "/nonexistent.csv"],
    ["grade", "tests/fixtures/tasks/long.csv"],
]


@pytest.mark.parametrize("argv", BAD_COMMANDS, ids=lambda a: " ".join(a)[:40])
def test_bad_commands_exit_2_with_one_line(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("exactstats") and "Traceback" not in err[0]


def test_huge_exact_values_are_summarised_not_printed(capsys):
    assert main(["mcnemar", "500000", "499000", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["exact"] is None and out["exact_digits"][1] > 4300
    assert out["decimal"] == pytest.approx(es.mcnemar_p_value_float(500000, 499000), rel=1e-9)
    assert main(["condorcet", "0.7", "5001"]) == 0
    assert "--exact prints it" in capsys.readouterr().out
    assert main(["condorcet", "0.7", "5001", "--exact", "--json"]) == 0
    exact = Fraction(json.loads(capsys.readouterr().out)["exact"])
    assert exact == es.majority_probability("0.7", 5001, allow_slow=True)


def test_values_that_read_as_options_or_decimals(capsys):
    assert main(["neff", "7", "-1/6", "--json"]) == 2  # the boundary -1/(k-1) itself is refused ...
    capsys.readouterr()
    assert main(["neff", "7", "-1/8", "--json"]) == 0  # ... a negative phi inside the range is read as a value
    assert json.loads(capsys.readouterr().out)["exact"] == str(es.effective_votes(7, "-1/8"))
    assert main(["mcnemar", "5.0", "5"]) == 0  # a whole decimal is a whole number


def test_python_api_refuses_with_one_error_class():
    from decimal import Decimal

    for call in (
        lambda: es.pass_at_k("--5", 1, 1),
        lambda: es.pass_at_k("²", 1, 1),
        lambda: es.majority_probability(Decimal("Infinity"), 3),
        lambda: es.majority_probability(Decimal("NaN"), 3),
        lambda: es.mcnemar_p_value(10**11, 0),
        lambda: es.pass_at_k(10**18, 10**17, 10**9),
        lambda: es.expected_pass_at_k(10**6, 1, "0.5", estimator="plugin"),
        lambda: es.wilson_interval(7, 10, z="2", confidence="0.9"),
        lambda: es.expected_best_accuracy(10**6, "1/4", 2),
        lambda: es.expected_best_accuracy(100, "1/4", 10**9),
        lambda: es.clopper_pearson_interval(10**5, 10**6),  # minutes of exact work: refused, naming the twin
        lambda: es.paired_equivalence_p_value(5, 5, 10**7, "0.01"),
        lambda: es.sign_flip_p_value([float("inf"), 1]),
        lambda: es.sign_flip_p_value([Decimal("NaN"), 1]),
        lambda: es.sign_flip_p_value_float(["1e-300", 1, -1]),  # a scale of 1e300 steps: refused, not run
        lambda: es.sign_flip_p_value([1, 2], alternative=None),
        lambda: es.clustered_paired_comparison([1, 0, 2], [0, 0, 1], [1, 2, 3]),
        lambda: es.clustered_paired_comparison([1, 0], [0, 0], [1]),
        lambda: es.cluster_sums([[1, 0]], ["a"]),
        lambda: es.compare_on_tasks([[1, float("nan")], [1, 2]]),
        lambda: es.compare_on_tasks([["1e999999", 1], [1, 2]]),
        lambda: es.tasks_needed(0),
        lambda: es.soft_accuracy([Decimal("Infinity"), 0]),
        lambda: es.paired_soft_difference([0.5, 0.5], [0.5, "2"]),
        lambda: es.samples_per_problem_float([(10, 5), (10, 1)], 1, "nan"),
        lambda: es.within_variance_estimate(10**9, 1, 10**8, 10**9),
        lambda: es.pass_hat_k_variance_estimate(10**9, 1, 10**8),  # hung in big-integer work: refused now
        lambda: es.pass_at_k_variance_estimate(10**9, 1, 10**8),
        lambda: es.rogan_gladen(5, 10, -1, 3, 4, 1),
        lambda: es.rogan_gladen_interval_float(5, 10, 3, 1, 4, 1, confidence="1.5"),
        lambda: es.kappa_p_value_float(["a", None], ["a", "b"]),
    ):
        with pytest.raises(es.ExactStatsError):
            call()


def test_float_twins_named_in_refusals_agree_with_exact_where_both_run():
    assert es.mcnemar_p_value_float(219, 182) == pytest.approx(float(es.mcnemar_p_value(219, 182)), rel=1e-12)
    assert es.majority_probability_float("0.7", 101) == pytest.approx(
        float(es.majority_probability("0.7", 101)), rel=1e-12
    )
    for est in ("unbiased", "plugin"):
        assert es.expected_pass_at_k_float(20, 5, "0.3", est) == pytest.approx(
            float(es.expected_pass_at_k(20, 5, "0.3", est)), rel=1e-12
        )
    assert es.expected_best_accuracy_float(3000, "0.3", 3) == pytest.approx(
        float(es.expected_best_accuracy(3000, "0.3", 3, allow_slow=True)), rel=1e-12
    )
    lo, hi = es.clopper_pearson_interval(1000, 10000)  # 0.5 s, where it took over 9 minutes
    flo, fhi = es.clopper_pearson_interval_float(1000, 10000)
    assert lo <= flo and hi >= fhi and flo - float(lo) < 1e-6 and float(hi) - fhi < 1e-6
    with pytest.raises(es.ExactStatsError, match="clopper_pearson_interval_float"):
        es.clopper_pearson_interval(10**5, 10**6)
    assert 0.999 < es.mcnemar_power_float(10**9, "0.011", "0.01") <= 1  # it never finished before
    assert es.plurality_probability_float(["0.4"] * 40) == pytest.approx(
        float(es.plurality_probability(["0.4"] * 40)), rel=1e-12
    )


# the sizes of issue 37's 10x rule: past its limit each exact sum is refused, naming its float twin and
# allow_slow; with allow_slow=True it runs and agrees with the twin
SLOW_EXACT = [
    (es.majority_probability, ("0.7", 3_001), es.majority_probability_float, 1e-12),
    (es.majority_probability, ("0.7", 10_001), es.majority_probability_float, 1e-12),
    (
        es.paired_equivalence_p_value,
        (2_910, 2_890, 17_400, "0.02"),
        es.paired_equivalence_p_value_float,
        1e-5,
    ),  # its q_U is unrounded
    (es.expected_best_accuracy, (2_000, "1/4", 2), es.expected_best_accuracy_float, 1e-12),
    (es.expected_best_accuracy, (5_000, "1/4", 2), es.expected_best_accuracy_float, 1e-12),
    (es.plurality_probability, (["0.6"] * 1_001,), es.plurality_probability_float, 1e-12),
]


@pytest.mark.parametrize("exact, args, twin, rel", SLOW_EXACT, ids=lambda x: getattr(x, "__name__", None))
def test_exact_sums_past_the_ten_times_rule_are_refused_naming_the_twin(exact, args, twin, rel):
    with pytest.raises(es.ExactStatsError, match=f"use {twin.__name__} for a float answer, or pass allow_slow=True"):
        exact(*args)
    if exact is not es.plurality_probability or len(args[0]) < 400:  # the exact plurality of 1,001 takes seconds
        assert float(exact(*args, allow_slow=True)) == pytest.approx(twin(*args), rel=rel)


@pytest.mark.parametrize("flag", [1, 0, "yes", None, 1.0])
def test_allow_slow_must_be_a_bool(flag):
    with pytest.raises(es.ExactStatsError, match="allow_slow must be True or False"):
        es.majority_probability("0.7", 3, allow_slow=flag)


def test_sizes_below_the_limits_run_without_allow_slow():
    """Each limit sits just above the sizes the bench shows within 10x (a test that the limits did not drift
    down to refuse the everyday sizes the book uses)."""
    assert es.majority_probability("0.7", 1_001) > Fraction(99, 100)
    assert es.paired_equivalence_p_value(600, 580, 3_540, "0.02") < 1
    assert es.expected_best_accuracy(1_000, "1/4", 2) > Fraction(1, 4)
    assert es.plurality_probability(["0.6"] * 301) > Fraction(9, 10)


# --- report inputs ----------------------------------------------------------------------------


def write(path, content):
    (path.write_bytes if isinstance(content, bytes) else path.write_text)(content)
    return path


def hostile_files(tmp_path):
    eval_bad_header = tmp_path / "bad-header.eval"
    with zipfile.ZipFile(eval_bad_header, "w") as z:
        z.writestr("header.json", "{not json")
    eval_no_header = tmp_path / "no-header.eval"
    with zipfile.ZipFile(eval_no_header, "w") as z:
        z.writestr("samples/a.json", "{}")
    return {
        "empty .eval": write(tmp_path / "empty.eval", ""),
        "text .eval": write(tmp_path / "text.eval", "not a zip"),
        "bad header.json": eval_bad_header,
        "no header.json": eval_no_header,
        "Inspect JSON array": write(tmp_path / "array.json", "[1, 2]"),
        "Inspect without samples": write(tmp_path / "nosamples.json", json.dumps({"eval": {"model": "m"}})),
        "Inspect sample without id": write(
            tmp_path / "noid.json", json.dumps({"eval": {"model": "m"}, "samples": [{"scores": {"s": {"value": "C"}}}]})
        ),
        "Inspect sample not an object": write(
            tmp_path / "strsample.json", json.dumps({"eval": {"model": "m"}, "samples": ["x"]})
        ),
        "lm-eval line 5": write(tmp_path / "samples_t_1.jsonl", "5\n"),
        "binary .jsonl": write(tmp_path / "samples_b_1.jsonl", bytes(range(256))),
        "lm-eval metric 0.5": write(tmp_path / "samples_h_1.jsonl", '{"doc_id": 0, "acc": 0.5}\n'),
        "letter correct": write(tmp_path / "letter.csv", "model,question_id,correct\nm0,a,B\nm1,a,1\n"),
        "NaN chosen": write(tmp_path / "nan.csv", "model,question_id,correct,chosen,answer\nm0,a,1,,1\nm1,a,0,0,1\n"),
        "duplicated header": write(tmp_path / "dup.csv", "model,q1,q1\na,1,0\nb,0,1\n"),
        "empty model cell": write(tmp_path / "emptymodel.csv", "model,q1,q2\n,1,0\nb,0,1\n"),
        "empty model in long": write(tmp_path / "emptylong.csv", "model,question_id,correct\nm0,a,1\n,a,0\nm0,b,1\n"),
        "correct contradicts chosen": write(
            tmp_path / "contra.csv", "model,question_id,correct,chosen,answer\nm0,a,1,2,1\nm0,b,0,1,1\n"
        ),
        "one question": write(tmp_path / "one.csv", "model,q1\na,1\nb,0\n"),
        "header only": write(tmp_path / "header.csv", "model,q1,q2\n"),
        "a folder without samples": tmp_path / "emptydir",
        # issue 36: tracebacks, silent shifts and silent drops
        "empty .parquet": write(tmp_path / "empty.parquet", b""),
        "corrupt .parquet": write(tmp_path / "corrupt.parquet", b"PAR1" + bytes(range(200))),
        "rows longer than the header": write(tmp_path / "longrows.csv", "model,q1,q2\na,1,0,1\nb,0,1,0\n"),
        "long table without correct": write(
            tmp_path / "pred.csv", "model,question_id,pred,answer\na,1,A,A\na,2,B,C\nb,1,A,A\nb,2,C,C\n"
        ),
        "JSON nested 100,000 deep": write(tmp_path / "deep.json", "[" * 100_000 + "]" * 100_000),
        "lm-eval results nested deep": write(tmp_path / "samples_deep_1.jsonl", "[" * 100_000 + "]" * 100_000 + "\n"),
        "lm-eval acc as a list": write(tmp_path / "samples_l_1.jsonl", '{"doc_id": 0, "acc": [1]}\n'),
        "unknown pass@k status": write(tmp_path / "status.csv", "task_id,sample,status\nT/0,0,pass\nT/0,1,maybe\n"),
        "encrypted .eval member": _eval_with(tmp_path / "enc.eval", flag_bits=0x1),
        "unknown .eval compression": _eval_with(tmp_path / "lzma.eval", compress_type=14),
        ".eval member that claims 4 GB": _eval_with(tmp_path / "huge.eval", file_size=4 << 30),
    }


def _eval_with(path, flag_bits=0, compress_type=zipfile.ZIP_STORED, file_size=None):
    """A one-member .eval whose zip entry is marked as asked (encrypted, another method, a huge size)."""
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("header.json", json.dumps({"eval": {"model": "m"}}))
    data = bytearray(path.read_bytes())
    for sig, flag_at, method_at, size_at in ((b"PK\x03\x04", 6, 8, 22), (b"PK\x01\x02", 8, 10, 24)):
        i = data.find(sig)
        data[i + flag_at : i + flag_at + 2] = flag_bits.to_bytes(2, "little")
        data[i + method_at : i + method_at + 2] = compress_type.to_bytes(2, "little")
        if file_size is not None:
            data[i + size_at : i + size_at + 4] = min(file_size, 2**32 - 1).to_bytes(4, "little")
    path.write_bytes(bytes(data))
    return path


def test_a_deflate_bomb_is_refused_in_bounded_memory(tmp_path, capsys, monkeypatch):
    """A member that inflates past the cap is refused before it is inflated (a 1 MB .eval once took 2.2 GB);
    one that claims less than it holds stops at its claim and fails zip's own check. The cap is lowered to
    1 MiB here so that the bomb is small to build."""
    from exactstats.report import importers

    monkeypatch.setattr(importers, "MAX_MEMBER_BYTES", 1 << 20)
    path = tmp_path / "bomb.eval"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("header.json", b" " * (3 << 20))  # 3 MB of spaces: a few KB compressed
    assert main(["report", str(path)]) == 2
    assert "decompresses to more than" in capsys.readouterr().err
    liar = bytearray(path.read_bytes())  # the same member, its declared size set to 10 bytes in both headers
    for sig, at in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        i = liar.find(sig)
        liar[i + at : i + at + 4] = (10).to_bytes(4, "little")
    path.write_bytes(bytes(liar))
    assert main(["report", str(path)]) == 2
    assert "not a readable .eval" in capsys.readouterr().err


def test_model_names_keep_their_organisation(tmp_path, capsys):
    """lm-eval folders of orgA/llama-7b and orgB/llama-7b are two models, not one merged name."""
    for org in ("orgA", "orgB"):
        folder = tmp_path / "out" / f"{org}__llama-7b"
        folder.mkdir(parents=True)
        write(folder / "samples_t_2024.jsonl", '{"doc_id": 0, "acc": 1}\n{"doc_id": 1, "acc": 0}\n')
        write(folder / "results_2024.json", json.dumps({"model_name": f"{org}/llama-7b"}))
    assert main(["report", str(tmp_path / "out"), "--draws", "10", "--json"]) == 0
    names = {row["model"] for row in json.loads(capsys.readouterr().out)["leaderboard"]}
    assert names == {"orgA/llama-7b", "orgB/llama-7b"}


def test_evalplus_statuses_are_read(tmp_path, capsys):
    path = write(tmp_path / "evalplus.csv", "task_id,sample,status\nT/0,0,pass\nT/0,1,fail\nT/1,0,PASS\nT/1,1,ok\n")
    assert main(["report", str(path), "--k", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["passk"][0]["pass_at_k_exact"] == "3/4"


def test_report_never_overwrites_its_input(tmp_path, capsys):
    path = write(tmp_path / "m.csv", "model,q1,q2,q3\na,1,0,1\nb,0,1,1\n")
    before = path.read_text()
    assert main(["report", str(path), "--out", str(path), "--draws", "10"]) == 2
    assert "would overwrite the input" in capsys.readouterr().err and path.read_text() == before


def test_arena_refuses_null_models_and_handles_many_models(tmp_path, capsys):
    path = write(tmp_path / "null.json", json.dumps([{"model_a": None, "model_b": "b", "winner": "model_a"}]))
    assert main(["arena", str(path)]) == 2
    assert "null" in capsys.readouterr().err
    chain = [(f"m{i}", f"m{i + 1}", "model_a") for i in range(1300)]  # deep enough to overflow a recursive search
    counts = es.battle_counts(chain)
    assert es.bt_mle_exists(counts) is False


@settings(max_examples=40)
@given(st.integers(2, 9), st.data())
def test_strong_components_match_reachability(k, data):
    """The iterative Tarjan search against brute force: i and j share a component iff each reaches the other."""
    from exactstats.arena import _components

    edges = data.draw(st.sets(st.tuples(st.integers(0, k - 1), st.integers(0, k - 1)), max_size=k * k))
    battles = [(f"m{i}", f"m{j}", "model_a") for i, j in edges if i != j]
    battles += [(f"m{i}", f"m{(i + 1) % k}", "tie") for i in range(k)]  # every model appears
    counts = es.battle_counts(battles, ties="exclude")
    idx = {m: counts.models.index(m) for m in counts.models}
    reach = [[i == j for j in range(k)] for i in range(k)]
    for i, j in edges:
        if i != j:
            reach[idx[f"m{i}"]][idx[f"m{j}"]] = True
    for m in range(k):
        for i in range(k):
            for j in range(k):
                reach[i][j] = reach[i][j] or (reach[i][m] and reach[m][j])
    comps = _components(counts)
    where = {v: n for n, comp in enumerate(comps) for v in comp}
    for i in range(k):
        for j in range(k):
            assert (where[i] == where[j]) == (reach[i][j] and reach[j][i])


def test_scoring_check_catches_forged_rows(tmp_path):
    """Whole-file checks: a flipped correct, a renamed model, a torn line, a failed run marked passed, a
    manifest without settings; the shipped data passes them."""
    import shutil
    from pathlib import Path

    from tools.check import check_files

    root = Path(__file__).resolve().parents[1] / "data"
    assert check_files(root)[0]
    runs = tmp_path / "data" / "runs"

    def fresh(kind, model):
        target = runs / kind / model
        shutil.rmtree(runs, ignore_errors=True)
        shutil.copytree(root / "runs" / kind / model, target)
        return target

    def forge(path, old, new):
        text = path.read_text()
        assert old in text
        path.write_text(text.replace(old, new, 1))

    folder = fresh("shuffled-2000", "gemma3-270m")
    forge(folder / "results.jsonl", '"correct": 1', '"correct": 0')
    assert not check_files(tmp_path / "data")[0]
    folder = fresh("shuffled-2000", "gemma3-270m")
    forge(folder / "results.jsonl", '"model": "gemma3-270m"', '"model": "gpt-4o"')
    assert not check_files(tmp_path / "data")[0]
    folder = fresh("shuffled-2000", "gemma3-270m")
    with open(folder / "results.jsonl", "a") as f:
        f.write('{"model": "gemma3-270m", "question_id": "x", "cor')
    assert "cut off" in check_files(tmp_path / "data")[1]
    folder = fresh("shuffled-2000", "gemma3-270m")
    write(folder / "manifest.json", "{}")
    assert "settings" in check_files(tmp_path / "data")[1]
    folder = fresh("humaneval-greedy", "qwen2.5-coder-0.5b-instruct")
    forge(folder / "executions.jsonl", '"status": "failed"', '"status": "passed"')
    assert "counts" in check_files(tmp_path / "data")[1]


def test_hostile_report_inputs_exit_2(tmp_path, capsys):
    (tmp_path / "emptydir").mkdir()
    for name, path in hostile_files(tmp_path).items():
        code = main(["report", str(path), "--draws", "10"])
        err = capsys.readouterr().err.strip().splitlines()
        assert code == 2 and len(err) == 1 and "Traceback" not in err[0], (name, err)


def test_complementary_models_report_negative_correlation(tmp_path, capsys):
    path = write(tmp_path / "comp.csv", "model,q0,q1,q2,q3\na,1,0,1,0\nb,0,1,0,1\n")
    assert main(["report", str(path), "--draws", "10", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["phi"]["mean"] == pytest.approx(-1) and r["phi"]["effective_votes"] is None
    assert any("negative" in n for n in r["notes"])


def test_inspect_epochs_are_clustered_by_question(tmp_path, capsys):
    samples = [
        {"id": q, "epoch": e, "scores": {"s": {"value": "C" if (q + e + m) % 3 else "I"}}}
        for q in range(30)
        for e in (1, 2, 3)
        for m in (0,)
    ]
    for m in ("a", "b"):
        write(tmp_path / f"{m}.json", json.dumps({"eval": {"model": m, "task": "t"}, "samples": samples}))
    from exactstats.report.importers import load_results

    rs = load_results([str(tmp_path / "a.json"), str(tmp_path / "b.json")])
    assert rs.correct.shape == (2, 90) and len(set(rs.clusters.tolist())) == 30


def test_broken_pipe_is_not_an_error(tmp_path):
    import subprocess
    import sys

    path = write(
        tmp_path / "w.csv",
        "model,"
        + ",".join(f"q{i}" for i in range(200))
        + "\n"
        + "\n".join(f"m{j}," + ",".join(str((i * (j + 3)) % 2) for i in range(200)) for j in range(30))
        + "\n",
    )
    proc = subprocess.run(
        f"{sys.executable} -m exactstats report {path} --draws 10 | head -1", shell=True, capture_output=True, text=True
    )
    assert (
        proc.stdout.startswith("# Eval report") and "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr
    )


# --- fuzz -------------------------------------------------------------------------------------

cells = st.sampled_from(["0", "1", "", "1.0", "0.5", "x", "nan", "-1", "1e0", " 1", "True"])


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.lists(cells, min_size=1, max_size=5), min_size=1, max_size=5),
    st.lists(st.sampled_from(["model", "q1", "q2", "q3", "", "question_id", "correct"]), min_size=1, max_size=6),
)
def test_fuzz_csv_reports_or_refuses(tmp_path_factory, rows, header):
    path = tmp_path_factory.mktemp("fz") / "f.csv"
    path.write_text(",".join(header) + "\n" + "\n".join(",".join(r) for r in rows) + "\n")
    check_report_or_refusal(path)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.integers(),
            st.text(max_size=5),
            st.dictionaries(
                st.sampled_from(["doc_id", "acc", "x"]),
                st.one_of(st.integers(-1, 2), st.floats(allow_nan=True), st.text(max_size=2)),
                max_size=3,
            ),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_fuzz_lm_eval_reports_or_refuses(tmp_path_factory, lines):
    path = tmp_path_factory.mktemp("fz") / "samples_task_2026.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    check_report_or_refusal(path)


@settings(max_examples=40, deadline=None)
@given(
    st.recursive(
        st.one_of(st.none(), st.integers(), st.text(max_size=3)),
        lambda kids: st.one_of(
            st.lists(kids, max_size=3),
            st.dictionaries(st.sampled_from(["eval", "samples", "id", "scores", "value", "model"]), kids, max_size=4),
        ),
        max_leaves=12,
    )
)
def test_fuzz_inspect_reports_or_refuses(tmp_path_factory, obj):
    path = tmp_path_factory.mktemp("fz") / "log.json"
    path.write_text(json.dumps(obj))
    check_report_or_refusal(path)


def check_report_or_refusal(path):
    """Exit 2 with an ExactStatsError, or a report whose numbers match the matrix it read."""
    from exactstats.report.analysis import analyse
    from exactstats.report.importers import load_results

    try:
        rs = load_results([str(path)])
        report = analyse(rs, draws=5)
    except es.ExactStatsError:
        return
    for e, row in zip(report.leaderboard, rs.correct[np.argsort(-rs.correct.sum(axis=1), kind="stable")]):
        assert e.right == int(row.sum()) and e.questions == rs.correct.shape[1]
