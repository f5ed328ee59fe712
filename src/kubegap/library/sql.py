"""The SQL behind a search, built as text so tests can read it. Values are always parameters.

Text search runs in SQLite (FTS5 and the signature word table); facet filters, counts and paging then
work on bit sets in Python (see bitsets.py). A ranked search also passes its filters to FTS5 as tag
tokens (see matching.py), because bm25 is the one cost that grows with every match. The MATCH
expression itself is built by fts.py from quoted words only. `facet_counts_reference` is the plain
`GROUP BY` form of the facet counts, kept so tests can check the bit sets against SQL.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from kubegap.library.index import BM25_WEIGHTS

SIGNATURE_SCORE = -1_000_000.0  # a pasted signature outranks any bm25 score (lower is better)


@dataclass(frozen=True)
class Statement:
    sql: str
    params: tuple[object, ...] = ()


def text_matches(match: str, *, scored: bool) -> Statement:
    """Rowids of incidents whose text matches; with bm25 scores, best first, when ranking by relevance."""
    if not scored:
        return Statement("SELECT rowid FROM incident_text WHERE incident_text MATCH ?", (match,))
    weights = ", ".join(str(weight) for weight in BM25_WEIGHTS)
    return Statement(
        f"SELECT rowid, bm25(incident_text, {weights}) AS score FROM incident_text "
        "WHERE incident_text MATCH ? ORDER BY score ASC, rowid DESC",
        (match,),
    )


def signature_candidates(words: Sequence[str]) -> Statement:
    """Signatures whose literal words all occur among `words`; their order is checked afterwards."""
    return Statement(
        "SELECT s.incident, s.text, s.pattern FROM signatures AS s JOIN ("
        "SELECT signature, count(*) AS found FROM signature_words "
        "WHERE word IN (SELECT value FROM json_each(?)) GROUP BY signature"
        ") AS w ON w.signature = s.id WHERE w.found = s.literal_count",
        (json.dumps(sorted(set(words))),),
    )


def facet_counts_reference(facet: str, rowids: Sequence[int]) -> Statement:
    """(term, count) over the given incidents; tags hold ancestors, so parents count their descendants."""
    return Statement(
        "SELECT term, count(*) FROM tags WHERE facet = ? "
        "AND incident IN (SELECT value FROM json_each(?)) GROUP BY term",
        (facet, json.dumps([int(rowid) for rowid in rowids])),
    )
