"""Facet values as a reader sees them: label in their language, parent, rolled-up count, selected.

Counts come from the bit sets (see bitsets.py): a term's `count` is the number of incidents in the
result set tagged with it or any of its descendants. Its `toggle_count` is the number of results the
search would have with that value clicked (added to its facet's OR group, or removed when selected;
a value above or below a selected one replaces it, so with hardware fault selected a click on GPU
fault narrows to GPU fault): the figure a reader needs beside a link, since with NCCL selected a
click on GPU means "NCCL or GPU", not "NCCL and GPU". Values are listed in taxonomy order, parents
before their children, so a renderer can draw the tree without sorting.
"""

from __future__ import annotations

from collections.abc import Callable

from kubegap.knowledge.loader import Taxonomy
from kubegap.knowledge.model import Term
from kubegap.knowledge.organizations import LIBRARY_FACETS
from kubegap.library.bitsets import TagSets
from kubegap.library.query import FacetValue, SearchQuery, toggled_values
from kubegap.text import normalize_lang

RECURRING_LIMIT = 5

# The result set of a search whose filters allow exactly these incidents (the text applied on top).
Narrow = Callable[[int], int]


def _unchanged(allowed: int) -> int:
    return allowed


class Facets:
    def __init__(self, taxonomy: Taxonomy, tags: TagSets) -> None:
        self.taxonomy = taxonomy
        self._tags = tags
        self._terms: dict[tuple[str, str], Term] = {
            (facet, term.id): term for facet in LIBRARY_FACETS for term in taxonomy.terms(facet)
        }

    def label(self, facet: str, term_id: str, lang: str) -> str:
        """A term's label; an unknown term shows its id rather than failing."""
        term = self._terms.get((facet, term_id))
        return term.label.get(normalize_lang(lang)) if term else term_id

    def value(
        self, facet: str, term_id: str, count: int, selected: bool, lang: str, toggle_count: int | None = None
    ) -> FacetValue:
        term = self._terms.get((facet, term_id))
        parent = term.parent if term else None
        toggled = count if toggle_count is None else toggle_count
        return FacetValue(facet, term_id, self.label(facet, term_id, lang), count, selected, parent, toggled)

    def choices(
        self, query: SearchQuery, results: int, narrow: Narrow = _unchanged
    ) -> dict[str, tuple[FacetValue, ...]]:
        """Every facet's values a reader can click to some effect (a result in the set now, or results
        after the click), plus the selected ones even at zero, each with both counts.

        `narrow` turns the incidents some filters allow into the search's results (the text applied);
        without text it is the identity.
        """
        found: dict[str, tuple[FacetValue, ...]] = {}
        rolled = self._tags.rolled
        for facet in LIBRARY_FACETS:
            chosen = query.filters.get(facet, ())
            others = self._tags.filter_mask(
                {name: terms for name, terms in query.filters.items() if name != facet}
            )
            union = self._tags.filter_mask({facet: chosen}) if chosen else 0
            values = []
            lineage = self._lineage(facet)
            for term in self.taxonomy.terms(facet):
                selected = term.id in chosen
                if selected:  # the click removes it: what the other chosen values (or none) allow
                    after = tuple(value for value in chosen if value != term.id)
                    allowed = others & self._tags.filter_mask({facet: after}) if after else others
                elif any(value in chosen for value in lineage(term.id)) or any(
                    term.id in lineage(value) for value in chosen
                ):  # the click replaces a selected value above or below it (toggled_values)
                    after = toggled_values(chosen, term.id, lineage)
                    allowed = others & self._tags.filter_mask({facet: after})
                else:  # the click adds it to the facet's OR group
                    allowed = others & (union | rolled.get((facet, term.id), 0))
                toggle_count = narrow(allowed).bit_count()
                count = self._tags.count(facet, term.id, results)
                if count or toggle_count or selected:
                    values.append(self.value(facet, term.id, count, selected, query.lang, toggle_count))
            found[facet] = tuple(values)
        return found

    def _lineage(self, facet: str) -> Callable[[str], list[str]]:
        return lambda term_id: self.taxonomy.ancestors(facet, term_id)

    @staticmethod
    def in_results(choices: dict[str, tuple[FacetValue, ...]]) -> dict[str, tuple[FacetValue, ...]]:
        """The values with a count in the result set, plus the selected ones (SearchResult.facets)."""
        return {
            facet: tuple(value for value in values if value.count or value.selected)
            for facet, values in choices.items()
        }

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
