"""One Korean term per concept: the terminology list in `terminology.yaml` and a check for any text.

Each entry names the preferred term, the variants that mean the same thing and must not be written, and
why the preferred one won (the National Institute of Korean Language's loanword rules and standard
dictionary, the Korean Kubernetes documentation, or plain Korean over a calque). The validator runs the
check over every Korean text in the knowledge data; `findings()` and `findings_by_line()` run it over
any other text (CLI messages, web templates, message catalogs), so the interface can be held to the
same list without a second copy of it.

How a variant matches, per entry (`match`):
  prefix    a Korean word that begins with it, whatever ending follows (검사를, 검사했다)
  contains  a Korean word that contains it anywhere (불건강, 스케쥴러)
  word      the variant alone or with a particle (잡이, 잡의), never a word that merely begins with it;
            `except` lists words that look like it but are something else (잡은, 잡을 from 잡다)
A variant with a space (헬스 체크) also matches written without it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from kubegap.knowledge.model import Bilingual
from kubegap.knowledge.orthography import PARTICLES, korean_texts
from kubegap.knowledge.problems import Problem
from kubegap.knowledge.yaml_positions import PositionedDocument

FILE_NAME = "terminology.yaml"
BUNDLED_LIST = Path(__file__).parent / "data" / FILE_NAME
_HANGUL = "가-힣"


class Match(StrEnum):
    prefix = "prefix"
    contains = "contains"
    word = "word"


class TermEntry(BaseModel):
    """One concept: the term to write, the variants not to, and why."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    preferred: str = Field(min_length=1)
    concept: Bilingual
    banned: list[str] = Field(min_length=1)
    match: Match = Match.prefix
    except_: list[str] = Field(default_factory=list, alias="except")
    reason: Bilingual


class TerminologyFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    terms: list[TermEntry] = Field(min_length=1)


@dataclass(frozen=True)
class Finding:
    """A banned variant in a text: where it starts, the word as written, and the entry it breaks."""

    offset: int
    found: str
    entry: TermEntry

    def message(self) -> str:
        return (
            f"write {self.entry.preferred!r}, not {self.found!r} ({self.entry.concept.en}; see {FILE_NAME})"
        )


class Terminology:
    """The list, compiled: one pattern per banned variant."""

    def __init__(self, entries: list[TermEntry]) -> None:
        self.entries = list(entries)
        self._patterns = [(entry, _pattern(entry, variant)) for entry in entries for variant in entry.banned]

    def findings(self, text: str) -> list[Finding]:
        """Every banned variant in `text`, in order of appearance."""
        found = []
        for entry, pattern in self._patterns:
            for match in pattern.finditer(text):
                word = match.group(0)
                if word not in entry.except_:
                    found.append(Finding(match.start(), word, entry))
        return sorted(found, key=lambda item: item.offset)

    def findings_by_line(self, text: str) -> list[tuple[int, Finding]]:
        """(1-based line, finding) for a whole file's text: a template, a message catalog."""
        starts = [0, *(match.end() for match in re.finditer("\n", text))]
        located = []
        for finding in self.findings(text):
            line = next(
                number for number in range(len(starts), 0, -1) if starts[number - 1] <= finding.offset
            )
            located.append((line, finding))
        return located

    def problems(self, path: Path, document: PositionedDocument) -> list[Problem]:
        """One Problem per banned variant in a YAML document's Korean texts, at that text's line."""
        found = []
        for where, text in korean_texts(document.data):
            for finding in self.findings(text):
                found.append(
                    Problem(
                        path,
                        document.line_of(where),
                        ".".join(str(part) for part in where),
                        finding.message(),
                    )
                )
        return found


def _pattern(entry: TermEntry, variant: str) -> re.Pattern[str]:
    body = r"\s?".join(re.escape(part) for part in variant.split())
    left = rf"(?<![{_HANGUL}])"
    if entry.match == Match.contains:
        return re.compile(rf"[{_HANGUL}]*{body}[{_HANGUL}]*")
    if entry.match == Match.prefix:
        return re.compile(rf"{left}{body}[{_HANGUL}]*")
    particles = "|".join(sorted((re.escape(particle) for particle in PARTICLES), key=len, reverse=True))
    return re.compile(rf"{left}{body}(?:{particles})?(?![{_HANGUL}])")


def read_terminology(path: Path) -> Terminology:
    """The list in one file. Raises ValueError (with the reason) when the file is not a valid list."""
    try:
        loaded = TerminologyFile.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
    except (OSError, yaml.YAMLError, ValidationError) as error:
        raise ValueError(f"{path}: not a valid terminology list: {error}") from error
    return Terminology(loaded.terms)


@lru_cache(maxsize=1)
def bundled_terminology() -> Terminology:
    """The list shipped with kubegap: what the knowledge data and the interface are held to."""
    return read_terminology(BUNDLED_LIST)


def terminology_for(root: Path | None) -> Terminology:
    """A knowledge root's own list when it has one, else the bundled list."""
    if root is not None and (root / FILE_NAME).is_file():
        try:
            return read_terminology(root / FILE_NAME)
        except ValueError:
            return bundled_terminology()
    return bundled_terminology()


def iter_entries() -> Iterator[TermEntry]:
    """The bundled entries, for documentation and for tests over the interface."""
    yield from bundled_terminology().entries
