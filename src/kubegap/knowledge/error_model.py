"""The error-signature catalog: what an error code or log message means and what people do about it.

One YAML file per entry under `errors/`, file name = id (`xid-79.yaml`). An entry names the strings a
reader may paste (`patterns`, matched word by word in order like incident signatures, so
`NVRM: Xid (PCI:0000:3b:00): 79, pid=1234` contains `Xid 79`), says in both languages what the error
means and the usual action, and links the incidents and fleet-study rows that involve it and the
checks that guard against it. Facts come from the listed public sources, in our own words.

Kept apart from model.py, which other record kinds share, so the catalog can grow on its own.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field, model_validator

from kubegap.knowledge.model import Bilingual, Slug, Source, _Strict


class ErrorFamily(StrEnum):
    xid = "xid"
    nccl = "nccl"
    cuda = "cuda"
    nvml = "nvml"
    infiniband = "infiniband"
    kubernetes = "kubernetes"
    etcd = "etcd"


class SearchTerms(_Strict):
    """Words in each language that mean this error, so a search in either language finds it."""

    ko: list[str] = Field(default_factory=list)
    en: list[str] = Field(default_factory=list)


class StudyRowLink(_Strict):
    """A fleet-study row that counts this error: the study id and the row's position (0-based)."""

    study: Slug
    row: int = Field(ge=0)


class ErrorEntry(_Strict):
    id: Slug
    family: ErrorFamily
    code: str | None = Field(default=None, max_length=40, description="The numeric or symbolic code, if any.")
    title: Bilingual
    patterns: list[str] = Field(
        min_length=1, description="Strings a reader may paste; matched word by word, in order."
    )
    meaning: Bilingual
    usual_action: Bilingual
    notes: Bilingual | None = None
    terms: SearchTerms | None = None
    incidents: list[Slug] = Field(default_factory=list)
    study_rows: list[StudyRowLink] = Field(default_factory=list)
    checks: list[Slug] = Field(
        default_factory=list, description="Ids of kubegap checks that guard against it."
    )
    related: list[Slug] = Field(default_factory=list, description="Ids of other catalog entries.")
    sources: list[Source] = Field(min_length=1)

    @model_validator(mode="after")
    def _patterns_have_words(self) -> ErrorEntry:
        for pattern in self.patterns:
            if not any(character.isalnum() for character in pattern):
                raise ValueError(f"pattern {pattern!r} has no letters or digits to match")
        return self


def catalog_order(entry: ErrorEntry) -> tuple[int, int, str]:
    """How the catalog lists entries: by family (as `ErrorFamily` lists them), then by numeric code
    (Xid 13 before Xid 119, where sorting by id put xid-119 first), then by id."""
    families = list(ErrorFamily)
    code = entry.code or ""
    return (families.index(entry.family), int(code) if code.isdigit() else 1 << 30, entry.id)
