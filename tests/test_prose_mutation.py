"""Prose mutation: every chapter that reads data runs, as the build runs it, on perturbed copies of its data.

Each perturbation changes what the data say (a leader flipped, a pair moved to a tie, two labels swapped,
sample counts changed). A run must then either stop on a guard of the chapter (one of its assertions, or a
sentence helper refusing a case it has no true words for) or glue only sentences that are true of the
perturbed data. "True" is checked here, from the perturbed files, with code independent of the package
(numpy, scipy, statsmodels): who leads, which counts the text quotes, which way a comparison goes.

The runs are slow (the difference chapter's exact sums at MMLU-Pro's size take about a minute and a half), so
they share two worker processes; the whole file takes a few minutes.
"""

from __future__ import annotations

import multiprocessing
import os
import re
import shutil
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binomtest, kendalltau
from statsmodels.stats.multitest import multipletests

from tests.conftest import ROOT

REAL = Path(os.environ.get("EXACTSTATS_REAL_EVALS", ROOT.parent / "shared" / "data" / "real-evals"))
SHUFFLED = "shuffled-2000"
SMALL, LARGE = "qwen2.5-coder-0.5b-instruct", "qwen2.5-coder-1.5b-instruct"

pytestmark = pytest.mark.skipif(not (REAL / "mmlu-pro-outputs.long.parquet").is_file(), reason="no real-evals folder")


# --- copies of the data, and the edits ------------------------------------------------------------------


def _copies(tmp: Path) -> tuple[Path, Path]:
    data, real = tmp / "data", tmp / "real-evals"
    data.mkdir(parents=True)
    for f in (ROOT / "data").iterdir():
        if f.is_file():
            shutil.copy(f, data / f.name)
    shutil.copytree(REAL, real)
    return data, real


def _panel(data: Path, name: str = SHUFFLED) -> tuple[pd.DataFrame, pd.DataFrame]:
    return pd.read_parquet(data / f"{name}.matrix.parquet"), pd.read_parquet(data / f"{name}.long.parquet")


def _set_answers(data: Path, model: str, question_ids, right: bool, name: str = SHUFFLED) -> None:
    """Make ``model`` right (its choice the key) or wrong (the next option) on ``question_ids``, in the matrix and
    the long table alike (the displayed letter follows the model's option order)."""
    matrix, long = _panel(data, name)
    ids = list(question_ids)
    matrix.loc[model, ids] = int(right)
    rows = (long["model"] == model) & long["question_id"].isin(ids)
    chosen = long.loc[rows, "answer"] if right else (long.loc[rows, "answer"] + 1) % 4
    long.loc[rows, "chosen"] = chosen
    long.loc[rows, "correct"] = int(right)
    long.loc[rows, "chosen_letter"] = [
        "ABCD"[perm.index(str(c))] for perm, c in zip(long.loc[rows, "permutation"], chosen, strict=True)
    ]
    matrix.to_parquet(data / f"{name}.matrix.parquet")
    long.to_parquet(data / f"{name}.long.parquet", index=False)


def _ranked(data: Path) -> list[str]:
    matrix, _ = _panel(data)
    return list(matrix.mean(axis=1).sort_values(ascending=False, kind="stable").index)


def flip_leader(data: Path, real: Path) -> None:
    """The runner-up becomes right on 500 questions it missed: it overtakes the leader."""
    matrix, _ = _panel(data)
    second = _ranked(data)[1]
    missed = matrix.columns[matrix.loc[second].to_numpy() == 0][:500]
    _set_answers(data, second, missed, True)


