"""Cluster-state checks judged on emulated GPU clusters read over the API, as a live scan reads them.

These checks read node conditions, node labels, pod annotations and NodePools that the real-world
manifests never carry, so their judgement is a realistic cluster with the answer written down first:
which objects an expert would flag and why.
The cluster: eight H100 nodes, a 4-node PyTorchJob, a 2-node JobSet, two independent vLLM replicas,
NVSentinel thermal conditions on every node, Google cluster-health-scanner labels on some.
"""

from __future__ import annotations

import json
import time
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

CHECKS = ("gpu-thermal-throttle-job-nodes", "unhealthy-gpu-node-schedulable")


def _node(name: str, *, thermal: str = "False", labels: dict[str, str] | None = None) -> dict[str, Any]:
    node = gpu_node(name)
    node["status"]["conditions"].append(
        {
            "type": "GpuThermalWatch",
            "status": thermal,
            "reason": f"GpuThermalWatchIs{'Not' * (thermal == 'True')}Healthy",
        }
    )
    node["metadata"]["labels"].update(labels or {})
    return node


def _cluster() -> list[dict[str, Any]]:
    day = 24 * 3600
    valid = str(int(time.time()) + day)
    expired = str(int(time.time()) - 3 * day)
    nodes = [
        _node(
            "h100-1",
            labels={
                "aiinfra/gpu-healthcheck-result": "pass",
                "aiinfra/gpu-healthcheck-valid-till-sec": valid,
            },
        ),
        _node("h100-2"),
        _node("h100-3", thermal="True"),  # throttling under the PyTorchJob: expert flags the job
        _node("h100-4"),
        _node(
            "h100-5",
            labels={
                "aiinfra/gpu-healthcheck-result": "pass",
                "aiinfra/gpu-healthcheck-valid-till-sec": expired,
            },
        ),
        _node("h100-6"),
        _node("h100-7", thermal="True"),  # hot, but only independent serving replicas run here
        _node("h100-8", labels={"aiinfra/nccl-healthcheck-result": "fail"}),  # failed NCCL test, not fenced
    ]
    pytorch = {"training.kubeflow.org/job-name": "llama-pretrain"}
    jobset = {"jobset.sigs.k8s.io/jobset-name": "sft", "batch.kubernetes.io/job-name": "sft-workers-0"}
    pods = [
        pod(f"llama-pretrain-worker-{index}", "train", node=f"h100-{index + 1}", gpus=8, labels=pytorch)
        for index in range(4)
    ]
    pods += [
        pod(f"sft-workers-0-{index}", "train", node=f"h100-{index + 5}", gpus=8, labels=jobset)
        for index in range(2)
    ]
    owner = ("apps/v1", "ReplicaSet", "vllm-6c9f")
    pods += [
        pod(f"vllm-6c9f-{index}", "serving", node=f"h100-{index + 7}", gpus=1, owner=owner)
        for index in range(2)
    ]
    return nodes + pods


def test_node_signal_checks_flag_what_an_expert_flags(
    start_emulator: StartEmulator, kubeconfig_for: Callable[[KubeEmulator], Path]
) -> None:
    emulator = start_emulator(_cluster())
    client = ReadOnlyClient.from_kubeconfig(str(kubeconfig_for(emulator)), sleep=lambda seconds: None)
    try:
        kinds = sorted({kind for check in CHECKS for kind in get_check(check).meta.needs})
        snapshot = read_cluster(kinds, client=client)
    finally:
        client.close()
    report = run_checks(snapshot, check_ids=CHECKS)
    failed = {(f.check_id, f.object.display()) for f in report.findings if f.status is Status.failed}
    assert failed == {
        # h100-3 throttles under the 4-node PyTorchJob; h100-7 is hot but hosts no multi-node job.
        ("gpu-thermal-throttle-job-nodes", "TrainingJob/train/llama-pretrain"),
        # Thermal watch true and nothing fences them off: new pods still land on the hot nodes.
        ("unhealthy-gpu-node-schedulable", "Node/h100-3"),
        ("unhealthy-gpu-node-schedulable", "Node/h100-7"),
        # A failed NCCL health check, untainted; and a pass whose validity ran out three days ago.
        ("unhealthy-gpu-node-schedulable", "Node/h100-8"),
        ("unhealthy-gpu-node-schedulable", "Node/h100-5"),
    }
    severities = {f.object.name: f.severity.value for f in report.findings if f.status is Status.failed}
    assert severities["h100-5"] == "medium" and severities["h100-8"] == "high"
    assert_read_only(emulator)


