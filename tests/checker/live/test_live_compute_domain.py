"""compute-domain-not-ready on an emulated GB200 cluster, read live: ComputeDomain status only exists live.

Judged by hand: of three domains, one is Ready with running workers (fine), one is NotReady before any
worker was placed (normal: daemons start only where workers land), and one lost a node entry while
its four workers sit in Pending (the failure the incident describes).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from k8s_emulator import KubeEmulator
from k8s_emulator.factories import gpu_node, pod
from k8s_emulator.testing import StartEmulator, assert_read_only
from kubegap.checker.finding import Status
from kubegap.checker.live.client import ReadOnlyClient
from kubegap.checker.live.reader import read_cluster
from kubegap.checker.registry import get_check
from kubegap.checker.runner import run_checks

CHECK = get_check("compute-domain-not-ready")


def _domain(name: str, nodes: int, state: str, listed: int) -> dict[str, Any]:
    return {
        "apiVersion": "resource.nvidia.com/v1beta1",
        "kind": "ComputeDomain",
        "metadata": {"name": name, "namespace": "training", "uid": f"uid-{name}"},
        "spec": {"numNodes": nodes, "channel": {"resourceClaimTemplate": {"name": f"{name}-channel"}}},
        "status": {
            "status": state,
            "nodes": [{"name": f"gb200-{index:02d}", "status": state} for index in range(listed)],
        },
    }


def _worker(domain: str, index: int, running: bool) -> dict[str, Any]:
    worker = pod(f"{domain}-worker-{index}", "training", node=f"gb200-{index:02d}", gpus=4)
    worker["spec"]["resourceClaims"] = [{"name": "imex", "resourceClaimTemplateName": f"{domain}-channel"}]
    worker["status"]["phase"] = "Running" if running else "Pending"
    return worker


def _cluster() -> list[dict[str, Any]]:
    objects = [gpu_node(f"gb200-{index:02d}", gpus=4, pool="gb200") for index in range(8)]
    objects += [_domain("pretrain", 4, "Ready", 4), _domain("eval", 2, "NotReady", 0)]
    objects += [_domain("nccl-test", 4, "NotReady", 3)]
    objects += [_worker("pretrain", index, running=True) for index in range(4)]
    objects += [_worker("nccl-test", index, running=False) for index in range(4)]
    return objects


def test_only_the_stuck_domain_with_waiting_workers_fails(
    start_emulator: StartEmulator, kubeconfig_for: Callable[[KubeEmulator], Path]
) -> None:
    emulator = start_emulator(_cluster())
    client = ReadOnlyClient.from_kubeconfig(str(kubeconfig_for(emulator)), sleep=lambda seconds: None)
    try:
        kinds = (*CHECK.meta.needs, *CHECK.meta.optional)
        report = run_checks(read_cluster(kinds, client=client), checks=[CHECK])
    finally:
        client.close()
    assert_read_only(emulator)
    failing = [finding for finding in report.findings if finding.status is Status.failed]
    assert [finding.object.display() for finding in failing] == ["ComputeDomain/training/nccl-test"]
    assert len(failing[0].evidence["waiting_pods"]) == 4
    assert "3 of 4 nodes in its status" in failing[0].message
