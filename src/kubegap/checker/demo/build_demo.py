"""Build the demo snapshot: a small EKS-style GPU cluster with realistic gaps in every check area.

Deterministic (fixed names, times and order), so the committed cluster.json only changes when this file does.
Regenerate with: .venv/bin/python -m kubegap.checker.demo.build_demo
The WANDB_API_KEY below is a made-up value that only looks like a key, so the redaction of reports shows.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from kubegap.checker.demo.demo_workloads import workload_objects
from kubegap.checker.snapshot import Coverage, KindCoverage, Snapshot
from kubegap.checker.snapshot_file import snapshot_document

OUTPUT = Path(__file__).with_name("cluster.json")
CREATED_AT = "2026-11-30T08:00:00Z"
GPU_NODES = [f"ip-10-0-2-{n}.ec2.internal" for n in range(11, 17)]
CPU_NODES = ["ip-10-0-1-21.ec2.internal", "ip-10-0-1-22.ec2.internal"]
GPU_TAINT = {"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}
# Kinds a live scan of this cluster would have listed (CRDs included: they are installed).
READ_KINDS = (
    "Node", "Namespace", "Pod", "ConfigMap",
    "apps/DaemonSet", "apps/Deployment", "apps/StatefulSet", "apps/ReplicaSet",
    "batch/Job", "batch/CronJob", "policy/PodDisruptionBudget", "scheduling.k8s.io/PriorityClass",
    "rbac.authorization.k8s.io/ClusterRole", "rbac.authorization.k8s.io/ClusterRoleBinding",
    "flowcontrol.apiserver.k8s.io/FlowSchema", "flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration",
    "nvidia.com/ClusterPolicy", "nvidia.com/NVIDIADriver", "mellanox.com/NicClusterPolicy",
    "upgrade.cattle.io/Plan", "jobset.x-k8s.io/JobSet", "kubeflow.org/PyTorchJob",
    "kueue.x-k8s.io/ClusterQueue", "kueue.x-k8s.io/LocalQueue",
)  # fmt: skip
ABSENT_KINDS = (
    "ray.io/RayJob",
    "ray.io/RayCluster",
    "leaderworkerset.x-k8s.io/LeaderWorkerSet",
    "kubeflow.org/MPIJob",
)


def _condition(kind: str, status: str, reason: str) -> dict[str, str]:
    return {"type": kind, "status": status, "reason": reason, "lastTransitionTime": "2026-11-29T22:10:00Z"}


def _node(name: str, index: int) -> dict[str, Any]:
    gpu = name in GPU_NODES
    labels = {
        "kubernetes.io/hostname": name,
        "kubernetes.io/os": "linux",
        "eks.amazonaws.com/nodegroup": "h100-p5" if gpu else "system-m6i",
        "node.kubernetes.io/instance-type": "p5.48xlarge" if gpu else "m6i.4xlarge",
        "topology.kubernetes.io/zone": "us-east-1a",
    }
    capacity: dict[str, str] = {
        "cpu": "192" if gpu else "16",
        "memory": "2097152000Ki" if gpu else "65011712Ki",
    }
    taints: list[dict[str, str]] = []
    if gpu:
        old_driver = index == 5  # one node never finished the driver upgrade
        labels |= {
            "nvidia.com/gpu.present": "true",
            "nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3",
            "nvidia.com/gpu.count": "8",
            "nvidia.com/cuda.driver.major": "535" if old_driver else "550",
            "nvidia.com/cuda.driver.minor": "183" if old_driver else "90",
            "nvidia.com/cuda.driver.rev": "01" if old_driver else "07",
            "nvidia.com/gpu-driver-upgrade-state": "upgrade-done",
        }
        capacity |= {"nvidia.com/gpu": "8", "rdma/rdma_shared_device_a": "63"}
        taints.append(GPU_TAINT)
        if index == 4:  # reserved for one team; the dcgm-exporter DaemonSet does not tolerate it
            taints.append({"key": "dedicated", "value": "alignment-team", "effect": "NoSchedule"})
    allocatable = dict(capacity)
    if gpu and index == 2:
        allocatable["nvidia.com/gpu"] = "7"  # device plugin wrote one GPU off after an XID
    if gpu and index == 3:
        allocatable["rdma/rdma_shared_device_a"] = "0"  # HCA down
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": name, "labels": labels, "creationTimestamp": "2026-10-02T09:00:00Z"},
        "spec": {"taints": taints} if taints else {},
        "status": {
            "capacity": capacity,
            "allocatable": allocatable,
            "conditions": [_condition("Ready", "True", "KubeletReady")],
            "images": [
                {"names": ["nvcr.io/nvidia/pytorch:24.10-py3"], "sizeBytes": 21_311_045_632},
                {
                    "names": ["nvcr.io/nvidia/k8s/dcgm-exporter:3.3.8-3.6.0-ubuntu22.04"],
                    "sizeBytes": 1_191_182_336,
                },
            ]
            if gpu
            else [],
            "nodeInfo": {  # the node left behind by the driver upgrade also missed the last re-image
                "osImage": "Ubuntu 22.04.4 LTS" if gpu and index == 5 else "Ubuntu 22.04.5 LTS",
                "kernelVersion": "5.15.0-1068-aws" if gpu and index == 5 else "5.15.0-1072-aws",
                "kubeletVersion": "v1.30.6-eks-7f9249a",
                "containerRuntimeVersion": "containerd://1.7.22",
            },
        },
    }


def _kinds_checks_read() -> list[str]:
    from kubegap.checker.registry import all_checks

    return sorted({kind for check in all_checks() for kind in (*check.meta.needs, *check.meta.optional)})


def _is_crd(kind: str) -> bool:
    """A kind from an add-on API group (nvidia.com, ray.io), not one Kubernetes itself serves."""
    group = kind.split("/")[0] if "/" in kind else ""
    return "." in group and not group.endswith(".k8s.io")


def build() -> Snapshot:
    snapshot = Snapshot(mode="demo", source="demo: a built-in example GPU cluster", created_at=CREATED_AT)
    for index, name in enumerate([*CPU_NODES, *GPU_NODES]):
        snapshot.add(_node(name, index - len(CPU_NODES)))
    for obj in workload_objects(GPU_NODES):
        snapshot.add(obj)
    for kind in READ_KINDS:
        snapshot.coverage.setdefault(kind, KindCoverage(Coverage.read))
    for kind in ABSENT_KINDS:
        snapshot.coverage[kind] = KindCoverage(Coverage.absent, "CRD not installed")
    for kind in _kinds_checks_read():
        # A kind a new check reads: a live scan of this cluster would list a built-in kind (and find
        # nothing) and be told a CRD is not served. Left out, the kind would count as unread and hold
        # back every verdict that reads it.
        default = (
            KindCoverage(Coverage.absent, "CRD not installed")
            if _is_crd(kind)
            else KindCoverage(Coverage.read)
        )
        snapshot.coverage.setdefault(kind, default)
    snapshot.coverage["Secret"] = KindCoverage(Coverage.not_collected, "never read by kubegap")
    return snapshot


def render() -> bytes:
    document = snapshot_document(build(), redacted=False)  # invented objects, nothing to hide
    document["kubegapVersion"] = "demo"
    return orjson.dumps(document, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n"


if __name__ == "__main__":
    OUTPUT.write_bytes(render())
    print(f"wrote {OUTPUT}")
