"""A small bilingual glossary that carries a search across languages: `재시작` also looks for `restart`.

The pairs live in `glossary.yaml` beside the knowledge base (one bundled with the package; a knowledge
folder may bring its own). Each entry lists Korean forms and English forms that mean the same thing;
a query word or phrase equal to any form is searched as any of the entry's forms. Matching is
case-insensitive, ignores a trailing Korean particle (`드라이버가` is `드라이버`), a simple English
plural or tense (`restarts`, `restarted`) and, for Korean, the space inside a phrase (`메모리오류`).
A glossary that cannot be read never breaks search: it is simply empty.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from kubegap.library.analysis import Lookup, clean_text, text_tokens
from kubegap.library.korean import HANGUL, strip_ending

BUNDLED_GLOSSARY = Path(__file__).resolve().parents[1] / "knowledge" / "data" / "glossary.yaml"
MAX_PHRASE_WORDS = 4
_ENGLISH_SUFFIXES = ("ing", "ed", "es", "s", "d")


class GlossaryEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    ko: list[str] = Field(min_length=1)
    en: list[str] = Field(min_length=1)


class GlossaryFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    entries: list[GlossaryEntry]


def _keys(phrase: str) -> set[str]:
    """Every spelling of a phrase that should find its entry."""
    words = clean_text(phrase).casefold().split()
    if not words:
        return set()
    keys = {" ".join(words)}
    last = words[-1]
    if HANGUL.match(last):
        keys.add(" ".join([*words[:-1], strip_ending(last)]))
    else:
        for suffix in _ENGLISH_SUFFIXES:
            if last.endswith(suffix) and len(last) - len(suffix) >= 3:
                keys.add(" ".join([*words[:-1], last[: -len(suffix)]]))
                keys.add(" ".join([*words[:-1], last[: -len(suffix)] + "e"]))
    if any(HANGUL.search(word) for word in words):
        keys |= {key.replace(" ", "") for key in keys}
    return keys


@dataclass(frozen=True)
class Glossary:
    entries: tuple[GlossaryEntry, ...] = ()
    _index: dict[str, int] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def of(cls, entries: list[GlossaryEntry]) -> Glossary:
        index: dict[str, int] = {}
        for position, entry in enumerate(entries):
            for form in [*entry.ko, *entry.en]:
                for key in _keys(form):
                    index.setdefault(key, position)
        return cls(tuple(entries), index)

    def forms(self, phrase: str) -> list[str]:
        """All forms (both languages) of the entry a phrase names; empty when it names none."""
        for key in sorted(_keys(phrase), key=len, reverse=True):
            position = self._index.get(key)
            if position is not None:
                entry = self.entries[position]
                return [*entry.ko, *entry.en]
        return []

    def match(self, words: list[str], start: int) -> tuple[int, list[str]]:
        """The longest glossary phrase starting at words[start]: (how many words, its forms) or (0, [])."""
        for length in range(min(MAX_PHRASE_WORDS, len(words) - start), 0, -1):
            forms = self.forms(" ".join(words[start : start + length]))
            if forms:
                return length, forms
        return 0, []


def load_glossary(path: Path) -> Glossary:
    """Read a glossary file; an unreadable or invalid one yields an empty glossary, never an error."""
    return _load_cached(path.resolve(), _mtime(path))


def glossary_for(root: Path) -> Glossary:
    """The glossary of a knowledge folder: its own `glossary.yaml`, else the bundled one."""
    own = root / "glossary.yaml"
    return load_glossary(own if own.is_file() else BUNDLED_GLOSSARY)


def _mtime(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return 0


@lru_cache(maxsize=8)
def _load_cached(path: Path, mtime: int) -> Glossary:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        return Glossary.of(GlossaryFile.model_validate(data).entries)
    except (OSError, UnicodeDecodeError, yaml.YAMLError, ValidationError):
        return Glossary()


Terms = tuple[str, ...]


@dataclass(frozen=True)
class AnalysedGlossary:
    """The glossary in index terms: which term sequences name an entry, and each entry's forms.

    A search matches the reader's words against these sequences after the same analysis the index
    uses, so `끊겼다` finds the entry written `끊김` (both are 끊기다) and `restarted` the one written
    `restart`. Stored in the index when it is built, so a search never needs Kiwi for the glossary.
    """

    keys: dict[Terms, int] = field(default_factory=dict)
    forms: tuple[tuple[Terms, ...], ...] = ()

    def entry_forms(self, key: Terms) -> tuple[Terms, ...]:
        position = self.keys.get(key)
        return () if position is None else self.forms[position]

    def to_json(self) -> list[list[list[str]]]:
        return [[list(form) for form in forms] for forms in self.forms]

    @classmethod
    def from_json(cls, data: list[list[list[str]]]) -> AnalysedGlossary:
        return cls.of([tuple(tuple(form) for form in forms) for forms in data], [])

    @classmethod
    def of(cls, forms: list[tuple[Terms, ...]], part_keys: list[list[Terms]]) -> AnalysedGlossary:
        keys: dict[Terms, int] = {}
        for position, entry_forms in enumerate(forms):
            for form in entry_forms:
                keys.setdefault(form, position)
            for part_key in part_keys[position] if position < len(part_keys) else []:
                keys.setdefault(part_key, position)
        return cls(keys, tuple(forms))


def form_terms(text: str, lookup: Lookup | None) -> tuple[Terms, Terms]:
    """A form as index terms: with compounds kept whole (`재시작`), and as its parts alone."""
    tokens = text_tokens(text, lookup)
    parts = tuple(token.term for token in tokens if not token.whole)
    joined: list[str] = []
    covered_until = -1
    for token in tokens:
        if token.start < covered_until:
            continue  # a part inside a whole already taken
        joined.append(token.term)
        if token.whole:
            covered_until = token.start + len(token.surface)
    return tuple(joined), parts


def analyse_glossary(entries: tuple[GlossaryEntry, ...], lookup: Lookup | None = None) -> AnalysedGlossary:
    """Every form of every entry as term sequences (see `form_terms`)."""
    forms: list[tuple[Terms, ...]] = []
    part_keys: list[list[Terms]] = []
    for entry in entries:
        whole_forms: list[Terms] = []
        parts_only: list[Terms] = []
        for text in [*entry.ko, *entry.en]:
            joined, parts = form_terms(text, lookup)
            if joined and joined not in whole_forms:
                whole_forms.append(joined)
            if len(parts) > len(joined):
                parts_only.append(parts)
        forms.append(tuple(whole_forms))
        part_keys.append(parts_only)
    return AnalysedGlossary.of(forms, part_keys)
