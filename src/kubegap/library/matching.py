"""Which incidents a search text matches: FTS5 on the words, plus any error signature the text contains.

The two are united: a pasted log line rarely matches as words (every word must occur), but it does
contain a signature. Signature matches rank above every bm25 score, since they are the strongest
evidence a reader can give.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass

from kubegap.library import bitsets, signatures, sql
from kubegap.library.fts import match_expression
from kubegap.library.glossary import Glossary

Runner = Callable[[sql.Statement], list[tuple]]


@dataclass(frozen=True)
class TextMatches:
    mask: int  # bit set of matching rowids
    ranked: list[int]  # when scored: matching rowids, signature matches first, then best bm25 first
    scores: dict[int, float]  # bm25 (lower is better) or SIGNATURE_SCORE; empty when not scored
    signatures: dict[int, list[str]]  # rowid -> the signatures the text contains


def match_text(
    run: Runner,
    text: str,
    glossary: Glossary,
    *,
    scored: bool,
    size: int,
    facet_clause: str | None = None,
    allowed: int = -1,
) -> TextMatches:
    """Incidents matching the text, best first when `scored`; `size` is the highest rowid.

    `facet_clause` (facet tokens, see index.facet_token) and `allowed` (the same filters as a bit set)
    narrow the matches inside FTS5 itself, so bm25 is computed, and rows are handed to Python, only
    for incidents that pass them.
    """
    rows: list[tuple] = []
    match = match_expression(text, glossary)
    if match is not None:
        if facet_clause:
            # No column filter on the text part: it costs a position-list check per row, and the only
            # words in the `facets` column are tokens like `kgf1t12` that no reader types by chance.
            match = f"({match}) AND {facet_clause}"
        try:
            rows = run(sql.text_matches(match, scored=scored))
        except sqlite3.OperationalError:
            # fts.py quotes every word, so FTS5 should never reject an expression; if it still
            # does, the text matches nothing rather than failing the page.
            rows = []
    found: dict[int, list[str]] = {}
    pasted = signatures.words(text)
    if pasted:
        for rowid, signature_text, pattern in run(sql.signature_candidates(pasted)):
            if allowed >> rowid & 1 and signatures.occurs_in(pattern.split(" "), pasted):
                found.setdefault(rowid, []).append(signature_text)
    mask = bitsets.mask_of([*found, *(row[0] for row in rows)], size)
    if not scored:
        return TextMatches(mask, [], {}, found)  # newest/oldest pages walk the bit set instead
    scores: dict[int, float] = dict(rows)
    scores.update(dict.fromkeys(found, sql.SIGNATURE_SCORE))
    ranked = [*sorted(found, reverse=True), *(row[0] for row in rows if row[0] not in found)]
    return TextMatches(mask, ranked, scores, found)
