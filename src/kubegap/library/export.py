"""Search results, incidents and facets as plain JSON-ready data, the same for CLI `--json` and MCP.

One shape per thing, built here only, so the terminal, the MCP tools and scripts cannot drift apart.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kubegap.knowledge.error_model import ErrorEntry
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
        "scope": incident.scope.value,
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
        "full_matches": result.full_matches,
        "words": list(result.words),
        "suggestions": list(result.suggestions),
        "errors": [error_summary(entry, lang) for entry in result.errors],
        "hits": [
            {
                **incident_summary(hit.incident, lang, taxonomy),
                "score": hit.score,
                "matched_signatures": list(hit.matched_signatures),
                "matched_terms": list(hit.matched_terms),
                "matched_share": round(hit.matched_share, 3),
                "partial": hit.partial,
                "catalog_errors": list(hit.catalog_errors),
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


def error_summary(entry: ErrorEntry, lang: str) -> dict[str, Any]:
    return {
        "id": entry.id,
        "family": entry.family.value,
        "code": entry.code,
        "title": entry.title.get(lang),
        "meaning": entry.meaning.get(lang),
    }


def error_detail(entry: ErrorEntry, lang: str) -> dict[str, Any]:
    """An entry in one language, with its links (ids), for `kubegap errors show --json`."""
    return {
        **error_summary(entry, lang),
        "patterns": list(entry.patterns),
        "usual_action": entry.usual_action.get(lang),
        "notes": entry.notes.get(lang) if entry.notes else "",
        "incidents": list(entry.incidents),
        "study_rows": [link.model_dump() for link in entry.study_rows],
        "checks": list(entry.checks),
        "related": list(entry.related),
        "sources": [source.model_dump(mode="json", exclude_none=True) for source in entry.sources],
    }
