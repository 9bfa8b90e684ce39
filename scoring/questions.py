"""Multiple-choice questions: loaders for MMLU-Redux, the original MMLU CSVs, the Hub, and JSONL.

Every loader returns :class:`Question` objects with a stable id ``subject/index``
(index = 0-based row in the subject's file). Problems in the input raise
:class:`QuestionFormatError` naming the file and the row; nothing is skipped
silently.
"""

from __future__ import annotations

import ast
import csv
import io
import json
import os
import random
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

LETTERS = "ABCD"

# MMLU's four categories (Hendrycks et al. 2021), by subject; lm-eval groups its mmlu task the same way.
MMLU_CATEGORIES: dict[str, list[str]] = {
    "stem": [
        "abstract_algebra",
        "anatomy",
        "astronomy",
        "college_biology",
        "college_chemistry",
        "college_computer_science",
        "college_mathematics",
        "college_physics",
        "computer_security",
        "conceptual_physics",
        "electrical_engineering",
        "elementary_mathematics",
        "high_school_biology",
        "high_school_chemistry",
        "high_school_computer_science",
        "high_school_mathematics",
        "high_school_physics",
        "high_school_statistics",
        "machine_learning",
    ],
    "humanities": [
        "formal_logic",
        "high_school_european_history",
        "high_school_us_history",
        "high_school_world_history",
        "international_law",
        "jurisprudence",
        "logical_fallacies",
        "moral_disputes",
        "moral_scenarios",
        "philosophy",
        "prehistory",
        "professional_law",
        "world_religions",
    ],
    "social_sciences": [
        "econometrics",
        "high_school_geography",
        "high_school_government_and_politics",
        "high_school_macroeconomics",
        "high_school_microeconomics",
        "high_school_psychology",
        "human_sexuality",
        "professional_psychology",
        "public_relations",
        "security_studies",
        "sociology",
        "us_foreign_policy",
    ],
    "other": [
        "business_ethics",
        "clinical_knowledge",
        "college_medicine",
        "global_facts",
        "human_aging",
        "management",
        "marketing",
        "medical_genetics",
        "miscellaneous",
        "nutrition",
        "professional_accounting",
        "professional_medicine",
        "virology",
    ],
}
CATEGORY_OF = {subject: category for category, subjects in MMLU_CATEGORIES.items() for subject in subjects}

ERROR_LABELS = (
    "ok",
    "wrong_groundtruth",
    "no_correct_answer",
    "multiple_correct_answers",
    "bad_question_clarity",
    "bad_options_clarity",
    "expert",
)


class QuestionFormatError(ValueError):
    """A question file could not be parsed; the message names the file and the row."""


@dataclass(frozen=True)
class Question:
    id: str
    subject: str
    question: str
    choices: tuple[str, str, str, str]
    answer: int  # index of the keyed answer in ``choices``
    error_type: str | None = None  # MMLU-Redux expert label, normalised to ERROR_LABELS
    expert_answer: int | None = None  # MMLU-Redux ``correct_answer`` when it names one option
    expert_note: str | None = None  # the raw ``correct_answer`` text when it is not one option

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["choices"] = list(self.choices)
        return d


def default_mmlu_dir() -> Path | None:
    """``$EXACTSTATS_MMLU_DIR``, else ``../shared/data/mmlu-redux`` next to the project, if it exists."""
    env = os.environ.get("EXACTSTATS_MMLU_DIR")
    if env:
        return Path(env)
    guess = Path(__file__).resolve().parents[2] / "shared" / "data" / "mmlu-redux"
    return guess if guess.is_dir() else None


def normalise_error_label(raw: str, where: str) -> str:
    label = re.sub(r"[\s_]+", "_", raw.strip().lower())
    if label not in ERROR_LABELS:
        raise QuestionFormatError(f"{where}: unknown error_type {raw!r} (known: {', '.join(ERROR_LABELS)})")
    return label


def _decode(path: Path) -> str:
    raw = path.read_bytes()
    if not raw.strip():
        raise QuestionFormatError(f"{path}: empty file")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("cp1252")  # one MMLU-Redux file is Windows-1252


def _check(q: str, choices: list[Any], answer: int, where: str) -> tuple[str, str, str, str]:
    if len(choices) != 4:
        raise QuestionFormatError(f"{where}: expected 4 choices, got {len(choices)}")
    if not 0 <= answer < 4:
        raise QuestionFormatError(f"{where}: answer index {answer} out of range 0..3")
    if not str(q).strip():
        raise QuestionFormatError(f"{where}: empty question text")
    return tuple(str(c) for c in choices)  # type: ignore[return-value]


def _expert_answer(raw: str) -> tuple[int | None, str | None]:
    text = raw.strip()
    if not text:
        return None, None
    if text in {"0", "1", "2", "3"}:
        return int(text), None
    if text in set(LETTERS):
        return LETTERS.index(text), None
    return None, text


