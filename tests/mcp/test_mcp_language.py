"""The MCP server follows the one language rule: a call's `lang`, else `kubegap mcp --lang`, else
$KUBEGAP_LANG, the locale, English; answers, resources and tool errors alike."""

from __future__ import annotations

from typing import Any

import pytest
from mcp.client import Client
from mcp_helpers import error_text
from test_mcp_stdio import kubegap_command, server_parameters

from kubegap.agents.mcp_language import set_server_lang

pytestmark = pytest.mark.anyio

HANGUL = range(0xAC00, 0xD7A4)


def _korean(text: str) -> bool:
    return any(ord(character) in HANGUL for character in text)


async def test_without_a_choice_the_answers_are_english(client: Any) -> None:
    answer = (await client.call_tool("explain_error", {"error": "Xid 79"})).structured_content
    assert not _korean(answer["entries"][0]["title"])


async def test_the_server_language_is_the_default_and_a_call_may_override_it(client: Any) -> None:
    set_server_lang("ko")
    answer = (await client.call_tool("explain_error", {"error": "XID79"})).structured_content
    assert _korean(answer["entries"][0]["title"]) and _korean(answer["entries"][0]["meaning"])
    english = (await client.call_tool("explain_error", {"error": "XID79", "lang": "en"})).structured_content
    assert not _korean(english["entries"][0]["title"])
    found = (await client.call_tool("search_incidents", {"query": "NCCL"})).structured_content
    assert _korean(found["range"]) and _korean(found["incidents"][0]["title"])
    check: Any = (await client.read_resource("kubegap://checks/kured-reboot-safety")).contents[0]
    assert "## 사례" in check.text and "## Incidents" not in check.text
    incident: Any = (
        await client.read_resource("kubegap://incidents/openai-2025-06-gpu-host-os-update-network-loss")
    ).contents[0]
    assert "## 원인" in incident.text and "## 출처" in incident.text
    assert _korean(error_text(await client.call_tool("get_incident", {"incident_id": "no-such-incident"})))


async def test_kubegap_lang_reaches_a_server_started_without_the_flag(client: Any, monkeypatch: Any) -> None:
    monkeypatch.setenv("KUBEGAP_LANG", "ko")
    answer = (await client.call_tool("list_checks", {})).structured_content
    assert _korean(answer["checks"][0]["title"])


@pytest.mark.parametrize(("flag", "env"), [(["--lang", "ko"], {}), ([], {"KUBEGAP_LANG": "ko"})])
async def test_a_host_started_server_speaks_the_chosen_language(flag: list[str], env: dict[str, str]) -> None:
    command = kubegap_command()
    parameters = server_parameters(**env)
    parameters = parameters.model_copy(update={"args": [*command[1:], *flag]})
    async with Client(parameters, mode="legacy", read_timeout_seconds=60) as connected:
        answer = (await connected.call_tool("explain_error", {"error": "xid-79"})).structured_content
        english = (
            await connected.call_tool("explain_error", {"error": "xid-79", "lang": "en"})
        ).structured_content
    assert _korean(answer["entries"][0]["title"]) and not _korean(english["entries"][0]["title"])
