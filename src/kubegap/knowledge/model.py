"""The typed shape of the knowledge base: taxonomy terms, incidents and fleet studies.

These models are the schema. `kubegap knowledge schema` publishes them as JSON Schema for editors, the
validator reports their errors with file and line, and both faces (library and checker) read them.
Every human-readable string is a `Bilingual` pair: Korean and English are equally required.
"""

from __future__ import annotations

import datetime as dt
from enum import StrEnum
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

SCHEMA_VERSION = 1

Slug = Annotated[str, Field(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$", max_length=100)]
FACETS = ("cause", "component", "symptom", "contributing-factor")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Bilingual(_Strict):
    """One piece of text in both languages; neither may be blank."""

    ko: str = Field(min_length=1)
    en: str = Field(min_length=1)

    @field_validator("ko", "en")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("text must not be blank")
        return value.strip()

    def get(self, lang: str) -> str:
        return self.ko if lang == "ko" else self.en


class Basis(StrEnum):
    """Whether a source says this outright or we concluded it from what the source says."""

    stated = "stated"
    inferred = "inferred"


class SectionText(Bilingual):
    """The text of a section. `unstated: true` marks our note that the sources say nothing on it.

    Every section is always present, so a reader can tell "the report is silent on detection" from "we
    forgot to write it down". The note is ours (the validator cannot check what a source omits, the
    editor who read it can), renderers show it like any text, and search leaves it out.
    """

    unstated: bool = False


class ReasonedText(SectionText):
    """A cause or contributing factor, with how we know it (a note that the sources say nothing has none)."""

    basis: Basis | None = None

    @model_validator(mode="after")
    def _basis_unless_unstated(self) -> ReasonedText:
        if self.unstated and self.basis is not None:
            raise ValueError("a note that the sources say nothing has no basis")
        if not self.unstated and self.basis is None:
            raise ValueError("basis is required: stated or inferred")
        return self


class SourceKind(StrEnum):
    """What a source is. The first eight are primary: the operator's or the engineers' own account
    (postmortem, status page, engineering blog, paper, logbook, talk, issue tracker, documentation).
    The last five are secondary: someone else retelling it. A record needs at least one primary
    source, or says in `no_primary_source` why none exists (docs/knowledge.md)."""

    postmortem = "postmortem"
    status_page = "status-page"
    paper = "paper"
    logbook = "logbook"
    blog = "blog"
    talk = "talk"
    issue = "issue"
    documentation = "documentation"
    news = "news"  # a news site's article about the incident
    forum = "forum"  # a community forum or discussion thread
    mirror = "mirror"  # a copy of someone's status page or report kept elsewhere
    aggregator = "aggregator"  # a site that collects and summarises others' incident reports
    commentary = "commentary"  # a third party's own notes or analysis of someone else's incident


SECONDARY_SOURCE_KINDS = frozenset(
    {SourceKind.news, SourceKind.forum, SourceKind.mirror, SourceKind.aggregator, SourceKind.commentary}
)


class Source(_Strict):
    url: str = Field(pattern=r"^https://\S+$")
    title: str = Field(min_length=1)
    publisher: str = Field(min_length=1)
    kind: SourceKind
    archive_url: str | None = Field(default=None, pattern=r"^https?://\S+$")
    published: dt.date | None = None
    # The day someone on the team read this source and checked the record against it. Left empty
    # rather than guessed: an access date is a claim about our own work, so it is only set when made.
    accessed: dt.date | None = None


class Term(_Strict):
    """One value of a facet. `parent` lets counts roll up (gpu-hbm under gpu-hardware).

    `former_ids` are values merged into this one (a value left with too few records joins its parent):
    a link, filter or check that still names one resolves here, while records must use the current id.
    """

    id: Slug
    label: Bilingual
    description: Bilingual
    parent: Slug | None = None
    former_ids: list[Slug] = Field(default_factory=list)


class Facet(_Strict):
    """A taxonomy file: one facet and its terms."""

    facet: str
    label: Bilingual
    description: Bilingual
    terms: list[Term] = Field(min_length=1)

    @field_validator("facet")
    @classmethod
    def _known_facet(cls, value: str) -> str:
        if value not in FACETS:
            raise ValueError(f"facet must be one of {', '.join(FACETS)}")
        return value


class Deployment(StrEnum):
    cloud = "cloud"
    on_prem = "on-prem"
    hybrid = "hybrid"
    unknown = "unknown"


class Orchestrator(StrEnum):
    kubernetes = "kubernetes"
    slurm = "slurm"
    other = "other"
    none = "none"
    unknown = "unknown"


class Environment(_Strict):
    """Where it happened. `accelerator` and `provider` are product names, written once when they are
    only names ("NVIDIA H100 80GB", "Azure"), and in both languages as {ko, en} as soon as they say
    more than names ("GPUs for model inference"), so a Korean page never shows English prose."""

    deployment: Deployment = Deployment.unknown
    orchestrator: Orchestrator = Orchestrator.unknown
    accelerator: str | Bilingual | None = None
    scale_gpus: int | None = Field(default=None, ge=1)
    provider: str | Bilingual | None = None


def in_language(value: str | Bilingual | None, lang: str) -> str | None:
    """A name (the same in both languages) or a bilingual text, in `lang`."""
    return value.get(lang) if isinstance(value, Bilingual) else value


def both_languages(value: str | Bilingual | None) -> list[str]:
    """Every spelling of a name or bilingual text, for search."""
    if value is None:
        return []
    return [value.ko, value.en] if isinstance(value, Bilingual) else [value]


class Sections(_Strict):
    """The nine sections, in the order a reader meets them, every one always present.

    Where the sources say nothing on a section (how it was detected, what followed), the section holds
    one note marked `unstated: true` that says so in both languages. Symptom, cause and lessons are
    never unstated: a record without them is not an incident. The components section is the
    `component` tags; it has no free text of its own.
    """

    symptom: SectionText
    trigger: SectionText
    cause: ReasonedText
    contributing_factors: list[ReasonedText]
    detection: SectionText
    actions: list[SectionText]
    follow_ups: list[SectionText]
    lessons: SectionText

    @model_validator(mode="before")
    @classmethod
    def _every_section(cls, data: object) -> object:
        if isinstance(data, dict):
            missing = [name for name in _SECTION_FIELDS if data.get(name) in (None, [], "")]
            if missing:
                raise ValueError(
                    f"missing sections: {', '.join(missing)}; where the sources say nothing, write a note "
                    "saying so with unstated: true"
                )
        return data

    @model_validator(mode="after")
    def _notes_where_allowed(self) -> Sections:
        for name in ("symptom", "cause", "lessons"):
            if getattr(self, name).unstated:
                raise ValueError(f"{name} cannot be unstated: every incident has one")
        for name in ("contributing_factors", "actions", "follow_ups"):
            items = getattr(self, name)
            if len(items) > 1 and any(item.unstated for item in items):
                raise ValueError(f"{name}: a note that the sources say nothing must be the only item")
        return self

    def items(self, name: str) -> list[SectionText]:
        """A section's texts as a list (one for a single-text section), notes included."""
        value = getattr(self, name)
        return list(value) if isinstance(value, list) else [value]


_SECTION_FIELDS = (
    "symptom",
    "trigger",
    "cause",
    "contributing_factors",
    "detection",
    "actions",
    "follow_ups",
    "lessons",
)


SECTION_ORDER = (
    "symptom",
    "trigger",
    "cause",
    "components",
    "contributing_factors",
    "detection",
    "actions",
    "follow_ups",
    "lessons",
)


class Tags(_Strict):
    cause: list[Slug] = Field(default_factory=list)
    component: list[Slug] = Field(default_factory=list)
    symptom: list[Slug] = Field(default_factory=list)
    contributing_factor: list[Slug] = Field(default_factory=list, alias="contributing-factor")

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    def by_facet(self) -> dict[str, list[str]]:
        return {
            "cause": self.cause,
            "component": self.component,
            "symptom": self.symptom,
            "contributing-factor": self.contributing_factor,
        }


class Impact(_Strict):
    """Figures a source gives. Absent means the source does not say."""

    duration_hours: float | None = Field(default=None, ge=0)
    gpus_affected: int | None = Field(default=None, ge=0)
    restarts: int | None = Field(default=None, ge=0)
    training_time_lost_hours: float | None = Field(default=None, ge=0)
    error_rate_percent: float | None = Field(default=None, ge=0, le=100)
    notes: Bilingual | None = None


class ErrorSignature(_Strict):
    """An exact string a reader may paste from a log, as a source quotes it."""

    text: str = Field(min_length=2, max_length=500)
    note: Bilingual | None = None


class Scope(StrEnum):
    """What kind of incident a record is (docs/knowledge.md draws the line).

    ai-infra: a failure of the infrastructure that trains or serves models (accelerators, interconnect,
    storage and data paths for training, schedulers and orchestration of AI jobs, serving capacity and
    routing, drivers and firmware). platform: a Kubernetes or cloud control-plane incident that a cluster
    checker learns from, outside AI workloads.
    """

    ai_infra = "ai-infra"
    platform = "platform"


class Incident(_Strict):
    id: Slug
    former_ids: list[Slug] = Field(
        default_factory=list,
        description="Ids this incident had before; links and citations to them still resolve.",
    )
    title: Bilingual
    summary: Bilingual
    date: dt.date
    end_date: dt.date | None = None
    organization: Slug = Field(description="An organisation id from organizations.yaml.")
    scope: Scope = Field(description="ai-infra or platform; docs/knowledge.md draws the line.")
    environment: Environment = Field(default_factory=Environment)
    sources: list[Source] = Field(min_length=1)
    no_primary_source: Bilingual | None = Field(
        default=None,
        description="Only where every source is secondary (news, forum, mirror, aggregator, commentary): "
        "why no primary source exists or could be read.",
    )
    sections: Sections
    tags: Tags
    impact: Impact = Field(default_factory=Impact)
    error_signatures: list[ErrorSignature] = Field(default_factory=list)
    cluster_visibility: Bilingual | None = Field(
        default=None,
        description="Where no kubegap check can see this incident's preconditions: why, and what can.",
    )

    @model_validator(mode="after")
    def _dates_in_order(self) -> Incident:
        if self.end_date is not None and self.end_date < self.date:
            raise ValueError("end_date is before date")
        return self


class StudyRow(_Strict):
    category: Bilingual
    count: int | None = Field(default=None, ge=0)
    share_percent: float | None = Field(default=None, ge=0, le=100)
    tags: Tags = Field(default_factory=Tags)

    @model_validator(mode="after")
    def _has_a_figure(self) -> StudyRow:
        if self.count is None and self.share_percent is None:
            raise ValueError("a row needs a count or a share_percent")
        return self


class Study(_Strict):
    """A fleet study: a source that reports counts by category rather than one story."""

    id: Slug
    title: Bilingual
    summary: Bilingual
    organization: Slug = Field(description="An organisation id from organizations.yaml.")
    period: Bilingual
    period_start: dt.date | None = None
    period_end: dt.date | None = None
    fleet: Bilingual
    fleet_gpus: int | None = Field(default=None, ge=1)
    measure: Bilingual = Field(description="What the counts count, e.g. unexpected interruptions.")
    total: int | None = Field(default=None, ge=0)
    rows: list[StudyRow] = Field(min_length=2)
    sources: list[Source] = Field(min_length=1)
    lessons: Bilingual | None = None