def test_karpenter_nodepools_are_read_live_and_judged(
    start_emulator: StartEmulator, kubeconfig_for: Callable[[KubeEmulator], Path]
) -> None:
    """A GPU NodePool that consolidates freely fails; a CPU pool doing the same is not judged."""
    gpu_pool = {
        "apiVersion": "karpenter.sh/v1",
        "kind": "NodePool",
        "metadata": {"name": "h100"},
        "spec": {
            "template": {
                "spec": {
                    "requirements": [
                        {"key": "karpenter.k8s.aws/instance-family", "operator": "In", "values": ["p5"]}
                    ]
                }
            },
            "disruption": {"consolidationPolicy": "WhenEmptyOrUnderutilized"},
        },
    }
    cpu_pool = {
        "apiVersion": "karpenter.sh/v1",
        "kind": "NodePool",
        "metadata": {"name": "general"},
        "spec": {
            "template": {"spec": {"requirements": []}},
            "disruption": {"consolidationPolicy": "WhenEmptyOrUnderutilized"},
        },
    }
    emulator = start_emulator([gpu_pool, cpu_pool, gpu_node("h100-1")])
    client = ReadOnlyClient.from_kubeconfig(str(kubeconfig_for(emulator)), sleep=lambda seconds: None)
    check = get_check("karpenter-gpu-consolidation")
    try:
        snapshot = read_cluster(sorted({*check.meta.needs, *check.meta.optional}), client=client)
    finally:
        client.close()
    findings = run_checks(snapshot, check_ids=[check.id]).findings
    assert [(f.status, f.object.display()) for f in findings] == [(Status.failed, "NodePool/h100")]
    assert any(request.path.startswith("/apis/karpenter.sh/v1/nodepools") for request in emulator.requests)
    assert_read_only(emulator)


def _on_networks(item: dict[str, Any], requested: str, attached: list[str] | None) -> dict[str, Any]:
    annotations = item["metadata"].setdefault("annotations", {})
    annotations["k8s.v1.cni.cncf.io/networks"] = requested
    if attached is not None:
        status = [{"name": "cilium", "default": True}] + [{"name": name} for name in attached]
        annotations["k8s.v1.cni.cncf.io/network-status"] = json.dumps(status)
    return item


def test_multus_networks_are_compared_with_what_was_attached(
    start_emulator: StartEmulator, kubeconfig_for: Callable[[KubeEmulator], Path]
) -> None:
    """A 3-node MPIJob with one rank back from a reboot without Multus fails; a healthy JobSet passes."""
    mpi = {"training.kubeflow.org/job-name": "resnet"}
    jobset = {"jobset.sigs.k8s.io/jobset-name": "sft"}
    objects: list[dict[str, Any]] = [gpu_node(f"h100-{index}") for index in range(1, 6)]
    objects += [
        _on_networks(
            pod("resnet-worker-0", "train", node="h100-1", gpus=8, labels=mpi), "ib0", ["train/ib0"]
        ),
        _on_networks(
            pod("resnet-worker-1", "train", node="h100-2", gpus=8, labels=mpi), "ib0", ["train/ib0"]
        ),
        _on_networks(pod("resnet-worker-2", "train", node="h100-3", gpus=8, labels=mpi), "ib0", None),
        _on_networks(pod("sft-0", "train", node="h100-4", gpus=8, labels=jobset), "ib0", ["train/ib0"]),
        _on_networks(pod("sft-1", "train", node="h100-5", gpus=8, labels=jobset), "ib0", ["train/ib0"]),
    ]
    emulator = start_emulator(objects)
    client = ReadOnlyClient.from_kubeconfig(str(kubeconfig_for(emulator)), sleep=lambda seconds: None)
    try:
        snapshot = read_cluster(["Pod"], client=client)
    finally:
        client.close()
    findings = run_checks(snapshot, check_ids=["multus-network-missing"]).findings
    assert [(f.status, f.object.display()) for f in findings] == [(Status.failed, "TrainingJob/train/resnet")]
    assert findings[0].evidence == {"pods": ["resnet-worker-2"], "missing": ["train/ib0"]}
    assert_read_only(emulator)
