"""The loaded knowledge base as plain values: the taxonomy and the records that loaded cleanly.

Kept apart from the loader so that the cross-file rules (`crosscheck`) and every reader can name these
types without importing the loader.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from kubegap.knowledge.error_model import ErrorEntry
from kubegap.knowledge.model import Facet, Incident, Study, Term
from kubegap.knowledge.problems import Problem


@dataclass
class Taxonomy:
    facets: dict[str, Facet]

    def term(self, facet: str, term_id: str) -> Term | None:
        found = self.facets.get(facet)
        if found is None:
            return None
        return next((term for term in found.terms if term.id == term_id), None)

    def terms(self, facet: str) -> list[Term]:
        found = self.facets.get(facet)
        return list(found.terms) if found else []

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

    def incident(self, incident_id: str) -> Incident | None:
        return next((incident for incident in self.incidents if incident.id == incident_id), None)

    def study(self, study_id: str) -> Study | None:
        return next((study for study in self.studies if study.id == study_id), None)

    def error(self, error_id: str) -> ErrorEntry | None:
        return next((entry for entry in self.errors if entry.id == error_id), None)
