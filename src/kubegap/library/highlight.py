"""Highlighting the words that matched: one shared rule for the terminal, the web and anyone else.

`SearchHit.matched_terms` holds the words as written in the incident that matched the reader's text
(`끊겨`, `restarted`); `segments` cuts a text into (piece, matched) pairs, longest words first,
case-insensitively, so a renderer only wraps the matched pieces (`<mark>` on the web, bold in a
terminal) and escapes the rest as usual.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

MAX_TERMS = 40


@lru_cache(maxsize=256)
def _pattern(terms: tuple[str, ...]) -> re.Pattern[str] | None:
    chosen = sorted({term for term in terms if term.strip()}, key=lambda term: (-len(term), term))[:MAX_TERMS]
    if not chosen:
        return None
    return re.compile("|".join(re.escape(term) for term in chosen), re.IGNORECASE)


def segments(text: str, terms: Iterable[str]) -> list[tuple[str, bool]]:
    """`text` as consecutive (piece, matched) pairs; joined back together they give `text` again."""
    pattern = _pattern(tuple(terms))
    if pattern is None or not text:
        return [(text, False)] if text else []
    pieces: list[tuple[str, bool]] = []
    position = 0
    for match in pattern.finditer(text):
        if match.start() > position:
            pieces.append((text[position : match.start()], False))
        pieces.append((match.group(), True))
        position = match.end()
    if position < len(text):
        pieces.append((text[position:], False))
    return pieces
