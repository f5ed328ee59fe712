"""Facet values as a reader sees them: label in their language, parent, rolled-up count, selected.

Counts come from the bit sets (see bitsets.py): a term's count is the number of incidents in the
result set tagged with it or any of its descendants. Values are listed in taxonomy order, parents
before their children, so a renderer can draw the tree without sorting.
"""

from __future__ import annotations

from kubegap.knowledge.loader import Taxonomy
from kubegap.knowledge.model import Term
from kubegap.knowledge.organizations import LIBRARY_FACETS
from kubegap.library.bitsets import TagSets
from kubegap.library.index import facet_tokens
from kubegap.library.query import FacetValue, SearchQuery
from kubegap.text import normalize_lang

RECURRING_LIMIT = 5


class Facets:
    def __init__(self, taxonomy: Taxonomy, tags: TagSets) -> None:
        self.taxonomy = taxonomy
        self._tags = tags
        self._terms: dict[tuple[str, str], Term] = {
            (facet, term.id): term for facet in LIBRARY_FACETS for term in taxonomy.terms(facet)
        }
        self._tokens = facet_tokens(taxonomy)

    def fts_clause(self, filters: dict[str, tuple[str, ...]]) -> str | None:
        """The filters as FTS5 terms over the `facets` column: AND across facets, OR within one."""
        groups = []
        for facet in LIBRARY_FACETS:
            tokens = [
                self._tokens[(facet, term)]
                for term in filters.get(facet, ())
                if (facet, term) in self._tokens
            ]
            if tokens:
                groups.append("(" + " OR ".join(f'facets : "{token}"' for token in tokens) + ")")
        return " AND ".join(groups) or None

    def label(self, facet: str, term_id: str, lang: str) -> str:
        """A term's label; an unknown term shows its id rather than failing."""
        term = self._terms.get((facet, term_id))
        return term.label.get(normalize_lang(lang)) if term else term_id

    def value(self, facet: str, term_id: str, count: int, selected: bool, lang: str) -> FacetValue:
        term = self._terms.get((facet, term_id))
        parent = term.parent if term else None
        return FacetValue(facet, term_id, self.label(facet, term_id, lang), count, selected, parent)

    def for_results(self, query: SearchQuery, results: int) -> dict[str, tuple[FacetValue, ...]]:
        """Every facet's values with a count in the result set, plus the selected ones (even at zero)."""
        found: dict[str, tuple[FacetValue, ...]] = {}
        for facet in LIBRARY_FACETS:
            selected = set(query.filters.get(facet, ()))
            values = []
            for term in self.taxonomy.terms(facet):
                count = self._tags.count(facet, term.id, results)
                if count or term.id in selected:
                    values.append(self.value(facet, term.id, count, term.id in selected, query.lang))
            found[facet] = tuple(values)
        return found

    def recurring(self, query: SearchQuery, results: int) -> tuple[FacetValue, ...]:
        """Components the results name themselves (not rolled up), most frequent first."""
        chosen = set(query.filters.get("component", ()))
        counted = [
            (self._tags.count("component", term.id, results, direct=True), position, term.id)
            for position, term in enumerate(self.taxonomy.terms("component"))
        ]
        top = sorted((item for item in counted if item[0] > 0), key=lambda item: (-item[0], item[1]))
        return tuple(
            self.value("component", term, count, term in chosen, query.lang)
            for count, _, term in top[:RECURRING_LIMIT]
        )

    def overview(self, lang: str) -> dict[str, tuple[FacetValue, ...]]:
        """Every term of every facet with its count over the whole library, zeros included."""
        everything = self._tags.everything
        return {
            facet: tuple(
                self.value(facet, term.id, self._tags.count(facet, term.id, everything), False, lang)
                for term in self.taxonomy.terms(facet)
            )
            for facet in LIBRARY_FACETS
        }
