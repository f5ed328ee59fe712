"""The words of a search marked in a card's title and summary, so a reader sees why each result is there.

The marks follow what the search itself matched: each query word (a Korean word without its ending,
`노드가` -> `노드`) and the glossary's forms of it in both languages (`재시작` also marks `restart`).
Text is split into segments here; the template wraps the marked ones in `<mark>` and autoescapes all
of them, so a query can never inject markup.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kubegap.library.analysis import query_words, strip_korean_ending
from kubegap.library.glossary import Glossary

MAX_TERMS = 24
_HANGUL = re.compile(r"[가-힣]+")
# The index splits words at punctuation and between Hangul and Latin (`GPU를` is GPU + 를), and so do
# the marks; a lone syllable stuck to a Latin word is a particle, not something to mark.
_PIECE = re.compile(r"[가-힣]+|[^\W가-힣]+")


@dataclass(frozen=True, slots=True)
class Segment:
    text: str
    marked: bool = False


def highlight_terms(text: str, glossary: Glossary) -> tuple[str, ...]:
    """What to mark for a search text: its words and their glossary forms, longest first."""
    words = query_words(text) if text else []
    found: list[str] = []
    position = 0
    while position < len(words):
        length, forms = glossary.match(words, position)
        for word in [*words[position : position + max(length, 1)], *forms]:
            pieces = _PIECE.findall(word)
            found.extend(_stem(piece) for piece in pieces if len(pieces) == 1 or len(piece) > 1)
        position += max(length, 1)
    kept = {term.lower(): term for term in found if _long_enough(term)}
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


def _stem(word: str) -> str:
    return strip_korean_ending(word) if _HANGUL.fullmatch(word) else word


def _long_enough(term: str) -> bool:
    """One Latin letter or digit would mark half the page; one Hangul syllable is a word."""
    return len(term) >= 2 or bool(_HANGUL.fullmatch(term))
