"""The words of a search marked in a card's title and summary, so a reader sees why each result is there.

The marks follow what the search itself matched in each result: the library reports the words of the
case that matched (a Korean word in the form the case writes it, a glossary form in the other language).
Text is split into segments here; the template wraps the marked ones in `<mark>` and autoescapes all
of them, so a query can never inject markup.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kubegap.library.query import SearchHit

MAX_TERMS = 24
_HANGUL = re.compile(r"[가-힣]+")


@dataclass(frozen=True, slots=True)
class Segment:
    text: str
    marked: bool = False


def hit_marks(hit: SearchHit) -> tuple[str, ...]:
    """What to mark in one result: the words the search matched in it, as the case writes them
    (`노드가` in the query marks `노드` in the case; a glossary match marks `restart` for `재시작`)."""
    kept = {term.lower(): term for term in hit.matched_terms if _long_enough(term)}
    return tuple(sorted(kept.values(), key=len, reverse=True))[:MAX_TERMS]


def marked(text: str, terms: tuple[str, ...]) -> tuple[Segment, ...]:
    """The text as segments, the occurrences of any term (case-insensitive) marked."""
    if not terms or not text:
        return (Segment(text),) if text else ()
    pattern = re.compile("|".join(re.escape(term) for term in terms), re.IGNORECASE)
    segments: list[Segment] = []
    last = 0
    for match in pattern.finditer(text):
        if match.start() > last:
            segments.append(Segment(text[last : match.start()]))
        segments.append(Segment(match.group(0), True))
        last = match.end()
    if last < len(text):
        segments.append(Segment(text[last:]))
    return tuple(segments)


def _long_enough(term: str) -> bool:
    """One Latin letter or digit would mark half the page; one Hangul syllable is a word."""
    return len(term) >= 2 or bool(_HANGUL.fullmatch(term))
