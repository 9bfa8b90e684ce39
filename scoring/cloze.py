"""Answer-text (cloze) scoring: the log-likelihood of each option's text as the continuation.

The letter format asks the model to name a letter; small models often cannot, and
their letter choice is mostly a habit (see the data chapter). The cloze format, as
lm-eval's ``mmlu_continuation`` task, shows no options: the prompt ends in
"Answer:" and each option's text is scored as what comes next::

    The following are questions (with answers) about {subject}.

    {question}
    Answer: {option text}

Two scores per option are stored: the summed log-probability of its tokens (lm-eval's
``acc``) and that sum divided by the option's length in characters (lm-eval's
``acc_norm``, which stops long options from losing just for being long). The prompt
is run once per question; the four continuations reuse its key/value cache, cropped
back after each (models whose cache cannot be cropped fall back to full sequences).
Continuation tokens are split off as lm-eval does: the tokens of ``prompt + " " + text``
after those of the prompt.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .questions import Question

CLOZE_HEADER = "The following are questions (with answers) about {subject}.\n\n"
CLOZE_TEMPLATE_VERSION = "mmlu-cloze-v1: " + CLOZE_HEADER + "{question}\\nAnswer: {option}"

__all__ = ["CLOZE_HEADER", "CLOZE_TEMPLATE_VERSION", "cloze_prompt", "cloze_scores", "cloze_row"]


def cloze_prompt(q: Question, shots: Sequence[Question] = ()) -> str:
    """The context before the option text; few-shot examples end with their correct answer's text."""
    from .prompts import subject_title

    text = CLOZE_HEADER.format(subject=subject_title(q.subject))
    for s in shots:
        text += f"{s.question.strip()}\nAnswer: {str(s.choices[s.answer]).strip()}\n\n"
    return text + f"{q.question.strip()}\nAnswer:"


def _split(lm: Any, context: str, option: str) -> tuple[list[int], list[int]]:
    """(context ids, continuation ids), lm-eval style; the continuation is never empty."""
    ctx = lm.tokenizer.encode(context, add_special_tokens=True)
    whole = lm.tokenizer.encode(context + " " + option, add_special_tokens=True)
    if whole[: len(ctx)] == ctx and len(whole) > len(ctx):
        return ctx, whole[len(ctx) :]
    # the tokenizer merged across the boundary: encode the continuation on its own
    return ctx, lm.tokenizer.encode(" " + option, add_special_tokens=False)


def _full_sequence_logprob(lm: Any, ctx: list[int], cont: list[int]) -> float:
    import torch

    ids = torch.tensor([ctx + cont], device=lm.device)
    with torch.inference_mode():
        logits = lm.model(input_ids=ids).logits[0].float()
    logp = torch.log_softmax(logits[len(ctx) - 1 : -1], dim=-1)
    return float(logp[torch.arange(len(cont)), torch.tensor(cont)].sum())


def cloze_scores(lm: Any, q: Question, shots: Sequence[Question] = ()) -> tuple[list[float], list[int], int]:
    """Summed log-probability and token count of each option's text (original order), and the prompt length."""
    import torch

    context = cloze_prompt(q, shots)
    pairs = [_split(lm, context, str(choice).strip()) for choice in q.choices]
    ctx = pairs[0][0]
    if any(p[0] != ctx for p in pairs):
        return [_full_sequence_logprob(lm, c, t) for c, t in pairs], [len(t) for _, t in pairs], len(ctx)
    sums: list[float] = []
    try:
        with torch.inference_mode():
            out = lm.model(input_ids=torch.tensor([ctx], device=lm.device), use_cache=True)
            first = torch.log_softmax(out.logits[0, -1].float(), dim=-1)
            cache = getattr(out, "cache", None) or out.past_key_values
            for _, cont in pairs:
                total = float(first[cont[0]])
                if len(cont) > 1:
                    rest = lm.model(
                        input_ids=torch.tensor([cont[:-1]], device=lm.device),
                        cache=cache,
                        position_ids=torch.arange(len(ctx), len(ctx) + len(cont) - 1, device=lm.device)[None],
                        use_cache=True,
                    )
                    logp = torch.log_softmax(rest.logits[0].float(), dim=-1)
                    total += float(logp[torch.arange(len(cont) - 1), torch.tensor(cont[1:])].sum())
                    cache.crop(-(len(cont) - 1))  # drop the option's tokens, keep the prompt
                sums.append(total)
    except (AttributeError, NotImplementedError, ValueError, RuntimeError):
        sums = [_full_sequence_logprob(lm, c, t) for c, t in pairs]
    return sums, [len(t) for _, t in pairs], len(ctx)


def cloze_row(
    model_name: str, q: Question, shots_used: int, prompt_tokens: int, sums: Sequence[float], tokens: Sequence[int]
) -> dict[str, Any]:
    """One question's row in the cloze format (options in the original order; there are no letters)."""
    chars = [len(" " + str(c).strip()) for c in q.choices]
    per_char = [s / n for s, n in zip(sums, chars)]
    chosen = max(range(4), key=lambda j: sums[j])
    chosen_norm = max(range(4), key=lambda j: per_char[j])
    top = max(sums)
    weights = [math.exp(s - top) for s in sums]  # the four sums as a distribution over the options
    total = sum(weights)
    return {
        "model": model_name,
        "question_id": q.id,
        "subject": q.subject,
        "format": "cloze",
        "permutation": "0123",
        "chosen": chosen,
        "chosen_norm": chosen_norm,
        "answer": q.answer,
        "correct": int(chosen == q.answer),
        "correct_norm": int(chosen_norm == q.answer),
        **{f"p_{L}": w / total for L, w in zip("ABCD", weights)},
        **{f"loglik_{L}": s for L, s in zip("ABCD", sums)},
        **{f"chars_{L}": n for L, n in zip("ABCD", chars)},
        **{f"tokens_{L}": n for L, n in zip("ABCD", tokens)},
        "shots": shots_used,
        "prompt_tokens": prompt_tokens,
        "error_type": q.error_type,
    }
