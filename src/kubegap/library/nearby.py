"""Nearby terms for a search that found nothing: words of the library spelled like the reader's.

A reader who typed `infinband` or `쿠버네티즈` deserves a way forward rather than an empty page. For
each word of the text we take the library's index terms that start with the same character (one
indexed range scan, most common first), keep those `difflib` finds close to the word, and offer
their most common written form. Words the library already has are not offered back.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable

from kubegap.library import sql
from kubegap.library.analysis import Lookup, text_tokens

Runner = Callable[[sql.Statement], list[tuple]]
MAX_SUGGESTIONS = 5
_CUTOFF = 0.7


def nearby_terms(run: Runner, text: str, lookup: Lookup) -> tuple[str, ...]:
    suggestions: dict[str, None] = {}
    for token in text_tokens(text, lookup)[:12]:
        word = token.term
        if "~" in word or not word:
            continue
        rows = run(sql.terms_starting(word[0]))
        known = {term: display for term, display, _ in rows}
        if word in known:
            continue
        for close in difflib.get_close_matches(word, list(known), n=3, cutoff=_CUTOFF):
            suggestions.setdefault(known[close], None)
        if len(suggestions) >= MAX_SUGGESTIONS:
            break
    return tuple(list(suggestions)[:MAX_SUGGESTIONS])
