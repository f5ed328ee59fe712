"""One Korean term per concept in everything a user reads, not only in the knowledge data.

The validator holds the knowledge data to `terminology.yaml`; this test holds the interface to the same
list: every string literal of the package (check metadata, CLI help and messages, web label tables, MCP
descriptions and answers, report words), every other text file it ships (templates, styles) and the
Markdown a user reads (README, docs). A banned variant fails with its file and line.

A word in a code span (`라벨`) or a fenced block is quoted, not used: a page that explains the list, or a
command a reader types, may name a variant that way. Anything else that must stay goes in `ALLOWED`
with the reason.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from kubegap.checker.fleet.text_reports import _CLUSTER_STATUS, _WORDS
from kubegap.checker.registry import all_checks
from kubegap.knowledge.terminology import bundled_terminology
from kubegap.web.labels import _WEB_LABELS

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "src" / "kubegap"
# The knowledge data has its own check (tests/knowledge/test_terminology.py, `kubegap knowledge
# validate`); its glossary keeps the variants on purpose, as search forms.
DATA = PACKAGE / "knowledge" / "data"
TEXT_SUFFIXES = {".html", ".css", ".js", ".svg", ".json", ".md", ".txt", ".toml", ".yaml", ".yml"}
READER_DOCS = ("README.md", "CONTRIBUTING.md", "AGENTS.md", "SECURITY.md", "docs", ".agents", "plugin")

# (file relative to the repository, the word as written) -> why it stays.
ALLOWED: dict[tuple[str, str], str] = {
    ("src/kubegap/knowledge/terminology.py", word): (
        "the module's docstring shows how each kind of match finds a variant, so it writes them"
    )
    for word in ("검사를", "검사했다", "불건강", "스케쥴러", "잡이", "잡의", "헬스 체크")
}

_FENCE = re.compile(r"^```.*?^```", re.DOTALL | re.MULTILINE)
_CODE_SPAN = re.compile(r"`[^`\n]+`")
_HANGUL = re.compile(r"[가-힣]")


def _blank(match: re.Match[str]) -> str:
    """The match replaced by spaces, newlines kept, so offsets and line numbers stay put."""
    return re.sub(r"[^\n]", " ", match.group(0))


def _prose(text: str) -> str:
    """The text without fenced blocks and code spans: what it uses, not what it quotes."""
    return _CODE_SPAN.sub(_blank, _FENCE.sub(_blank, text))


def _python_strings(path: Path) -> Iterator[tuple[int, str]]:
    """(line, text) of every string literal in a module; adjacent literals arrive joined."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and _HANGUL.search(node.value):
            yield node.lineno, node.value


def _texts(path: Path) -> Iterator[tuple[int, str]]:
    """(first line, text) pieces of one file whose Korean a user may read."""
    if path.suffix == ".py":
        yield from _python_strings(path)
    elif path.suffix in TEXT_SUFFIXES:
        yield 1, path.read_text(encoding="utf-8")


def _files(root: Path, names: tuple[str, ...]) -> Iterator[Path]:
    for name in names:
        start = root / name
        candidates = [start] if start.is_file() else sorted(start.rglob("*"))
        for path in candidates:
            if path.is_file() and DATA not in path.parents and "__pycache__" not in path.parts:
                yield path


def banned_in(root: Path, names: tuple[str, ...]) -> list[tuple[str, int, str, str]]:
    """(file, line, word as written, term to write) for every banned variant under `names`."""
    terms = bundled_terminology()
    found = []
    for path in _files(root, names):
        relative = path.relative_to(root).as_posix()
        for first_line, text in _texts(path):
            for line, finding in terms.findings_by_line(_prose(text)):
                found.append((relative, first_line + line - 1, finding.found, finding.entry.preferred))
    return found


def _unexplained(found: list[tuple[str, int, str, str]]) -> list[str]:
    return [
        f"{file}:{line}: write {preferred!r}, not {word!r}"
        for file, line, word, preferred in found
        if (file, word) not in ALLOWED
    ]


def test_every_string_the_package_shows_uses_the_preferred_terms() -> None:
    """Check metadata, CLI help and messages, web labels and templates, MCP text, report words."""
    assert _unexplained(banned_in(REPO, ("src/kubegap",))) == []


def test_every_page_a_reader_opens_uses_the_preferred_terms() -> None:
    """README, the contributor guide and docs/ (including the generated docs/checks.md)."""
    assert _unexplained(banned_in(REPO, READER_DOCS)) == []


def test_every_check_says_it_with_the_preferred_terms() -> None:
    """The metadata as loaded, so a title or remediation built at import time is held too."""
    terms = bundled_terminology()
    found = [
        (check.id, field, finding.found)
        for check in all_checks()
        for field in ("title", "why", "remediation", "decides")
        for finding in terms.findings(_prose(getattr(check.meta, field).ko))
    ]
    assert found == []


# A command or flag named in a label is not the word for a scan.
_COMMANDS = re.compile(r"--no-scan|kubegap scan")


def test_a_scan_is_one_word_and_a_check_another_on_every_face() -> None:
    """스캔 is what `kubegap scan` does, 점검 one of the checks it runs, in the CLI as on the web.

    The list cannot ban 점검 for a scan (it is the word for a check), so the label tables are held to
    it here: a label whose English names a scan says 스캔, one that names a check says 점검.
    """
    tables = {"web": _WEB_LABELS, "fleet report": {**_WORDS, **_CLUSTER_STATUS}}
    wrong = []
    for table, labels in tables.items():
        for key, (korean, english) in labels.items():
            english = _COMMANDS.sub("", english)
            if re.search(r"\bscan(s|ned|ning)?\b", english, re.IGNORECASE) and "스캔" not in korean:
                wrong.append((table, key, korean))
            if re.search(r"\bchecks?\b", english, re.IGNORECASE) and "점검" not in korean:
                wrong.append((table, key, korean))
    assert wrong == []


def test_every_allowed_exception_is_still_needed() -> None:
    """An exception whose word is gone must go too, or it would later hide a real one."""
    found = {(file, word) for file, _, word, _ in banned_in(REPO, ("src/kubegap", *READER_DOCS))}
    assert [key for key in ALLOWED if key not in found] == []
    assert all(reason.strip() for reason in ALLOWED.values())


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("labels.py", 'LABELS = {"scope": ("스냅샷: {file}", "snapshot: {file}")}\n', [(1, "스냅샷")]),
        # Adjacent literals are one string to Python and to the reader, split across lines or not.
        ("check.py", 'WHY = (\n    "노드 상태 "\n    "검사를 끕니다"\n)\n', [(2, "검사를")]),
        ("page.html", "<h1>{{ title }}</h1>\n<p>노드 라벨과 셀렉터</p>\n", [(2, "라벨과")]),
        ("page.html", "<p>정상 노드</p>\n", []),
        # A quoted word is a mention: the command a reader types, or a page explaining the list.
        ("help.py", 'HELP = "`kubegap incidents list -q 라벨`로 찾습니다"\n', []),
        ("guide.md", "레이블, not `라벨`\n\n```\n스냅샷\n```\n노드 라벨\n", [(6, "라벨")]),
        ("comment.py", "# 라벨: a comment is for whoever edits the code\nX = 1\n", []),
    ],
)
def test_the_walk_finds_a_variant_where_a_user_would_read_it(
    tmp_path: Path, name: str, content: str, expected: list[tuple[int, str]]
) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / name).write_text(content, encoding="utf-8")
    assert [(line, word) for _, line, word, _ in banned_in(tmp_path, ("pkg",))] == expected
