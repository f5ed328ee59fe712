"""Per-node agents: which DaemonSet (or pod) is a GPU driver, device plugin, DCGM, NPD, kured, ...

Recognised by name, image and app labels, because the same agent ships under many chart names
(GPU Operator operands, standalone Helm charts, cloud add-ons). Also the pods-by-node index.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from kubegap.checker.extract._fields import (
    controller_owner,
    dig,
    labels_of,
    mapping,
    name_of,
    namespace_of,
    ref,
)
from kubegap.checker.extract._memo import memo
from kubegap.checker.extract.podspec import images
from kubegap.checker.extract.words import first_phrase, image_name, tokens
from kubegap.checker.finding import ObjectRef
from kubegap.checker.snapshot import KubeObject, Snapshot

# role -> (phrases in a name or app label, image names), checked in this order. Phrases match whole
# words (`gpud` is not `gpudirect`), image names the image's last path step (`nvcr.io/nvidia/driver`).
AGENT_ROLES: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("dcgm-exporter", ("dcgm-exporter",), ("dcgm-exporter",)),
    (
        "device-plugin",
        ("device-plugin", "amdgpu-dp", "gpu-plugin"),
        ("k8s-device-plugin", "device-plugin", "intel-gpu-plugin"),
    ),
    ("gpu-feature-discovery", ("gpu-feature-discovery",), ("gpu-feature-discovery",)),
    ("dcgm", ("nvidia-dcgm", "dcgm-hostengine", "dcgm"), ("dcgm",)),
    ("driver", ("nvidia-driver", "nvidia-vgpu-manager", "amdgpu-driver"), ("driver", "nvidia-driver")),
    ("container-toolkit", ("container-toolkit",), ("container-toolkit",)),
    ("mig-manager", ("mig-manager",), ("k8s-mig-manager",)),
    ("operator-validator", ("operator-validator",), ("gpu-operator-validator",)),
    ("node-problem-detector", ("node-problem-detector",), ("node-problem-detector",)),
    ("autopilot", ("autopilot",), ("autopilot",)),
    ("nvsentinel", ("nvsentinel",), ()),
    ("eks-node-monitoring-agent", ("node-monitoring-agent",), ("eks-node-monitoring-agent",)),
    ("gpud", ("gpud",), ("gpud",)),
    ("kured", ("kured",), ("kured",)),
    ("nodelocaldns", ("node-local-dns", "nodelocaldns", "k8s-dns-node-cache"), ("k8s-dns-node-cache",)),
)
# Every role's name phrases in role order, so one indexed lookup finds the first role a name matches.
_NAME_PHRASES = tuple(phrase for _, phrases, _ in AGENT_ROLES for phrase in phrases)
_ROLE_OF_PHRASE = {phrase: role for role, phrases, _ in reversed(AGENT_ROLES) for phrase in phrases}
# Upstream GPU agents whose pod reads are scoped to their own node (field selector or kubelet socket).
NODE_SCOPED_ROLES = frozenset(
    {
        "driver",
        "device-plugin",
        "dcgm-exporter",
        "dcgm",
        "container-toolkit",
        "mig-manager",
        "operator-validator",
        "gpu-feature-discovery",
    }
)
# The pod network itself (CNI agents, kube-proxy): restarted everywhere at once, every node loses networking.
CLUSTER_NETWORK_WORDS = (
    "calico",
    "cilium",
    "flannel",
    "aws-node",
    "kube-proxy",
    "antrea",
    "weave",
    "kube-router",
    "multus",
    "sriov",
)


def is_cluster_network(name: str) -> bool:
    return any(word in name.lower() for word in CLUSTER_NETWORK_WORDS)


# Agents that turn GPU faults (XID, ECC, NVLink) into a signal someone acts on.
GPU_HEALTH_ROLES = frozenset(
    {"dcgm-exporter", "dcgm", "autopilot", "nvsentinel", "eks-node-monitoring-agent", "gpud"}
)
# The GPU software stack itself: if these are evicted or restarted at once, GPUs vanish.
GPU_STACK_ROLES = frozenset(
    {"device-plugin", "dcgm-exporter", "dcgm", "driver", "container-toolkit", "node-problem-detector"}
)


def classify(name: str, spec: dict[str, Any], labels: dict[str, str]) -> str:
    """The agent role of a DaemonSet or pod, or '' when it is none we know (whole words, never substrings)."""
    app = " ".join(labels.get(key, "") for key in ("app", "app.kubernetes.io/name", "k8s-app", "name"))
    # Names first: GPU Feature Discovery ships in the device-plugin image, so the image alone misleads.
    if found := first_phrase(tokens(" ".join([name, app])), _NAME_PHRASES):
        return _ROLE_OF_PHRASE[found]
    return _image_role(tuple(images(spec)))


@lru_cache(maxsize=4096)
def _image_role(found: tuple[str, ...]) -> str:
    """The agent role a pod's images say (cached: the pods of one template repeat their images)."""
    image_names = {image_name(image).lower() for image in found if image}
    for role, _, names in AGENT_ROLES:
        if image_names & set(names):
            return role
    return ""


