"""The MCP server cannot be stalled or steered: bounded arguments, one-sentence errors naming the
argument, file scopes decided on the real path, every output within the cap, and calls that do not
wait for each other.

The argument tests walk the published `tools/list` schema, so a new tool or argument is covered
without editing this file (and an argument without a bound fails `test_every_argument_is_bounded`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp_helpers import MANIFESTS, SNAPSHOT, TOOL_NAMES, error_text, result_text

from k8s_emulator import Fault, KubeEmulator
from k8s_emulator.factories import gpu_node, pod
from kubegap.agents import mcp_arguments

pytestmark = pytest.mark.anyio

LONG = "x" * 200_000


def _one_sentence(text: str) -> None:
    assert "Traceback" not in text and "\n" not in text and "errors.pydantic.dev" not in text, text
    assert len(text) <= mcp_arguments.ERROR_CHARS, len(text)
    assert text.endswith((".", ")")), text


async def _schemas(client: Any) -> dict[str, dict[str, Any]]:
    listed = await client.list_tools()
    return {tool.name: tool.input_schema for tool in listed.tools}


def _variants(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The alternatives of a property ('anyOf' for optional ones), without null."""
    options = schema.get("anyOf") or [schema]
    return [option for option in options if option.get("type") != "null"]


def _required_arguments(tool: str) -> dict[str, Any]:
    return {
        "scan_files": {"paths": [str(MANIFESTS)]},
        "get_findings": {"scan_id": "scan-1"},
        "explain_check": {"check_id": "kured-reboot-safety"},
        "get_incident": {"incident_id": "x"},
        "find_incidents_by_error": {"error_text": "NCCL"},
        "explain_error": {"error": "Xid 79"},
    }.get(tool, {})


async def test_every_argument_is_bounded(client: Any) -> None:
    for tool, schema in (await _schemas(client)).items():
        for name, prop in schema["properties"].items():
            for variant in _variants(prop):
                kind = variant.get("type")
                bounded = (
                    "enum" in variant
                    or "const" in variant
                    or (kind == "string" and "maxLength" in variant)
                    or (kind == "array" and "maxItems" in variant and _item_bounded(variant["items"]))
                    or (kind in ("integer", "number") and "maximum" in variant)
                    or kind == "boolean"
                )
                assert bounded, f"{tool}.{name} is unbounded: {variant}"


def _item_bounded(items: dict[str, Any]) -> bool:
    return "maxLength" in items or "enum" in items


async def test_overlong_strings_and_lists_are_one_sentence_naming_the_argument(client: Any) -> None:
    checked = 0
    for tool, schema in (await _schemas(client)).items():
        for name, prop in schema["properties"].items():
            for variant in _variants(prop):
                if variant.get("type") == "string" and "maxLength" in variant:
                    too_long: Any = LONG
                elif variant.get("type") == "array" and "maxItems" in variant:
                    too_long = ["a"] * (variant["maxItems"] + 1)
                else:
                    continue
                arguments = {**_required_arguments(tool), name: too_long}
                started = time.monotonic()
                text = error_text(await client.call_tool(tool, arguments))
                assert time.monotonic() - started < 5, (tool, name)
                assert f"'{name}'" in text and tool in text, text
                assert "too long" in text or "too many items" in text, text
                assert LONG[:300] not in text
                _one_sentence(text)
                checked += 1
    assert checked >= 15


async def test_wrong_types_are_one_sentence_naming_the_argument(client: Any) -> None:
    checked = 0
    for tool, schema in (await _schemas(client)).items():
        for name in schema["properties"]:
            arguments = {**_required_arguments(tool), name: {"nested": ["object"]}}
            text = error_text(await client.call_tool(tool, arguments))
            assert f"'{name}'" in text, text
            _one_sentence(text)
            checked += 1
    assert checked >= 25


