"""scan_cluster against the emulated Kubernetes API: read-only, names its kubeconfig, fails as tool errors.

The emulator logs every request; each test checks that only GETs were sent and none named Secrets,
even though the emulated cluster holds a Secret.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from mcp_helpers import HF, error_text, result_text

from k8s_emulator import Fault, KubeEmulator
from k8s_emulator.factories import GPU_AGENTS, daemonset, gpu_node, pod

pytestmark = pytest.mark.anyio

TOKEN = "kubegap-mcp-test-token"


def _cluster() -> list[dict[str, Any]]:
    objects: list[dict[str, Any]] = [gpu_node(f"gpu-{index}") for index in range(3)]
    objects.append(daemonset(GPU_AGENTS[1][0], "gpu-operator", GPU_AGENTS[1][1], scheduled=2))
    objects += [
        pod(
            f"dcgm-{index}",
            "gpu-operator",
            node=f"gpu-{index}",
            owner=("apps/v1", "DaemonSet", GPU_AGENTS[1][0]),
        )
        for index in range(2)
    ]
    trainer = pod("trainer-0", "research", node="gpu-2", gpus=8)
    trainer["spec"]["containers"][0]["env"] = [{"name": "HF_TOKEN", "value": HF}]
    objects.append(trainer)
    objects.append(
        {
            "apiVersion": "v1",
            "kind": "Secret",
            "metadata": {"name": "registry", "namespace": "research"},
            "data": {"token": "c2VjcmV0"},
        }
    )
    return objects


def _assert_read_only(emulator: KubeEmulator) -> None:
    assert emulator.requests, "the scan sent no request at all"
    assert emulator.non_get_requests() == []
    assert emulator.secret_requests() == []


@pytest.fixture
def emulator() -> Iterator[KubeEmulator]:
    with KubeEmulator(_cluster(), token=TOKEN) as running:
        yield running
        _assert_read_only(running)


@pytest.fixture
def kubeconfig(emulator: KubeEmulator, tmp_path: Path, allow_kubeconfig: Callable[[Path], Path]) -> Path:
    """A kubeconfig the server was started with (`kubegap mcp --kubeconfig PATH`), so calls may name it."""
    return allow_kubeconfig(
        emulator.write_kubeconfig(tmp_path / "kubeconfig", context="gpu-prod", token=TOKEN)
    )


async def test_scan_cluster_reads_only_and_names_kubeconfig_and_context(
    client: Any, emulator: KubeEmulator, kubeconfig: Path
) -> None:
    result = await client.call_tool("scan_cluster", {"kubeconfig": str(kubeconfig)})
    assert not result.is_error, result_text(result)
    summary = result.structured_content
    assert summary["mode"] == "live"
    assert summary["kubeconfig"] == str(kubeconfig) and summary["context"] == "gpu-prod"
    assert summary["api_requests"] == len(emulator.requests) > 0
    failing = {check["id"] for check in summary["checks_needing_attention"] if check["status"] == "fail"}
    assert "gpu-health-agent" in failing  # gpu-2 runs no dcgm-exporter pod
    assert HF not in result_text(result)
    page = await client.call_tool(
        "get_findings", {"scan_id": summary["scan_id"], "check_id": "gpu-health-agent", "status": "fail"}
    )
    assert [finding["object"] for finding in page.structured_content["findings"]] == ["Node/gpu-2"]
    _assert_read_only(emulator)


async def test_kubeconfig_comes_from_the_environment_then_home(
    client: Any, emulator: KubeEmulator, tmp_path: Path, no_cluster: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kubeconfig = emulator.write_kubeconfig(tmp_path / "kubeconfig", context="gpu-prod", token=TOKEN)
    monkeypatch.setenv("KUBECONFIG", str(kubeconfig))
    from_env = (await client.call_tool("scan_cluster", {"checks": ["gpu-health-agent"]})).structured_content
    assert from_env["kubeconfig"] == str(kubeconfig)

    monkeypatch.delenv("KUBECONFIG")
    home_config = no_cluster / ".kube" / "config"
    home_config.parent.mkdir()
    home_config.write_text(kubeconfig.read_text())
    from_home = (await client.call_tool("scan_cluster", {"checks": ["gpu-health-agent"]})).structured_content
    assert from_home["kubeconfig"] == str(home_config)
    assert from_home["context"] == "gpu-prod"


async def test_namespaces_and_checks_narrow_the_live_read(
    client: Any, emulator: KubeEmulator, kubeconfig: Path
) -> None:
    result = await client.call_tool(
        "scan_cluster",
        {"kubeconfig": str(kubeconfig), "namespaces": ["gpu-operator"], "checks": ["gpu-health-agent"]},
    )
    summary = result.structured_content
    assert summary["namespaces"] == ["gpu-operator"] and summary["checks_run"] == 1
    pod_paths = {request.path for request in emulator.requests if request.path.endswith("/pods")}
    assert pod_paths == {"/api/v1/namespaces/gpu-operator/pods"}


async def test_forbidden_kinds_become_coverage_problems_not_passes(
    client: Any, emulator: KubeEmulator, kubeconfig: Path
) -> None:
    emulator.inject(Fault(pattern=r"/apis/apps/v1/daemonsets", status=403))
    summary = (await client.call_tool("scan_cluster", {"kubeconfig": str(kubeconfig)})).structured_content
    forbidden = [problem for problem in summary["coverage_problems"] if problem["kind"] == "apps/DaemonSet"]
    assert forbidden and forbidden[0]["status"] == "forbidden"
    assert "kured-reboot-safety" in forbidden[0]["needed_by"]
    assert summary["counts"]["unknown"] > 0


async def test_a_forbidden_optional_kind_is_listed_and_counted_with_the_rbac_fix(
    client: Any, emulator: KubeEmulator, kubeconfig: Path
) -> None:
    """StatefulSets are only optional for the workload checks: forbidden, they keep those from passing."""
    clean = (await client.call_tool("scan_cluster", {"kubeconfig": str(kubeconfig)})).structured_content
    assert clean["unknown_from_unreadable_kinds"] == 0 and clean["unreadable_note"] == ""
    emulator.inject(Fault(pattern=r"/apis/apps/v1/statefulsets", status=403))
    summary = (await client.call_tool("scan_cluster", {"kubeconfig": str(kubeconfig)})).structured_content
    problem = next(row for row in summary["coverage_problems"] if row["kind"] == "apps/StatefulSet")
    assert problem["status"] == "forbidden" and problem["needed_by"] == []
    assert "nccl-watchdog-disabled" in problem["optional_for"]
    held = summary["unknown_from_unreadable_kinds"]
    assert held > 0
    note = summary["unreadable_note"]
    assert note.startswith(f"{held} checks are unknown") and "forbidden: apps/StatefulSet" in note
    assert "`kubegap rbac`" in note
    assert summary["counts"]["pass"] < clean["counts"]["pass"]
    arguments = {"scan_id": summary["scan_id"], "check_id": "nccl-watchdog-disabled"}
    page = (await client.call_tool("get_findings", arguments)).structured_content
    verdicts = {(f["status"], f["reason"]) for f in page["findings"]}
    assert ("unknown", "forbidden") in verdicts and {status for status, _reason in verdicts} == {"unknown"}
    before = {**arguments, "scan_id": clean["scan_id"]}
    assert {
        f["status"] for f in (await client.call_tool("get_findings", before)).structured_content["findings"]
    } == {"pass"}


async def test_unreachable_cluster_is_one_tool_error(
    client: Any, tmp_path: Path, allow_kubeconfig: Callable[[Path], Path]
) -> None:
    with socket.socket() as probe:  # a port where nothing listens: connections are refused at once
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = tmp_path / "kubeconfig"
    config.write_text(
        yaml.safe_dump(
            {
                "apiVersion": "v1",
                "kind": "Config",
                "clusters": [{"name": "gone", "cluster": {"server": f"http://127.0.0.1:{port}"}}],
                "users": [{"name": "me", "user": {"token": TOKEN}}],
                "contexts": [{"name": "gone", "context": {"cluster": "gone", "user": "me"}}],
                "current-context": "gone",
            }
        )
    )
    allow_kubeconfig(config)
    text = error_text(await client.call_tool("scan_cluster", {"kubeconfig": str(config)}))
    assert "cannot reach the Kubernetes API" in text and "Traceback" not in text


async def test_rejected_credentials_are_one_tool_error(
    client: Any, emulator: KubeEmulator, tmp_path: Path, allow_kubeconfig: Callable[[Path], Path]
) -> None:
    wrong = allow_kubeconfig(
        emulator.write_kubeconfig(tmp_path / "wrong", context="gpu-prod", token="not-the-token")
    )
    text = error_text(await client.call_tool("scan_cluster", {"kubeconfig": str(wrong)}))
    assert "401" in text and "check the credentials of context gpu-prod" in text
    assert "not-the-token" not in text
