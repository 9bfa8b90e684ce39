"""No hand-typed result numbers in the book's prose.

Every digit in a chapter's prose must come from a glue role, or be on the short
allowlist below. Code cells, exercise statements (they pose inputs; solutions are
computed), directive options, inline code, glue roles, URLs and
labels are removed before scanning. In math, only the structural constants 0, 1
and 2 may appear (as in $(1-p)^k$ or $k/2$); any other digit in math is flagged.
"""

import re
from pathlib import Path

import pytest

BOOK = Path(__file__).resolve().parents[1] / "book"

# Numbers allowed in prose, each with the reason.
ALLOWED = {
    "2024": "year of Miller's paper (citation)",
    "2021": "year of the MMLU paper (citation)",
    "2025": "year of the MMLU-Redux paper (citation)",
    "1785": "year of Condorcet's essay (citation)",
    "1927": "year of Wilson's paper on the score interval (citation)",
    "1929": "year of Zermelo's paper on the Bradley-Terry estimate (citation)",
    "1957": "year of Ford's paper on its existence (citation)",
    "1994": "year of Berger and Boos's paper on p-values maximised over a confidence set (citation)",
    "000": "seed article number",
    "001": "seed article number",
    "003": "seed article number",
    "5,700": "size of MMLU-Redux, a dataset fact",
    "5,456": "shuffle-safe MMLU-Redux questions, a dataset fact",
    "244": "questions excluded as cross-referencing, a dataset fact",
    "2,000": "size of the main question sample, a design choice",
    "95%": "conventional confidence level",
    "5%": "conventional significance level",
    "80%": "conventional power",
    "164": "HumanEval's problem count, a dataset fact",
    "0.8": "the sampling temperature, a design choice (the Codex paper's setting)",
}
MATH_OK = {"0", "1", "2", "4"}  # 4: the constant in Wilson's interval, z^2 / 4n^2

EXEMPT_DIRECTIVES = ("{exercise}",)  # an exercise states its inputs; its solution computes the answer

FENCE = re.compile(r"^(`{3,}|:{3,})(.*)$")


def prose_lines(text: str):
    """Yield (line number, text) of prose: outside code cells, front matter and directive options."""
    lines = text.splitlines()
    i = 0
    if lines and lines[0].strip() == "---":  # front matter
        i = lines.index("---", 1) + 1
    stack = []
    for n in range(i, len(lines)):
        line = lines[n]
        m = FENCE.match(line.strip())
        if m:
            fence, rest = m.groups()
            if stack and fence == stack[-1][0] and not rest.strip():
                stack.pop()
                continue
            if rest.strip():
                kind = rest.strip()
                code = kind.startswith(("{code-cell}", "{eval-rst}") + EXEMPT_DIRECTIVES) or not kind.startswith("{")
                stack.append((fence, code))
                continue
        if stack and stack[-1][1]:
            continue  # inside code
        if line.lstrip().startswith(":") and re.match(r"^\s*:[\w-]+:", line):
            continue  # directive option such as :label: or :name:
        yield n + 1, line


def strip_markup(line: str) -> tuple[str, list[str]]:
    line = re.sub(r"\{glue(:\w+)?\}`[^`]*`", " ", line)
    line = re.sub(r"\{[\w:-]+\}`[^`]*`", " ", line)  # other roles: refs, labels
    line = re.sub(r"`[^`]*`", " ", line)  # inline code
    line = re.sub(r"https?://\S+", " ", line)
    line = re.sub(r"arXiv:\S+", " ", line)
    maths = re.findall(r"\$\$?([^$]+)\$\$?", line)
    line = re.sub(r"\$\$?[^$]+\$\$?", " ", line)
    return line, maths


NUMBER = re.compile(r"(?<![\w.@#-])(\d[\d,]*(?:\.\d+)?%?)(?![\w@-]*[A-Za-z])")