@dataclass(frozen=True)
class DaemonSetView:
    ref: ObjectRef
    obj: KubeObject
    spec: dict[str, Any]  # pod template spec
    role: str

    @property
    def namespace(self) -> str:
        return self.ref.namespace

    @property
    def status(self) -> dict[str, Any]:
        return mapping(self.obj.get("status"))

    @property
    def service_account(self) -> str:
        return str(self.spec.get("serviceAccountName") or self.spec.get("serviceAccount") or "default")


def daemonsets(snapshot: Snapshot) -> list[DaemonSetView]:
    """Every DaemonSet with its pod template and agent role, built once per snapshot."""

    def build(snap: Snapshot) -> list[DaemonSetView]:
        views = []
        for obj in snap.of("apps/DaemonSet"):
            spec = mapping(dig(obj, "spec", "template", "spec"))
            template_labels = mapping(dig(obj, "spec", "template", "metadata", "labels"))
            labels = labels_of(obj) | {str(key): str(value) for key, value in template_labels.items()}
            views.append(DaemonSetView(ref(obj), obj, spec, classify(name_of(obj), spec, labels)))
        return views

    return memo(snapshot, "daemonsets", build)


def _pod_role(pod: KubeObject, cache: dict[tuple[str, str], str]) -> str:
    """Agents run as DaemonSets (or static pods): classify once per owner, not once per pod."""
    owner = controller_owner(pod) or {}
    if owner.get("kind") not in ("DaemonSet", "Node"):
        return ""
    name = str(owner.get("name") or "") if owner.get("kind") == "DaemonSet" else name_of(pod)
    key = (namespace_of(pod), name)
    if key not in cache:
        cache[key] = classify(name, mapping(pod.get("spec")), labels_of(pod))
    return cache[key]


@dataclass(frozen=True)
class PodIndex:
    by_node: dict[str, list[KubeObject]]  # running or pending pods bound to a node
    roles_by_node: dict[str, set[str]]  # agent roles with a Running pod on the node


def pod_index(snapshot: Snapshot) -> PodIndex:
    """Pods grouped by node and agent roles per node: one pass over all pods, shared by all checks."""

    def build(snap: Snapshot) -> PodIndex:
        by_node: dict[str, list[KubeObject]] = defaultdict(list)
        roles: dict[str, set[str]] = defaultdict(set)
        owners: dict[tuple[str, str], str] = {}
        for pod in snap.of("Pod"):
            node = dig(pod, "spec", "nodeName")
            phase = dig(pod, "status", "phase")
            if not isinstance(node, str) or phase in ("Succeeded", "Failed"):
                continue
            by_node[node].append(pod)
            if phase == "Running" and (role := _pod_role(pod, owners)):
                roles[node].add(role)
        return PodIndex(dict(by_node), dict(roles))

    return memo(snapshot, "pod_index", build)


def namespaced_name(obj: KubeObject) -> str:
    return f"{namespace_of(obj)}/{name_of(obj)}"
