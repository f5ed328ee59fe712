"""The read-only signals of trouble already happening: events, node state, pod and Job state.

Each becomes a Signal: a reason, a text for the catalog matcher, the place it is about (a node, or a
workload: a pod's controlling owner, else the pod) and when. Nothing here judges a gap; the signals
only say what the cluster is showing now.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from kubegap.checker.extract._fields import controller_owner, dig, items, mapping, name_of, namespace_of
from kubegap.checker.extract.conditions import (
    gpu_conditions,
    is_bad,
    names_gpu_fault,
    names_network_fault,
    network_conditions,
)
from kubegap.checker.extract.nodes import DEDICATING_TAINT_KEYS, NodeView, node_view
from kubegap.checker.extract.podspec import containers, is_gpu_resource
from kubegap.checker.snapshot import KubeObject, Snapshot
from kubegap.checker.symptoms.events import MESSAGE_CHARS, EventFields, epoch

# Conditions every node carries, good when False; a True one is a problem the kubelet reports.
_KUBELET_CONDITIONS = frozenset({"MemoryPressure", "DiskPressure", "PIDPressure", "NetworkUnavailable"})
_WAITING = {
    "CrashLoopBackOff": "k8s:crash-loop",
    "ImagePullBackOff": "k8s:image-pull",
    "ErrImagePull": "k8s:image-pull",
}
_EVENT_REASONS = {
    "OOMKilling": "k8s:oom-killed",
    "OOMKilled": "k8s:oom-killed",
    "BackOff": "k8s:crash-loop",
    "Evicted": "k8s:evicted",
    "BackoffLimitExceeded": "k8s:job-backoff-limit",
    "DeadlineExceeded": "k8s:job-deadline",
    "NodeNotReady": "k8s:node-not-ready",
}


@dataclass(frozen=True)
class Signal:
    source: str  # event | node | pod | job
    reason: str
    text: str  # what the catalog matcher reads: reason and message
    signal: str  # the Kubernetes signature when no catalog entry matches ('' for a plain warning event)
    place: str  # 'node gpu-a' or 'Job team-0/train'
    node: str
    gpu: bool
    distinct: int = 1
    occurrences: int = 1
    first: float | None = None
    last: float | None = None


def _requests_gpus(pod: KubeObject) -> bool:
    for container in containers(mapping(pod.get("spec"))):
        resources = mapping(container.get("resources"))
        for part in ("limits", "requests"):
            if any(is_gpu_resource(str(name)) for name in mapping(resources.get(part))):
                return True
    return False


@dataclass(frozen=True)
class PodPlace:
    place: str
    node: str
    gpu: bool


def pod_places(snapshot: Snapshot) -> dict[tuple[str, str], PodPlace]:
    """(namespace, pod name) -> its workload place, node and whether it requests GPUs."""
    found = {}
    for pod in snapshot.of("Pod"):
        if isinstance(pod, dict):
            found[(namespace_of(pod), name_of(pod))] = _pod_place(pod)
    return found


def _pod_place(pod: KubeObject) -> PodPlace:
    namespace = namespace_of(pod)
    owner = controller_owner(pod)
    if owner and owner.get("name"):
        kind, name = str(owner.get("kind") or ""), str(owner["name"])
        if kind == "ReplicaSet" and "-" in name:  # a Deployment's ReplicaSet: name the Deployment
            kind, name = "Deployment", name.rsplit("-", 1)[0]
        place = f"{kind} {namespace}/{name}"
    else:
        place = f"Pod {namespace}/{name_of(pod)}"
    return PodPlace(place, str(dig(pod, "spec", "nodeName") or ""), _requests_gpus(pod))


def event_signal(fields: EventFields, pods: dict[tuple[str, str], PodPlace], gpu_nodes: set[str]) -> Signal:
    node = fields.host
    if fields.kind == "Node":
        place, node, gpu = f"node {fields.name}", fields.name, fields.name in gpu_nodes
    elif fields.kind == "Pod" and (fields.namespace, fields.name) in pods:
        known = pods[(fields.namespace, fields.name)]
        place, node, gpu = known.place, known.node or node, known.gpu
    else:
        where = f"{fields.namespace}/{fields.name}" if fields.namespace else fields.name
        place, gpu = (f"{fields.kind} {where}".strip() if where else "?"), node in gpu_nodes
    signal = _EVENT_REASONS.get(fields.reason, "")
    if fields.reason == "FailedScheduling" and _names_gpus(fields.message):
        signal = "k8s:gpu-unschedulable"
    elif not signal and fields.kind == "Node" and names_network_fault(fields.reason):
        signal = "k8s:network-condition"
    elif not signal and fields.kind == "Node" and names_gpu_fault(fields.reason):
        signal = "k8s:gpu-condition"
    return Signal(
        "event",
        fields.reason,
        f"{fields.reason} {fields.message}",
        signal,
        place,
        node,
        gpu,
        fields.distinct,
        fields.occurrences,
        fields.first,
        fields.last,
    )


def _names_gpus(text: str) -> bool:
    lowered = text.lower()
    return "nvidia.com/gpu" in lowered or "gpu" in lowered.split()


def node_signals(node: NodeView) -> Iterator[Signal]:
    place = f"node {node.name}"
    gpu_types, network_types = set(gpu_conditions(node)), set(network_conditions(node))
    for condition_type, condition in node.conditions.items():
        status = str(condition.get("status") or "")
        when = epoch(condition.get("lastTransitionTime"))
        text = f"{condition_type} {condition.get('reason') or ''} {_cut(condition.get('message'))}"
        if condition_type == "Ready":
            if status != "True":
                yield Signal(
                    "node",
                    "NodeNotReady",
                    text,
                    "k8s:node-not-ready",
                    place,
                    node.name,
                    node.is_gpu,
                    first=when,
                    last=when,
                )
            continue
        if condition_type in _KUBELET_CONDITIONS and status != "True":
            continue
        if condition_type not in _KUBELET_CONDITIONS and not is_bad(condition_type, condition):
            continue
        signal = (
            "k8s:gpu-condition"
            if condition_type in gpu_types
            else "k8s:network-condition"
            if condition_type in network_types
            else "k8s:node-condition"
        )
        yield Signal(
            "node", condition_type, text, signal, place, node.name, node.is_gpu, first=when, last=when
        )
    for taint in node.taints:
        key = str(taint.get("key") or "")
        if taint.get("effect") in ("NoSchedule", "NoExecute") and key not in DEDICATING_TAINT_KEYS:
            text = f"taint {key}={taint.get('value') or ''}:{taint.get('effect')}"
            when = epoch(taint.get("timeAdded"))
            lowered = key.lower()
            signal = "k8s:gpu-condition" if "gpu" in lowered or "xid" in lowered else "k8s:node-condition"
            yield Signal("node", "Taint", text, signal, place, node.name, node.is_gpu, first=when, last=when)
    for resource, installed in node.gpu_capacity.items():
        usable = node.gpu_allocatable.get(resource, installed)
        if usable < installed:
            text = f"{resource} allocatable {usable} of capacity {installed}"
            yield Signal(
                "node",
                "GPUAllocatableBelowCapacity",
                text,
                "k8s:gpu-allocatable-short",
                place,
                node.name,
                True,
            )


def pod_signals(pod: KubeObject, known: PodPlace) -> Iterator[Signal]:
    status = mapping(pod.get("status"))
    if status.get("reason") == "Evicted":
        yield Signal(
            "pod",
            "Evicted",
            f"Evicted {_cut(status.get('message'))}",
            "k8s:evicted",
            known.place,
            known.node,
            known.gpu,
        )
    for condition in items(status.get("conditions")):
        if (
            condition.get("type") == "PodScheduled"
            and condition.get("status") == "False"
            and condition.get("reason") == "Unschedulable"
            and known.gpu
        ):
            when = epoch(condition.get("lastTransitionTime"))
            text = f"FailedScheduling {_cut(condition.get('message'))}"
            yield Signal(
                "pod",
                "FailedScheduling",
                text,
                "k8s:gpu-unschedulable",
                known.place,
                known.node,
                True,
                first=when,
                last=when,
            )
    for container in [*items(status.get("initContainerStatuses")), *items(status.get("containerStatuses"))]:
        waiting = mapping(dig(container, "state", "waiting"))
        reason = str(waiting.get("reason") or "")
        if reason in _WAITING:
            yield Signal(
                "pod",
                reason,
                f"{reason} {_cut(waiting.get('message'))}",
                _WAITING[reason],
                known.place,
                known.node,
                known.gpu,
            )
        for state in ("state", "lastState"):
            ended = mapping(dig(container, state, "terminated"))
            yield from _terminated(ended, known)


def _terminated(ended: dict[str, Any], known: PodPlace) -> Iterator[Signal]:
    reason = str(ended.get("reason") or "")
    if not reason or reason == "Completed":
        return
    when = epoch(ended.get("finishedAt"))
    signal = "k8s:oom-killed" if reason == "OOMKilled" else ""
    text = f"{reason} {_cut(ended.get('message'))}"
    yield Signal("pod", reason, text, signal, known.place, known.node, known.gpu, first=when, last=when)


def job_signals(job: KubeObject) -> Iterator[Signal]:
    gpu = job_requests_gpus(job)
    place = f"Job {namespace_of(job)}/{name_of(job)}"
    for condition in items(dig(job, "status", "conditions")):
        if condition.get("type") != "Failed" or condition.get("status") != "True":
            continue
        reason = str(condition.get("reason") or "")
        signal = _EVENT_REASONS.get(reason, "")
        when = epoch(condition.get("lastTransitionTime"))
        text = f"{reason} {_cut(condition.get('message'))}"
        yield Signal("job", reason or "Failed", text, signal, place, "", gpu, first=when, last=when)


def job_requests_gpus(job: KubeObject) -> bool:
    template = mapping(dig(job, "spec", "template"))
    return _requests_gpus(template)


def node_views(snapshot: Snapshot) -> list[NodeView]:
    return [node_view(node) for node in snapshot.of("Node") if isinstance(node, dict)]


def _cut(value: object) -> str:
    return value[:MESSAGE_CHARS] if isinstance(value, str) else ""
