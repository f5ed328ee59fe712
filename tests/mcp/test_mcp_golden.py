"""`tools/list` is kept as a golden file: names, descriptions, input and output schemas, annotations.

A change to any tool's signature, docstring or result model shows up here as a diff to review. After an
intended change, regenerate the file and commit it with the change:

    KUBEGAP_UPDATE_GOLDEN=1 .venv/bin/pytest tests/mcp/test_mcp_golden.py
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from mcp_helpers import GOLDEN_TOOLS

pytestmark = pytest.mark.anyio

REGENERATE = "KUBEGAP_UPDATE_GOLDEN=1 .venv/bin/pytest tests/mcp/test_mcp_golden.py"


async def _tools_document(client: Any) -> str:
    tools = (await client.list_tools()).tools
    listed = [
        tool.model_dump(
            mode="json",
            by_alias=True,
            exclude_none=True,
            include={"name", "title", "description", "input_schema", "output_schema", "annotations"},
        )
        for tool in tools
    ]
    return json.dumps({"tools": listed}, indent=2, ensure_ascii=False, sort_keys=True) + "\n"


async def test_tools_list_matches_the_golden_file(client: Any) -> None:
    current = await _tools_document(client)
    if os.environ.get("KUBEGAP_UPDATE_GOLDEN") == "1":
        GOLDEN_TOOLS.write_text(current, encoding="utf-8")
    assert GOLDEN_TOOLS.is_file(), f"{GOLDEN_TOOLS} is missing; create it with: {REGENERATE}"
    golden = GOLDEN_TOOLS.read_text(encoding="utf-8")
    assert current == golden, (
        f"tools/list drifted from {GOLDEN_TOOLS.name}; if the change is intended, run: {REGENERATE}"
    )


async def test_golden_file_names_every_tool_read_only(client: Any) -> None:
    golden = json.loads(GOLDEN_TOOLS.read_text(encoding="utf-8"))
    assert [tool["name"] for tool in golden["tools"]] == [
        tool.name for tool in (await client.list_tools()).tools
    ]
    assert all(tool["annotations"]["readOnlyHint"] is True for tool in golden["tools"])
