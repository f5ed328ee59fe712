"""Find an incident from a pasted log line that contains one of its error signatures.

A reader rarely pastes just the signature: they paste the whole line, with a timestamp, a rank, a host,
addresses around it. The rule: a signature matches when its words appear, in order and next to each
other, somewhere in the pasted text. Words are runs of letters and digits, compared case-insensitively,
so spacing and punctuation (`[rank3]:`, `NET/IB :`) do not matter. Inside a signature, a hex literal
(`0x7f3a`), a run of 8+ hex digits or a number of 4+ digits stands for "any one word", because those are
addresses, PIDs and ports that differ on every machine; short numbers (`Xid 79`, `error 12`) must match.

To stay fast on a large library, the index keeps each signature's distinct literal words; only the
signatures whose literal words all occur in the pasted text are checked for order in Python.
"""

from __future__ import annotations

import re
import unicodedata

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