def tie_weakest(data: Path, real: Path) -> None:
    """The two weakest models get equal discordant counts (b = c): a pair moved to a tie."""
    matrix, _ = _panel(data)
    a, b = _ranked(data)[2:4]
    only_a = matrix.columns[(matrix.loc[a] == 1).to_numpy() & (matrix.loc[b] == 0).to_numpy()]
    only_b = matrix.columns[(matrix.loc[a] == 0).to_numpy() & (matrix.loc[b] == 1).to_numpy()]
    surplus = len(only_a) - len(only_b)
    if surplus > 0:
        _set_answers(data, a, only_a[: (surplus + 1) // 2], False)
        _set_answers(data, b, only_a[(surplus + 1) // 2 : surplus], True)


def separate_weakest(data: Path, real: Path) -> None:
    """The weakest model loses 200 right answers: the weakest pair becomes separated."""
    matrix, _ = _panel(data)
    weakest = _ranked(data)[-1]
    _set_answers(data, weakest, matrix.columns[matrix.loc[weakest].to_numpy() == 1][:200], False)


def near_tie_top(data: Path, real: Path) -> None:
    """The runner-up ends one question behind the leader (a 521-vs-522-like case for the arena's order)."""
    matrix, _ = _panel(data)
    first, second = _ranked(data)[:2]
    gap = int(matrix.loc[first].sum() - matrix.loc[second].sum())
    missed = matrix.columns[(matrix.loc[second] == 0).to_numpy() & (matrix.loc[first] == 1).to_numpy()]
    _set_answers(data, second, missed[: gap - 1], True)


def _swapped(labels: pd.Series, a: str, b: str) -> pd.Series:
    """The labels with ``a`` and ``b`` exchanged, every other label kept."""
    return labels.map(lambda m: b if m == a else a if m == b else m)


def _pro(real: Path) -> pd.DataFrame:
    return pd.read_parquet(real / "mmlu-pro-outputs.long.parquet")


def _pro_accuracy(df: pd.DataFrame) -> pd.Series:
    shared = df.groupby("question_id")["model"].nunique() == df["model"].nunique()
    df = df[df["question_id"].isin(shared[shared].index)]
    return (df["pred"] == df["answer_latest"]).groupby(df["model"]).mean().sort_values(ascending=False, kind="stable")


def swap_pro_top(data: Path, real: Path) -> None:
    """MMLU-Pro: the labels of the top two models swapped."""
    df = _pro(real)
    a, b = _pro_accuracy(df).index[:2]
    df["model"] = _swapped(df["model"], a, b)
    df.to_parquet(real / "mmlu-pro-outputs.long.parquet", index=False)


def weaken_pro_leader(data: Path, real: Path) -> None:
    """MMLU-Pro: the leader answers 3% of its right answers wrongly: the top of the table reorders."""
    df = _pro(real)
    leader = _pro_accuracy(df).index[0]
    rows = df.index[(df["model"] == leader) & (df["pred"] == df["answer_latest"])]
    lost = rows[: len(rows) * 3 // 100]
    df.loc[lost, "pred"] = df.loc[lost, "answer_latest"].map(lambda a: "A" if a != "A" else "B")
    df.to_parquet(real / "mmlu-pro-outputs.long.parquet", index=False)


def _sampled(data: Path) -> pd.DataFrame:
    return pd.read_parquet(data / "humaneval-sampled.parquet")


def equal_samples(data: Path, real: Path) -> None:
    """pass@k: the model with more samples per problem keeps only as many as the other has."""
    df = _sampled(data)
    n = df.groupby("model")["samples_per_problem"].first()
    fewer = int(n.min())
    df = df[df["sample"] < fewer].copy()
    df["samples_per_problem"] = fewer
    df.to_parquet(data / "humaneval-sampled.parquet", index=False)


def swap_passk_labels(data: Path, real: Path) -> None:
    """pass@k: the two models' labels swapped in both runs (the 'larger' name now carries the other's work)."""
    for name in ("humaneval-sampled.parquet", "humaneval-greedy.parquet"):
        df = pd.read_parquet(data / name)
        df["model"] = _swapped(df["model"], SMALL, LARGE)
        df.to_parquet(data / name, index=False)


def swap_arena_top(data: Path, real: Path) -> None:
    """Chatbot Arena: the names of the two models with the most decisive wins swapped in every pair count."""
    path = real / "chatbot-arena-20240814.paircounts.parquet"
    df = pd.read_parquet(path)
    wins = (
        pd.concat([df.groupby("model_a")["wins_a"].sum(), df.groupby("model_b")["wins_b"].sum()]).groupby(level=0).sum()
    )
    a, b = wins.sort_values(ascending=False).index[:2]
    for col in ("model_a", "model_b"):
        df[col] = _swapped(df[col], a, b)
    df.to_parquet(path, index=False)


def swap_cloze_labels(data: Path, real: Path) -> None:
    """Cloze: two models' answer-text runs swapped (each model's letters now meet the other's answer text)."""
    matrix, long = _panel(data, "cloze-2000")
    a, b = list(matrix.index[:2])
    matrix = matrix.rename(index={a: b, b: a}).loc[list(matrix.index)]
    long["model"] = _swapped(long["model"], a, b)
    matrix.to_parquet(data / "cloze-2000.matrix.parquet")
    long.to_parquet(data / "cloze-2000.long.parquet", index=False)


# --- what is true of the perturbed data -------------------------------------------------------------------


def _mcnemar(x: np.ndarray, y: np.ndarray) -> tuple[int, int, float]:
    b, c = int(np.sum((x == 1) & (y == 0))), int(np.sum((x == 0) & (y == 1)))
    return b, c, 1.0 if b + c == 0 else binomtest(b, b + c, 0.5).pvalue


def _ranked_matrix(data: Path) -> tuple[list[str], np.ndarray]:
    matrix, _ = _panel(data)
    order = _ranked(data)
    return order, matrix.loc[order].to_numpy()


def truths_difference(g: dict, data: Path, real: Path) -> None:
    names, C = _ranked_matrix(data)
    k, q = C.shape
    assert g["top_name"] == names[0] and g["second_name"] == names[1]
    b0, c0, p0 = _mcnemar(C[0], C[1])
    assert (g["b0"], g["c0"]) == (b0, c0) and abs(g["p0"] - p0) < 1e-9
    ps = [_mcnemar(C[i], C[i + 1])[2] for i in range(k - 1)]
    assert g["separated"] == int(multipletests(ps, method="holm")[0].sum())
    bh = int(multipletests(ps, method="fdr_bh")[0].sum())
    assert ("the same" in g["bh_text"]) == (bh == g["separated"])
    # pairing: the paired half-width against the unpaired one, per adjacent pair
    narrow = []
    for i in range(k - 1):
        x, y = C[i].astype(float), C[i + 1].astype(float)
        narrow.append(1 - np.std(x - y, ddof=1) / np.sqrt(np.var(x, ddof=1) + np.var(y, ddof=1)))
    word = "narrows" if np.mean(narrow) > 0.02 else "widens" if np.mean(narrow) < -0.02 else "barely"
    assert word in g["narrow_text"], (np.mean(narrow), g["narrow_text"])
    # the weakest pair: named in rank order, "not separated" only if the exact test agrees
    b34, c34, p34 = _mcnemar(C[2], C[3])
    assert g["eq_text"].startswith(f"{names[2]} and {names[3]} differ by {abs(100 * (b34 - c34) / q):.1f} points")
    assert p34 > 0.05 and f"(p = {p34:.2f})" in g["eq_text"]
    # shared difficulty: the sentence's own criterion, recomputed
    acc = C.mean(axis=1)
    hard = np.mean(C.sum(axis=0) == k) > 1.2 * np.prod(acc) or np.mean(C.sum(axis=0) == 0) > 1.2 * np.prod(1 - acc)
    assert g["difficulty_text"].startswith("questions differ") == hard
    # MMLU-Pro: who leads, and the close pair
    pro = _pro_accuracy(_pro(real))
    assert g["top_a"] == pro.index[0] and g["top_b"] == pro.index[1]
    ranked = list(pro.index)
    assert ranked.index(g["close_b"]) == ranked.index(g["close_a"]) + 1 and g["close_p"] > 0.05


def truths_panels(g: dict, data: Path, real: Path) -> None:
    matrix, long = _panel(data)
    best = float(matrix.mean(axis=1).max())
    assert abs(g["best_single"] - best) < 1e-12
    # the plurality vote, fair ties credited by the chance of drawing the key among the tied options
    chosen = long.pivot(index="question_id", columns="model", values="chosen").loc[matrix.columns]
    key = long.drop_duplicates("question_id").set_index("question_id")["answer"].loc[matrix.columns].to_numpy()
    votes = np.stack([(chosen.to_numpy() == o).sum(axis=1) for o in range(4)], axis=1)
    tops = votes == votes.max(axis=1, keepdims=True)
    vote = float(np.mean(tops[np.arange(len(key)), key] / tops.sum(axis=1)))
    assert abs(g["vote_full"] - vote) < 1e-12
    assert g["vote_text"].startswith("The vote loses") == (vote < best)
    assert ("falls short" in g["plural_text"]) == (g["plural9"] < g["best9"])


def truths_passk(g: dict, data: Path, real: Path) -> None:
    df = _sampled(data)
    n = df.groupby("model")["samples_per_problem"].first()
    words = {"smaller": SMALL, "larger": LARGE}
    assert g["pair_sampled_n"] == f"{n[SMALL]} and {n[LARGE]}"
    if n[SMALL] == n[LARGE]:
        assert "holds here" in g["footing_text"] and "only its first" not in g["footing_text"]
    else:
        cut = re.search(r"So the (\w+) model gets only its first (\d+) samples", g["footing_text"])
        assert cut and n[words[cut.group(1)]] == n.max() and int(cut.group(2)) == n.min(), g["footing_text"]
    greedy = pd.read_parquet(data / "humaneval-greedy.parquet")
    passed = (greedy["status"] == "passed").groupby([greedy["task_id"], greedy["model"]]).sum().unstack()
    b, c, p = _mcnemar(passed[LARGE].to_numpy(), passed[SMALL].to_numpy())
    assert g["greedy_text"].startswith(f"The larger model solves {b} problems the smaller does not and the smaller {c}")
    assert ("a real difference" in g["greedy_text"]) == (p <= 0.05)
    rate = (df["status"] == "passed").groupby([df["task_id"], df["model"]]).mean().unstack()
    assert g["pair_direction"] == ("above" if rate[LARGE].mean() > rate[SMALL].mean() else "below")


def _llmfao(real: Path, judge: str) -> pd.DataFrame:
    name = {
        "crowd": "crowd-comparisons.csv",
        "gpt4": "gpt4-crowd-comparisons.csv",
        "gpt3": "gpt3-crowd-comparisons.csv",
    }
    return pd.read_csv(real / "llmfao" / name[judge], dtype=str, keep_default_na=False)


def swap_judge_sides(data: Path, real: Path) -> None:
    """LLMFAO: GPT-3.5's verdicts read with left and right exchanged (its preference for a position reverses)."""
    df = _llmfao(real, "gpt3")
    df["winner"] = df["winner"].map({"left": "right", "right": "left", "tie": "tie"})
    df.to_csv(real / "llmfao" / "gpt3-crowd-comparisons.csv", index=False)


def judge_copies_crowd(data: Path, real: Path) -> None:
    """LLMFAO: GPT-4 gives the crowd's majority verdict on four pairs in five (it becomes a much better judge)."""
    crowd, df = _llmfao(real, "crowd"), _llmfao(real, "gpt4")
    majority = crowd.groupby("id")["winner"].agg(
        lambda v: (
            v.value_counts().index[0]
            if len(v.value_counts()) == 1 or v.value_counts().iloc[0] > v.value_counts().iloc[1]
            else None
        )
    )
    pick = np.random.default_rng(7).random(len(df)) < 0.8
    verdict = df["id"].map(majority)
    df.loc[pick & verdict.notna().to_numpy(), "winner"] = verdict[pick & verdict.notna().to_numpy()]
    df.to_csv(real / "llmfao" / "gpt4-crowd-comparisons.csv", index=False)


def _bt_order(wins: np.ndarray, models: list[str]) -> list[str]:
    """Bradley-Terry strengths by Hunter's minorise-maximise iteration (numpy only), strongest first."""
    p = np.ones(len(models))
    games = wins + wins.T
    for _ in range(20000):
        denom = (games / (p[:, None] + p[None, :])).sum(axis=1)
        new = wins.sum(axis=1) / denom
        new /= np.exp(np.mean(np.log(new)))
        if np.max(np.abs(new - p)) < 1e-13:
            break
        p = new
    return [models[i] for i in np.argsort(-p, kind="stable")]


def truths_arena(g: dict, data: Path, real: Path) -> None:
    matrix, _ = _panel(data)
    models, C = list(matrix.index), matrix.to_numpy()
    wins = np.array([[np.sum((C[i] == 1) & (C[j] == 0)) for j in range(len(models))] for i in range(len(models))])
    by_acc = list(matrix.mean(axis=1).sort_values(ascending=False, kind="stable").index)
    same = _bt_order(wins.astype(float), models) == by_acc
    assert g["order_sentence"].startswith("orders the models exactly") == same
    counts = pd.read_parquet(real / "chatbot-arena-20240814.paircounts.parquet")
    first, second = g["real_first"], g["real_second"]
    ab = counts[(counts["model_a"] == first) & (counts["model_b"] == second)]
    ba = counts[(counts["model_a"] == second) & (counts["model_b"] == first)]
    won = int(ab["wins_a"].sum() + ba["wins_b"].sum())
    lost = int(ab["wins_b"].sum() + ba["wins_a"].sum())
    assert (g["real_first_wins"], g["real_second_wins"]) == (f"{won:,}", f"{lost:,}") and won > lost


def truths_data(g: dict, data: Path, real: Path) -> None:
    letters, _ = _panel(data)
    cloze, _ = _panel(data, "cloze-2000")
    ids = cloze.columns.intersection(letters.columns)
    for m in cloze.index:
        text, letter = cloze.loc[m, ids].to_numpy(), letters.loc[m, ids].to_numpy()
        _, _, p = _mcnemar(text, letter)
        said = re.search(re.escape(m) + r" scores (about the same|[\d.]+ points (higher|lower))", g["cloze_text"])
        assert said, (m, g["cloze_text"])
        if p < 0.05:
            gap = 100 * (text.mean() - letter.mean())
            assert said.group(1) == f"{abs(gap):.1f} points {'higher' if gap > 0 else 'lower'}", (m, said.group(1))
        else:
            assert said.group(1) == "about the same"


def truths_sequential(g: dict, data: Path, real: Path) -> None:
    matrix, _ = _panel(data)
    names, C = list(matrix.index), matrix.to_numpy()
    tests = {(i, j): _mcnemar(C[i], C[j]) for i in range(len(names)) for j in range(i + 1, len(names))}
    apart, close = min(tests, key=lambda k: tests[k][2]), max(tests, key=lambda k: tests[k][2])
    assert {g["close_a"], g["close_b"]} == {names[close[0]], names[close[1]]}
    b, c, _ = tests[apart]
    ahead, behind = (apart[0], apart[1]) if b > c else (apart[1], apart[0])
    assert (g["better"], g["worse"]) == (names[ahead], names[behind])
    # MMLU-Pro: neighbouring pairs that differ at the end, by scipy's exact binomial test
    df = _pro(real)
    ranked = list(_pro_accuracy(df).index)
    shared = df.groupby("question_id")["model"].nunique() == df["model"].nunique()
    df = df[df["question_id"].isin(shared[shared].index)]
    right = (df["pred"] == df["answer_latest"]).astype(int)
    wide = right.groupby([df["model"], df["question_id"]]).first().unstack()
    ps = [_mcnemar(wide.loc[a].to_numpy(), wide.loc[b].to_numpy())[2] for a, b in zip(ranked[:-1], ranked[1:])]
    assert (g["n_differ"], g["n_tied"]) == (sum(p <= 0.05 for p in ps), sum(p > 0.05 for p in ps))
    assert g["stop_compare"].startswith("peeking stopped") and g["tied_mix"] < g["tied_naive"]


def truths_claims(g: dict, data: Path, real: Path) -> None:
    """The audited MMLU-Pro leaderboard: the printed table's flagged pairs (the best case: every question on
    which two neighbours differ going one way, 2/2^d) and the per-question pairs, both under Holm."""
    df = _pro(real)
    shared = df.groupby("question_id")["model"].nunique() == df["model"].nunique()
    df = df[df["question_id"].isin(shared[shared].index)]
    right = (df["pred"] == df["answer_latest"]).astype(int)
    wide = right.groupby([df["model"], df["question_id"]]).first().unstack()
    n = wide.shape[1]
    ranked = list(wide.mean(axis=1).sort_values(ascending=False, kind="stable").index)

    def holm_kept(ps: list[float]) -> int:  # pairs Holm does not reject at 5%
        order = sorted(ps)
        stop = next((i for i, p in enumerate(order) if p * (len(ps) - i) > 0.05), len(ps))
        return len(ps) - stop

    printed = [round(100 * wide.loc[m].sum() / n, 1) for m in ranked]
    most = [int(np.floor((p + 0.05) / 100 * n + 1e-9)) for p in printed]  # the largest count printing so
    least = [int(np.ceil((p - 0.05) / 100 * n - 1e-9)) for p in printed]
    best = [min(1.0, 2.0 / 2 ** (most[i] - least[i + 1])) for i in range(len(ranked) - 1)]
    ps = [_mcnemar(wide.loc[a].to_numpy(), wide.loc[b].to_numpy())[2] for a, b in zip(ranked[:-1], ranked[1:])]
    assert g["board_models"] == len(ranked) and g["board_n"] == f"{n:,}" and g["board_pairs"] == len(ranked) - 1
    flagged = holm_kept(best)
    assert g["board_flagged"] == (f"{flagged} of them" if flagged else "none of them")
    assert g["board_unseparated"] == holm_kept(ps)


def truths_judges(g: dict, data: Path, real: Path) -> None:
    from scipy.stats import beta, norm

    crowd = _llmfao(real, "crowd")
    counts = crowd.groupby(["id", "winner"]).size().unstack(fill_value=0)
    top = counts.max(axis=1)
    majority = counts.idxmax(axis=1).where((counts == top.to_numpy()[:, None]).sum(axis=1) == 1)
    names = {"gpt4": "GPT-4", "gpt3": "GPT-3.5"}
    said = {k: _llmfao(real, k).set_index("id")["winner"] for k in names}
    decided = majority.dropna()
    ids = pd.Index([i for i in crowd["id"].unique() if i in decided.index])  # the pairs in the order the crowd met them
    people = majority.loc[ids]
    agree = {k: float((said[k].loc[ids] == people).mean()) for k in names}
    better = max(names, key=lambda k: agree[k])
    assert g["better"] == names[better] and g["agree_better"] == f"{agree[better]:.1%}"
    for k in names:  # "above chance" needs a positive kappa (computed here from the label shares)
        a, b = people.to_numpy(), said[k].loc[ids].to_numpy()
        chance = sum(np.mean(a == x) * np.mean(b == x) for x in set(a) | set(b))
        kappa = (np.mean(a == b) - chance) / (1 - chance)
        assert kappa > 0 or not g["chance"].startswith("Both are above chance"), (k, kappa)
    ties = {k: float((said[k].loc[ids] == "tie").mean()) for k in names}
    crowd_ties = float((people == "tie").mean())
    assert g["tie_gap"].startswith("Much of the gap") == all(t < crowd_ties / 2 for t in ties.values())
    for key, verdicts in [("crowd", people), *((k, said[k].loc[ids]) for k in names)]:
        first, second = int((verdicts == "left").sum()), int((verdicts == "right").sum())
        p = binomtest(first, first + second, 0.5).pvalue
        words = g[f"pos_{key}"]
        if p > 0.05:
            assert "no clear preference" in words, words
        else:
            assert f"favours the {'first' if first > second else 'second'} answer" in words, words
    rate = {k: float((said[k].loc[ids] == "left").mean()) for k in names}
    truth = float((people == "left").mean())
    judge = max(names, key=lambda k: abs(rate[k] - truth))
    assert g["judge_name"] == names[judge] and g["truth"] == f"{truth:.1%}" and g["raw"] == f"{rate[judge]:.1%}"
    y, f = (people == "left").to_numpy(int), (said[judge].loc[ids] == "left").to_numpy(int)
    lab = np.zeros(len(y), bool)
    lab[np.random.default_rng(0).choice(len(y), size=150, replace=False)] = True
    n, big_n = lab.sum(), (~lab).sum()
    d = y[lab] - f[lab]
    estimate = f[~lab].mean() + d.mean()
    half = norm.ppf(0.975) * np.sqrt(f[~lab].var() / big_n + d.var() / n)
    assert g["n_covers"] == ("contains" if estimate - half <= truth <= estimate + half else "misses")

    def cp(k: int, m: int, level: float) -> tuple[float, float]:
        a = 1 - level
        return (beta.ppf(a / 2, k, m - k + 1) if k else 0.0, beta.ppf(1 - a / 2, k + 1, m - k) if k < m else 1.0)

    q, p10, p01 = (
        cp(int(f[~lab].sum()), big_n, 1 - 0.05 / 3),
        cp(int((d == 1).sum()), n, 1 - 0.05 / 3),
        cp(int((d == -1).sum()), n, 1 - 0.05 / 3),
    )
    lo, hi = max(0.0, q[0] + p10[0] - p01[1]), min(1.0, q[1] + p10[1] - p01[0])
    assert g["g_covers"] == ("contains" if lo <= truth <= hi else "misses") and g["g_lo"] == f"{lo:.3f}"
    errors = np.array([(said[k].loc[ids] != people).to_numpy(int) for k in names])
    phi = float(np.corrcoef(errors)[0, 1])
    assert g["phi"] == f"{phi:.2f}" and ("not two" in g["worth"]) == (2 / (1 + phi) < 1.995)
    both = said["gpt4"].loc[ids] == said["gpt3"].loc[ids]
    acc_both = float((said["gpt4"].loc[ids][both] == people[both]).mean())
    assert g["agree_vs_single"] == (
        "more often"
        if acc_both > agree[better] + 0.005
        else "less often"
        if acc_both < agree[better] - 0.005
        else "about as often"
    )
    leaders, orders = {}, {}
    for k, df in [("crowd", crowd), ("gpt4", _llmfao(real, "gpt4")), ("gpt3", _llmfao(real, "gpt3"))]:
        models = sorted(set(df["left"]) | set(df["right"]))
        at = {m: i for i, m in enumerate(models)}
        wins = np.zeros((len(models), len(models)))
        for a, b, w in zip(df["left"], df["right"], df["winner"]):
            i, j = at[a], at[b]
            if w == "tie":
                wins[i, j] += 0.5
                wins[j, i] += 0.5
            else:
                wins[(i, j) if w == "left" else (j, i)] += 1
        order = _bt_order(wins, models)
        leaders[k], orders[k] = order[0], {m: r for r, m in enumerate(order)}
    assert g["lead_crowd"] == leaders["crowd"]
    for k in names:
        assert g[f"lead_{k}"].startswith("the same leader") == (leaders[k] == leaders["crowd"]), (k, g[f"lead_{k}"])
        common = sorted(orders["crowd"])
        tau = kendalltau([orders["crowd"][m] for m in common], [orders[k][m] for m in common]).statistic
        assert (f"{names[k]} does not keep" in g["kept"] or "do not keep" in g["kept"]) == (tau < 0.3) or (
            g["kept"].startswith("the judges keep") and tau >= 0.3
        ), (k, tau, g["kept"])


CASES = [
    ("difference", flip_leader, truths_difference),
    ("difference", tie_weakest, truths_difference),
    ("difference", separate_weakest, truths_difference),
    ("difference", swap_pro_top, truths_difference),
    ("difference", weaken_pro_leader, truths_difference),
    ("panels", flip_leader, truths_panels),
    ("panels", weaken_pro_leader, truths_panels),
    ("passk", equal_samples, truths_passk),
    ("passk", swap_passk_labels, truths_passk),
    ("arena", near_tie_top, truths_arena),
    ("arena", swap_arena_top, truths_arena),
    ("data", swap_cloze_labels, truths_data),
    ("data", flip_leader, truths_data),
    ("sequential", tie_weakest, truths_sequential),
    ("sequential", weaken_pro_leader, truths_sequential),
    ("judges", swap_judge_sides, truths_judges),
    ("claims", swap_pro_top, truths_claims),
    ("claims", weaken_pro_leader, truths_claims),
    ("judges", judge_copies_crowd, truths_judges),
]
DATA_CHAPTERS = {"difference", "panels", "passk", "arena", "data", "sequential", "judges", "claims"}
# the perturbations whose data falsify a sentence the chapter cannot reword, with the words of the guard that must
# stop them (the weakest pair becomes separated; the MMLU-Pro top pair is no longer separated). Every other case
# must run to the end, so that its sentences are checked: a chapter that stopped on all of them would test nothing.
MAY_STOP = {
    ("difference", "separate_weakest"): '"not separated" below',
    ("difference", "weaken_pro_leader"): '"does separate"',
}


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory):
    """Every case run once, two at a time; each outcome with the perturbed folders its truths are read from."""
    from tests.chapter_runner import run_isolated

    jobs = []
    for chapter, perturb, _ in CASES:
        data, real = _copies(tmp_path_factory.mktemp(f"{chapter}-{perturb.__name__}"))
        perturb(data, real)
        jobs.append((data, real, {"EXACTSTATS_DATA_DIR": str(data), "EXACTSTATS_REAL_EVALS": str(real)}))
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = [pool.submit(run_isolated, chapter, env) for (chapter, _, _), (_, _, env) in zip(CASES, jobs)]
        return [(f.result(), data, real) for f, (data, real, _) in zip(futures, jobs)]


def test_every_chapter_that_reads_data_is_perturbed():
    """The chapters whose cells (outside the solutions) load shipped or published data are exactly the
    perturbed ones: a chapter that starts reading data must join CASES."""
    from tests.chapter_runner import code_cells

    assert {chapter for chapter, _, _ in CASES} == DATA_CHAPTERS
    reads = re.compile(r"\bes\.load_\w+\(")
    readers = {p.stem for p in (ROOT / "book").glob("*.md") if any(reads.search(c) for c in code_cells(p.stem))}
    assert readers == DATA_CHAPTERS, readers


@pytest.mark.parametrize("case", range(len(CASES)), ids=[f"{c}-{p.__name__}" for c, p, _ in CASES])
def test_a_perturbed_chapter_stops_or_tells_the_truth(outcomes, case):
    (outcome, data, real), (chapter, perturb, truths) = outcomes[case], CASES[case]
    assert "crash" not in outcome, outcome.get("crash")
    if "guard" in outcome:  # a sentence the perturbed data would falsify stopped the build: as it should
        from tests.chapter_runner import code_cells

        words = MAY_STOP.get((chapter, perturb.__name__))
        assert words, f"stopped where its sentences should be checked: {outcome['guard']}"
        assert outcome["guard"].startswith(f"{chapter}.md cell"), outcome["guard"]  # the chapter's guard, not the test
        assert "AssertionError" in outcome["guard"], outcome["guard"]
        cell, line = (int(x) for x in outcome["guard"].split(" ")[2].split(":"))  # "difference.md cell N:LINE ..."
        assert words in code_cells(chapter)[cell].splitlines()[line - 1]  # the guard of the sentence that broke
        return
    truths(outcome["glued"], data, real)


def test_the_truths_hold_on_the_shipped_data():
    """The checks themselves are right: on unperturbed copies every chapter runs and every truth holds."""
    import tempfile

    from tests.chapter_runner import run_isolated

    with tempfile.TemporaryDirectory() as tmp:
        data, real = _copies(Path(tmp))
        env = {"EXACTSTATS_DATA_DIR": str(data), "EXACTSTATS_REAL_EVALS": str(real)}
        with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
            runs = {ch: pool.submit(run_isolated, ch, env) for ch in sorted(DATA_CHAPTERS)}
            for chapter, truths in [
                ("difference", truths_difference),
                ("panels", truths_panels),
                ("passk", truths_passk),
                ("arena", truths_arena),
                ("data", truths_data),
                ("sequential", truths_sequential),
                ("judges", truths_judges),
            ]:
                outcome = runs[chapter].result()
                assert "glued" in outcome, outcome
                truths(outcome["glued"], data, real)
