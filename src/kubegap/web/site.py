"""What the web pages read: the library (index + knowledge), the checks' metadata, and the cluster scan.

The checks come from the checker's registry. The library must keep working when there are none yet, or
when a check module is broken (the registry refuses to load then): the pages show the components alone
and a log line says why, instead of the whole site failing.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from kubegap.checker.check import CheckMeta
from kubegap.errors import KubegapError
from kubegap.knowledge.loader import Knowledge
from kubegap.knowledge.model import Incident
from kubegap.library.glossary import Glossary
from kubegap.library.query import FacetValue, SearchQuery, SearchResult, SimilarIncident
from kubegap.web.cluster_scan import ClusterScan
from kubegap.web.history import FileDates, FileHistory

_LOG = logging.getLogger("kubegap.web")


class LibraryReader(Protocol):
    """The part of `kubegap.library.Library` the pages use."""

    @property
    def knowledge(self) -> Knowledge: ...

    def search(self, query: SearchQuery) -> SearchResult: ...

    def incident(self, incident_id: str) -> Incident: ...

    def similar(self, incident_id: str, limit: int = 5, lang: str = "ko") -> list[SimilarIncident]: ...

    def facet_overview(self, lang: str = "ko") -> dict[str, tuple[FacetValue, ...]]: ...


def registered_checks() -> list[CheckMeta]:
    """Every registered check's metadata; empty (with a log line) when the registry cannot load."""
    try:
        from kubegap.checker.registry import all_checks
    except ImportError as error:
        _LOG.warning("checks unavailable: %s", error)
        return []
    try:
        return [module.meta for module in all_checks()]
    except KubegapError as error:
        _LOG.warning("checks unavailable: %s", error.one_line())
        return []


@dataclass
class Site:
    library: LibraryReader
    checks: list[CheckMeta] = field(default_factory=list)
    cluster: ClusterScan = field(default_factory=ClusterScan.off)
    _by_component: dict[str, list[CheckMeta]] = field(default_factory=dict, init=False, repr=False)
    _by_incident: dict[str, list[CheckMeta]] = field(default_factory=dict, init=False, repr=False)
    _history: FileHistory | None = field(default=None, init=False, repr=False)
    _short_ids: dict[str, str] | None = field(default=None, init=False, repr=False)
    # word of a term label -> (facet, term id): built once by suggestions.py for empty results
    suggestion_words: dict[str, list[tuple[str, str]]] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        by_component: dict[str, list[CheckMeta]] = defaultdict(list)
        by_incident: dict[str, list[CheckMeta]] = defaultdict(list)
        self.checks = sorted(self.checks, key=lambda check: (-check.severity.rank, check.id))
        for check in self.checks:
            for component in check.components:
                by_component[component].append(check)
            for incident_id in check.incidents:
                by_incident[incident_id].append(check)
        self._by_component = dict(by_component)
        self._by_incident = dict(by_incident)

    @property
    def knowledge(self) -> Knowledge:
        return self.library.knowledge

    @property
    def glossary(self) -> Glossary:
        """The library's search glossary; a reader without one (a test double) has an empty one."""
        found = getattr(self.library, "glossary", None)
        return found if isinstance(found, Glossary) else Glossary()

    def incident_dates(self, incident_id: str) -> FileDates:
        """When the incident's file was added and last changed, from its git history ('' when unknown)."""
        if self._history is None:
            self._history = FileHistory(self.knowledge.root / "incidents")
        return self._history.dates(f"{incident_id}.yaml")

    def incident_by_short_id(self, short: str) -> str | None:
        """The incident id a short id (`KG-...`, see citation.py) stands for."""
        if self._short_ids is None:
            from kubegap.web.citation import short_id

            self._short_ids = {short_id(incident.id): incident.id for incident in self.knowledge.incidents}
        return self._short_ids.get(short.upper())

    def check(self, check_id: str) -> CheckMeta | None:
        return next((check for check in self.checks if check.id == check_id), None)

    def checks_citing(self, incident_id: str) -> list[CheckMeta]:
        return list(self._by_incident.get(incident_id, []))

    def checks_guarding(self, component_ids: Sequence[str]) -> list[CheckMeta]:
        """Checks guarding any of these components or any of their ancestors, most severe first."""
        wanted: set[str] = set()
        taxonomy = self.knowledge.taxonomy
        for component in component_ids:
            wanted.add(component)
            wanted.update(taxonomy.ancestors("component", component))
        found = {check.id: check for component in wanted for check in self._by_component.get(component, [])}
        return sorted(found.values(), key=lambda check: (-check.severity.rank, check.id))