@pytest.mark.parametrize(
    ("tool", "arguments", "expected"),
    [
        ("scan_files", {"path": ["/tmp"]}, "scan_files has no argument 'path'; its arguments are paths"),
        ("scan_files", {}, "The tool scan_files needs the argument 'paths'"),
        (
            "get_findings",
            {"scan_id": "scan-1", "limit": 1000},
            "argument 'limit' of get_findings must be at most 100",
        ),
        (
            "get_findings",
            {"scan_id": "scan-1", "status": "broken"},
            "argument 'status' of get_findings must be one of",
        ),
        ("search_incidents", {"page": 0}, "argument 'page' of search_incidents must be at least 1"),
        ("explain_check", {"check_id": "kured-reboot-safety", "lang": "fr"}, "must be one of 'en' or 'ko'"),
        ("scan_cluster", {"min_severity": "catastrophic"}, "argument 'min_severity' of scan_cluster"),
        ("scan_cluster", {"scan_timeout": 1}, "argument 'scan_timeout' of scan_cluster must be at least 5"),
        ("scan_files", {"paths": "not-a-list"}, "argument 'paths' of scan_files must be a list"),
        ("scan_files", {"paths": [7]}, "argument 'paths' (item 1) of scan_files must be a string"),
    ],
)
async def test_argument_errors_read_as_one_sentence(
    client: Any, tool: str, arguments: dict[str, Any], expected: str
) -> None:
    text = error_text(await client.call_tool(tool, arguments))
    assert expected.lower() in text.lower(), text
    _one_sentence(text)


async def test_explain_check_with_a_200000_character_id_answers_at_once(client: Any) -> None:
    started = time.monotonic()
    text = error_text(await client.call_tool("explain_check", {"check_id": "a" * 200_000}))
    took = time.monotonic() - started
    assert text == "Argument 'check_id' of explain_check is too long: at most 200 characters."
    assert took < 2, took


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home" / "me"
    (folder / ".ssh").mkdir(parents=True)
    (folder / ".ssh" / "id_rsa.yaml").write_text("kind: Pod\n")
    (folder / "work").mkdir()
    monkeypatch.setenv("HOME", str(folder))
    return folder


def _scopes(home: Path, tmp_path: Path) -> list[tuple[str, str]]:
    link = tmp_path / "innocent-manifests"
    if not link.exists():
        link.symlink_to("/etc")
    return [
        ("/", "too broad"),
        ("//", "too broad"),
        ("///", "too broad"),
        ("/proc", "system folder /proc"),
        ("/proc/self/environ", "system folder /proc"),
        ("/sys", "system folder /sys"),
        ("/dev", "system folder /dev"),
        ("/dev/zero", "system folder /dev"),
        ("/etc", "system folder /etc"),
        ("/etc/passwd", "system folder /etc"),
        (str(link), "system folder /etc"),
        (f"{home}/..", "too broad"),
        (f"{home}/work/../..", "too broad"),
        (str(home), "too broad"),
        ("~", "too broad"),
        (str(home / ".ssh"), "where credentials live"),
        ("~/.ssh/id_rsa.yaml", "where credentials live"),
        (str(home / "work" / ("d" * 300)), "cannot be used"),
        ("/tmp/a\x00b", "NUL character"),
    ]


async def test_file_scopes_are_decided_on_the_real_path(client: Any, home: Path, tmp_path: Path) -> None:
    for path, expected in _scopes(home, tmp_path):
        text = error_text(await client.call_tool("scan_files", {"paths": [path]}))
        assert expected in text, (path, text)
        _one_sentence(text)


async def test_a_folder_inside_home_is_scanned(client: Any, home: Path) -> None:
    (home / "work" / "pod.yaml").write_text((MANIFESTS / "training.yaml").read_text())
    result = await client.call_tool("scan_files", {"paths": [str(home / "work")]})
    assert not result.is_error, result_text(result)[:300]


async def test_a_one_megabyte_path_is_one_sentence(client: Any) -> None:
    text = error_text(await client.call_tool("scan_files", {"paths": ["/" + "p" * 1_000_000]}))
    assert "Argument 'paths' (item 1) of scan_files is too long" in text
    _one_sentence(text)


