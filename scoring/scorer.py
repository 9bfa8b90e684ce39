"""Next-token letter scoring with a Hugging Face causal LM: nothing is generated.

The model reads the prompt; at the last position we take the probability of
each answer letter, summing the " A" and "A" spellings where both are single
tokens. ``letter_mass`` is the total probability on the four letters; the
per-letter probabilities are renormalised over the letters.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .questions import LETTERS


class TokenizerError(ValueError):
    """The tokenizer cannot spell every answer letter as a single token."""


LETTER_SPELLINGS = {"space": (" ",), "bare": ("",), "both": (" ", "")}
DEFAULT_LETTER_SPELLING = "space"  # lm-eval's choice: the answer follows "Answer:" as " A"


def letter_token_ids(tokenizer: Any, spelling: str = "both") -> dict[str, list[int]]:
    """Token ids per letter: " A" (``space``, lm-eval's convention), "A" (``bare``), or both summed.

    A spelling counts only when all four letters are single, distinct tokens; with ``both``,
    whichever spellings qualify are used (the shipped dataset was scored that way).
    """
    if spelling not in LETTER_SPELLINGS:
        raise ValueError(f"--letter-spelling must be one of {', '.join(LETTER_SPELLINGS)}, got {spelling!r}")
    spellings = {}
    for prefix in LETTER_SPELLINGS[spelling]:
        ids = [tokenizer.encode(prefix + L, add_special_tokens=False) for L in LETTERS]
        if all(len(i) == 1 for i in ids) and len({i[0] for i in ids}) == 4:
            spellings[prefix] = [i[0] for i in ids]
    if not spellings:
        raise TokenizerError(
            f"tokenizer spells no answer letter as a single token (tried {[p + 'A' for p in LETTER_SPELLINGS[spelling]]}); "
            "refusing to score"
        )
    out: dict[str, list[int]] = {L: [] for L in LETTERS}
    for ids in spellings.values():
        for L, i in zip(LETTERS, ids):
            if i not in out[L]:
                out[L].append(i)
    return out


@dataclass
class LoadedModel:
    model: Any
    tokenizer: Any
    name: str
    source: str
    sha256: str | None
    device: str
    dtype: str
    context_limit: int
    letter_ids: dict[str, list[int]]
    letter_spelling: str = DEFAULT_LETTER_SPELLING


def _weights_digest(folder: Path) -> str | None:
    from .models import file_sha256

    weights = sorted(folder.glob("*.safetensors")) + sorted(folder.glob("*.bin"))
    if not weights:
        return None
    import hashlib

    h = hashlib.sha256()
    for w in weights:
        h.update(file_sha256(w).encode())
    return h.hexdigest()


def resolve_source(spec: str) -> tuple[Any, Any, str | None, str]:
    """A packaged model name, a .gguf file, a local folder, or a Hub model (``hf:ORG/NAME`` or ``ORG/NAME``)
    -> (folder or id, gguf file name, sha256, name).

    A Hub model is fetched into the Hugging Face cache by ``huggingface_hub`` (network needed the first
    time; with ``HF_HUB_OFFLINE=1`` only the cache is read), and its snapshot folder is used from then on,
    so the weights' sha256 is recorded like a local folder's.
    """
    from .models import PACKAGED_MODELS, file_sha256

    if spec.startswith("hf:"):
        from huggingface_hub import snapshot_download

        repo = spec[3:]
        if repo.count("/") != 1:
            raise ValueError(f"--model hf:ORG/NAME needs one '/', got {spec!r}")
        folder = Path(snapshot_download(repo, allow_patterns=["*.json", "*.safetensors", "*.model", "*.txt"]))
        return str(folder), None, _weights_digest(folder), repo.split("/")[-1]
    if spec in PACKAGED_MODELS:
        m = PACKAGED_MODELS[spec]
        path = m.path(verify=True)
        return str(path.parent), path.name, m.sha256, m.name
    p = Path(spec)
    if p.suffix == ".gguf" and p.is_file():
        return str(p.parent), p.name, file_sha256(p), p.stem
    if p.is_dir():
        return str(p), None, _weights_digest(p), p.name
    return spec, None, None, spec.split("/")[-1]  # Hub id: needs network


def resolve_device_dtype(device: str = "auto", dtype: str = "auto") -> tuple[str, str]:
    """What "auto" means here: CUDA when present, float32 on CPU and bfloat16 on CUDA."""
    import torch

    if device == "auto":
        device = "cuda" if torch.cuda.is_available() else "cpu"
    if dtype == "auto":
        dtype = "bfloat16" if device == "cuda" else "float32"
    return device, dtype


def load_model(
    spec: str,
    device: str = "auto",
    dtype: str = "auto",
    threads: int | None = None,
    letter_spelling: str = DEFAULT_LETTER_SPELLING,
) -> LoadedModel:
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    threads = threads or default_threads()
    if threads:
        torch.set_num_threads(threads)
    device, dtype = resolve_device_dtype(device, dtype)
    torch_dtype = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}[dtype]
    source, gguf_file, sha, name = resolve_source(spec)
    kwargs = {"gguf_file": gguf_file} if gguf_file else {}
    tokenizer = AutoTokenizer.from_pretrained(source, **kwargs)
    model = AutoModelForCausalLM.from_pretrained(source, dtype=torch_dtype, **kwargs).to(device)  # type: ignore[arg-type]
    model.eval()
    if tokenizer.pad_token_id is None:
        tokenizer.pad_token = tokenizer.eos_token
    tokenizer.padding_side = "left"
    limit = int(getattr(model.config, "max_position_embeddings", 0) or 2048)
    return LoadedModel(
        model,
        tokenizer,
        name,
        spec,
        sha,
        device,
        dtype,
        limit,
        letter_token_ids(tokenizer, letter_spelling),
        letter_spelling,
    )


def encode(lm: LoadedModel, prompt: str, chat_template: bool = False) -> list[int]:
    if chat_template:
        if not getattr(lm.tokenizer, "chat_template", None):
            raise TokenizerError(f"model {lm.name!r} has no chat template")
        text = lm.tokenizer.apply_chat_template(
            [{"role": "user", "content": prompt}], tokenize=False, add_generation_prompt=True
        )
        return list(lm.tokenizer.encode(text, add_special_tokens=False))
    return list(lm.tokenizer.encode(prompt, add_special_tokens=True))


def encode_question(
    lm: LoadedModel, q: Any, perm: Sequence[int], shots: Sequence[Any], chat_template: bool
) -> tuple[list[int], int | None, int]:
    """Token ids of a question's prompt, the length of its shared few-shot prefix, and the shots kept.

    Shots are dropped from the end until the prompt fits the context window. Few-shot
    prompts are tokenized as prefix + question, separately, so that the prefix's tokens
    (and key/value cache) are the same for every question of a subject; a tokenizer may
    merge differently across the boundary otherwise. Zero-shot and chat-template
    prompts are tokenized whole.
    """
    from .prompts import build_prefix, build_prompt, format_question

    shots = list(shots)
    while True:
        if chat_template or not shots:
            ids, prefix_len = encode(lm, build_prompt(q, perm, shots), chat_template), None
        else:
            prefix = encode(lm, build_prefix(q, shots), False)
            ids = prefix + lm.tokenizer.encode(format_question(q, perm), add_special_tokens=False)
            prefix_len = len(prefix)
        if len(ids) <= lm.context_limit or not shots:
            return ids, prefix_len, len(shots)
        shots = shots[:-1]


def letter_probabilities(lm: LoadedModel, batch: list[list[int]]) -> list[tuple[list[float], float]]:
    """For each token sequence: (probabilities of A-D renormalised over letters, total mass on letters)."""
    import torch

    width = max(len(ids) for ids in batch)
    pad = lm.tokenizer.pad_token_id
    input_ids = torch.tensor([[pad] * (width - len(ids)) + ids for ids in batch], device=lm.device)
    mask = torch.tensor([[0] * (width - len(ids)) + [1] * len(ids) for ids in batch], device=lm.device)
    position_ids = (mask.cumsum(-1) - 1).clamp(min=0)
    with torch.inference_mode():
        out = lm.model(input_ids=input_ids, attention_mask=mask, position_ids=position_ids, logits_to_keep=1)
    return _letters_from_logits(lm, out.logits[:, -1, :])


class PrefixCache:
    """Key/value cache of a shared prompt prefix, reused for every question that starts with it.

    After each question the cache is cropped back to the prefix. Models whose cache
    cannot be cropped (or any failure) switch reuse off and fall back to full prompts.
    """

    def __init__(self, lm: LoadedModel):
        self.lm = lm
        self.ids: list[int] | None = None
        self.cache: Any = None
        # Measured (make bench): with sliding-window layers (Gemma 3) reuse gave the same answers
        # but ran slower than full prompts on CPU, so it is switched off for such models.
        layer_types = getattr(lm.model.config, "layer_types", None) or []
        self.enabled = "sliding_attention" not in layer_types
        self.reason = None if self.enabled else "sliding-window layers: measured slower with reuse"
        self.reused = 0
        self.fallbacks = 0

    def probabilities(self, prefix_ids: list[int], full_ids: list[int]) -> tuple[list[float], float]:
        import torch

        if not self.enabled or full_ids[: len(prefix_ids)] != prefix_ids or len(full_ids) == len(prefix_ids):
            self.fallbacks += 1
            return letter_probabilities(self.lm, [full_ids])[0]
        try:
            if self.ids != prefix_ids:
                with torch.inference_mode():
                    out = self.lm.model(input_ids=torch.tensor([prefix_ids], device=self.lm.device), use_cache=True)
                cache = getattr(out, "cache", None)
                self.cache, self.ids = (cache if cache is not None else out.past_key_values), list(prefix_ids)
            suffix = full_ids[len(prefix_ids) :]
            start = len(prefix_ids)
            with torch.inference_mode():
                out = self.lm.model(
                    input_ids=torch.tensor([suffix], device=self.lm.device),
                    cache=self.cache,
                    position_ids=torch.arange(start, start + len(suffix), device=self.lm.device)[None],
                    use_cache=True,
                    logits_to_keep=1,
                )
            self.cache.crop(-len(suffix))  # drop the question's tokens, keep the prefix
        except (AttributeError, NotImplementedError, ValueError, RuntimeError):
            self.enabled = False
            self.cache = self.ids = None
            self.fallbacks += 1
            return letter_probabilities(self.lm, [full_ids])[0]
        self.reused += 1
        return _letters_from_logits(self.lm, out.logits[:, -1, :])[0]


def _letters_from_logits(lm: LoadedModel, logits: Any) -> list[tuple[list[float], float]]:
    import torch

    probs = torch.softmax(logits.float(), dim=-1)
    results = []
    for row in probs:
        per_letter = [float(sum(row[i] for i in lm.letter_ids[L])) for L in LETTERS]
        mass = sum(per_letter)
        results.append(([p / mass for p in per_letter], mass))
    return results


def default_threads() -> int:
    """One thread per process on small machines: measured on 2 cores, SmolLM2 ran at 1.06 questions/s with
    one thread and 0.08 with two while other work shared the cores. ``$EXACTSTATS_THREADS`` overrides."""
    cores = os.cpu_count() or 1
    return int(os.environ.get("EXACTSTATS_THREADS", 1 if cores <= 4 else cores))


def model_provenance(lm: LoadedModel) -> dict[str, Any]:
    """What a run's manifest records about the model's environment: versions, device, precision, threads."""
    import platform

    import torch
    import transformers

    from exactstats import __version__

    return {
        "exactstats_version": __version__,
        "transformers_version": transformers.__version__,
        "torch_version": torch.__version__,
        "python": platform.python_version(),
        "device": lm.device,
        "device_name": torch.cuda.get_device_name() if str(lm.device).startswith("cuda") else platform.machine(),
        "dtype": lm.dtype,
        "threads": torch.get_num_threads(),
    }
