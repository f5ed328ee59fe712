"""Nodes as checks need them: GPU or not, conditions, taints, schedulability, GPU counts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kubegap.checker.extract._fields import (
    annotations_of,
    dig,
    integer,
    items,
    labels_of,
    mapping,
    name_of,
    ref,
)
from kubegap.checker.extract._memo import memo
from kubegap.checker.extract.podspec import is_gpu_resource
from kubegap.checker.finding import ObjectRef
from kubegap.checker.snapshot import KubeObject, Snapshot

GPU_PRESENT_LABELS = (
    "nvidia.com/gpu.present",
    "amd.com/gpu.present",
    "feature.node.kubernetes.io/pci-10de.present",
)
# Taints that dedicate a node to GPU work: GPU pods tolerate them, so they do not fence off a bad node.
DEDICATING_TAINT_KEYS = frozenset(
    {"nvidia.com/gpu", "amd.com/gpu", "sku", "dedicated", "gpu", "kubernetes.azure.com/scalesetpriority"}
)
POOL_LABELS = (
    "cloud.google.com/gke-nodepool",
    "eks.amazonaws.com/nodegroup",
    "alpha.eksctl.io/nodegroup-name",
    "karpenter.sh/nodepool",
    "kubernetes.azure.com/agentpool",
    "agentpool",
    "node.kubernetes.io/instance-type",
)


@dataclass(frozen=True)
class NodeView:
    name: str
    ref: ObjectRef
    labels: dict[str, str]
    annotations: dict[str, str]
    taints: list[dict[str, Any]]
    conditions: dict[str, dict[str, Any]]
    unschedulable: bool
    capacity: dict[str, Any]
    allocatable: dict[str, Any]
    gpu_capacity: dict[str, int] = field(default_factory=dict)  # GPU resource name -> count
    gpu_allocatable: dict[str, int] = field(default_factory=dict)
    is_gpu: bool = False
    info: dict[str, Any] = field(default_factory=dict)  # status.nodeInfo: kernel, OS image, kubelet
    largest_image: tuple[str, int] = ("", 0)  # name and size of the biggest image cached on the node

    @property
    def ready(self) -> str:
        return str(self.conditions.get("Ready", {}).get("status") or "")

    @property
    def fenced(self) -> bool:
        """Cordoned, or tainted NoSchedule/NoExecute by something GPU pods do not routinely tolerate."""
        if self.unschedulable:
            return True
        return any(
            taint.get("effect") in ("NoSchedule", "NoExecute")
            and taint.get("key") not in DEDICATING_TAINT_KEYS
            for taint in self.taints
        )

    @property
    def pool(self) -> str:
        """The node pool the node belongs to, by the first provider label present."""
        for label in POOL_LABELS:
            if self.labels.get(label):
                return f"{label}={self.labels[label]}"
        return ""


def _gpu_counts(resources: dict[str, Any]) -> dict[str, int]:
    return {str(name): integer(value) for name, value in resources.items() if is_gpu_resource(str(name))}


def node_view(obj: KubeObject) -> NodeView:
    status = mapping(obj.get("status"))
    labels = labels_of(obj)
    capacity = mapping(status.get("capacity"))
    allocatable = mapping(status.get("allocatable"))
    gpu_capacity = _gpu_counts(capacity)
    gpu_allocatable = _gpu_counts(allocatable)
    is_gpu = any(labels.get(label) == "true" for label in GPU_PRESENT_LABELS) or any(
        count > 0 for count in [*gpu_capacity.values(), *gpu_allocatable.values()]
    )
    conditions = {
        str(condition.get("type")): condition
        for condition in items(status.get("conditions"))
        if condition.get("type")
    }
    return NodeView(
        name=name_of(obj),
        ref=ref(obj),
        labels=labels,
        annotations=annotations_of(obj),
        taints=items(dig(obj, "spec", "taints")),
        conditions=conditions,
        unschedulable=dig(obj, "spec", "unschedulable") is True,
        capacity=capacity,
        allocatable=allocatable,
        gpu_capacity=gpu_capacity,
        gpu_allocatable=gpu_allocatable,
        is_gpu=is_gpu,
        info=mapping(status.get("nodeInfo")),
        largest_image=_largest_image(status),
    )


def _largest_image(status: dict[str, Any]) -> tuple[str, int]:
    best = ("", 0)
    for image in items(status.get("images")):
        size = integer(image.get("sizeBytes"))
        if size > best[1]:
            names = [
                name for name in image.get("names") or [] if isinstance(name, str) and "@sha256" not in name
            ]
            best = (names[0] if names else "(unnamed)", size)
    return best


def nodes(snapshot: Snapshot) -> list[NodeView]:
    """Every Node of the snapshot as a NodeView, built once per snapshot."""
    return memo(snapshot, "nodes", lambda snap: [node_view(obj) for obj in snap.of("Node")])


def gpu_nodes(snapshot: Snapshot) -> list[NodeView]:
    """Nodes with a GPU: labelled present by GFD/NFD, or with GPU capacity or allocatable above 0."""
    return memo(snapshot, "gpu_nodes", lambda snap: [node for node in nodes(snap) if node.is_gpu])
