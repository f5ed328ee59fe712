"""get_symptoms against the emulated cluster: short, ranked, redacted, honest about unread events."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp_helpers import result_text

from k8s_emulator import Fault, KubeEmulator
from k8s_emulator.symptoms import CREDENTIALS, seeded_cluster

pytestmark = pytest.mark.anyio

TOKEN = "kubegap-mcp-symptoms-token"


@pytest.fixture
def emulator() -> Iterator[KubeEmulator]:
    with KubeEmulator(seeded_cluster(dt.datetime.now(dt.UTC)), token=TOKEN) as running:
        yield running
        assert running.requests and running.non_get_requests() == [] and running.secret_requests() == []


@pytest.fixture
def kubeconfig(emulator: KubeEmulator, tmp_path: Path, allow_kubeconfig: Callable[[Path], Path]) -> Path:
    return allow_kubeconfig(
        emulator.write_kubeconfig(tmp_path / "kubeconfig", context="gpu-prod", token=TOKEN)
    )


async def test_get_symptoms_is_short_ranked_and_redacted(client: Any, kubeconfig: Path) -> None:
    result = await client.call_tool("get_symptoms", {"kubeconfig": str(kubeconfig), "limit": 3})
    assert not result.is_error, result_text(result)
    answer = result.structured_content
    assert answer["status"] == "read" and answer["window"].startswith("last 24 h (")
    assert len(answer["symptoms"]) == 3 and answer["truncated"]
    assert all(symptom["catalog_entry"] for symptom in answer["symptoms"])  # catalog matches first
    assert answer["symptoms"][0]["symptom"].startswith("xid-")
    text = result_text(result)
    assert not [secret for secret in CREDENTIALS if secret[:12] in text]


async def test_get_symptoms_of_a_scan_names_the_open_gaps(client: Any, kubeconfig: Path) -> None:
    scan = (await client.call_tool("scan_cluster", {"kubeconfig": str(kubeconfig)})).structured_content
    answer = (
        await client.call_tool("get_symptoms", {"scan_id": scan["scan_id"], "limit": 50})
    ).structured_content
    by_symptom = {(symptom["symptom"], symptom["place"]): symptom for symptom in answer["symptoms"]}
    xid = by_symptom[("xid-79", "node gpu-b")]
    assert "unhealthy-gpu-node-schedulable" in xid["checks"]
    assert set(xid["open_gaps"]) <= set(xid["checks"])
    assert any(symptom["open_gaps"] for symptom in answer["symptoms"])


async def test_get_symptoms_says_unknown_when_events_are_forbidden(
    client: Any, emulator: KubeEmulator, kubeconfig: Path
) -> None:
    emulator.inject(Fault(pattern=r"/api/v1/events", status=403))
    answer = (await client.call_tool("get_symptoms", {"kubeconfig": str(kubeconfig)})).structured_content
    assert answer["status"] == "unknown" and "events not readable (403)" in answer["reason"]


async def test_get_symptoms_never_reads_pod_logs(
    client: Any, emulator: KubeEmulator, kubeconfig: Path
) -> None:
    """MCP has no --logs: even a pod with a symptom and a log that names an Xid is not read."""
    emulator.pod_logs[("serving", "llama-serve-7d9f8-x2x4k", "main:previous")] = (
        "NVRM: Xid (PCI:0000:3b:00): 79\n"
    )
    result = await client.call_tool("get_symptoms", {"kubeconfig": str(kubeconfig)})
    assert not result.is_error, result_text(result)
    assert emulator.requests and not [
        request for request in emulator.requests if request.path.endswith("/log")
    ]
