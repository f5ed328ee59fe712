"""The organisations that incidents and fleet studies name, kept as data so each has one spelling.

Records refer to an organisation by id (`organization: openai`); the one file `organizations.yaml` at the
knowledge root gives each id its Korean and English name, its kind and, where it belongs to another
organisation in the list (GitHub and Azure to Microsoft, NCCL to NVIDIA), a `parent`, so a filter on the
parent also finds the records of its parts. `aliases` are other spellings a reader may type (the CLI's
`--org "Meta AI"`) and that search should find; they are never shown.

The library treats the list as one more facet (`organization`) next to the four taxonomy facets.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, field_validator

from kubegap.knowledge.model import FACETS, Bilingual, Slug, Term
from kubegap.knowledge.scope import SCOPE_FACET

ORGANIZATION_FACET = "organization"
# What the library filters and counts by: the four tag facets, the organisation, then the scope
# (AI infrastructure or platform, docs/knowledge.md).
LIBRARY_FACETS: tuple[str, ...] = (*FACETS, ORGANIZATION_FACET, SCOPE_FACET)
FILE_NAME = "organizations.yaml"


class OrganizationKind(StrEnum):
    """What an organisation mainly is, as far as this library's readers care."""

    ai_lab = "ai-lab"
    cloud = "cloud"
    saas = "saas"
    hpc_centre = "hpc-centre"
    open_source_project = "open-source-project"
    research_group = "research-group"
    company = "company"


KIND_LABELS: dict[OrganizationKind, Bilingual] = {
    OrganizationKind.ai_lab: Bilingual(ko="AI 연구소", en="AI lab"),
    OrganizationKind.cloud: Bilingual(ko="클라우드", en="Cloud provider"),
    OrganizationKind.saas: Bilingual(ko="SaaS", en="SaaS"),
    OrganizationKind.hpc_centre: Bilingual(ko="HPC 센터", en="HPC centre"),
    OrganizationKind.open_source_project: Bilingual(ko="오픈소스 프로젝트", en="Open-source project"),
    OrganizationKind.research_group: Bilingual(ko="연구 집단", en="Research group"),
    OrganizationKind.company: Bilingual(ko="기업", en="Company"),
}


class Organization(BaseModel):
    """One organisation: the id records use, its names in both languages, its kind and parent."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: Slug
    name: Bilingual
    kind: OrganizationKind
    parent: Slug | None = None
    aliases: list[str] = Field(default_factory=list)

    @field_validator("aliases")
    @classmethod
    def _clean_aliases(cls, values: list[str]) -> list[str]:
        cleaned = [value.strip() for value in values]
        if any(not value for value in cleaned):
            raise ValueError("an alias must not be blank")
        return cleaned

    def as_term(self) -> Term:
        """The organisation as a facet value: its name is the label, its kind the description."""
        return Term(id=self.id, label=self.name, description=KIND_LABELS[self.kind], parent=self.parent)

    def spellings(self) -> list[str]:
        """Every way a reader may write this organisation, case-folded: id, both names, aliases."""
        return [value.casefold() for value in (self.id, self.name.ko, self.name.en, *self.aliases)]


class OrganizationList(BaseModel):
    """The file `organizations.yaml`: every organisation a record may name."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    organizations: list[Organization] = Field(min_length=1)