def load_redux_file(path: Path) -> list[Question]:
    """One MMLU-Redux CSV (``mmlu_{subject}.csv``): either delimiter, any column order."""
    path = Path(path)
    text = _decode(path)
    header = text.splitlines()[0]
    delimiter = ";" if header.count(";") > header.count(",") else ","
    reader = csv.DictReader(io.StringIO(text), delimiter=delimiter)
    need = {"question", "choices", "answer", "error_type"}
    missing = need - set(reader.fieldnames or [])
    if missing:
        raise QuestionFormatError(f"{path}: missing column(s) {', '.join(sorted(missing))}")
    subject = path.stem.removeprefix("mmlu_")
    out = []
    for i, row in enumerate(reader):
        where = f"{path}, row {i + 2}"
        try:
            choices = ast.literal_eval(row["choices"])
            answer = int(row["answer"])
        except (ValueError, SyntaxError, TypeError) as exc:
            raise QuestionFormatError(f"{where}: cannot parse choices/answer ({exc})") from None
        if not isinstance(choices, (list, tuple)):
            raise QuestionFormatError(f"{where}: choices is not a list")
        expert, note = _expert_answer(row.get("correct_answer") or "")
        out.append(
            Question(
                id=f"{subject}/{i}",
                subject=subject,
                question=row["question"],
                choices=_check(row["question"], list(choices), answer, where),
                answer=answer,
                error_type=normalise_error_label(row["error_type"] or "", where),
                expert_answer=expert,
                expert_note=note,
            )
        )
    if not out:
        raise QuestionFormatError(f"{path}: no questions")
    return out


def load_redux(directory: Path | str | None = None) -> list[Question]:
    """All MMLU-Redux subjects in a folder (5,700 questions for the full set)."""
    directory = Path(directory) if directory else default_mmlu_dir()
    if directory is None or not directory.is_dir():
        raise FileNotFoundError("MMLU-Redux folder not found: set EXACTSTATS_MMLU_DIR")
    files = sorted(directory.glob("mmlu_*.csv"))
    if not files:
        raise QuestionFormatError(f"{directory}: no mmlu_*.csv files")
    return [q for f in files for q in load_redux_file(f)]


def load_mmlu_csv_dir(directory: Path | str, split: str = "test") -> list[Question]:
    """Original MMLU layout: ``{subject}_{split}.csv``, no header: question, A, B, C, D, answer letter."""
    directory = Path(directory)
    files = sorted(directory.glob(f"*_{split}.csv"))
    if not files:
        raise QuestionFormatError(f"{directory}: no *_{split}.csv files")
    out = []
    for path in files:
        subject = path.name[: -len(f"_{split}.csv")]
        rows = list(csv.reader(io.StringIO(_decode(path))))
        for i, row in enumerate(rows):
            where = f"{path}, row {i + 1}"
            if len(row) != 6:
                raise QuestionFormatError(f"{where}: expected 6 fields (question, 4 choices, answer), got {len(row)}")
            letter = row[5].strip().upper()
            if letter not in LETTERS:
                raise QuestionFormatError(f"{where}: answer {row[5]!r} is not one of A-D")
            out.append(
                Question(
                    f"{subject}/{i}",
                    subject,
                    row[0],
                    _check(row[0], row[1:5], LETTERS.index(letter), where),
                    LETTERS.index(letter),
                )
            )
    return out


def load_jsonl(path: Path | str) -> list[Question]:
    """Documented JSONL format: one object per line with ``subject``, ``question``,
    ``choices`` (4 strings) and ``answer`` (0-3 or A-D); optional ``id`` (else
    ``subject/index`` within the subject), ``error_type``."""
    path = Path(path)
    text = _decode(path)
    counters: dict[str, int] = {}
    out = []
    for i, line in enumerate(text.splitlines()):
        if not line.strip():
            continue
        where = f"{path}, line {i + 1}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise QuestionFormatError(f"{where}: invalid JSON ({exc.msg})") from None
        for key in ("subject", "question", "choices", "answer"):
            if key not in obj:
                raise QuestionFormatError(f"{where}: missing field {key!r}")
        ans = obj["answer"]
        if isinstance(ans, str) and ans.strip().upper() in LETTERS:
            ans = LETTERS.index(ans.strip().upper())
        if not isinstance(ans, int) or isinstance(ans, bool):
            raise QuestionFormatError(f"{where}: answer must be 0-3 or A-D, got {obj['answer']!r}")
        subject = str(obj["subject"])
        index = counters.get(subject, 0)
        counters[subject] = index + 1
        label = obj.get("error_type")
        out.append(
            Question(
                id=str(obj.get("id", f"{subject}/{index}")),
                subject=subject,
                question=obj["question"],
                choices=_check(obj["question"], list(obj["choices"]), ans, where),
                answer=ans,
                error_type=normalise_error_label(label, where) if label else None,
            )
        )
    if not out:
        raise QuestionFormatError(f"{path}: no questions")
    return out


