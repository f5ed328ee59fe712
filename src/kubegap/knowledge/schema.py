"""JSON Schemas of the record kinds, generated from the models so they cannot drift.

The same schemas are committed under `schemas/` at the repository root for editors; a test fails when
the committed copies differ from what the models produce.
"""

from __future__ import annotations

from typing import Any

from kubegap.knowledge.error_model import ErrorEntry
from kubegap.knowledge.model import SCHEMA_VERSION, Facet, Incident, Study
from kubegap.knowledge.organizations import OrganizationList

_BASE_ID = "https://kubegap.dev/schemas"


def json_schemas() -> dict[str, dict[str, Any]]:
    schemas: dict[str, dict[str, Any]] = {}
    kinds = (
        ("incident", Incident),
        ("study", Study),
        ("taxonomy", Facet),
        ("organizations", OrganizationList),
        ("error", ErrorEntry),
    )
    for kind, model in kinds:
        schema = model.model_json_schema(by_alias=True)
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        schema["$id"] = f"{_BASE_ID}/{kind}.v{SCHEMA_VERSION}.json"
        schemas[kind] = schema
    return schemas
