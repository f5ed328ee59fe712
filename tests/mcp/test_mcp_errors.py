"""Bad arguments and missing things come back as one-sentence tool errors, never a crash or a traceback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mcp.shared.exceptions import MCPError
from mcp_helpers import MANIFESTS, error_text

pytestmark = pytest.mark.anyio


def _one_sentence(text: str) -> None:
    assert "Traceback" not in text and "\n" not in text.strip(), text


@pytest.mark.parametrize(
    ("tool", "arguments", "expected"),
    [
        ("explain_check", {"check_id": "no-such-check"}, "unknown check 'no-such-check'"),
        ("get_incident", {"incident_id": "no-such-incident"}, "no incident with id 'no-such-incident'"),
        ("get_findings", {"scan_id": "scan-999999"}, "no scan 'scan-999999' is kept"),
        ("list_checks", {"area": "astrology"}, "unknown area 'astrology'"),
        ("scan_files", {"paths": ["/no/such/manifests"]}, "path /no/such/manifests does not exist"),
        ("scan_files", {"paths": ["relative/missing"]}, "relative paths resolve against"),
        ("scan_files", {"paths": []}, "give at least one file or folder"),
        ("scan_files", {"paths": ["/"]}, "/ is too broad"),
        ("scan_files", {"paths": [str(MANIFESTS)], "checks": ["nope"]}, "unknown check 'nope'"),
        ("find_incidents_by_error", {"error_text": "   "}, "error_text is empty"),
        ("explain_error", {"error": "  "}, "error is empty"),
        (
            "scan_cluster",
            {"kubeconfig": "/no/such/kubeconfig"},
            "kubeconfig '/no/such/kubeconfig' refused: a tool call may not choose a kubeconfig",
        ),
    ],
)
async def test_expected_failures_are_one_sentence_tool_errors(
    client: Any, tool: str, arguments: dict[str, object], expected: str
) -> None:
    text = error_text(await client.call_tool(tool, arguments))
    assert expected in text
    _one_sentence(text)


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("scan_files", {"paths": "not-a-list", "kind": "helm"}),
        ("scan_files", {}),
        ("get_findings", {"scan_id": "scan-1", "limit": 1000}),
        ("get_findings", {"scan_id": "scan-1", "status": "broken"}),
        ("search_incidents", {"page": 0}),
        ("explain_check", {"check_id": "kured-reboot-safety", "lang": "fr"}),
        ("scan_cluster", {"min_severity": "catastrophic"}),
        ("no_such_tool", {}),
    ],
)
async def test_arguments_outside_the_schema_are_tool_errors(
    client: Any, tool: str, arguments: dict[str, object]
) -> None:
    text = error_text(await client.call_tool(tool, arguments))
    assert "Traceback" not in text


async def test_a_file_that_is_not_yaml_is_a_tool_error(client: Any, tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("kind: Pod\n  metadata: [unclosed\n")
    text = error_text(await client.call_tool("scan_files", {"paths": [str(broken)]}))
    assert "broken.yaml" in text
    _one_sentence(text)


async def test_no_kubeconfig_anywhere_is_a_tool_error_naming_the_fallback(
    client: Any, no_cluster: Path
) -> None:
    text = error_text(await client.call_tool("scan_cluster", {}))
    assert "No kubeconfig found" in text and "~/.kube/config" in text
    assert "scan_files" in text and "env_vars" in text and "kubegap scan --demo" not in text
    _one_sentence(text)


async def test_unknown_resource_is_a_not_found_protocol_error(client: Any) -> None:
    with pytest.raises(MCPError, match="no incident with id 'nothing-here'"):
        await client.read_resource("kubegap://incidents/nothing-here")
    with pytest.raises(MCPError, match="unknown check 'nothing-here'"):
        await client.read_resource("kubegap://checks/nothing-here")


async def test_an_unexpected_failure_is_one_line_in_the_log_and_quotes_nothing(
    client: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A bug's message may quote what it choked on (a header, a token): the host's stderr gets one
    redacted line with the exception type and where it was raised, never the traceback."""
    secret = "Bearer kgUnexpected0123456789abcdefSECRET"

    def broken(*_: object) -> None:
        raise ValueError(f"Invalid header value {secret!r}")

    monkeypatch.setattr("kubegap.agents.mcp_checks.list_checks", broken)
    text = error_text(await client.call_tool("list_checks", {}))
    assert "ValueError" in text and "kgUnexpected" not in text
    logged = [record for record in caplog.records if record.name == "kubegap.mcp"]
    assert len(logged) == 1 and logged[0].exc_info is None
    line = logged[0].getMessage()
    assert "\n" not in line and "kgUnexpected" not in line and "test_mcp_errors.py" in line, line
    assert "Traceback" not in caplog.text and "kgUnexpected" not in caplog.text
