"""Seeded secrets never reach any MCP result: tool output, its JSON text copy, errors, resources, prompts.

Each channel below really carries the seeded value to the server (an object's args, a path, an
argument echoed back, an error message), so the assertions fail if the redaction middleware is removed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp_helpers import (
    AWS_KEY_ID,
    HF,
    JWT,
    MANIFESTS,
    PASSWORD,
    SNAPSHOT,
    assert_no_secrets,
    result_text,
)

from kubegap.agents.mcp_redaction import redact_wire

pytestmark = pytest.mark.anyio


async def test_the_raw_scan_does_carry_the_seeded_values() -> None:
    """Guard for the tests below: without redaction, the evidence would show the JWT."""
    from kubegap.checker.scanning import ScanRequest, run_scan

    report = run_scan(ScanRequest(manifest_paths=[str(MANIFESTS)], check_ids=["kured-reboot-safety"]))
    assert any(JWT in str(finding.evidence) for finding in report.findings)


async def test_scan_results_and_findings_are_redacted(client: Any) -> None:
    texts = []
    for paths, kind in (([str(MANIFESTS)], "manifests"), ([str(SNAPSHOT)], "snapshot")):
        scan = await client.call_tool("scan_files", {"paths": paths, "kind": kind})
        texts.append(result_text(scan))
        scan_id = scan.structured_content["scan_id"]
        for check in scan.structured_content["checks_needing_attention"]:
            page = await client.call_tool("get_findings", {"scan_id": scan_id, "check_id": check["id"]})
            texts.append(result_text(page))
        texts.append(result_text(await client.call_tool("get_findings", {"scan_id": scan_id, "limit": 100})))
    everything = "\n".join(texts)
    assert_no_secrets(everything)
    assert "session=[REDACTED]" in everything  # the kured selector's JWT was there, and was hidden


async def test_arguments_echoed_back_are_redacted(client: Any, tmp_path: Path) -> None:
    folder = tmp_path / f"team-{HF}"
    folder.mkdir()
    (folder / "job.yaml").write_text((MANIFESTS / "training.yaml").read_text())
    calls = [
        ("scan_files", {"paths": [str(folder)]}),
        ("search_incidents", {"query": f"NCCL timeout HF_TOKEN={HF} --password {PASSWORD}"}),
        ("find_incidents_by_error", {"error_text": f"Authorization: Bearer {JWT}\nXid 79 on {AWS_KEY_ID}"}),
        ("explain_check", {"check_id": AWS_KEY_ID}),
        ("get_incident", {"incident_id": JWT}),
        ("get_findings", {"scan_id": HF}),
        ("scan_files", {"paths": [f"/missing/{JWT}"]}),
        ("scan_cluster", {"kubeconfig": f"/missing/{HF}"}),
    ]
    texts = [result_text(await client.call_tool(tool, arguments)) for tool, arguments in calls]
    everything = "\n".join(texts)
    assert_no_secrets(everything)
    assert everything.count("[REDACTED]") >= len(calls)


async def test_resources_and_prompts_are_redacted(client: Any) -> None:
    from mcp.shared.exceptions import MCPError

    with pytest.raises(MCPError) as raised:
        await client.read_resource(f"kubegap://checks/{AWS_KEY_ID}")
    assert AWS_KEY_ID not in str(raised.value)
    prompt = await client.get_prompt("cluster_gap_review", {"context": JWT, "namespace": HF})
    assert_no_secrets(result_text(prompt))


def test_wire_redaction_keeps_structure_and_json_text_in_step() -> None:
    wire = {
        "content": [{"type": "text", "text": json.dumps({"evidence": f"HF_TOKEN={HF}", "password": "x1"})}],
        "structuredContent": {"evidence": f"HF_TOKEN={HF}", "password": "x1", "count": 3},
        "isError": False,
    }
    redacted = redact_wire(wire)
    assert redacted["isError"] is False
    assert redacted["structuredContent"] == {
        "evidence": "HF_TOKEN=[REDACTED]",
        "password": "[REDACTED]",
        "count": 3,
    }
    assert (
        HF not in redacted["content"][0]["text"]
        and '"password": "[REDACTED]"' in redacted["content"][0]["text"]
    )
    long_markdown = "# Case\n" + "word " * 5000 + f"\ntoken {JWT}\n"
    assert redact_wire({"text": long_markdown})["text"].endswith("token [REDACTED]\n")
