"""The OpenAPI description of the JSON endpoints, written by hand from the page table.

Every page has a `.json` twin that returns the page's context; the schemas here name the top-level
fields a client can rely on. The list page's query parameters are described once and reused.
"""

from __future__ import annotations

from typing import Any

from kubegap import __version__
from kubegap.knowledge.organizations import LIBRARY_FACETS
from kubegap.library.query import MAX_PER_PAGE, SORTS

_LANG = {"name": "lang", "in": "path", "required": True, "schema": {"type": "string", "enum": ["ko", "en"]}}
_ERROR = {
    "description": "Error",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
}


def _id(name: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}


def _list_parameters() -> list[dict[str, Any]]:
    parameters: list[dict[str, Any]] = [
        _LANG,
        {
            "name": "q",
            "in": "query",
            "schema": {"type": "string", "maxLength": 500},
            "description": "Free text in Korean or English, or a pasted log line.",
        },
        {"name": "sort", "in": "query", "schema": {"type": "string", "enum": list(SORTS)}},
        {"name": "page", "in": "query", "schema": {"type": "integer", "minimum": 1}},
        {
            "name": "per_page",
            "in": "query",
            "schema": {"type": "integer", "minimum": 1, "maximum": MAX_PER_PAGE},
        },
    ]
    for key in ("since", "until"):
        parameters.append(
            {
                "name": key,
                "in": "query",
                "schema": {"type": "string", "pattern": r"^\d{4}(-\d{1,2}(-\d{1,2})?)?$"},
                "description": f"Only incidents that began {_DATE_SIDES[key]} this day "
                "(YYYY, YYYY-MM or YYYY-MM-DD).",
            }
        )
    for facet in LIBRARY_FACETS:
        parameters.append(
            {
                "name": facet,
                "in": "query",
                "style": "form",
                "explode": True,
                "schema": {"type": "array", "items": {"type": "string"}},
                "description": f"Filter by {facet} term ids (OR within the facet, AND across facets).",
            }
        )
    return parameters


_DATE_SIDES = {"since": "on or after", "until": "on or before"}


def _operation(summary: str, schema: str, parameters: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "get": {
            "summary": summary,
            "parameters": parameters,
            "responses": {
                "200": {
                    "description": "OK",
                    "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}},
                },
                "400": _ERROR,
                "404": _ERROR,
            },
        }
    }


def _page_schema(kind: str, *required: str) -> dict[str, Any]:
    fields = ("kind", "lang", "title", *required)
    return {
        "type": "object",
        "required": list(fields),
        "properties": {"kind": {"const": kind}, "lang": {"enum": ["ko", "en"]}, "title": {"type": "string"}},
    }


def openapi_document() -> dict[str, Any]:
    paths = {
        "/{lang}/incidents.json": _operation(
            "Search incidents with facet counts", "ListPage", _list_parameters()
        ),
        "/{lang}/incidents/{incident_id}.json": _operation(
            "One incident", "IncidentPage", [_LANG, _id("incident_id")]
        ),
        "/{lang}/facets.json": _operation("All facets and their values", "FacetsPage", [_LANG]),
        "/{lang}/facets/{facet}/{term}.json": _operation(
            "One facet value", "TermPage", [_LANG, _id("facet"), _id("term")]
        ),
        "/{lang}/studies.json": _operation("Fleet studies", "StudiesPage", [_LANG]),
        "/{lang}/studies/{study_id}.json": _operation(
            "One fleet study", "StudyPage", [_LANG, _id("study_id")]
        ),
        "/{lang}/checks.json": _operation("The check catalog", "ChecksPage", [_LANG]),
        "/{lang}/checks/{check_id}.json": _operation("One check", "CheckPage", [_LANG, _id("check_id")]),
        "/{lang}/cluster.json": _operation(
            "The server's read-only scan of your cluster (or the demo cluster)", "ClusterPage", [_LANG]
        ),
        "/export/incidents.json": _operation("Every incident, schema-versioned", "Export", []),
    }
    schemas = {
        "ListPage": _page_schema("incidents", "total", "start", "end", "range_text", "facets", "incidents"),
        "IncidentPage": _page_schema("incident", "card", "sources", "similar", "checks"),
        "FacetsPage": _page_schema("facets", "facets"),
        "TermPage": _page_schema("term", "facet", "term", "incidents", "studies"),
        "StudiesPage": _page_schema("studies", "studies"),
        "StudyPage": _page_schema("study", "rows", "chart", "sources"),
        "ChecksPage": _page_schema("checks", "areas"),
        "CheckPage": _page_schema("check", "summary", "incidents"),
        "ClusterPage": _page_schema(
            "cluster", "state", "message", "error", "source", "counts", "coverage", "gaps", "passed"
        ),
        "Export": {
            "type": "object",
            "required": ["schema_version", "incidents"],
            "properties": {
                "schema_version": {"type": "integer"},
                "incidents": {"type": "array", "items": {"type": "object"}},
            },
        },
        "Error": {
            "type": "object",
            "required": ["error"],
            "properties": {
                "error": {
                    "type": "object",
                    "required": ["code", "message"],
                    "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
                }
            },
        },
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "kubegap Incident Library", "version": __version__},
        "paths": paths,
        "components": {"schemas": schemas},
    }
