"""Which incidents resemble one another, and why, in terms a reader can check.

Two incidents are alike when they quote the same error signature or name the same taxonomy terms.
We rank by shared signatures first (the strongest evidence: the same log line), then by the number of
shared terms, then newest first, and we hand back the shared things themselves as the reasons. Only
terms each incident names directly count, not the parents they roll up to ("both are hardware faults"
would make everything alike), and the organisation does not count: one publisher's outages are not
alike for being its own.

The shared-term count of every other incident at once is a bit-sliced sum: each of this incident's
term bit sets is added into binary counter planes (planes[k] holds bit k of every incident's count),
so the work grows with this incident's tags, not with the size of the library.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from kubegap.knowledge.organizations import ORGANIZATION_FACET
from kubegap.knowledge.scope import SCOPE_FACET
from kubegap.library.bitsets import TagSets, rowids_descending

_SHARED_SIGNATURES = """
SELECT other.incident, mine.text
FROM signatures AS mine JOIN signatures AS other
  ON other.pattern = mine.pattern AND other.incident != mine.incident
WHERE mine.incident = ?
"""

_NOT_LIKENESS = (ORGANIZATION_FACET, SCOPE_FACET)


@dataclass(frozen=True)
class Likeness:
    rowid: int
    shared_terms: tuple[tuple[str, str], ...]  # (facet, term)
    shared_signatures: tuple[str, ...]


def _count_planes(masks: list[int]) -> list[int]:
    planes: list[int] = []
    for mask in masks:
        carry = mask
        for level, plane in enumerate(planes):
            planes[level], carry = plane ^ carry, plane & carry
            if not carry:
                break
        if carry:
            planes.append(carry)
    return planes


def _exactly(planes: list[int], count: int, everything: int) -> int:
    """Incidents whose counter equals `count`."""
    if count >> len(planes):
        return 0  # needs a higher bit than any counter reached
    result = everything
    for level, plane in enumerate(planes):
        result &= plane if count >> level & 1 else ~plane
    return result


def find_similar(connection: sqlite3.Connection, tags: TagSets, rowid: int, limit: int) -> list[Likeness]:
    # Likeness is in what failed and how; who reported it, or which side of the scope line, is not.
    mine = [key for key, mask in tags.direct.items() if key[0] not in _NOT_LIKENESS and mask >> rowid & 1]
    quoted: dict[int, list[str]] = {}
    for other, text in connection.execute(_SHARED_SIGNATURES, (rowid,)):
        if text not in quoted.setdefault(other, []):
            quoted[other].append(text)
    others = tags.everything & ~(1 << rowid)
    planes = _count_planes([tags.direct[key] & others for key in mine])

    def shared(other: int) -> tuple[tuple[str, str], ...]:
        return tuple(key for key in mine if tags.direct[key] >> other & 1)

    chosen = sorted(quoted, key=lambda other: (-len(quoted[other]), -len(shared(other)), -other))[:limit]
    for count in range(len(mine), 0, -1):
        if len(chosen) >= limit:
            break
        for other in rowids_descending(_exactly(planes, count, others)):
            if other not in quoted:
                chosen.append(other)
                if len(chosen) >= limit:
                    break
    return [Likeness(other, shared(other), tuple(quoted.get(other, ()))) for other in chosen]
