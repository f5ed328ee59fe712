"""The loaded knowledge base as plain values: the taxonomy and the records that loaded cleanly.

Kept apart from the loader so that the cross-file rules (`crosscheck`) and every reader can name these
types without importing the loader.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from kubegap.knowledge.error_model import ErrorEntry
from kubegap.knowledge.model import Facet, Incident, Study, Term
from kubegap.knowledge.organizations import ORGANIZATION_FACET, Organization
from kubegap.knowledge.problems import Problem
from kubegap.knowledge.retired import RetiredIncident
from kubegap.knowledge.scope import SCOPE_FACET, SCOPE_TERMS


@dataclass
class Taxonomy:
    """The vocabularies records are classified by: the four tag facets and the organisation list.

    The organisations answer `term("organization", id)` and `terms("organization")` like a facet, so
    filters, counts and roll-up (GitHub under Microsoft) need no code of their own; so do the two
    `scope` values. A value merged into another (`Term.former_ids`) still answers `term()` with the
    value it joined, so an old link or a check that names it resolves.
    """

    facets: dict[str, Facet]
    organizations: tuple[Organization, ...] = ()

    def __post_init__(self) -> None:
        self._organization_terms = {item.id: item.as_term() for item in self.organizations}
        self._organizations = {item.id: item for item in self.organizations}
        self._scope_terms = {term.id: term for term in SCOPE_TERMS}
        self._former: dict[tuple[str, str], str] = {}
        for name, facet in self.facets.items():
            current = {term.id for term in facet.terms}
            for term in facet.terms:
                for former in term.former_ids:
                    if former not in current:
                        self._former.setdefault((name, former), term.id)
        self._spellings: dict[str, str] = {}
        for item in self.organizations:
            for spelling in item.spellings():
                self._spellings.setdefault(spelling, item.id)

    def term(self, facet: str, term_id: str) -> Term | None:
        """The value with this id, or the value a former id was merged into; None when neither."""
        if facet == ORGANIZATION_FACET:
            return self._organization_terms.get(term_id)
        if facet == SCOPE_FACET:
            return self._scope_terms.get(term_id)
        found = self.facets.get(facet)
        if found is None:
            return None
        term_id = self._former.get((facet, term_id), term_id)
        return next((term for term in found.terms if term.id == term_id), None)

    def current_id(self, facet: str, term_id: str) -> str:
        """The id a value goes by now: itself, or the value it was merged into."""
        return self._former.get((facet, term_id), term_id)

    def terms(self, facet: str) -> list[Term]:
        if facet == ORGANIZATION_FACET:
            return list(self._organization_terms.values())
        if facet == SCOPE_FACET:
            return list(SCOPE_TERMS)
        found = self.facets.get(facet)
        return list(found.terms) if found else []

    def organization(self, organization_id: str) -> Organization | None:
        return self._organizations.get(organization_id)

    def organization_name(self, organization_id: str, lang: str) -> str:
        """The organisation's name in a language; an id the list lacks is shown as it is."""
        found = self._organizations.get(organization_id)
        return found.name.get(lang) if found is not None else organization_id

    def organization_id(self, spelling: str) -> str | None:
        """The id an id, a name (either language) or an alias stands for, ignoring case."""
        return self._spellings.get(" ".join(spelling.split()).casefold())

    def ancestors(self, facet: str, term_id: str) -> list[str]:
        """Parents of a term, nearest first; stops on a cycle instead of looping."""
        chain: list[str] = []
        current = self.term(facet, term_id)
        while current is not None and current.parent and current.parent not in chain:
            chain.append(current.parent)
            current = self.term(facet, current.parent)
        return chain

    def children(self, facet: str, term_id: str) -> list[Term]:
        return [term for term in self.terms(facet) if term.parent == term_id]


@dataclass
class Knowledge:
    """Everything that loaded cleanly, plus one Problem per thing that did not."""

    root: Path
    taxonomy: Taxonomy
    incidents: list[Incident] = field(default_factory=list)
    studies: list[Study] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    errors: list[ErrorEntry] = field(default_factory=list)  # the error-signature catalog
    retired: list[RetiredIncident] = field(default_factory=list)  # ids taken out of the library

    def incident(self, incident_id: str) -> Incident | None:
        return next((incident for incident in self.incidents if incident.id == incident_id), None)

    def study(self, study_id: str) -> Study | None:
        return next((study for study in self.studies if study.id == study_id), None)

    def error(self, error_id: str) -> ErrorEntry | None:
        return next((entry for entry in self.errors if entry.id == error_id), None)
