"""What the knowledge base covers, in counts: by year, cause family, setting, source kind and publisher.

Curators ask "what do we lack?" before they add records, and a release note states how the corpus
grew; both read these figures rather than counting files by hand. A cause family is a top-level
cause term: an incident tagged with two terms under one family counts once in it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from kubegap.knowledge.collection import Knowledge
from kubegap.knowledge.model import SECTION_ORDER, Incident


@dataclass(frozen=True)
class CorpusStats:
    incidents: int
    studies: int
    by_year: dict[str, int]
    by_scope: dict[str, int]
    by_cause_family: dict[str, int]
    by_orchestrator: dict[str, int]
    by_organization_kind: dict[str, int]
    sources_by_kind: dict[str, int]
    publishers: list[str]  # of the incidents' sources: who published the reports the cases rest on
    organizations: int  # organisations some incident is about (the list itself may name more)
    unstated_sections: dict[str, int] = field(default_factory=dict)

    def as_json(self) -> dict[str, object]:
        return {
            "incidents": self.incidents,
            "studies": self.studies,
            "organizations_with_incidents": self.organizations,
            "publishers": len(self.publishers),
            "publisher_names": self.publishers,
            "by_year": self.by_year,
            "by_scope": self.by_scope,
            "by_cause_family": self.by_cause_family,
            "by_orchestrator": self.by_orchestrator,
            "by_organization_kind": self.by_organization_kind,
            "sources_by_kind": self.sources_by_kind,
            "unstated_sections": self.unstated_sections,
        }


def _families(knowledge: Knowledge, incident: Incident) -> set[str]:
    families = set()
    for term in incident.tags.cause:
        chain = knowledge.taxonomy.ancestors("cause", term)
        families.add(chain[-1] if chain else term)
    return families


def _unstated(incident: Incident) -> list[str]:
    sections = incident.sections
    found = []
    for name in SECTION_ORDER:
        value = getattr(sections, name, None)
        parts = value if isinstance(value, list) else [value]
        if any(getattr(part, "unstated", False) for part in parts):
            found.append(name)
    return found


def _sorted(counter: Counter[str]) -> dict[str, int]:
    return dict(sorted(counter.items(), key=lambda item: (-item[1], item[0])))


def corpus_stats(knowledge: Knowledge) -> CorpusStats:
    years: Counter[str] = Counter()
    scopes: Counter[str] = Counter()
    families: Counter[str] = Counter()
    orchestrators: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    source_kinds: Counter[str] = Counter()
    unstated: Counter[str] = Counter()
    publishers: set[str] = set()
    for incident in knowledge.incidents:
        years[str(incident.date.year)] += 1
        scopes[incident.scope.value] += 1
        families.update(_families(knowledge, incident))
        orchestrators[incident.environment.orchestrator.value] += 1
        organization = knowledge.taxonomy.organization(incident.organization)
        kinds[organization.kind.value if organization else "unlisted"] += 1
        unstated.update(_unstated(incident))
        for source in incident.sources:
            source_kinds[source.kind.value] += 1
            publishers.add(source.publisher)
    return CorpusStats(
        incidents=len(knowledge.incidents),
        studies=len(knowledge.studies),
        by_year=dict(sorted(years.items())),
        by_scope=_sorted(scopes),
        by_cause_family=_sorted(families),
        by_orchestrator=_sorted(orchestrators),
        by_organization_kind=_sorted(kinds),
        sources_by_kind=_sorted(source_kinds),
        publishers=sorted(publishers, key=str.casefold),
        organizations=len({incident.organization for incident in knowledge.incidents}),
        unstated_sections=_sorted(unstated),
    )
