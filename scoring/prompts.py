"""MMLU prompts (zero- and k-shot) and the per-model option order.

The prompt is the standard MMLU form (Hendrycks et al. 2021)::

    The following are multiple choice questions (with answers) about {subject}.

    {question}
    A. {choice}
    ...
    Answer:

Few-shot examples come before the question, each closed by `` {letter}`` and a
blank line. The option order a model sees is a permutation chosen from a hash
of (seed, model name, question id), so it is the same on every rerun and
differs between models.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from itertools import permutations
from typing import Any

from .questions import LETTERS, Question

PERMUTATIONS: tuple[tuple[int, ...], ...] = tuple(permutations(range(4)))
HEADER = "The following are multiple choice questions (with answers) about {subject}.\n\n"
SHUFFLE_MODES = ("per-model", "shared", "original")
PROMPT_TEMPLATE_VERSION = "mmlu-v1: " + HEADER + "{question}\\nA. {a}\\nB. {b}\\nC. {c}\\nD. {d}\\nAnswer:"
# Few-shot prompts are tokenized as (header + shots) + question; zero-shot and chat prompts whole
# (scoring.scorer.encode_question).


def template_hash(template: str = PROMPT_TEMPLATE_VERSION) -> str:
    return hashlib.sha256(template.encode()).hexdigest()[:16]


def option_permutation(question_id: str, model_name: str, seed: int, mode: str = "per-model") -> tuple[int, ...]:
    """``perm[j]`` is the original option shown at letter ``j``."""
    if mode == "original":
        return PERMUTATIONS[0]
    if mode not in SHUFFLE_MODES:
        raise ValueError(f"shuffle must be one of {', '.join(SHUFFLE_MODES)}, got {mode!r}")
    key = f"{seed}|{model_name if mode == 'per-model' else ''}|{question_id}".encode()
    return PERMUTATIONS[int.from_bytes(hashlib.sha256(key).digest()[:8], "big") % len(PERMUTATIONS)]


def to_original(presented: Sequence[Any], perm: Sequence[int]) -> list[Any]:
    """Map per-letter values (in presented order) back to the original option order."""
    out = [None] * len(perm)
    for j, original in enumerate(perm):
        out[original] = presented[j]
    return out


def format_question(q: Question, perm: Sequence[int], with_answer: bool = False) -> str:
    lines = [q.question.strip()]
    lines += [f"{LETTERS[j]}. {str(q.choices[perm[j]]).strip()}" for j in range(4)]
    text = "\n".join(lines) + "\nAnswer:"
    if with_answer:
        text += f" {LETTERS[perm.index(q.answer)]}\n\n"
    return text


def subject_title(subject: str) -> str:
    return subject.replace("_", " ")


def build_prompt(q: Question, perm: Sequence[int], shots: Sequence[Question] = ()) -> str:
    """Full prompt; few-shot examples are shown in their original option order."""
    return build_prefix(q, shots) + format_question(q, perm)


SHOTS_FROM = ("pool", "dev")


def pick_shots(q: Question, pool: Sequence[Question], k: int, seed: int, shots_from: str = "pool") -> list[Question]:
    """``k`` examples of the same subject from ``pool``, never ``q`` itself.

    ``shots_from="dev"``: ``pool`` is MMLU's dev split and the shots are the subject's first ``k``
    dev questions in file order, as lm-eval takes them (its ``first_n`` sampler). ``"pool"`` (the
    shipped runs' setting): chosen by seed from the scored questions, as described next.

    The order of a subject's candidates depends only on the seed and the subject, so
    every question of a subject gets the same shots (a shared prompt prefix whose
    key/value cache can be reused), except the few questions that are themselves
    shots, which take the next candidate instead.
    """
    if k == 0:
        return []
    if shots_from == "dev":
        return [s for s in pool if s.subject == q.subject and s.id != q.id][:k]
    candidates = sorted((s for s in pool if s.subject == q.subject), key=lambda s: s.id)
    random.Random(f"{seed}|shots|{q.subject}").shuffle(candidates)
    return [s for s in candidates if s.id != q.id][:k]


def build_prefix(q: Question, shots: Sequence[Question] = ()) -> str:
    """The part of the prompt shared by a subject's questions: header and shots."""
    return HEADER.format(subject=subject_title(q.subject)) + "".join(
        format_question(s, PERMUTATIONS[0], with_answer=True) for s in shots
    )