def offending(text: str) -> list[str]:
    bad = []
    for n, raw in prose_lines(text):
        line, maths = strip_markup(raw)
        for m in NUMBER.finditer(line):
            num = m.group(1).rstrip(",.")
            if num not in ALLOWED:
                bad.append(f"line {n}: {num!r} in {raw.strip()[:90]!r}")
        for expr in maths:
            for d in re.findall(r"\d+(?:\.\d+)?", re.sub(r"\\[A-Za-z]+", " ", expr)):
                if d not in MATH_OK:
                    bad.append(f"line {n}: {d!r} in math {expr[:60]!r}")
    return bad


CHAPTERS = sorted(p for p in BOOK.glob("*.md"))


def test_chapters_exist():
    assert {p.name for p in CHAPTERS} >= {"intro.md", "difference.md", "passk.md", "panels.md", "data.md", "claims.md"}


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_no_hand_typed_numbers(path):
    assert offending(path.read_text()) == []


def test_scanner_catches_typed_numbers():
    sample = "\n".join(
        [
            "The model scored 71.8% on the test.",
            "It is worth {glue:text}`x:.2f` votes.",
            "```{code-cell} ipython3",
            "x = 42",
            "```",
            "Inline math $n = 37$ is flagged, $1-(1-p)^k$ is not.",
            "Qwen2.5-Coder-1.5B is a name, 2024 a year.",
        ]
    )
    bad = offending(sample)
    assert any("'71.8%'" in b for b in bad) and any("'37'" in b for b in bad)
    assert not any("42" in b or "'1.5'" in b or "2024" in b for b in bad)
    assert len(bad) == 2


def _cells(text: str) -> list[tuple[str, str]]:
    """(tags line, code) of every code cell outside the solutions."""
    text = re.sub(r"```\{solution-start\}.*?```\{solution-end\}\n```", "", text, flags=re.S)
    return [
        (m.group(1) or "", m.group(2))
        for m in re.finditer(r"```\{code-cell\}[^\n]*\n((?::[\w-]+: [^\n]*\n)*)(.*?)```", text, re.S)
    ]


def test_hidden_cells_compute_no_statistic():
    """A cell behind a toggle glues, asserts and words the prose; a statistic of the package is called there
    only inside an assert or a glue, never to compute a number the text uses (that belongs in a visible cell)."""
    import ast

    for path in CHAPTERS:
        for tags, code in _cells(path.read_text()):
            if "hide-input" not in tags:
                continue
            for node in ast.parse(code).body:
                if isinstance(node, ast.Assert | ast.Import | ast.ImportFrom):
                    continue
                call = node.value if isinstance(node, ast.Expr) else None
                if isinstance(call, ast.Call) and getattr(call.func, "id", "") in ("glue", "glue_all"):
                    continue
                assert "es." not in ast.unparse(node), f"{path.name}: hidden computation {ast.unparse(node)[:80]!r}"


def test_no_computation_is_removed_from_the_pages():
    """Every code cell is in the HTML: visible, or behind a toggle (hide-input). Only cells that render
    prose or a widget (the proofs, the browser figure) may drop their input; no cell is removed whole."""
    hidden = visible = 0
    for path in CHAPTERS:
        for tags, code in _cells(path.read_text()):
            assert "remove-cell" not in tags, f"{path.name}: a removed cell: {code.splitlines()[0][:60]!r}"
            if "remove-input" in tags:
                assert "Markdown(" in code or "HTML(" in code, f"{path.name}: removed input that is not a render"
            lines = sum(1 for line in code.splitlines() if line.strip() and not line.lstrip().startswith("#"))
            if "hide-input" in tags or "remove-input" in tags:
                hidden += lines
            else:
                visible += lines
    assert visible > 0 and hidden > 0
    # the book shows its work: at most a quarter of the code lines outside the solutions sit behind toggles
    # (glue, asserts and the rendering of prose); the computations are short visible cells
    assert hidden <= (visible + hidden) / 4, f"{hidden} of {visible + hidden} code lines hidden"
