"""Citations into the library from outside (a check's `incidents=`) must name live records.

The pruning of issue 29 took records out; a check left citing one is reported with why it left, and a
check left citing nothing live is reported on its own line.
"""

from __future__ import annotations

from pathlib import Path

from kubegap.checker.grounding import check_citations
from kubegap.checker.registry import all_checks
from kubegap.knowledge import load_knowledge
from kubegap.knowledge.citations import Citation, citation_problems

KNOWLEDGE = load_knowledge()
HERE = Path("checks/example.py")


def _problems(*cited: str) -> list[tuple[int, str]]:
    found = citation_problems(KNOWLEDGE, [Citation("check example", HERE, 7, cited)])
    assert all(problem.path == HERE and problem.field == "incidents" for problem in found)
    return [(problem.line, problem.message) for problem in found]


def test_a_live_citation_is_fine() -> None:
    assert _problems("llama3-2024-54-day-interruptions") == []


def test_a_retired_citation_says_why_and_leaves_the_check_with_nothing() -> None:
    assert _problems("openai-2023-10-redis-auth-cache") == [
        (
            7,
            "check example cites 'openai-2023-10-redis-auth-cache', removed from the library "
            "(login, auth or credential problem); cite an incident in scope",
        ),
        (7, "check example has no incident left in the library among its citations"),
    ]


def test_a_retired_citation_beside_a_live_one_is_reported_alone() -> None:
    messages = [
        message
        for _, message in _problems("openai-2023-10-redis-auth-cache", "llama3-2024-54-day-interruptions")
    ]
    assert len(messages) == 1 and "removed from the library" in messages[0]


def test_a_former_id_points_to_the_current_one() -> None:
    assert _problems("github-copilot-2024-07-partner-cleanup-job") == [
        (
            7,
            "check example cites 'github-copilot-2024-07-partner-cleanup-job', now "
            "'azure-openai-2024-07-cleanup-deleted-resources'; cite the current id",
        )
    ]


def test_an_unknown_citation() -> None:
    assert _problems("no-such-2024-01-case")[0] == (
        7,
        "check example cites unknown incident 'no-such-2024-01-case'",
    )


def test_every_check_is_listed_with_the_line_of_its_incidents() -> None:
    citations = check_citations()
    assert [citation.owner for citation in citations] == [f"check {check.id}" for check in all_checks()]
    for citation in citations:
        assert citation.path.is_file() and citation.path.suffix == ".py"
        assert "incidents" in citation.path.read_text(encoding="utf-8").splitlines()[citation.line - 1]


def test_the_shipped_checks_cite_only_live_incidents() -> None:
    assert [problem.render() for problem in citation_problems(KNOWLEDGE, check_citations())] == []
