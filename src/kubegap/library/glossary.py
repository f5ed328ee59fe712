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

from kubegap.library.analysis import HANGUL_RUN, clean_text, strip_korean_ending

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
    if HANGUL_RUN.fullmatch(last):
        keys.add(" ".join([*words[:-1], strip_korean_ending(last)]))
    else:
        for suffix in _ENGLISH_SUFFIXES:
            if last.endswith(suffix) and len(last) - len(suffix) >= 3:
                keys.add(" ".join([*words[:-1], last[: -len(suffix)]]))
                keys.add(" ".join([*words[:-1], last[: -len(suffix)] + "e"]))
    if any(HANGUL_RUN.search(word) for word in words):
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
