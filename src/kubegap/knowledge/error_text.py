"""Matching pasted error text to error strings: the error catalog's patterns and incidents' signatures.

A reader pastes a log line as it is (`[ 1234.5678] NVRM: Xid (PCI:0000:3b:00): 79, pid=1234`), a
short code in any spelling (`XID79`, `xid-79`, `Xid 79:`), or a Kubernetes event message. One
normalisation makes all of these comparable, on the pasted side and on the pattern side alike:

- case and width: NFKC, then casefold (`ＸＩＤ` is `xid`);
- separators: words are runs of letters and digits, and a letter-digit boundary splits a word
  (`XID79` is `xid 79`, `79가` is `79 가`), so spacing, punctuation, `-` and `_` never matter;
- log noise: values that differ on every machine (timestamps, IPv4/IPv6 addresses with their port,
  PCI bus addresses, UUIDs, MAC addresses, hex literals, numbers of four or more digits) become one
  token, `NOISE`, each. A pattern that quotes such a value accepts any value there, and a pasted
  address counts as one word, not four, when words are allowed between two pattern words.

Two ways to match: `occurs_in` (the pattern's words next to each other, for incident signatures) and
`occurs_loosely` (up to `MAX_GAP` other words between two pattern words, for catalog patterns:
dmesg puts the PCI address between `Xid` and its code). When a loose pattern expects a number, the
first number after the previous word must be it, so `Xid (…): 79, pid=13` is Xid 79 and not Xid 13.

`match_errors(text, entries)` is the catalog lookup every face uses (CLI `errors show`, the library's
search, MCP `explain_error`, and anything that matches cluster events to the catalog).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from kubegap.knowledge.error_model import ErrorEntry

NOISE = "*"
MAX_WORDS = 400
MAX_GAP = 4

_HEX = "[0-9a-f]"
# Ordered: the first alternative that matches at a position wins, so a timestamp is taken whole
# before its parts could be read as a time or a bus address. A value never ends inside a longer one
# (before `:3b` or `.0`): the next alternative is tried instead.
_NOISE_PATTERNS = (
    r"\d{4}-\d{2}-\d{2}(?:[t ]\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d+)?(?:z|[+-]\d{2}:?\d{2})?)?",
    r"\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?",
    rf"{_HEX}{{8}}-{_HEX}{{4}}-{_HEX}{{4}}-{_HEX}{{4}}-{_HEX}{{12}}",
    r"\d{1,3}(?:\.\d{1,3}){3}(?:<\d+>|:\d+)?",
    rf"(?:{_HEX}{{0,4}}:){{2,7}}(?:\d{{1,3}}(?:\.\d{{1,3}}){{3}}|{_HEX}{{1,4}})(?:<\d+>)?",
    rf"(?:{_HEX}{{4}}:)?{_HEX}{{2}}:{_HEX}{{2}}(?:\.[0-7])?",
    rf"0x{_HEX}+",
    rf"(?=[0-9a-f]*\d){_HEX}{{8,}}",
    r"\d+\.\d{4,}|\d{4,}(?:\.\d+)?",
)
_TOKENS = re.compile(
    "|".join(f"(?<![0-9a-z_])(?:{noise})(?![0-9a-z_]|[:.][0-9a-z])" for noise in _NOISE_PATTERNS)
    + r"|(?P<word>[^\W_]+)"
)
_LETTER_DIGIT = re.compile(r"\d+|[^\W\d_]+")


def words(text: str) -> list[str]:
    """The comparable words of a text, at most MAX_WORDS: casefolded letter and digit runs, each
    machine-specific value as one NOISE token."""
    found: list[str] = []
    for match in _TOKENS.finditer(unicodedata.normalize("NFKC", text).casefold()):
        word = match.group("word")
        if word is None:
            found.append(NOISE)
        else:
            found.extend(_LETTER_DIGIT.findall(word))
        if len(found) >= MAX_WORDS:
            break
    return found[:MAX_WORDS]


def literal_words(pattern: Sequence[str]) -> set[str]:
    """The words a text must contain for the pattern to occur in it (NOISE stands for any word)."""
    return {word for word in pattern if word != NOISE}


def occurs_in(pattern: Sequence[str], pasted: Sequence[str]) -> bool:
    """Whether the pattern's words appear in order and next to each other in the pasted words."""
    size = len(pattern)
    if size == 0 or size > len(pasted):
        return False
    return any(
        all(expected in (NOISE, pasted[start + offset]) for offset, expected in enumerate(pattern))
        for start in range(len(pasted) - size + 1)
    )


def occurs_loosely(pattern: Sequence[str], pasted: Sequence[str], max_gap: int = MAX_GAP) -> bool:
    """Whether the pattern's words appear in order with at most `max_gap` other words between two of
    them; a number in the pattern must be the first number after the word before it."""
    if not pattern:
        return False
    for start, word in enumerate(pasted):
        if pattern[0] not in (NOISE, word):
            continue
        position = start
        for expected in pattern[1:]:
            found = _next_position(expected, pasted, position, max_gap)
            if found is None:
                break
            position = found
        else:
            return True
    return False


def _next_position(expected: str, pasted: Sequence[str], after: int, max_gap: int) -> int | None:
    for index in range(after + 1, min(len(pasted), after + 2 + max_gap)):
        found = pasted[index]
        if expected in (NOISE, found):
            return index
        if expected.isdigit() and found.isdigit():
            return None  # another number came first: `Xid 79, pid=13` is not `Xid 13`
    return None


@dataclass(frozen=True)
class ErrorMatch:
    """A catalog entry found in a text, with the pattern (as the catalog writes it) that matched."""

    entry: ErrorEntry
    pattern: str


def match_errors(text: str, entries: Iterable[ErrorEntry]) -> list[ErrorMatch]:
    """The catalog entries whose patterns occur in `text` (loosely, see above), best first: the entry
    whose matching pattern has the most words, then by id. Each entry appears once."""
    pasted = words(text)
    if not pasted:
        return []
    present = set(pasted)
    best: dict[str, tuple[int, ErrorMatch]] = {}
    for entry in entries:
        for written, pattern in _patterns(entry.id, tuple(entry.patterns)):
            if not literal_words(pattern) <= present or not occurs_loosely(pattern, pasted):
                continue
            if entry.id not in best or len(pattern) > best[entry.id][0]:
                best[entry.id] = (len(pattern), ErrorMatch(entry, written))
    ranked = sorted(best.values(), key=lambda item: (-item[0], item[1].entry.id))
    return [match for _, match in ranked]


@lru_cache(maxsize=1024)
def _patterns(entry_id: str, written: tuple[str, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """An entry's patterns as words, once per distinct entry (the catalog is read on every lookup)."""
    return tuple((text, tuple(words(text))) for text in written if literal_words(words(text)))
