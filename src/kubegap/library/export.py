"""Search results, incidents and facets as plain JSON-ready data, the same for CLI `--json` and MCP.

One shape per thing, built here only, so the terminal, the MCP tools and scripts cannot drift apart.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kubegap.knowledge.model import Incident
from kubegap.knowledge.organizations import LIBRARY_FACETS
from kubegap.library.query import FacetValue, SearchQuery, SearchResult, SimilarIncident
from kubegap.text import result_range

if TYPE_CHECKING:
    from kubegap.knowledge.collection import Taxonomy


def facet_value(value: FacetValue) -> dict[str, Any]:
    return {
        "term_id": value.term_id,
        "label": value.label,
        "count": value.count,
        "selected": value.selected,
        "parent": value.parent,
    }


def query_dict(query: SearchQuery) -> dict[str, Any]:
    return {
        "text": query.text,
        "filters": {facet: list(query.filters.get(facet, ())) for facet in LIBRARY_FACETS},
        "since": query.since.isoformat() if query.since else None,
        "until": query.until.isoformat() if query.until else None,
        "lang": query.lang,
        "sort": query.sort,
        "page": query.page,
        "per_page": query.per_page,
        "ignored_filters": [{"facet": facet, "value": value} for facet, value in query.ignored_filters],
    }


def incident_summary(incident: Incident, lang: str, taxonomy: Taxonomy | None = None) -> dict[str, Any]:
    """The fields a list shows: enough to pick a case, in one language (the organisation by id and name)."""
    return {
        "id": incident.id,
        "date": incident.date.isoformat(),
        "title": incident.title.get(lang),
        "summary": incident.summary.get(lang),
        "organization": incident.organization,
        "organization_name": (
            taxonomy.organization_name(incident.organization, lang) if taxonomy else incident.organization
        ),
        "tags": incident.tags.by_facet(),
    }


def search_result(result: SearchResult, taxonomy: Taxonomy | None = None) -> dict[str, Any]:
    lang = result.query.lang
    return {
        "query": query_dict(result.query),
        "total": result.total,
        "start": result.start,
        "end": result.end,
        "page_count": result.page_count,
        "range": result_range(result.total, result.start, result.end, lang),
        "relaxed": result.relaxed,
        "hits": [
            {
                **incident_summary(hit.incident, lang, taxonomy),
                "score": hit.score,
                "matched_signatures": list(hit.matched_signatures),
            }
            for hit in result.hits
        ],
        "facets": {
            facet: [facet_value(value) for value in values] for facet, values in result.facets.items()
        },
        "recurring_components": [facet_value(value) for value in result.recurring_components],
    }


def incident_detail(incident: Incident) -> dict[str, Any]:
    """The whole incident in both languages, exactly as the knowledge base holds it."""
    return incident.model_dump(mode="json", by_alias=True, exclude_none=True)


def similar_incidents(
    similar: list[SimilarIncident], lang: str, taxonomy: Taxonomy | None = None
) -> list[dict[str, Any]]:
    return [
        {
            **incident_summary(item.incident, lang, taxonomy),
            "shared_terms": [{"facet": value.facet, **facet_value(value)} for value in item.shared_terms],
            "shared_signatures": list(item.shared_signatures),
            "reasons": item.reasons(lang),
        }
        for item in similar
    ]
