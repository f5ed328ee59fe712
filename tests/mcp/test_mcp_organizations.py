"""search_incidents by organisation and date range, through the in-process MCP client."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.anyio


async def test_search_by_parent_organisation_and_since(client: Any) -> None:
    result = await client.call_tool(
        "search_incidents", {"organization": ["Microsoft"], "since": "2024", "lang": "en"}
    )
    found = result.structured_content
    assert found["filters"] == {"organization": ["microsoft"]} and found["since"] == "2024-01-01"
    assert found["total"] >= 3
    assert {hit["organization_id"] for hit in found["incidents"]} <= {"microsoft", "github", "azure"}
    assert all(hit["date"] >= "2024-01-01" for hit in found["incidents"])
    assert {hit["organization"] for hit in found["incidents"]} <= {"Microsoft", "GitHub", "Microsoft Azure"}
    counted = {value["term"]: value["count"] for value in found["facets"]["organization"]}
    assert counted["microsoft"] == found["total"]


async def test_until_and_a_bad_date_or_organisation_are_reported_not_fatal(client: Any) -> None:
    result = await client.call_tool(
        "search_incidents", {"organization": ["nobody"], "since": "soon", "until": "2019", "lang": "ko"}
    )
    assert not result.is_error
    found = result.structured_content
    assert found["ignored_filters"] == ["organization=nobody", "since=soon"]
    assert found["until"] == "2019-12-31" and found["since"] == ""
    assert found["total"] >= 1 and all(hit["date"] <= "2019-12-31" for hit in found["incidents"])


async def test_get_incident_names_its_organisation(client: Any) -> None:
    detail = (
        await client.call_tool(
            "get_incident", {"incident_id": "opt-2021-12-06-buffer-pool-exhausted", "lang": "ko"}
        )
    ).structured_content
    assert (detail["organization"], detail["organization_id"]) == ("메타", "meta")
