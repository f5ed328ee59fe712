"""The words of an error text and the one rule that finds a catalog pattern in them.

Shared by every reader of error text: the library's search and `kubegap errors show` (through the
SQLite index), and the checker's symptoms (through `ErrorMatcher`, in memory), so a message an
on-call engineer pastes and the same message in a cluster event resolve to the same catalog entry.

A reader rarely pastes just the signature: they paste the whole line, with a timestamp, a rank, a host,
addresses around it. The rule: a signature matches when its words appear, in order and next to each
other, somewhere in the pasted text (catalog patterns: with up to four other words between two of
them). Words are runs of letters and digits, compared case-insensitively, so spacing and punctuation
(`[rank3]:`, `NET/IB :`) do not matter. Inside a signature, a hex literal (`0x7f3a`), a run of 8+ hex
digits or a number of 4+ digits stands for "any one word", because those are addresses, PIDs and
ports that differ on every machine; short numbers (`Xid 79`, `error 12`) must match.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

_WORD = re.compile(r"[^\W_]+")
_HEX_LITERAL = re.compile(r"^0x[0-9a-f]+$")
_LONG_HEX = re.compile(r"^(?=[0-9a-f]*[0-9])[0-9a-f]{8,}$")
_LONG_NUMBER = re.compile(r"^[0-9]{4,}$")
MAX_PASTED_WORDS = 400
WILDCARD = "*"


def words(text: str) -> list[str]:
    """The comparable words of a text: casefolded letter/digit runs, at most MAX_PASTED_WORDS."""
    return _WORD.findall(unicodedata.normalize("NFC", text).casefold())[:MAX_PASTED_WORDS]


def pattern(signature: str) -> list[str]:
    """A signature's words, with machine-specific values replaced by WILDCARD."""
    return [
        WILDCARD if _HEX_LITERAL.match(word) or _LONG_HEX.match(word) or _LONG_NUMBER.match(word) else word
        for word in words(signature)
    ]


def literal_words(signature_pattern: list[str]) -> set[str]:
    return {word for word in signature_pattern if word != WILDCARD}


def occurs_in(signature_pattern: list[str], pasted: list[str]) -> bool:
    """Whether the pattern's words appear in order and adjacent somewhere in the pasted words."""
    size = len(signature_pattern)
    if size == 0 or size > len(pasted):
        return False
    for start in range(len(pasted) - size + 1):
        if all(
            expected in (WILDCARD, pasted[start + offset])
            for offset, expected in enumerate(signature_pattern)
        ):
            return True
    return False


def occurs_loosely(signature_pattern: list[str], pasted: list[str], max_gap: int = 4) -> bool:
    """Whether the pattern's words appear in order with at most `max_gap` other words between two of
    them: catalog patterns like `Xid 79` must match `Xid (PCI:0000:3b:00): 79` as dmesg writes it."""
    if not signature_pattern:
        return False
    for start, word in enumerate(pasted):
        if word != signature_pattern[0] and signature_pattern[0] != WILDCARD:
            continue
        position, ok = start, True
        for expected in signature_pattern[1:]:
            window = pasted[position + 1 : position + 2 + max_gap]
            offset = next(
                (index for index, found in enumerate(window) if expected in (WILDCARD, found)), None
            )
            if offset is None:
                ok = False
                break
            position += 1 + offset
        if ok:
            return True
    return False


class ErrorMatcher:
    """Catalog patterns in memory: which entries a text contains, longest pattern first.

    The same candidates and the same `occurs_loosely` rule as the library index's catalog lookup
    (a pattern is tried only when all its literal words occur in the text), without SQLite, so the
    checker can match thousands of event messages without opening the library.
    """

    def __init__(self, entries: Iterable[tuple[str, Iterable[str]]]) -> None:
        self._patterns: list[tuple[str, list[str], frozenset[str]]] = []
        for entry_id, texts in entries:
            for text in texts:
                found = pattern(text)
                literals = literal_words(found)
                if literals:
                    self._patterns.append((entry_id, found, frozenset(literals)))
        self._vocabulary = frozenset(word for _, _, literals in self._patterns for word in literals)

    def match(self, text: str) -> tuple[str, ...]:
        """Entry ids whose patterns the text contains, the longest pattern first (then by id)."""
        pasted = words(text)
        present = self._vocabulary.intersection(pasted)
        if not present:
            return ()
        matched: dict[str, int] = {}
        for entry_id, found, literals in self._patterns:
            if literals <= present and occurs_loosely(found, pasted):
                matched[entry_id] = max(matched.get(entry_id, 0), len(found))
        return tuple(sorted(matched, key=lambda entry_id: (-matched[entry_id], entry_id)))
