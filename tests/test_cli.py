import json
import subprocess
import sys

import pytest

from exactstats.cli import main


def run(*args):
    return subprocess.run([sys.executable, "-m", "exactstats", *args], capture_output=True, text=True)


def test_mcnemar_json_prints_exact_p():
    r = run("mcnemar", "219", "182", "--json")
    assert r.returncode == 0
    out = json.loads(r.stdout)
    num, den = map(int, out["exact"].split("/"))
    assert round(num / den, 4) == 0.0721 and out["decimal"] == pytest.approx(num / den)


@pytest.mark.parametrize(
    "args, exact",
    [
        (["passk", "5", "2", "2"], "7/10"),
        (["condorcet", "0.7", "3"], "98/125"),
        (["condorcet", "0.7", "2", "--ties", "fair"], "7/10"),
        (["neff", "7", "0.3"], "5/2"),
        (
            ["equivalence", "6", "4", "100", "--margin", "0.02"],
            "693621826160310633017500380827347813873851702427567/929216644493630228160039328239918621826171875000000",
        ),
        (["power", "--q", "0.2", "--d", "0.0185", "--z-alpha", "1.96", "--z-power", "0.84"], "6272000/1369"),
    ],
)
def test_json_exact(args, exact, capsys):
    assert main([*args, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["exact"] == exact


def test_power_json_has_n(capsys):
    assert main(["power", "--q", "0.2", "--d", "0.0185", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["n"] == 4587 and out["exact"] is None


def test_equivalence_decision(capsys):
    assert main(["equivalence", "30", "28", "2000", "--margin", "0.02", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rejected"] is True and out["alternative"] == "equivalence" and 0.0013 < out["decimal"] < 0.0014
    assert out["nuisance_level"] == "0.001"
    assert main(["equivalence", "30", "28", "2000", "--margin", "0.01"]) == 0  # p = 0.077
    assert "equivalent: not shown" in capsys.readouterr().out
    assert main(["equivalence", "60", "28", "2000", "--margin", "0.01", "--non-inferiority"]) == 0
    assert "not worse within 0.01" in capsys.readouterr().out
    # the case: 4 of 100 questions won by one model used to print p = 0, "equivalent"
    assert main(["equivalence", "4", "0", "100", "--margin", "0.05", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["exact"] == "1" and out["rejected"] is False


def test_coverage_and_size_commands(capsys, tmp_path):
    assert main(["coverage", "wald", "--n", "30", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["minimum"]["at_p"] == "1/100" and 0.25 < out["minimum"]["decimal"] < 0.27 and len(out["points"]) == 99
    assert "tends to 0" in out["note"]
    assert main(["coverage", "clopper-pearson", "--n", "30", "--rows", "--figure", str(tmp_path / "c.png")]) == 0
    text = capsys.readouterr().out
    assert "grid points under 19/20  0 of 99" in text and "p =      1/50" in text
    assert (tmp_path / "c.png").stat().st_size > 1000
    assert main(["size", "mcnemar-mid-p", "--n", "60", "--grid", "50", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["holds"] is False and out["largest"]["decimal"] > 0.05
    assert main(["size", "equivalence", "--n", "200", "--margin", "0.05", "--grid", "40"]) == 0
    assert "holds its level: yes" in capsys.readouterr().out


def test_wilson_and_plain_text(capsys):
    assert main(["wilson", "7", "10"]) == 0
    assert "Wilson interval  [0.396778, 0.892209]" in capsys.readouterr().out
    assert main(["passk", "5", "2", "3"]) == 0
    assert "9/10" in capsys.readouterr().out


@pytest.mark.parametrize(
    "args",
    [
        ["passk", "5", "6", "1"],
        ["passk", "5", "x", "1"],
        ["condorcet", "0.7", "4"],
        ["mcnemar", "-1", "3"],
        ["equivalence", "3", "3", "100"],
        ["equivalence", "3", "3", "100", "--margin", "2"],
        ["equivalence", "3", "3", "100", "--margin", "0.01", "--alpha", "0"],
        ["equivalence", "3", "3", "100", "--margin", "0.01", "--nuisance-level", "0.7"],
        ["coverage", "wald", "--n", "0"],
        ["coverage", "wald", "--n", "30", "--grid", "1"],
        ["coverage", "jeffreys", "--n", "30"],
        ["size", "equivalence", "--n", "100"],
        ["size", "mcnemar", "--n", "100", "--margin", "0.1"],
        ["power", "--q", "0.2", "--d", "0"],
        ["neff", "3", "2"],
        ["wilson", "11", "10"],
        ["nonsense"],
        ["passk", "5"],
    ],
)
def test_bad_input_exits_2_with_one_line(args):
    r = run(*args)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "error" in lines[0] and "Traceback" not in r.stderr
