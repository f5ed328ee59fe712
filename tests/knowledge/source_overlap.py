"""How closely a record's English follows its source, word for word: shared word runs and 4-gram overlap.

A paraphrase keeps the facts and names (ChatGPT, CoreDNS, 11.6 seconds) but not the source's sentence,
so it shares short runs of words and few 4-grams; a near-verbatim copy shares a long run or most of its
4-grams. Names and numbers alone rarely make 4-grams, which is why they do not trip the measure.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from kubegap.knowledge.model import Bilingual, Incident

LONGEST_RUN = 7  # a shared run of this many words is a copied clause
GRAM = 4
GRAM_SHARE = 0.4  # this share of a sentence's 4-grams found in one source passage is too close a paraphrase
MIN_WORDS = 8  # shorter sentences ("Rolled back the change.") cannot be judged

_WORD = re.compile(r"[a-z0-9]+(?:['’.][a-z0-9]+)*")
_SENTENCE = re.compile(r"(?<=[.!?;:])\s+")


@dataclass(frozen=True)
class Overlap:
    field: str
    sentence: str
    phrase: str
    longest_run: int
    gram_share: float

    @property
    def too_close(self) -> bool:
        return self.longest_run >= LONGEST_RUN or self.gram_share >= GRAM_SHARE


def words(text: str) -> list[str]:
    return _WORD.findall(text.casefold())


def _grams(tokens: list[str], size: int) -> set[tuple[str, ...]]:
    return {tuple(tokens[index : index + size]) for index in range(len(tokens) - size + 1)}


def _longest_run(first: list[str], second: list[str]) -> int:
    """Length of the longest run of words the two share (dynamic programming, both are short)."""
    best = 0
    previous = [0] * (len(second) + 1)
    for word in first:
        current = [0] * (len(second) + 1)
        for index, other in enumerate(second, start=1):
            if word == other:
                current[index] = previous[index - 1] + 1
                best = max(best, current[index])
        previous = current
    return best


def compare(field: str, sentence: str, phrase: str) -> Overlap:
    mine, theirs = words(sentence), words(phrase)
    grams = _grams(mine, GRAM)
    share = len(grams & _grams(theirs, GRAM)) / len(grams) if grams else 0.0
    return Overlap(field, sentence, phrase, _longest_run(mine, theirs), round(share, 2))


def english_sentences(incident: Incident) -> Iterator[tuple[str, str]]:
    """(field, sentence) for every English prose sentence we wrote: not quotes, ids or error strings."""
    texts: list[tuple[str, Bilingual | None]] = [("title", incident.title), ("summary", incident.summary)]
    for name in type(incident.sections).model_fields:
        for index, item in enumerate(incident.sections.items(name)):
            texts.append((f"sections.{name}.{index}", item))
    texts += [("impact.notes", incident.impact.notes), ("cluster_visibility", incident.cluster_visibility)]
    for field, text in texts:
        if text is None:
            continue
        for sentence in _SENTENCE.split(text.en):
            if len(words(sentence)) >= MIN_WORDS:
                yield field, sentence


def closest(incident: Incident, phrases: list[str]) -> list[Overlap]:
    """For each sentence, its closest source passage, worst first."""
    found = []
    for field, sentence in english_sentences(incident):
        candidates = [compare(field, sentence, phrase) for phrase in phrases]
        found.append(max(candidates, key=lambda item: (item.too_close, item.longest_run, item.gram_share)))
    return sorted(found, key=lambda item: (-item.longest_run, -item.gram_share))