def load_hub(
    name: str = "cais/mmlu", config: str = "all", split: str = "test"
) -> list[Question]:  # pragma: no cover - needs network
    """The Hugging Face ``cais/mmlu`` dataset (needs network access and the ``datasets`` package)."""
    from datasets import load_dataset

    ds = load_dataset(name, config, split=split)
    counters: dict[str, int] = {}
    out = []
    for i, row in enumerate(ds):
        subject = row["subject"]
        index = counters.get(subject, 0)
        counters[subject] = index + 1
        out.append(
            Question(
                f"{subject}/{index}",
                subject,
                row["question"],
                _check(row["question"], row["choices"], row["answer"], f"{name} row {i}"),
                row["answer"],
            )
        )
    return out


def load_questions(source: str | Path) -> list[Question]:
    """Dispatch on the source: ``redux`` / a folder of ``mmlu_*.csv`` / a folder of ``*_test.csv`` / a ``.jsonl`` / ``hub:NAME``.

    Question ids must be unique: a repeated id is an error naming it (rows are keyed by id).
    """
    questions = _load_questions(str(source))
    seen: set[str] = set()
    for q in questions:
        if q.id in seen:
            raise QuestionFormatError(f"{source}: question id {q.id!r} appears more than once; ids must be unique")
        seen.add(q.id)
    return questions


def _load_questions(source: str) -> list[Question]:
    if source in {"redux", "mmlu-redux"}:
        return load_redux()
    if source.startswith("hub:"):
        return load_hub(source[4:] or "cais/mmlu")
    path = Path(source)
    if path.suffix == ".jsonl":
        return load_jsonl(path)
    if path.is_dir():
        if any(path.glob("mmlu_*.csv")):
            return load_redux(path)
        return load_mmlu_csv_dir(path)
    raise FileNotFoundError(f"questions source not found: {source}")


_CROSS_REFERENCE_V1 = re.compile(
    r"\b(all|none|both|neither) of the (above|following|options|choices|answers)\b"
    r"|\b(both|either|neither) [A-D] (and|or|nor) [A-D]\b"
    r"|\b[A-D] (and|or) [A-D]\b"
    r"|\boptions? [A-D]\b",
    re.IGNORECASE,
)
# v2: the option letters must be capitals. v1 matched "a and b" in ordinary text (variables in
# mathematics and computing options), dropping valid questions such as college_mathematics/8.
_CROSS_REFERENCE_V2 = re.compile(
    r"\b(?i:all|none|both|neither) (?i:of the) (?i:above|following|options|choices|answers)\b"
    r"|\b(?i:both|either|neither) [A-D] (?i:and|or|nor) [A-D]\b"
    r"|\b[A-D] (?i:and|or) [A-D]\b"
    r"|\b(?i:options?) [A-D]\b"
)
CROSS_REFERENCE_FILTERS = {"v1": _CROSS_REFERENCE_V1, "v2": _CROSS_REFERENCE_V2}
DEFAULT_CROSS_REFERENCE_FILTER = "v2"  # new runs; the shipped dataset was selected with v1 (its manifests say so)


def refers_to_other_options(q: Question, version: str = DEFAULT_CROSS_REFERENCE_FILTER) -> bool:
    """True when an option points at other options ("all of the above", "both A and B"):
    shuffling the options would change its meaning."""
    pattern = CROSS_REFERENCE_FILTERS[version]
    return any(pattern.search(c) for c in q.choices)


def filter_shuffle_safe(
    questions: Sequence[Question], version: str = DEFAULT_CROSS_REFERENCE_FILTER
) -> tuple[list[Question], list[Question]]:
    """Split into (kept, dropped): dropped questions have options that refer to other options."""
    if version not in CROSS_REFERENCE_FILTERS:
        raise ValueError(
            f"--cross-reference-filter must be one of {', '.join(CROSS_REFERENCE_FILTERS)}, got {version!r}"
        )
    kept: list[Question] = []
    dropped: list[Question] = []
    for q in questions:
        (dropped if refers_to_other_options(q, version) else kept).append(q)
    return kept, dropped


def sample_questions(
    questions: Sequence[Question], n: int | None, seed: int = 0, stratify: bool = False
) -> list[Question]:
    """Seeded sample of ``n`` questions (all when n is None), in a stable order (by id position).

    ``stratify=True`` allocates the sample to subjects in proportion to their
    size (largest remainders), then samples within each subject.
    """
    qs = list(questions)
    if n is None or n >= len(qs):
        return qs
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    rng = random.Random(seed)
    if not stratify:
        picked = set(rng.sample(range(len(qs)), n))
        return [q for i, q in enumerate(qs) if i in picked]
    by_subject: dict[str, list[int]] = {}
    for i, q in enumerate(qs):
        by_subject.setdefault(q.subject, []).append(i)
    subjects = sorted(by_subject)
    quotas = {s: n * len(by_subject[s]) / len(qs) for s in subjects}
    alloc = {s: int(quotas[s]) for s in subjects}
    leftover = n - sum(alloc.values())
    for s in sorted(subjects, key=lambda s: (-(quotas[s] - alloc[s]), s))[:leftover]:
        alloc[s] += 1
    picked = set()
    for s in subjects:
        picked.update(rng.sample(by_subject[s], alloc[s]))
    return [q for i, q in enumerate(qs) if i in picked]
