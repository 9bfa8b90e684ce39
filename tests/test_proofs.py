import json

import pytest
import sympy as sp

from exactstats.cli import main
from exactstats.proofs import PROOFS, ProofError, Step


@pytest.mark.parametrize("name", list(PROOFS))
def test_proof_checks(name):
    assert PROOFS[name].check()


@pytest.mark.parametrize("name", list(PROOFS))
def test_every_mutated_step_fails(name):
    """Mutation test: alter one step at a time; the proof's check must then fail at that step."""
    proof = PROOFS[name]
    for i in range(len(proof.steps)):
        steps = list(proof.steps)
        steps[i] = steps[i].mutated()
        with pytest.raises(ProofError, match=f"step {i + 1}:"):
            proof.check(steps)


def test_a_false_identity_and_inequality_are_caught():
    p = sp.Symbol("p", positive=True)
    with pytest.raises(ProofError):
        Step("x", "wrong", (1 - p) ** 2, 1 - p**2).check()
    with pytest.raises(ProofError):
        Step("x", "wrong", p, p**2, relation="<=").check()  # p <= p^2 fails inside (0, 1)
    assert Step("x", "right", p**2, p, relation="<=").check()


def test_rendering_has_theorem_and_each_step():
    text = PROOFS["passk-unbiased"].to_myst()
    assert text.startswith(":::{prf:theorem}") and ":::{prf:proof}" in text
    assert text.count("checked by SymPy") == len(PROOFS["passk-unbiased"].steps)


def test_cli_prove(capsys):
    assert main(["prove", "--list"]) == 0
    assert "passk-unbiased" in capsys.readouterr().out
    assert main(["prove", "--all"]) == 0
    out = capsys.readouterr().out
    assert out.count("checked (") == len(PROOFS)
    assert main(["prove", "condorcet", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["proofs"][0]["checked"] is True
    assert main(["prove", "nope"]) == 2


def test_which_proofs_are_general():
    """pass@k unbiasedness and Condorcet are symbolic now; McNemar's size rests on m <= 200, and says so."""
    from exactstats.proofs import PROOFS

    assert PROOFS["passk-unbiased"].general and PROOFS["condorcet"].general and PROOFS["effective-votes"].general
    mcnemar = PROOFS["mcnemar-exact"]
    assert not mcnemar.general and 4 in mcnemar.finite_steps()
    assert "finite" not in PROOFS["condorcet"].scope() and "a general proof" in PROOFS["condorcet"].scope()
    assert "cross-check" in PROOFS["condorcet"].scope()
    assert "checked case by case" in mcnemar.scope()
    crosses = [s for s in PROOFS["condorcet"].steps if s.cross_check]
    assert crosses and "Cross-check" in PROOFS["condorcet"].to_myst()
