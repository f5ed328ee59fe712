"""What a reader asks the library and what comes back: plain types shared by CLI, web and MCP.

`SearchQuery.from_params` is the one place untrusted input (a query string, CLI flags, MCP arguments)
becomes a query: it clamps and cleans and never raises, except `UsageError` for an unknown facet value
when `strict` is set.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from kubegap.knowledge.model import FACETS, Incident
from kubegap.text import Lang

Sort = Literal["newest", "oldest", "relevance"]
SORTS: tuple[Sort, ...] = ("newest", "oldest", "relevance")
MAX_PER_PAGE = 100
DEFAULT_PER_PAGE = 20
MAX_QUERY_CHARS = 500


@dataclass(frozen=True)
class SearchQuery:
    """A search: free text (ko or en, or a pasted error line), facet filters, language, order, page.

    filters: facet name -> term ids. AND across facets, OR within one facet. A term also matches
    incidents tagged with any of its descendants (gpu-memory-error is a gpu-fault).
    """

    text: str = ""
    filters: dict[str, tuple[str, ...]] = field(default_factory=dict)
    lang: Lang = "ko"
    sort: Sort = "newest"
    page: int = 1
    per_page: int = DEFAULT_PER_PAGE


@dataclass(frozen=True)
class FacetValue:
    """One value of a facet with its count in the current result set, ready for any renderer."""

    facet: str
    term_id: str
    label: str
    count: int
    selected: bool
    parent: str | None = None


@dataclass(frozen=True)
class SearchHit:
    incident: Incident
    score: float = 0.0
    matched_signatures: tuple[str, ...] = ()


@dataclass(frozen=True)
class SearchResult:
    query: SearchQuery
    total: int
    start: int  # 1-based index of the first hit shown; 0 when there are none
    end: int  # 1-based index of the last hit shown; 0 when there are none
    hits: tuple[SearchHit, ...]
    facets: dict[str, tuple[FacetValue, ...]]  # every facet in FACETS, values with count > 0 or selected
    recurring_components: tuple[FacetValue, ...]  # components most often tagged in the whole result set
    page_count: int

    @property
    def incidents(self) -> list[Incident]:
        return [hit.incident for hit in self.hits]


__all__ = [
    "DEFAULT_PER_PAGE",
    "FACETS",
    "MAX_PER_PAGE",
    "MAX_QUERY_CHARS",
    "SORTS",
    "FacetValue",
    "SearchHit",
    "SearchQuery",
    "SearchResult",
    "Sort",
]
