"""Citations into the library from outside it (a check's `incidents=`): each must name a live record.

The knowledge package knows nothing of checks (its arrows point inward), so whoever holds citations
hands them in as plain `Citation` values with the file and line they stand on; `kubegap knowledge
validate` does that for the checks. A citation of a retired record says why the record left, and an
owner left with no live citation at all is reported on its own: that is the check the pruning stranded.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from kubegap.knowledge.collection import Knowledge
from kubegap.knowledge.problems import Problem
from kubegap.knowledge.retired import REASON_LABELS

# Where the command line leaves a `() -> list[Citation]` for `knowledge validate` (click context meta).
CHECK_CITATIONS = "kubegap.check_citations"


@dataclass(frozen=True)
class Citation:
    """One owner's cited incident ids, and where the owner lists them."""

    owner: str  # e.g. "check gpu-health-agent"
    path: Path
    line: int
    incidents: tuple[str, ...]


def citation_problems(knowledge: Knowledge, citations: Iterable[Citation]) -> list[Problem]:
    """One Problem per citation that does not name a live record, and one per owner left with none."""
    live = {incident.id for incident in knowledge.incidents}
    renamed = {former: incident.id for incident in knowledge.incidents for former in incident.former_ids}
    retired = {entry.id: entry for entry in knowledge.retired}
    problems: list[Problem] = []
    for citation in citations:
        field_name = "incidents"
        for cited in citation.incidents:
            if cited in live:
                continue
            if cited in renamed:
                message = f"{citation.owner} cites {cited!r}, now {renamed[cited]!r}; cite the current id"
            elif cited in retired:
                entry = retired[cited]
                message = (
                    f"{citation.owner} cites {cited!r}, removed from the library "
                    f"({REASON_LABELS[entry.reason].en}); cite an incident in scope"
                )
            else:
                message = f"{citation.owner} cites unknown incident {cited!r}"
            problems.append(Problem(citation.path, citation.line, field_name, message))
        if citation.incidents and not any(cited in live or cited in renamed for cited in citation.incidents):
            problems.append(
                Problem(
                    citation.path,
                    citation.line,
                    field_name,
                    f"{citation.owner} has no incident left in the library among its citations",
                )
            )
    return problems
