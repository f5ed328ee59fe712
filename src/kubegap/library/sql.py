"""The SQL behind a search, built as text so tests can read it. Values are always parameters.

Text search reads postings rows, the vocabulary and the signature and catalog word tables from
SQLite by value (never by building SQL from a reader's words); ranking, facet filters, counts and
paging then work in Python (see ranking.py and bitsets.py). `facet_counts_reference` is the plain
`GROUP BY` form of the facet counts, kept so tests can check the bit sets against SQL.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Statement:
    sql: str
    params: tuple[object, ...] = ()


def postings(terms: Sequence[str]) -> Statement:
    """The postings rows (rowids, weights) of the given index terms."""
    return Statement(
        "SELECT term, rowids, weights FROM postings WHERE term IN (SELECT value FROM json_each(?))",
        (json.dumps(list(terms), ensure_ascii=False),),
    )


def vocabulary(words: Sequence[str]) -> Statement:
    return Statement(
        "SELECT word, analysis FROM vocabulary WHERE word IN (SELECT value FROM json_each(?))",
        (json.dumps(sorted(set(words)), ensure_ascii=False),),
    )


def term_forms(terms: Sequence[str]) -> Statement:
    return Statement(
        "SELECT term, forms FROM lexicon WHERE term IN (SELECT value FROM json_each(?))",
        (json.dumps(sorted(set(terms)), ensure_ascii=False),),
    )


def terms_starting(prefix: str, limit: int = 2000) -> Statement:
    """Lexicon terms sharing a first character with a word, most common first (for nearby terms)."""
    return Statement(
        "SELECT term, display, incidents FROM lexicon WHERE term >= ? AND term < ? AND term NOT LIKE '%~%' "
        "ORDER BY incidents DESC LIMIT ?",
        (prefix, prefix + "\U0010ffff", limit),
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
