"""gpu-monitoring-agent-memory on a realistic emulated GPU cluster, read live through the API server.

The check needs pod status (termination reasons) and node GPU counts, so real-world manifests give it
nothing to judge. Instead: a 12-node cluster of 8-GPU and 4-GPU nodes with the GPU Operator's agents,
NPD, training Jobs, one OOM-killed trainer and one OOM-killed NPD pod, every expected finding judged
by hand below.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from k8s_emulator import KubeEmulator
from k8s_emulator.factories import gpu_cluster
from k8s_emulator.testing import StartEmulator, assert_read_only
from kubegap.checker.finding import Status
from kubegap.checker.live.client import ReadOnlyClient
from kubegap.checker.live.reader import read_cluster
from kubegap.checker.registry import get_check
from kubegap.checker.runner import run_checks

CHECK = get_check("gpu-monitoring-agent-memory")
_OOM = {"terminated": {"reason": "OOMKilled", "exitCode": 137}}


def _cluster(dcgm_limit: str) -> list[dict[str, Any]]:
    objects = list(gpu_cluster(12, 200, namespaces=2))
    for index, obj in enumerate(obj for obj in objects if obj["kind"] == "Node"):
        if index >= 8:  # four of the twelve nodes are 4-GPU inference nodes
            obj["status"]["capacity"]["nvidia.com/gpu"] = "4"
            obj["status"]["allocatable"]["nvidia.com/gpu"] = "4"
    for obj in objects:
        if obj["kind"] != "Pod":
            continue
        container = obj["spec"]["containers"][0]
        name = obj["metadata"]["name"]
        status = {"name": container["name"], "restartCount": 0, "state": {"running": {}}}
        if name.startswith("nvidia-dcgm-exporter"):
            container["resources"] = {"limits": {"memory": dcgm_limit, "cpu": "200m"}}
        if name == "node-problem-detector-00003" or name.endswith("-0000005"):  # NPD and one trainer
            status |= {"restartCount": 4, "lastState": _OOM}
        obj["status"]["containerStatuses"] = [status]
    return objects


def _findings(start: StartEmulator, kubeconfig_for: Callable[[KubeEmulator], Path], limit: str) -> list[Any]:
    emulator = start(_cluster(limit))
    client = ReadOnlyClient.from_kubeconfig(str(kubeconfig_for(emulator)), sleep=lambda seconds: None)
    try:
        report = run_checks(read_cluster(CHECK.meta.needs, client=client), checks=[CHECK])
    finally:
        client.close()
    assert_read_only(emulator)
    return [finding for finding in report.findings if finding.check_id == CHECK.id]


def test_small_dcgm_limit_on_8_gpu_nodes_and_an_oom_killed_npd_fail_and_nothing_else(
    start_emulator: StartEmulator, kubeconfig_for: Callable[[KubeEmulator], Path]
) -> None:
    findings = _findings(start_emulator, kubeconfig_for, "512Mi")
    failing = {finding.object.display(): finding for finding in findings if finding.status is Status.failed}
    # Judged: the exporter's 512Mi is the size that was OOM-killed on 8-GPU nodes (8 of 12 nodes here);
    # the NPD pod that last ended OOMKilled left its node unwatched; the OOM-killed trainer is not an agent.
    assert set(failing) == {
        "DaemonSet/gpu-operator/nvidia-dcgm-exporter",
        "DaemonSet/gpu-operator/node-problem-detector",
    }
    assert failing["DaemonSet/gpu-operator/nvidia-dcgm-exporter"].evidence["limit"] == "512Mi"
    assert len(failing["DaemonSet/gpu-operator/nvidia-dcgm-exporter"].evidence["nodes"]) == 8
    assert failing["DaemonSet/gpu-operator/node-problem-detector"].evidence["oom_killed"] == 1


def test_a_roomy_limit_leaves_only_the_oom_killed_agent(
    start_emulator: StartEmulator, kubeconfig_for: Callable[[KubeEmulator], Path]
) -> None:
    findings = _findings(start_emulator, kubeconfig_for, "2Gi")
    failing = [finding.object.display() for finding in findings if finding.status is Status.failed]
    assert failing == ["DaemonSet/gpu-operator/node-problem-detector"]