async def test_every_tool_output_stays_within_the_cap(client: Any) -> None:
    scanned = await client.call_tool("scan_files", {"paths": [str(SNAPSHOT)], "kind": "snapshot"})
    scan_id = scanned.structured_content["scan_id"]
    calls = [
        ("list_checks", {"lang": "ko"}),
        ("get_findings", {"scan_id": scan_id, "limit": 100}),
        ("search_incidents", {"query": ""}),
        ("find_incidents_by_error", {"error_text": "NCCL watchdog timeout Xid 79 " * 600}),
        ("get_incident", {"incident_id": "openai-2024-12-telemetry-kube-apiserver-overload"}),
    ]
    for tool, arguments in calls:
        result = await client.call_tool(tool, arguments)
        assert not result.is_error, result_text(result)[:300]
        for item in result.content:
            assert len(item.text) <= mcp_arguments.OUTPUT_CHARS, tool


async def test_a_result_over_the_cap_becomes_one_sentence(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(mcp_arguments, "OUTPUT_CHARS", 2000)
    text = error_text(await client.call_tool("list_checks", {}))
    assert "over the 2,000-character output cap" in text and "ask for less" in text
    _one_sentence(text)


async def test_errors_are_cut_to_one_line_within_the_cap(client: Any) -> None:
    text = error_text(await client.call_tool("scan_files", {"paths": ["/no/such/" + "q" * 4000]}))
    assert "does not exist" in text
    _one_sentence(text)


async def test_a_slow_live_scan_does_not_block_other_calls(
    client: Any, tmp_path: Path, allow_kubeconfig: Callable[[Path], Path]
) -> None:
    objects = [gpu_node("n1"), pod("p1", "default", node="n1")]
    with KubeEmulator(objects) as emulator:
        emulator.inject(Fault(r"/api/v1/nodes", delay=3.0))
        kubeconfig = allow_kubeconfig(emulator.write_kubeconfig(tmp_path / "kubeconfig"))
        finished: list[str] = []

        async def scan() -> None:
            await client.call_tool("scan_cluster", {"kubeconfig": str(kubeconfig)})
            finished.append("scan_cluster")

        async def others() -> None:
            while not emulator.count(r"/api/v1/nodes"):
                await anyio.sleep(0.05)  # the scan is now waiting on its slow request
            for tool, arguments in [
                ("list_checks", {}),
                ("explain_check", {"check_id": "b" * 200_000}),
                ("search_incidents", {"query": "NCCL"}),
            ]:
                await client.call_tool(tool, arguments)
                finished.append(tool)

        async with anyio.create_task_group() as group:
            group.start_soon(scan)
            group.start_soon(others)
        assert finished[-1] == "scan_cluster", finished
        assert len(finished) == 4
        assert emulator.non_get_requests() == [] and emulator.secret_requests() == []


def test_every_tool_has_its_arguments_checked() -> None:
    assert set(TOOL_NAMES) == set(mcp_arguments._registered)


@pytest.mark.parametrize("uri", ["kubegap://checks/" + LONG, "kubegap://incidents/" + LONG])
async def test_an_overlong_resource_uri_is_one_short_error(client: Any, uri: str) -> None:
    from mcp.shared.exceptions import MCPError

    started = time.monotonic()
    with pytest.raises(MCPError) as refused:
        await client.read_resource(uri)
    assert refused.value.message == "The resource URI is too long: at most 300 characters."
    assert time.monotonic() - started < 2


async def test_an_overlong_prompt_argument_is_one_short_error(client: Any) -> None:
    from mcp.shared.exceptions import MCPError

    with pytest.raises(MCPError) as refused:
        await client.get_prompt("cluster_gap_review", {"context": LONG})
    assert refused.value.message == "Argument 'context' of the prompt is too long: at most 300 characters."
